"""Sample sheets (German labels, made-up hands) for the benchmark, the tests and a look.

``python -m scorekeeper.sheets.demo OUTDIR`` writes ``game.pdf`` (two sides, many hands),
``cutthroat.pdf`` (three players) and ``blank.pdf`` into OUTDIR.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from .model import BlankSheet, ScoreSheet, SheetCell, SheetColumn, SheetHand, SheetLabels
from .pad import render_blank_sheet
from .pdf import render_score_sheet

GERMAN_LABELS = SheetLabels(
    title="Canasta-Spielbericht",
    pad_title="Canasta-Block",
    ruleset="Regeln",
    house_rules="Hausregeln",
    date="Datum",
    players="Spieler",
    target="Ziel",
    hand="Nr.",
    melded_cards="Ausgelegte Karten",
    canasta_bonus="Canastas",
    red_threes="Rote Dreien",
    going_out="Ausmachen",
    in_hand="Auf der Hand",
    bonus="Prämien",
    cards="Karten",
    score="Spiel",
    total="Stand",
    minimum="Mindest\u00adauslage",
    concealed="verdeckt ausgemacht",
    final_score="Endstand",
    winner="Sieger",
    margin="Vorsprung",
    no_winner="Das Spiel läuft noch.",
    minimum_table="Mindestauslage",
    scoring_summary="Punktwerte",
    page_of="Seite {page} von {pages}",
)


def german_number(value: int) -> str:
    """``5.000``, ``−35`` (true minus sign), as Babel's de locale formats them."""
    text = f"{abs(value):,}".replace(",", ".")
    return f"\u2212{text}" if value < 0 else text


def _minimum(total: int) -> int:
    # docs/rulebook.md §3 (classic column)
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    return 120


def sample_hands(groups: int, count: int, seed: int = 7) -> tuple[SheetHand, ...]:
    """Plausible hands: one column group goes out, the others are caught with cards."""
    rng = random.Random(seed)
    totals = [0] * groups
    hands: list[SheetHand] = []
    for number in range(1, count + 1):
        out = rng.randrange(groups)
        stock_ran_out = rng.random() < 0.06
        cells: list[SheetCell] = []
        for g in range(groups):
            went_out = g == out and not stock_ran_out
            concealed = went_out and rng.random() < 0.1
            melded = 0 if (not went_out and rng.random() < 0.08) else rng.randrange(6, 80) * 5
            canastas = (rng.randrange(0, 3) * 300 + rng.randrange(0, 2) * 500) if melded else 0
            red = rng.choice((0, 0, 100, 100, 200, 300, 800))
            if not melded:
                red = -red
            items = {
                "melded_cards": melded,
                "canasta_bonus": canastas,
                "red_threes": red,
                "going_out": (200 if concealed else 100) if went_out else 0,
                "in_hand": 0 if went_out else -rng.randrange(1, 30) * 5,
            }
            score = sum(items.values())
            minimum = _minimum(totals[g])
            totals[g] += score
            cells.append(
                SheetCell(
                    items=items,
                    score=score,
                    total=totals[g],
                    minimum=minimum,
                    went_out=went_out,
                    concealed=concealed,
                )
            )
        note = "Der Stock ist aufgebraucht." if stock_ran_out else ""
        hands.append(SheetHand(number=number, cells=tuple(cells), note=note))
    return tuple(hands)


def sample_sheet(
    hands: int = 12, columns: tuple[SheetColumn, ...] | None = None, seed: int = 7
) -> ScoreSheet:
    """A finished-looking game with German labels."""
    if columns is None:
        columns = (
            SheetColumn("Wir", ("Anna", "Bernd")),
            SheetColumn("<b>Ala & Ola</b>", ("Łucja Żółć", "Jürgen Größ")),
        )
    played = sample_hands(len(columns), hands, seed)
    finals = [cell.total for cell in played[-1].cells] if played else [0] * len(columns)
    ranked = sorted(range(len(columns)), key=lambda g: finals[g], reverse=True)
    margin = finals[ranked[0]] - finals[ranked[1]] if len(columns) > 1 else None
    return ScoreSheet(
        title="Sonntagsrunde bei Oma",
        ruleset_name="Canasta (deutsche Regeln)",
        house_rules=("Zwei: 20 statt 50", "Ausmachen nur mit zwei Canastas"),
        date_text="14. März 2026",
        target=5000,
        columns=columns,
        hands=played,
        winner=ranked[0],
        margin=margin,
        labels=GERMAN_LABELS,
        format_number=german_number,
    )


def sample_cutthroat(hands: int = 14) -> ScoreSheet:
    """Three players, each for themself (classic cutthroat), with partnership notes."""
    names = ("Zofia", "Kasia", "Henryk")
    sheet = sample_sheet(hands, tuple(SheetColumn(n, ()) for n in names), seed=11)
    rng = random.Random(3)
    noted = tuple(
        SheetHand(
            h.number,
            h.cells,
            h.note
            or (
                f"{names[(lone := rng.randrange(3))]} allein gegen "
                f"{' und '.join(n for i, n in enumerate(names) if i != lone)}"
            ),
        )
        for h in sheet.hands
    )
    return ScoreSheet(
        title="Kanasta w trójkę",
        ruleset_name="Classic Canasta (international), 3 Spieler",
        house_rules=(),
        date_text=sheet.date_text,
        target=7500,
        columns=sheet.columns,
        hands=noted,
        winner=sheet.winner,
        margin=sheet.margin,
        labels=GERMAN_LABELS,
        format_number=german_number,
    )


def sample_blank(columns: int = 2, rows: int = 20) -> BlankSheet:
    return BlankSheet(
        ruleset_name="Canasta (deutsche Regeln)",
        columns=columns,
        rows=rows,
        minimum_table=(
            ("unter 0", "–"),
            ("0 – 1.495", "50"),
            ("1.500 – 2.995", "90"),
            ("ab 3.000", "120"),
        ),
        scoring_summary=(
            ("Joker", "50"),
            ("Zwei", "50"),
            ("Ass", "20"),
            ("K, D, B, 10, 9, 8", "10"),
            ("7, 6, 5, 4, schwarze Drei", "5"),
            ("Natürlicher Canasta", "500"),
            ("Gemischter Canasta", "300"),
            ("Rote Drei", "100"),
            ("Alle vier roten Dreien", "800"),
            ("Ausmachen", "100"),
            ("Verdeckt ausmachen", "200"),
        ),
        target=5000,
        labels=GERMAN_LABELS,
        format_number=german_number,
    )


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else ".")
    out.mkdir(parents=True, exist_ok=True)
    (out / "game.pdf").write_bytes(render_score_sheet(sample_sheet(60)))
    (out / "cutthroat.pdf").write_bytes(render_score_sheet(sample_cutthroat()))
    (out / "blank.pdf").write_bytes(render_blank_sheet(sample_blank()))
    (out / "blank3.pdf").write_bytes(render_blank_sheet(sample_blank(3)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
