"""Helpers of the sheet tests: Polish labels and number format, PDF text by page."""

from __future__ import annotations

import io

from pypdf import PdfReader

from scorekeeper.sheets import SheetLabels

POLISH_LABELS = SheetLabels(
    title="Zapis gry w kanastę",
    pad_title="Bloczek do kanasty",
    ruleset="Zasady",
    house_rules="Zasady domowe",
    date="Data",
    players="Gracze",
    target="Cel",
    hand="Nr",
    melded_cards="Wyłożone karty",
    canasta_bonus="Kanasty",
    red_threes="Czerwone trójki",
    going_out="Zejście",
    in_hand="Na ręce",
    bonus="Premie",
    cards="Karty",
    score="Rozdanie",
    total="Razem",
    minimum="Minimum",
    concealed="zejście z ręki",
    final_score="Wynik końcowy",
    winner="Zwycięzca",
    margin="Przewaga",
    no_winner="Gra trwa.",
    minimum_table="Minimalne wyłożenie",
    scoring_summary="Punktacja",
    page_of="Strona {page} z {pages}",
)


def polish_number(value: int) -> str:
    """As Babel's pl locale: ``5 000`` with a no-break space, true minus sign."""
    text = f"{abs(value):,}".replace(",", "\u00a0")
    return f"\u2212{text}" if value < 0 else text


def pdf_pages(data: bytes) -> list[str]:
    """The text of every page, as pypdf extracts it."""
    assert data.startswith(b"%PDF-")
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def pdf_lines(data: bytes) -> list[list[str]]:
    """Every page's text lines, stripped (pypdf puts each table cell on a line of its own)."""
    return [[line.strip() for line in text.splitlines()] for text in pdf_pages(data)]


def contains_run(lines: list[str], run: list[str]) -> bool:
    """Whether ``run`` occurs in ``lines`` as consecutive lines."""
    n = len(run)
    return any(lines[i : i + n] == run for i in range(len(lines) - n + 1))
