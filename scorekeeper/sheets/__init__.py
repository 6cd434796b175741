"""The PDF score sheets (reportlab), pure of Flask, Babel and the database.

The web layer builds a :class:`ScoreSheet` or :class:`BlankSheet` with every label already
translated and a locale number formatter, and gets PDF bytes back.

reportlab is imported when the first PDF is made, not when the app starts (issue 16: it was a
third of the start-up time): the renderers are looked up lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import BlankSheet, ScoreSheet, SheetCell, SheetColumn, SheetHand, SheetLabels

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    if name in ("render_blank_sheet", "render_score_sheet"):
        from . import pdf

        return getattr(pdf, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
