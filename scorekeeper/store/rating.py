"""The table's rating: Elo, as chess uses it, for sides of one or more players.

A small function rather than a library: the PyPI Elo packages rate two single players per
match; a Canasta game has two or three sides of one to three players. What is computed:

- every player starts at :data:`START` (1,000);
- a finished game ranks its score columns by total (the highest first, equal totals tie);
- each pair of columns is one match: a column's rating is the mean of its players' ratings,
  its expected result ``E = 1 / (1 + 10 ** ((R_other - R_own) / 400))``, its result ``S`` 1 for
  the higher total, 0.5 for a tie, 0 for the lower;
- each player of a column moves by ``K * (S - E)`` summed over its matches, divided by the
  number of other columns (so a three-sided game moves ratings as much as a two-sided one).

``K`` is :data:`K` (24). Ratings are kept as floats and shown rounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

START = 1000.0
K = 24.0


def expected(own: float, other: float) -> float:
    """The expected result of a side rated ``own`` against one rated ``other`` (0..1).

    >>> expected(1000, 1000)
    0.5
    """
    odds: float = 10.0 ** ((other - own) / 400.0)
    return 1.0 / (1.0 + odds)


def rate_game(
    ratings: Mapping[int, float], columns: Sequence[Sequence[int]], totals: Sequence[int]
) -> dict[int, float]:
    """The ratings after one finished game: ``columns`` the player ids of each score column,
    ``totals`` their final totals (higher is better). Players not yet rated start at
    :data:`START`; players of the game only are returned."""
    means = [
        sum(ratings.get(p, START) for p in players) / len(players) if players else START
        for players in columns
    ]
    others = max(1, len(columns) - 1)
    out: dict[int, float] = {}
    for c, players in enumerate(columns):
        change = 0.0
        for d in range(len(columns)):
            if d == c:
                continue
            result = 1.0 if totals[c] > totals[d] else 0.5 if totals[c] == totals[d] else 0.0
            change += K * (result - expected(means[c], means[d]))
        for p in players:
            out[p] = ratings.get(p, START) + change / others
    return out
