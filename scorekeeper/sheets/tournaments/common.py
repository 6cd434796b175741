"""What both tournament sheets share: their styles beside the score sheets'
(:func:`tournament_styles`), the heading of a page, a grid's lines and stripes, a side's names
and the count of players or pairs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle, StyleSheet1
from reportlab.platypus import Flowable, Paragraph

from ...tournaments.model import Format, TournamentView
from ..kit import FONT_BOLD, HEAD_FILL, INK, MUTED, RULE, STRIPE_FILL, markup, styles
from ..tournament_model import TournamentLabels

__all__ = [
    "grid_commands",
    "page_heading",
    "participants_count",
    "side_names",
    "stripes",
    "tournament_styles",
]

CARD_NUMBER_PT = 96  # the table number on its card, read from the next table
CARD_SEAT_NAME_PT = 14


@functools.cache
def tournament_styles() -> StyleSheet1:
    """The tournament's own styles, beside the score sheets' (:func:`..kit.styles`)."""
    base = styles()
    sheet = StyleSheet1()
    body = ParagraphStyle("TCell", parent=base["Base"], fontSize=9, leading=11.5)
    sheet.add(body)
    sheet.add(ParagraphStyle("TFigure", parent=body, alignment=TA_RIGHT))
    # who sits where: 160 names on one page
    sheet.add(ParagraphStyle("TIndex", parent=body, fontSize=8.5, leading=10.5))
    sheet.add(ParagraphStyle("TIndexPlace", parent=sheet["TIndex"], alignment=TA_RIGHT))
    sheet.add(
        ParagraphStyle(
            "THead", parent=body, fontName=FONT_BOLD, fontSize=8, leading=10, textColor=INK
        )
    )
    sheet.add(ParagraphStyle("THeadFigure", parent=sheet["THead"], alignment=TA_RIGHT))
    sheet.add(
        ParagraphStyle("TTableNumber", parent=body, fontName=FONT_BOLD, fontSize=14, leading=17)
    )
    sheet.add(ParagraphStyle("TSubtitle", parent=body, fontSize=10, leading=13))
    sheet.add(ParagraphStyle("THeading", parent=base["RefHead"], fontSize=11, leading=14))
    sheet.add(ParagraphStyle("TLegend", parent=base["Legend"], fontSize=8, leading=10))
    sheet.add(
        ParagraphStyle(
            "TNumberLabel",
            parent=body,
            fontSize=14,
            leading=16,
            alignment=TA_CENTER,
            textColor=MUTED,
        )
    )
    sheet.add(
        ParagraphStyle(
            "TNumber",
            parent=body,
            fontName=FONT_BOLD,
            fontSize=CARD_NUMBER_PT,
            leading=CARD_NUMBER_PT,
            alignment=TA_CENTER,
        )
    )
    sheet.add(ParagraphStyle("TSeatLabel", parent=body, fontSize=9, leading=11, textColor=MUTED))
    sheet.add(
        ParagraphStyle(
            "TSeatName",
            parent=body,
            fontName=FONT_BOLD,
            fontSize=CARD_SEAT_NAME_PT,
            leading=CARD_SEAT_NAME_PT * 1.2,
        )
    )
    sheet.add(
        ParagraphStyle("TCaption", parent=body, fontSize=7.5, leading=9.5, alignment=TA_CENTER)
    )
    sheet.add(
        ParagraphStyle(
            "TUrl",
            parent=body,
            fontSize=5.5,
            leading=6.8,
            alignment=TA_CENTER,
            textColor=MUTED,
        )
    )
    sheet.add(
        ParagraphStyle(
            "TSideCaption",
            parent=body,
            fontSize=6.5,
            leading=8,
            alignment=TA_CENTER,
            textColor=MUTED,
        )
    )
    sheet.add(
        ParagraphStyle(
            "TSideNames",
            parent=body,
            fontName=FONT_BOLD,
            fontSize=10,
            leading=12.5,
            alignment=TA_CENTER,
        )
    )
    sheet.add(
        ParagraphStyle(
            "TBanner", parent=body, fontName=FONT_BOLD, fontSize=13, leading=16, textColor=INK
        )
    )
    return sheet


def side_names(side: Sequence[str]) -> str:
    return " & ".join(side)


def participants_count(view: TournamentView, labels: TournamentLabels, count: int) -> str:
    return labels.pairs_count(count) if view.format is Format.PAIRS else labels.players_count(count)


def page_heading(kicker: str, title: str, subtitle: str) -> list[Flowable]:
    st = styles()
    out: list[Flowable] = [
        Paragraph(markup(kicker), st["Kicker"]),
        Paragraph(markup(title), st["Title"]),
    ]
    if subtitle:
        out.append(Paragraph(markup(subtitle), tournament_styles()["TSubtitle"]))
    return out


def grid_commands() -> list[tuple[Any, ...]]:
    return [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE),
    ]


def stripes(rows: int, first: int = 2) -> list[tuple[Any, ...]]:
    return [("BACKGROUND", (0, r), (-1, r), STRIPE_FILL) for r in range(first, rows, 2)]
