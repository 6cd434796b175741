"""A whole game of Canasta: who plays alone, and who has won (docs/rulebook.md §4).

>>> is_cutthroat(3), winner([5100, 4900], 5000)
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence


def is_cutthroat(players: int) -> bool:
    """docs/rulebook.md §4 "3 players": every player keeps an own score; partners change each hand.

    >>> [n for n in (2, 3, 4, 6) if is_cutthroat(n)]
    [3]
    """
    return players == 3


def winner(totals: Sequence[int], target: int) -> int | None:
    """The column that has won, or ``None`` while the game goes on.

    docs/rulebook.md §4: once a column reaches the target, the highest total wins; a shared highest
    total at or above the target is no win yet (play on).

    >>> winner([5100, 4900], 5000), winner([5200, 5300], 5000), winner([5200, 5200], 5000)
    (0, 1, None)
    >>> winner([4990, 100], 5000) is None
    True
    """
    if not totals or max(totals) < target:
        return None
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    return leaders[0] if len(leaders) == 1 else None
