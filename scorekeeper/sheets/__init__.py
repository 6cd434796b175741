"""The PDF score sheets (reportlab), pure of Flask, Babel and the database.

The web layer builds a :class:`ScoreSheet` or :class:`BlankSheet` with every label already
translated and a locale number formatter, and gets PDF bytes back from
``sheets.pdf.render_score_sheet`` or ``sheets.pad.render_blank_sheet`` (reportlab is imported
with those modules only, when a PDF is drawn). The tournament sheets: the web layer builds
:class:`TournamentLabels` and calls ``sheets.tournaments.render_round`` or ``render_standings``.
"""

from __future__ import annotations

from .model import (
    BlankSheet,
    ScoreSheet,
    SheetCell,
    SheetColumn,
    SheetHand,
    SheetLabels,
    SheetStatistic,
)
from .tournament_model import TournamentLabels

__all__ = [
    "BlankSheet",
    "ScoreSheet",
    "SheetCell",
    "SheetColumn",
    "SheetHand",
    "SheetLabels",
    "SheetStatistic",
    "TournamentLabels",
]
