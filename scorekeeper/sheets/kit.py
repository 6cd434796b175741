"""The drawing kit every PDF sheet uses: the shipped DejaVu Sans faces
(:func:`register_fonts`), the A4 page and its margins, the colours, the one named stylesheet
(:func:`styles`, :func:`sized_style`), text made safe for a ``Paragraph`` (:func:`markup`,
:func:`house_rules_text`), a table in the sheets' font (:func:`sheet_table`), the footer with
"page 1 of 2" (:class:`Footer`, drawn by a two-pass canvas) and :func:`build_pdf`, which turns
a story into PDF bytes.

User text goes into a ``Paragraph`` only through :func:`markup` (escaped), because Paragraph
parses markup: ``<b>Ala & Ola</b>`` must print literally. Plain strings in ``Table`` cells are
not parsed.
"""

from __future__ import annotations

import functools
import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, StyleSheet1
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Table, TableStyle

__all__ = [
    "Footer",
    "build_pdf",
    "fit_text",
    "house_rules_text",
    "markup",
    "paragraph_style",
    "register_fonts",
    "sheet_table",
    "sized_style",
    "styles",
]

# --- fonts ---------------------------------------------------------------------------------

FONT_DIR = Path(__file__).with_name("fonts")
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONT_ITALIC = "DejaVuSans-Oblique"
FONT_BOLD_ITALIC = "DejaVuSans-BoldOblique"


_font_lock = threading.Lock()
_fonts_registered = False


def register_fonts() -> str:
    """Register the shipped DejaVu Sans faces once per process; return the family name.

    Found by trying: Helvetica has no ą ę ł ń ś ź ż, and without ``registerFontFamily``
    a ``<b>`` in a Paragraph silently stays regular. The lock: waitress serves from threads,
    and reading the four TTF files is slow.
    """
    global _fonts_registered
    with _font_lock:
        if not _fonts_registered:
            for name in (FONT, FONT_BOLD, FONT_ITALIC, FONT_BOLD_ITALIC):
                pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / f"{name}.ttf")))
            pdfmetrics.registerFontFamily(
                FONT,
                normal=FONT,
                bold=FONT_BOLD,
                italic=FONT_ITALIC,
                boldItalic=FONT_BOLD_ITALIC,
            )
            _fonts_registered = True
    return FONT


# --- the page (millimetres) ------------------------------------------------------------------

PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN_LEFT = 12
MARGIN_RIGHT = 12
MARGIN_TOP = 12
MARGIN_BOTTOM = 16
FOOTER_BASELINE = 9  # from the bottom edge
FRAME_WIDTH = PAGE_WIDTH / mm - MARGIN_LEFT - MARGIN_RIGHT

# --- colours -------------------------------------------------------------------------------

INK = colors.black
RULE = colors.Color(0.55, 0.55, 0.55)  # thin grid lines
HEAD_FILL = colors.Color(0.87, 0.87, 0.87)  # header rows
STRIPE_FILL = colors.Color(0.955, 0.955, 0.955)  # every other hand
FINAL_FILL = colors.Color(0.92, 0.92, 0.92)
MUTED = colors.Color(0.38, 0.38, 0.38)  # minimum, notes, captions
ZERO_INK = colors.Color(0.6, 0.6, 0.6)  # an item that scored nothing


# --- styles --------------------------------------------------------------------------------


def stylesheet() -> StyleSheet1:
    """The one named stylesheet of the sheets (the tournament's adds its own beside it)."""
    register_fonts()
    sheet = StyleSheet1()
    base = ParagraphStyle("Base", fontName=FONT, fontSize=9, leading=11.5, textColor=INK)
    sheet.add(base)
    sheet.add(ParagraphStyle("Kicker", parent=base, fontSize=8, leading=10, textColor=MUTED))
    sheet.add(ParagraphStyle("Title", parent=base, fontName=FONT_BOLD, fontSize=17, leading=21))
    sheet.add(ParagraphStyle("InfoLabel", parent=base, fontSize=7.5, leading=11.5, textColor=MUTED))
    sheet.add(ParagraphStyle("Info", parent=base))
    sheet.add(
        ParagraphStyle(
            "GroupName",
            parent=base,
            fontName=FONT_BOLD,
            fontSize=9.5,
            leading=11.5,
            alignment=TA_CENTER,
        )
    )
    sheet.add(
        ParagraphStyle(
            "GroupPlayers",
            parent=base,
            fontSize=7,
            leading=8.5,
            alignment=TA_CENTER,
            textColor=MUTED,
        )
    )
    sheet.add(
        ParagraphStyle(
            "GroupCaption", parent=base, fontSize=6, leading=7, alignment=TA_LEFT, textColor=MUTED
        )
    )
    sheet.add(ParagraphStyle("ColumnHead", parent=base, fontSize=6, leading=7, alignment=TA_CENTER))
    sheet.add(
        ParagraphStyle(
            "ColumnHeadTotal",
            parent=base,
            fontName=FONT_BOLD,
            fontSize=6.5,
            leading=7.5,
            alignment=TA_CENTER,
        )
    )
    sheet.add(
        ParagraphStyle(
            "ColumnHeadMinimum",
            parent=base,
            fontName=FONT_ITALIC,
            fontSize=6,
            leading=7,
            alignment=TA_CENTER,
            textColor=MUTED,
        )
    )
    sheet.add(
        ParagraphStyle(
            "Note", parent=base, fontName=FONT_ITALIC, fontSize=6.5, leading=7.5, textColor=MUTED
        )
    )
    sheet.add(ParagraphStyle("Result", parent=base, fontSize=12, leading=15))
    sheet.add(ParagraphStyle("ResultLabel", parent=base, fontSize=7.5, leading=10, textColor=MUTED))
    sheet.add(ParagraphStyle("Legend", parent=base, fontSize=7, leading=9, textColor=MUTED))
    sheet.add(
        ParagraphStyle(
            "RefHead",
            parent=base,
            fontName=FONT_BOLD,
            fontSize=8.5,
            leading=11,
            spaceAfter=1.5 * mm,
        )
    )
    sheet.add(ParagraphStyle("RefCell", parent=base, fontSize=7.5, leading=9))
    sheet.add(ParagraphStyle("RefNumber", parent=base, fontSize=7.5, leading=9, alignment=TA_RIGHT))
    sheet.add(ParagraphStyle("RefHeadNumber", parent=sheet["InfoLabel"], alignment=TA_RIGHT))
    sheet.add(
        ParagraphStyle(
            "StatsHead",
            parent=base,
            fontName=FONT_BOLD,
            fontSize=7.5,
            leading=9,
            alignment=TA_RIGHT,
        )
    )
    sheet.add(ParagraphStyle("Field", parent=base, fontSize=9.5, leading=16))
    return sheet


@functools.cache
def styles() -> StyleSheet1:
    """The stylesheet, made once (the sheets only read it)."""
    return stylesheet()


def paragraph_style(sheet: StyleSheet1, name: str) -> ParagraphStyle:
    """The style ``name`` of ``sheet`` where a ParagraphStyle's attributes are needed: a
    StyleSheet1 is typed to hold any PropertySet, ours hold ParagraphStyles only."""
    return cast(ParagraphStyle, sheet[name])


def sheet_table(
    data: list[list[Any]], widths: Sequence[float], commands: list[tuple[Any, ...]], **kwargs: Any
) -> Table:
    """A Table in DejaVu Sans: a cell without FONTNAME falls back to Helvetica, which
    would then be listed in the PDF even where nothing is written in it."""
    table = Table(data, colWidths=list(widths), hAlign="LEFT", **kwargs)
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), *commands]))
    return table


@functools.cache
def sized_style(style: ParagraphStyle, size: float) -> ParagraphStyle:
    if size == style.fontSize:
        return style
    return ParagraphStyle(
        f"{style.name}@{size:.2f}", parent=style, fontSize=size, leading=size * 1.18
    )


def markup(value: str) -> str:
    """User or translated text, safe to put into a Paragraph (it parses markup: escape, then
    turn newlines into ``<br/>``)."""
    return escape(value).replace("\n", "<br/>")


def house_rules_text(lines: Sequence[str]) -> str:
    return "<br/>".join(f"\u2022\u00a0{markup(line)}" for line in lines)


# --- page numbers ("Seite 1 von 2") ------------------------------------------------------------


@dataclass(frozen=True)
class Footer:
    """The footer of every page of a sheet: the text on the left, and the page numbers' words."""

    left: str  # plain text: drawn on the canvas, never parsed
    page_of: str  # "Seite {page} von {pages}"


class _NumberedCanvas(Canvas):
    """Holds every finished page back until the document is complete, so each footer
    can say how many pages there are (a two-pass canvas)."""

    def __init__(self, *args: Any, footer: Footer, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._footer = footer
        self._held_pages: list[dict[str, Any]] = []

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        self._held_pages.append(dict(self.__dict__))
        # reportlab's own showPage starts the next page so; the stubs leave the private method out
        self._startPage()  # type: ignore[attr-defined]

    def save(self) -> None:
        pages = len(self._held_pages)
        for number, state in enumerate(self._held_pages, start=1):
            self.__dict__.update(state)
            self._draw_footer(number, pages)
            super().showPage()
        super().save()

    def _draw_footer(self, page: int, pages: int) -> None:
        self.saveState()
        left, right = MARGIN_LEFT * mm, PAGE_WIDTH - MARGIN_RIGHT * mm
        rule_y = (FOOTER_BASELINE + 3.5) * mm
        self.setStrokeColor(RULE)
        self.setLineWidth(0.4)
        self.line(left, rule_y, right, rule_y)
        self.setFillColor(MUTED)
        self.setFont(FONT, 7)
        # replace, not str.format: a stray brace in a translation must not break the PDF
        page_text = self._footer.page_of.replace("{pages}", str(pages)).replace("{page}", str(page))
        self.drawRightString(right, FOOTER_BASELINE * mm, page_text)
        room = right - left - pdfmetrics.stringWidth(page_text, FONT, 7) - 8 * mm
        self.drawString(left, FOOTER_BASELINE * mm, fit_text(self._footer.left, FONT, 7, room))
        self.restoreState()


def fit_text(text: str, font: str, size: float, width: float) -> str:
    """Shorten text with an ellipsis until it fits the width (footer line)."""
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def build_pdf(story: list[Flowable], footer: Footer, title: str) -> bytes:
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN_LEFT * mm,
        rightMargin=MARGIN_RIGHT * mm,
        topMargin=MARGIN_TOP * mm,
        bottomMargin=MARGIN_BOTTOM * mm,
        title=title,
        creator="scorekeeper",
        invariant=True,
        # Otherwise the canvas names Helvetica on every page, unused but listed in the PDF.
        initialFontName=FONT,
        initialFontSize=9,
    )
    # No frame padding: the tables are exactly FRAME_WIDTH wide, flush with the footer rule.
    frame = Frame(
        doc.leftMargin,
        doc.bottomMargin,
        doc.width,
        doc.height,
        id="sheet",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame])])
    doc.build(story, canvasmaker=functools.partial(_NumberedCanvas, footer=footer))
    return buffer.getvalue()
