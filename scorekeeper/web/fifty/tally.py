"""The evenings of 3 ist 50 played by the same players one after the other ("play again with
the same players"), summed up as Canasta sums up its games of one evening (``canasta.stats``):
evenings won per player and their minus points, lowest best (seed 001)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...store import evening as evenings
from ...store import fifty as store


@dataclass(frozen=True)
class TallyRow:
    """One player's line of the evenings' tally: evenings won and minus points."""

    name: str
    won: int  # evenings won (a tie for the lowest total counts for each of them)
    points: int  # minus points over all the evenings


@dataclass(frozen=True)
class Tally:
    """The 3 ist 50 evenings of a chain summed up per player, and who leads."""

    evenings: int  # evenings in the chain
    finished: int  # of which have ended
    rows: list[TallyRow]  # per player, in seat order
    leaders: list[int]  # most evenings won, then fewest minus points

    @property
    def leader_names(self) -> str:
        return ", ".join(self.rows[i].name for i in self.leaders)


def tally(states: list[store.FiftyState]) -> Tally | None:
    """The evenings summed up per seat (the same players in every one); None for one alone."""
    if len(states) < 2:
        return None
    names = list(states[0].players)
    won = [0] * len(names)
    points = [0] * len(names)
    finished = 0
    for state in states:
        if len(state.players) != len(names):
            continue
        finished += state.finished
        for i in state.winners:
            won[i] += 1
        for i, total in enumerate(state.totals):
            points[i] += total
    best = max(zip(won, (-p for p in points), strict=True))
    leaders = [i for i in range(len(names)) if (won[i], -points[i]) == best]
    if not finished:
        leaders = []
    rows = [TallyRow(n, w, p) for n, w, p in zip(names, won, points, strict=True)]
    return Tally(len(states), finished, rows, leaders)


def tally_of(key: str, get: Any) -> tuple[Tally | None, tuple[str, ...]]:
    """The tally of the evenings the one with ``key`` (editing or view key, as ``get`` reads
    it) belongs to (None when it is the only one), and the editing keys of the chain."""
    states, ids = evenings.evening_states(key, get, store.fifty_state)
    return tally(states), ids
