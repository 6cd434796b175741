"""How the participants of a club tournament rank.

Each table's game gives its sides match points, as the clubs count them (issue "Club
tournament": win 2, draw 1, loss 0 by default, configurable in :class:`~.model.Points`), and
its game totals. A participant collects, over the tables it sat at, the match points and the
totals of its side; in format individual both players of a side get the side's numbers, in
format pairs the pair is the side. A bye is not a game: it counts as nothing and is not played.

The ranking is the scoring's measure (match points, or points for ``Scoring.POINTS``), then
points, then head to head: the match points, then the points, won in the games where the still
tied participants met (sat at one table on different sides), asked again of those still tied
while that separates anyone. Whoever is still level shares the rank (1, 2, 2, 4); inside one
rank the order is by participant number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .model import Points, Scoring, Standing, TableResult

#: The clubs' usual win 2, draw 1, loss 0 (one frozen value shared as the default).
USUAL_POINTS = Points()


def match_points(totals: Sequence[int], points: Points) -> tuple[int, ...]:
    """Per side: the highest total wins, sides tied on the highest total draw, the rest lose.

    >>> match_points([3100, 2500], Points())
    (2, 0)
    >>> match_points([1200, 1200, 800], Points())
    (1, 1, 0)
    """
    if not totals:
        return ()
    top = max(totals)
    leaders = sum(1 for t in totals if t == top)
    won = points.win if leaders == 1 else points.draw
    return tuple(won if t == top else points.loss for t in totals)


@dataclass
class _Tally:
    """One participant's match points, points and tables played, summed up so far."""

    match_points: int = 0
    points: int = 0
    played: int = 0


def _tally(
    participants: Sequence[int], results: Sequence[TableResult], points: Points
) -> dict[int, _Tally]:
    """Match points, points and tables played per participant over ``results``."""
    tally = {p: _Tally() for p in participants}
    for result in results:
        given = match_points(result.totals, points)
        for side, total, won in zip(result.sides, result.totals, given, strict=False):
            for p in dict.fromkeys(side):
                if p in tally:
                    tally[p].match_points += won
                    tally[p].points += total
                    tally[p].played += 1
    return tally


def _head_to_head(
    tied: list[int], results: Sequence[TableResult], points: Points
) -> list[list[int]]:
    """Split ``tied`` by what each won in the games where two or more of them met as
    opponents; groups in ranking order, each group still level. Asked again of a smaller
    group that stays level (the games among just those then count)."""
    group = set(tied)
    met = []
    for result in results:
        inside = [i for i, side in enumerate(result.sides) if group.intersection(side)]
        if len(inside) > 1:
            met.append(result)
    tally = _tally(tied, met, points)
    groups: dict[tuple[int, int], list[int]] = {}
    for p in tied:
        groups.setdefault((tally[p].match_points, tally[p].points), []).append(p)
    ordered = [groups[key] for key in sorted(groups, reverse=True)]
    if len(ordered) == 1:
        return ordered
    split = []
    for level in ordered:
        split += _head_to_head(level, results, points) if len(level) > 1 else [level]
    return split


def standings(
    participants: Sequence[int],
    results: Sequence[TableResult],
    scoring: Scoring,
    points: Points = USUAL_POINTS,
) -> list[Standing]:
    """Every participant's standing (also without a game yet), best first.

    ``results``: every table of every round so far, provisional ones included (the caller
    marks the standings provisional while any is). A participant not in ``participants`` is
    left out.
    """
    everyone = list(dict.fromkeys(participants))
    tally = _tally(everyone, results, points)

    def measure(p: int) -> tuple[int, int]:
        first = tally[p].match_points if scoring is Scoring.MATCH_POINTS else tally[p].points
        return (first, tally[p].points)

    levels: dict[tuple[int, int], list[int]] = {}
    for p in sorted(everyone):
        levels.setdefault(measure(p), []).append(p)
    ranked: list[Standing] = []
    for key in sorted(levels, reverse=True):
        level = levels[key]
        groups = _head_to_head(level, results, points) if len(level) > 1 else [level]
        for group in groups:
            rank = len(ranked) + 1
            for p in sorted(group):
                t = tally[p]
                ranked.append(Standing(p, rank, t.match_points, t.points, t.played))
    return ranked
