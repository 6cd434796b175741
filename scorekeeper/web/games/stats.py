"""End-of-game statistics per side and the evening across games, from the derived
score sheets only: nothing here adds points of its own (the rules engine scored every hand)."""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from ... import store
from ...store import GameState
from ...store import evening as evenings
from ...store.fold import fold_columns
from ..words.i18n import number, signed
from ..words.names import canastas_of_kind

#: The canasta kinds in the order the statistics list them.
CANASTA_KINDS = ("natural", "mixed", "wild")


@dataclass
class SideStats:
    """One column's figures over a game: hands, canastas, red threes, goings out, best and worst."""

    name: str
    hands: int = 0
    canastas: dict[str, int] = field(default_factory=dict)  # natural, mixed, wild, …
    red_threes: int = 0
    # hands whose canastas and red threes are known (not entered as the total only)
    known: int = 0
    went_out: int = 0  # every going out, the concealed ones included
    concealed: int = 0  # of them, concealed
    best: int | None = None
    worst: int | None = None
    total: int = 0

    @property
    def average(self) -> int:
        return round(self.total / self.hands) if self.hands else 0


def side_stats(state: GameState) -> list[SideStats]:
    """Each score column's figures over the hands played, from the one statistics fold
    (:func:`scorekeeper.store.fold.fold_columns`, which the table's statistics read too);
    canastas and red threes over the hands that say them (a side entered as its total only
    does not)."""
    return [
        SideStats(
            column.name,
            hands=fold.hands,
            canastas=dict(fold.canastas),
            red_threes=fold.red_threes,
            known=fold.known,
            went_out=fold.went_out,
            concealed=fold.concealed,
            best=fold.best,
            worst=fold.worst,
            total=column.total,
        )
        for column, fold in zip(state.columns, fold_columns(state), strict=True)
    ]


@dataclass(frozen=True)
class StatRow:
    """One figure of the statistics: its label and, per column, the lines of its cell."""

    label: str
    cells: list[list[str]]


def stat_rows(stats: list[SideStats], concealed: bool = True) -> list[StatRow]:
    """The statistics as the game page and the score sheet print them, translated: one place
    for their labels, order and formats. ``concealed``: whether the rules know going out
    concealed (docs/rulebook.md §6: Modern American does not, so the row is left out)."""

    def canastas(s: SideStats) -> list[str]:
        counts = [(kind, s.canastas.get(kind, 0)) for kind in CANASTA_KINDS]
        counts += sorted((k, n) for k, n in s.canastas.items() if k not in CANASTA_KINDS)
        return [canastas_of_kind(kind, n) for kind, n in counts if n] or [number(0)]

    def figure(value: int | None, show: Any = number) -> list[str]:
        return ["\u2013" if value is None else show(value)]

    concealed_row = [StatRow(_("of them concealed"), [figure(s.concealed) for s in stats])]
    return [
        StatRow(_("Canastas"), [canastas(s) for s in stats]),
        StatRow(_("Red threes"), [figure(s.red_threes) for s in stats]),
        StatRow(_("Went out"), [figure(s.went_out) for s in stats]),
        *(concealed_row if concealed else []),
        StatRow(_("Best hand"), [figure(s.best, signed) for s in stats]),
        StatRow(_("Worst hand"), [figure(s.worst, signed) for s in stats]),
        StatRow(_("Average per hand"), [figure(s.average, signed) for s in stats]),
    ]


@dataclass(frozen=True)
class EveningRow:
    """One column's line of the evening: games won and points."""

    name: str
    won: int
    points: int


@dataclass(frozen=True)
class Evening:
    """The Canasta games of one evening summed up per column, and who leads."""

    games: int  # games in the chain
    finished: int  # of which have a winner
    rows: list[EveningRow]  # per column, in column order
    leaders: list[int]  # the columns leading tonight (most games won, then most points)

    @property
    def leader_names(self) -> str:
        return ", ".join(self.rows[c].name for c in self.leaders)


def evening_summary(states: list[GameState]) -> Evening | None:
    """The games of one evening summed up per column (the same seats in every game of the
    chain); None for a single game."""
    if len(states) < 2:
        return None
    first = states[0]
    names = [c.name for c in first.columns]
    won = [0] * len(names)
    points = [0] * len(names)
    finished = 0
    for state in states:
        if len(state.columns) != len(names):
            continue
        if state.winner is not None:
            finished += 1
            won[state.winner] += 1
        for c, column in enumerate(state.columns):
            points[c] += column.total
    best = max(zip(won, points, strict=True))
    leaders = [c for c in range(len(names)) if (won[c], points[c]) == best]
    if best == (0, 0):
        leaders = []
    return Evening(
        len(states),
        finished,
        [EveningRow(n, w, p) for n, w, p in zip(names, won, points, strict=True)],
        leaders,
    )


def evening_of(key: str, get: Any) -> tuple[Evening | None, tuple[str, ...]]:
    """The evening the game with ``key`` (editing or view key, as ``get`` reads it) belongs
    to, summed up (None when it is the only game of its chain), and the editing keys of the
    chain's games, oldest first (empty for an unknown key)."""
    states, ids = evenings.evening_states(key, get, store.game_state)
    return evening_summary(states), ids
