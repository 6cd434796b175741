"""Adjustments: points a table agreed to add to or take from a side in one hand,
with a note. The engine scores them (item ``adjustments``); this module reads them back out of
a stored hand for the history, the score sheet and the CSV."""

from __future__ import annotations

from dataclasses import dataclass

from ...store import GameState, HandRow


@dataclass(frozen=True)
class AdjustmentLine:
    """One adjustment of a hand as the game page lists it: the side, the points, the note."""

    side: str  # the name(s) of the columns that scored with the side
    points: int
    note: str


def adjustment_lines(state: GameState, row: HandRow) -> list[AdjustmentLine]:
    """Every adjustment of a stored hand, side by side in entry order."""
    out = []
    for t, team in enumerate(row.teams):
        if not isinstance(team, dict):
            continue
        names = " & ".join(
            state.columns[c].name
            for c, s in enumerate(row.scores)
            if s.team == t and c < len(state.columns)
        )
        for item in team.get("adjustments") or []:
            if isinstance(item, dict) and isinstance(item.get("points"), int):
                out.append(AdjustmentLine(names, item["points"], str(item.get("note") or "")))
    return out


def has_adjustments(state: GameState) -> bool:
    return any(adjustment_lines(state, row) for row in state.hands)
