"""The score sheet PDF: what it says (pypdf), which font it carries, that it renders (pdftoppm)."""

from __future__ import annotations

import ast
import dataclasses
import io
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

import scorekeeper.sheets as sheets_package
from scorekeeper.sheets import ScoreSheet, SheetCell, SheetColumn, SheetHand
from scorekeeper.sheets.demo import german_number, sample_cutthroat, sample_sheet
from scorekeeper.sheets.pdf import render_score_sheet
from tests.sheets.helpers import POLISH_LABELS, contains_run, pdf_lines, pdf_pages, polish_number

TRICKY = SheetColumn("<b>Ala & Ola</b>", ("Łódź żółć ß", "Ąę Ćń Śź"))
PLAIN = SheetColumn("Wir", ("Anna", "Bernd"))
FULL_ORDER = ("canasta_bonus", "red_threes", "going_out", "melded_cards", "in_hand")


def full_row(hand: SheetHand, fmt=german_number) -> list[str]:
    """The cells of a hand row in the two-side layout, as the sheet should print them."""
    cells = [str(hand.number)]
    for cell in hand.cells:
        items = [fmt(cell.items[key]) if key in cell.items else "" for key in FULL_ORDER]
        if cell.concealed:
            items[2] += "*"
        cells += [fmt(cell.minimum), *items, fmt(cell.score), fmt(cell.total)]
    return [c for c in cells if c]


def tricky_sheet(hands: int = 12, **changes) -> ScoreSheet:
    sheet = sample_sheet(hands, columns=(TRICKY, PLAIN))
    return dataclasses.replace(sheet, **changes)


def test_labels_names_and_title_are_printed_literally():
    sheet = tricky_sheet(title="Sonntag <i>bei</i> Oma & Opa")
    text = "\n".join(pdf_pages(render_score_sheet(sheet)))
    for word in (
        "Canasta-Spielbericht",
        "Regeln",
        "Datum",
        "Ziel",
        "Hausregeln",
        "Spieler",
        "Canastas",
        "Rote Dreien",
        "Ausmachen",
        "Spiel",
        "Stand",
        "Endstand",
        "Sieger",
        "Vorsprung",
        "Seite 1 von 1",
    ):
        assert word in text, word
    assert "<b>Ala & Ola</b>" in text
    assert "Łódź żółć ß" in text
    assert "Ąę Ćń Śź" in text
    assert "Sonntag <i>bei</i> Oma & Opa" in text
    assert "Zwei: 20 statt 50" in text
    assert "Canasta (deutsche Regeln)" in text and "14. März 2026" in text


def test_markup_in_notes_and_names_is_text_not_markup():
    sheet = tricky_sheet(2, columns=(SheetColumn("a<b", ("x&y;",)), PLAIN))
    hands = (
        dataclasses.replace(sheet.hands[0], note='<img src="/etc/passwd"/> & <br/>'),
        sheet.hands[1],
    )
    sheet = dataclasses.replace(sheet, hands=hands)
    text = "\n".join(pdf_pages(render_score_sheet(sheet)))
    assert '<img src="/etc/passwd"/> & <br/>' in text
    assert "a<b" in text and "x&y;" in text


def test_every_hand_row_prints_its_items_score_and_total_in_order():
    sheet = tricky_sheet(20)
    lines = [line for page in pdf_lines(render_score_sheet(sheet)) for line in page]
    for hand in sheet.hands:
        assert contains_run(lines, full_row(hand)), hand.number
        if hand.note:
            assert hand.note in lines


def test_negative_numbers_use_the_callers_format_with_a_true_minus_sign():
    cell = SheetCell(
        items={"melded_cards": 0, "red_threes": -300, "in_hand": -1235},
        score=-1535,
        total=-1535,
        minimum=50,
    )
    other = SheetCell(
        items={"melded_cards": 5000, "going_out": 100},
        score=5100,
        total=5100,
        minimum=50,
        went_out=True,
    )
    sheet = tricky_sheet(0, winner=1, margin=6635)
    sheet = dataclasses.replace(sheet, hands=(SheetHand(1, (cell, other)),))
    text = "\n".join(pdf_pages(render_score_sheet(sheet)))
    for number in ("\u2212300", "\u22121.235", "\u22121.535", "5.000", "5.100", "6.635"):
        assert number in text
    assert "-300" not in text


def test_polish_labels_and_number_format():
    sheet = dataclasses.replace(tricky_sheet(8), labels=POLISH_LABELS, format_number=polish_number)
    data = render_score_sheet(sheet)
    text = "\n".join(pdf_pages(data))
    for word in ("Zapis gry w kanastę", "Zwycięzca", "Przewaga", "Strona 1 z 1", "Wynik końcowy"):
        assert word in text, word
    # column headings may wrap between words
    for word in ("Czerwone", "trójki", "Wyłożone", "karty", "Zejście", "Na", "ręce"):
        assert word in text.split(), word
    # pypdf reads the no-break space of "1 385" back as a plain space
    lines = [line for page in pdf_lines(data) for line in page]
    for hand in sheet.hands:
        row = [c.replace("\u00a0", " ") for c in full_row(hand, polish_number)]
        assert contains_run(lines, row), hand.number


def test_concealed_going_out_is_marked_and_explained():
    went_out = SheetCell(
        items={"going_out": 200, "melded_cards": 400, "canasta_bonus": 500},
        score=1100,
        total=1100,
        minimum=50,
        went_out=True,
        concealed=True,
    )
    caught = SheetCell(items={"melded_cards": 0, "in_hand": -85}, score=-85, total=-85, minimum=50)
    sheet = dataclasses.replace(
        tricky_sheet(), hands=(SheetHand(1, (went_out, caught)),), margin=1185, winner=0
    )
    text = "\n".join(pdf_pages(render_score_sheet(sheet)))
    assert "200*" in text
    assert "* verdeckt ausgemacht" in text


def test_quick_entry_without_items_prints_score_and_total_only():
    cells = (
        SheetCell(items={}, score=1230, total=1230, minimum=50, went_out=True),
        SheetCell(items={}, score=-40, total=-40, minimum=50),
    )
    sheet = dataclasses.replace(tricky_sheet(), hands=(SheetHand(1, cells),), margin=1270)
    lines = [line for page in pdf_lines(render_score_sheet(sheet)) for line in page]
    # went out, entered quickly: a tick in the going-out column instead of a figure
    assert contains_run(
        lines, ["1", "50", "\u2713", "1.230", "1.230", "50", "\u221240", "\u221240"]
    )


def test_no_winner_yet_and_no_hands():
    sheet = tricky_sheet(0, winner=None, margin=None)
    text = "\n".join(pdf_pages(render_score_sheet(sheet)))
    assert "Das Spiel läuft noch." in text
    assert "Sieger" not in text


def test_sixty_hands_span_pages_with_the_header_and_page_numbers_on_each():
    sheet = tricky_sheet(60)
    data = render_score_sheet(sheet)
    pages = pdf_pages(data)
    assert len(pages) >= 2
    n = len(pages)
    for number, text in enumerate(pages, start=1):
        lines = [line.strip() for line in text.splitlines()]
        # the repeated header: both sides' names and the column headings
        assert "<b>Ala & Ola</b>" in lines and "Wir" in lines
        assert lines.count("Stand") == 2 and lines.count("Spiel") == 2
        assert f"Seite {number} von {n}" in text
    assert "Seite 2 von" in pages[1]
    # every hand is on exactly one page, in order
    lines = [line for page in pdf_lines(data) for line in page]
    for hand in sheet.hands:
        assert contains_run(lines, full_row(hand)), hand.number
    assert "Vorsprung" in pages[-1]
    PdfReader(io.BytesIO(data), strict=True)


def test_three_player_cutthroat_uses_the_compact_columns():
    sheet = sample_cutthroat()
    data = render_score_sheet(sheet)
    text = "\n".join(pdf_pages(data))
    assert "Prämien" in text and "Karten" in text
    assert "Rote Dreien" not in text  # folded into the bonus column
    lines = [line for page in pdf_lines(data) for line in page]
    for hand in sheet.hands:
        row = [str(hand.number)]
        for cell in hand.cells:
            items = cell.items
            bonus = german_number(
                items["canasta_bonus"] + items["red_threes"] + items["going_out"]
            ) + ("*" if cell.concealed else "")
            cards = german_number(items["melded_cards"] + items["in_hand"])
            row += [
                german_number(cell.minimum),
                bonus,
                cards,
                german_number(cell.score),
                german_number(cell.total),
            ]
        assert contains_run(lines, row), hand.number
        assert hand.note in text


def test_only_the_shipped_dejavu_fonts_are_embedded():
    data = render_score_sheet(tricky_sheet(40))
    names = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            names.add(str(font["/BaseFont"]).split("+", 1)[-1])
            assert (
                "/FontFile2" in font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                if "/DescendantFonts" in font
                else font["/FontDescriptor"].get_object()
            )
    assert names == {"DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique"}
    assert b"Helvetica" not in data


def test_pdf_metadata_title():
    reader = PdfReader(io.BytesIO(render_score_sheet(tricky_sheet(2, title="Łódź & Co"))))
    assert reader.metadata.title == "Łódź & Co"


def test_huge_numbers_do_not_break_the_layout():
    cell = SheetCell(
        items={"melded_cards": 1_234_567}, score=1_234_567, total=12_345_678, minimum=120
    )
    sheet = dataclasses.replace(tricky_sheet(), hands=(SheetHand(1, (cell, cell)),), margin=0)
    assert "12.345.678" in "\n".join(pdf_pages(render_score_sheet(sheet)))


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
@pytest.mark.parametrize(
    "sheet",
    [
        pytest.param(lambda: tricky_sheet(60), id="two-sides-60-hands"),
        pytest.param(sample_cutthroat, id="cutthroat"),
    ],
)
def test_pages_render_to_png(tmp_path: Path, sheet):
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(render_score_sheet(sheet()))
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", str(pdf), str(tmp_path / "page")],
        check=True,
        capture_output=True,
    )
    pngs = sorted(tmp_path.glob("page-*.png"))
    assert pngs and len(pngs) == len(PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    for png in pngs:
        assert png.stat().st_size > 10_000
        with Image.open(png) as image:
            assert abs(image.size[0] - 496) <= 1 and abs(image.size[1] - 702) <= 1  # A4, 60 dpi
            gray = image.convert("L")
            dark = sum(gray.histogram()[:128])
            assert dark > 2_000  # real ink: text and rules, not a blank page


def test_the_sheets_modules_import_no_flask_babel_or_sqlalchemy():
    # The parent package imports Flask for its app factory, so sys.modules proves nothing:
    # read the imports of the sheets modules themselves.
    package = Path(sheets_package.__file__).parent
    allowed = {
        "__future__",
        "collections",
        "dataclasses",
        "functools",
        "io",
        "math",
        "pathlib",
        "random",
        "sys",
        "threading",
        "typing",
        "xml",
        "reportlab",
        "segno",  # the QR codes of the table cards: a pure encoder
    }
    for module in package.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert roots <= allowed, f"{module.name} imports {roots - allowed}"
