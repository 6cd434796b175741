"""The season sheet of a table as PDF (reportlab): standings, partnerships, head-to-head and
records, every label already translated by the web layer, in the fonts and colours of
:mod:`.kit`. Pure of Flask, Babel and the database; every text is escaped on its way into a
``Paragraph`` (names are user text)."""

from __future__ import annotations

import io
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, TableStyle
from reportlab.platypus import Table as Grid

from .kit import FONT_BOLD, HEAD_FILL, MUTED, RULE, STRIPE_FILL, register_fonts
from .season_model import SeasonSheet


def render_season(sheet: SeasonSheet) -> bytes:
    """The sheet as PDF bytes (A4 portrait; a long table runs on over pages, its head
    repeated)."""
    font = register_fonts()
    title = ParagraphStyle("title", fontName=FONT_BOLD, fontSize=15, leading=19)
    small = ParagraphStyle("small", fontName=font, fontSize=8.5, leading=11)
    heading = ParagraphStyle("heading", fontName=FONT_BOLD, fontSize=11, leading=14)
    cell = ParagraphStyle("cell", fontName=font, fontSize=8, leading=10)
    figure = ParagraphStyle("figure", parent=cell, alignment=TA_RIGHT)
    head = ParagraphStyle("head", fontName=FONT_BOLD, fontSize=7.5, leading=9)
    head_figure = ParagraphStyle("head_figure", parent=head, alignment=TA_RIGHT)
    story: list[Flowable] = [
        Paragraph(escape(sheet.title), title),
        Paragraph(escape(sheet.subtitle), small),
        Spacer(1, 4 * mm),
    ]
    width = A4[0] - 24 * mm
    for section in sheet.sections:
        story.append(Paragraph(escape(section.title), heading))
        story.append(Spacer(1, 1.5 * mm))
        columns = max(1, len(section.head))
        # the name column, then equal columns of figures (at most 30 mm each)
        rest = (
            min((30 if columns > 4 else 45) * mm, (width - 36 * mm) / (columns - 1))
            if columns > 1
            else 0
        )
        first = width - rest * (columns - 1) if columns > 1 else width
        data = [
            [Paragraph(escape(text), head if i == 0 else head_figure)]
            for i, text in enumerate(section.head)
        ]
        data = [[p[0] for p in data]]
        data += [
            [Paragraph(escape(text), cell if i == 0 else figure) for i, text in enumerate(row)]
            for row in section.rows
        ]
        grid = Grid(data, colWidths=[first] + [rest] * (columns - 1), repeatRows=1)
        style: list[tuple[Any, ...]] = [
            ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
            ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ]
        style += [("BACKGROUND", (0, r), (-1, r), STRIPE_FILL) for r in range(2, len(data), 2)]
        grid.setStyle(TableStyle(style))
        story += [grid, Spacer(1, 5 * mm)]

    def footer(canvas: object, doc: object) -> None:
        canvas.saveState()  # type: ignore[attr-defined]
        canvas.setFont(font, 7)  # type: ignore[attr-defined]
        canvas.setFillColor(MUTED)  # type: ignore[attr-defined]
        canvas.drawString(12 * mm, 9 * mm, sheet.footer)  # type: ignore[attr-defined]
        canvas.drawRightString(A4[0] - 12 * mm, 9 * mm, str(doc.page))  # type: ignore[attr-defined]
        canvas.restoreState()  # type: ignore[attr-defined]

    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=16 * mm,
        title=sheet.title,
    )
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()
