"""The PDF score sheets (reportlab), pure of Flask, Babel and the database.

The web layer builds a :class:`ScoreSheet` or :class:`BlankSheet` with every label already
translated and a locale number formatter, and gets PDF bytes back.
"""

from __future__ import annotations

from .model import BlankSheet, ScoreSheet, SheetCell, SheetColumn, SheetHand, SheetLabels
from .pdf import render_blank_sheet, render_score_sheet

__all__ = [
    "BlankSheet",
    "ScoreSheet",
    "SheetCell",
    "SheetColumn",
    "SheetHand",
    "SheetLabels",
    "render_blank_sheet",
    "render_score_sheet",
]
