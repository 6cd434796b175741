"""The one statistics fold of a Canasta game: what each score column did over the game's hands,
counted once, from the derived state only (the rules engine scored every hand). The game page's
statistics, a table's statistics and its season sheet all read their figures from here, so the
three cannot count a thing two ways.

"Went out" counts every hand the column went out in, a concealed going out included; ``concealed``
says how many of them were concealed (the game page shows it as "of them concealed").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .entries import column_said
from .state import GameState


@dataclass(frozen=True)
class ColumnFold:
    """One score column of one Canasta game over its hands."""

    hands: int = 0
    points: int = 0  # the sum of its hand scores
    went_out: int = 0  # every going out, the concealed ones included
    concealed: int = 0  # of them, concealed
    # hands that say this column's canastas and red threes (a side entered as its total only
    # says neither): the canastas and red threes are counted over these
    known: int = 0
    red_threes: int = 0
    canastas: dict[str, int] = field(default_factory=dict)  # natural, mixed, wild, …
    best: int | None = None  # the best hand's score
    best_number: int = 0  # the best hand's number (the first of equal ones)
    worst: int | None = None

    def canastas_of(self, kind: str) -> int:
        return self.canastas.get(kind, 0)


def fold_columns(state: GameState) -> list[ColumnFold]:
    """Each score column of ``state`` folded over the hands played, in column order."""
    out: list[ColumnFold] = []
    for c in range(len(state.columns)):
        hands = points = went_out = concealed = known = threes = 0
        canastas: dict[str, int] = {}
        best: int | None = None
        best_number = 0
        worst: int | None = None
        for row in state.hands:
            if c >= len(row.scores):
                continue
            score = row.scores[c]
            hands += 1
            points += score.score
            went_out += bool(score.went_out or score.concealed)
            concealed += bool(score.concealed)
            if best is None or score.score > best:
                best, best_number = score.score, row.number
            worst = score.score if worst is None else min(worst, score.score)
            said = column_said(row, c)
            if said is None:
                continue
            red, kinds = said
            known += 1
            threes += red
            for kind, count in kinds.items():
                canastas[kind] = canastas.get(kind, 0) + count
        out.append(
            ColumnFold(
                hands,
                points,
                went_out,
                concealed,
                known,
                threes,
                canastas,
                best,
                best_number,
                worst,
            )
        )
    return out
