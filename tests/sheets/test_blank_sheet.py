"""The empty pad: rows to fill in, the ruleset's reference tables, one page for 20 rows."""

from __future__ import annotations

import dataclasses
import io
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from scorekeeper.sheets.demo import sample_blank
from scorekeeper.sheets.pad import render_blank_sheet
from tests.sheets.helpers import POLISH_LABELS, contains_run, pdf_lines, pdf_pages, polish_number


@pytest.mark.parametrize("columns", [2, 3])
def test_twenty_rows_and_the_reference_tables_fit_on_one_page(columns: int):
    sheet = sample_blank(columns=columns, rows=20)
    data = render_blank_sheet(sheet)
    pages = pdf_lines(data)
    assert len(pages) == 1
    lines = pages[0]
    assert contains_run(lines, [str(n) for n in range(1, 21)])  # the hand numbers
    for rows in (sheet.minimum_table, sheet.scoring_summary):
        for what, points in rows:
            assert contains_run(lines, [what, points]), what
    text = "\n".join(lines)
    for word in (
        "Canasta-Block",
        "Canasta (deutsche Regeln)",
        "Mindestauslage",
        "Punktwerte",
        "Datum",
        "5.000",
        "Seite 1 von 1",
    ):
        assert word in text, word
    assert lines.count("Spieler") == columns  # a name box per column
    assert lines.count("Stand") == columns + 1  # + the minimum table's head


def test_polish_pad_with_house_rules():
    sheet = dataclasses.replace(
        sample_blank(),
        labels=POLISH_LABELS,
        format_number=polish_number,
        ruleset_name="Kanasta (zasady polskie)",
        house_rules=("Dwójka: 50 zamiast 20", "<b>Żółw</b> & zając"),
    )
    text = "\n".join(pdf_pages(render_blank_sheet(sheet)))
    for word in (
        "Bloczek do kanasty",
        "Kanasta (zasady polskie)",
        "Minimalne wyłożenie",
        "Punktacja",
        "Zasady domowe",
        "Dwójka: 50 zamiast 20",
        "<b>Żółw</b> & zając",
        "Strona 1 z 1",
    ):
        assert word in text, word


def test_many_rows_continue_on_a_second_page_with_the_header():
    data = render_blank_sheet(sample_blank(rows=60))
    pages = pdf_lines(data)
    assert len(pages) >= 2
    for number, lines in enumerate(pages, start=1):
        assert f"Seite {number} von {len(pages)}" in lines
    assert pages[1].count("Stand") >= 2


def test_fonts_are_dejavu():
    data = render_blank_sheet(sample_blank(columns=3))
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            assert "DejaVuSans" in str(font.get_object()["/BaseFont"])


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_pad_renders_to_png(tmp_path: Path):
    pdf = tmp_path / "blank.pdf"
    pdf.write_bytes(render_blank_sheet(sample_blank()))
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", str(pdf), str(tmp_path / "pad")],
        check=True,
        capture_output=True,
    )
    pngs = list(tmp_path.glob("pad-*.png"))
    assert len(pngs) == 1 and pngs[0].stat().st_size > 10_000
