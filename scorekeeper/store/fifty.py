"""Stored games of "3 ist 50" (docs/rulebook.md §7, seed 001): the service next to ``store.games``.

The same tables as Canasta: a :class:`~.models.Game` with ``ruleset = "three-is-fifty"``, one
score column (``sides`` entry) per player, and one :class:`~.models.Hand` row per *game* of
3 ist 50 (a deck played through). What was entered is stored exactly, never a derived total:

* ``Game.options``: ``{"joker": 10}`` (the engine's :class:`~..rules.fifty.Options`)
  plus the optional end ``"games": N`` (stop after N games);
* ``Game.target``: the optional end "stop when someone reaches T minus points" (0: none);
* ``Hand.teams``: one entry per player in seating order, either ``{"cards": ["3", "A", …]}``
  (the minus pile, bottom to top, game ranks) or ``{"points": 78}`` (counted by hand).

:func:`fifty_state` re-derives every total with the engine's ``pile_points`` (the one score
computation: the live preview, the stored game and the PDF all call it). Lowest total wins.

Changes run the conditional version bump of :func:`.changes.claim` first, so two phones at one
table never lose a game; errors are the exceptions of :mod:`.errors` (``GameProblems``,
``VersionConflict``, ``HandNotFound``).
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..edge.games import MAX_FIFTY_GAMES as MAX_FIFTY_GAMES
from ..edge.games import STOP_GAMES as STOP_GAMES
from ..edge.games import STOP_TARGET as STOP_TARGET
from ..edge.games import FiftyHandRead, FiftySetup, fifty_setup, read_fifty_entry
from ..rules import fifty as rules
from ..rules.problems import Problem
from ..rules.scoring import Rejected
from . import changes, games
from .derive import earlier_entries
from .entries import canonical
from .errors import GameProblems, HandNotFound, VersionConflict
from .models import Game, Hand, utcnow
from .state import Correction

__all__ = [
    "GameProblems",
    "HandNotFound",
    "VersionConflict",
    "FiftyState",
    "GameRow",
    "PlayerScore",
    "create_game",
    "new_game",
    "checked_entry",
    "add_game",
    "replace_game",
    "delete_game",
    "check_entry",
    "entry_points",
    "fifty_state",
    "get_game",
    "get_by_view",
    "RULESET_ID",
]

RULESET_ID = rules.RULESET_ID


# ---- the derived sheet -----------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerScore:
    """One player in one game: minus points and the running total after it."""

    points: int
    total: int
    cards: tuple[str, ...] | None  # the minus pile as entered (None: entered as a number)


@dataclass(frozen=True)
class GameRow:
    """One stored game of 3 ist 50 (a ``Hand`` row), re-scored."""

    number: int
    scores: list[PlayerScore]
    dealer: int  # seat of the dealer of this game
    created_at: datetime
    updated_at: datetime
    corrections: list[Correction] = field(default_factory=list)  # oldest first

    @property
    def corrected(self) -> bool:
        return bool(self.corrections)


@dataclass(frozen=True)
class FiftyState:
    """The whole score sheet of a 3-ist-50 evening, derived from the stored games.

    ``leaders``: the players with the lowest total (seed 001 "Wer am wenigsten hat, ist der
    Sieger"). The evening ends after ``stop_after`` games or once a total reaches ``target``
    (whichever the table chose; none: it runs until the players stop); then ``winners`` are the
    leaders (more than one on a tie). Carries ``view_id`` but not the editing key.
    """

    view_id: str
    name: str | None
    players: list[str]
    joker: int
    stop_after: int | None
    target: int | None
    rows: list[GameRow]
    totals: list[int]
    leaders: list[int]
    finished: bool
    next_dealer: int
    version: int
    created_at: datetime
    updated_at: datetime

    @property
    def winners(self) -> list[int]:
        return self.leaders if self.finished else []

    @property
    def next_number(self) -> int:
        return len(self.rows) + 1

    @property
    def margin(self) -> int | None:
        """How far the single lowest total is ahead of the next (None on a tie or no game)."""
        if not self.rows or len(self.leaders) != 1 or len(self.totals) < 2:
            return None
        ranked = sorted(self.totals)
        return ranked[1] - ranked[0]

    @property
    def options(self) -> rules.Options:
        return rules.Options(joker=self.joker)


# ---- reading ---------------------------------------------------------------------------------
def get_game(session: Session, game_id: Any) -> Game | None:
    """The 3-ist-50 game with this editing key (None for Canasta games and unknown keys)."""
    game = games.get_game(session, game_id, any_ruleset=True)
    return game if game is not None and game.ruleset == RULESET_ID else None


def get_by_view(session: Session, view_id: Any) -> Game | None:
    """The 3-ist-50 game with this read-only key, or None."""
    game = games.get_by_view(session, view_id, any_ruleset=True)
    return game if game is not None and game.ruleset == RULESET_ID else None


def _stored_options(game: Game) -> rules.Options:
    raw = dict(game.options or {})
    options, problems = rules.read_options({"joker": raw["joker"]} if "joker" in raw else None)
    return options if not problems else rules.Options()


def _stop_after(game: Game) -> int | None:
    value = (game.options or {}).get("games")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def fifty_state(game: Game) -> FiftyState:
    """Re-score every stored game and derive totals, leaders, the dealer and the end."""
    options = _stored_options(game)
    names = [str(side.get("name", "")) for side in game.sides]
    n = len(names)
    totals = [0] * n
    rows: list[GameRow] = []
    earlier = earlier_entries(game)  # what corrected games were before
    for hand in game.hands:
        points, piles, _problems = read_entry(hand.teams, n, options)
        scores = []
        for i, pile in enumerate(piles):  # one per player
            totals[i] += points[i]
            scores.append(PlayerScore(points[i], totals[i], None if pile is None else tuple(pile)))
        # Seed 001: "so verteilt der Spieler links neben den letzten Kartengeber": the deal
        # moves on by one seat with every game.
        corrections = [
            Correction(r.entered_at, r.changed_at, read_entry(r.teams, n, options)[0])
            for r in earlier.get(hand.number, [])
        ]
        rows.append(
            GameRow(
                hand.number,
                scores,
                (game.first_dealer + hand.number - 1) % n,
                hand.created_at,
                hand.updated_at,
                corrections,
            )
        )
    stop_after = _stop_after(game)
    target = game.target or None
    best = min(totals) if totals else 0
    leaders = [i for i, t in enumerate(totals) if t == best] if rows else []
    finished = bool(rows) and (
        (stop_after is not None and len(rows) >= stop_after)
        or (target is not None and max(totals) >= target)
    )
    return FiftyState(
        view_id=game.view_id,
        name=game.name,
        players=names,
        joker=options.joker,
        stop_after=stop_after,
        target=target,
        rows=rows,
        totals=totals,
        leaders=leaders,
        finished=finished,
        next_dealer=(game.first_dealer + len(rows)) % max(n, 1),
        version=game.version,
        created_at=game.created_at,
        updated_at=game.updated_at,
    )


# ---- creating --------------------------------------------------------------------------------


def create_game(
    session: Session,
    players: Any,
    joker: Any = rules.DEFAULT_JOKER,
    stop_after: Any = None,
    target: Any = None,
    name: Any = None,
) -> Game:
    """Validate and add a new 3-ist-50 game (flushed, not committed); see :func:`new_game`."""
    game = new_game(players, joker, stop_after, target, name)
    session.add(game)
    session.flush()
    return game


def create_from_setup(session: Session, setup: FiftySetup) -> Game:
    """Add the new evening a request was read into at the edge (flushed, not committed)."""
    game = game_of(setup)
    session.add(game)
    session.flush()
    return game


def new_game(
    players: Any,
    joker: Any = rules.DEFAULT_JOKER,
    stop_after: Any = None,
    target: Any = None,
    name: Any = None,
) -> Game:
    """A new 3-ist-50 game, validated but not stored, from values as a request gives them
    (read by the edge: :func:`~..edge.games.fifty_setup` says what each takes). Raises
    :class:`GameProblems`."""
    setup = fifty_setup(players, joker, stop_after, target, name)
    if isinstance(setup, Rejected):
        raise GameProblems(list(setup.problems))
    return game_of(setup)


def game_of(setup: FiftySetup) -> Game:
    """The game row of a new evening read at the edge (no games played yet)."""
    stored: dict[str, Any] = rules.Options(joker=setup.joker).as_dict()
    if setup.stop_after is not None:
        stored["games"] = setup.stop_after
    now = utcnow()
    return Game(
        name=setup.name,
        ruleset=RULESET_ID,
        players=len(setup.players),
        options=stored,
        sides=[{"name": p, "players": [p]} for p in setup.players],
        target=setup.target or 0,
        version=1,
        created_at=now,
        updated_at=now,
    )


# ---- one game's entry ------------------------------------------------------------------------
def read_entry(
    entries: Any, players: int, options: rules.Options
) -> tuple[list[int], list[list[str] | None], list[Problem]]:
    """Read one game's entry, as the edge reads it (:func:`~..edge.games.read_fifty_entry`):
    ``(points, piles, problems)`` per player in seating order. Never raises."""
    read = read_fifty_entry(entries, players, options)
    return read.points, read.piles, list(read.problems)


def options_of(game: Game) -> rules.Options:
    """The house rules an evening was created with (what a joker counts)."""
    return _stored_options(game)


def entry_of(game: Game, entries: Any) -> FiftyHandRead:
    """One game's entry for this evening (one ``{"cards"}`` or ``{"points"}`` per player),
    read by the edge for its players and house rules."""
    return read_fifty_entry(entries, len(game.sides), _stored_options(game))


def check_entry(game: Game, entries: Any) -> tuple[list[int], list[Problem]]:
    """An entry's minus points per player and its problems, without storing (live preview)."""
    points, _piles, problems = read_entry(entries, len(game.sides), _stored_options(game))
    return points, problems


def entry_points(game: Game, entries: Any) -> list[int]:
    """Minus points per player of a (valid) entry."""
    return check_entry(game, entries)[0]


def checked_entry(game: Game, entries: Any) -> list[dict[str, Any]]:
    """One game's entry as stored (cards as game ranks); raises :class:`GameProblems`."""
    return _stored(entry_of(game, entries))


def _stored(entry: FiftyHandRead) -> list[dict[str, Any]]:
    """What a save stores of an entry read at the edge; its problems raised, if any."""
    if entry.problems:
        raise GameProblems(list(entry.problems))
    return entry.stored


# ---- changing the games ----------------------------------------------------------------------
def add_game(session: Session, game: Game, version: int, entry: FiftyHandRead) -> Hand:
    """Append the next game (``entry``: read at the edge, :func:`entry_of`; flushed, not
    committed) and bump the version.

    Raises :class:`GameProblems` (nothing stored; ``game.finished`` once the evening has
    ended), :class:`VersionConflict`.
    """
    given = changes.parse_version(version)
    teams = _stored(entry)
    changes.claim(session, game, given)
    if len(game.hands) >= MAX_FIFTY_GAMES:
        raise GameProblems([Problem("request.too_large", "games", {"limit": MAX_FIFTY_GAMES})], 422)
    if fifty_state(game).finished:
        raise GameProblems([Problem("game.finished", "", {})])
    now = utcnow()
    hand = Hand(
        number=len(game.hands) + 1,
        teams=teams,
        lone_player=None,
        stock_out=False,
        created_at=now,
        updated_at=now,
    )
    game.hands.append(hand)
    session.flush()
    return hand


def replace_game(
    session: Session, game: Game, number: Any, version: int, entry: FiftyHandRead
) -> Hand:
    """Correct game ``number`` (any game, also after the end); bumps the version.

    Raises :class:`GameProblems`, :class:`VersionConflict`, :class:`HandNotFound`.
    """
    given = changes.parse_version(version)
    if changes.find_hand(game, number) is None:
        raise HandNotFound(number)
    teams = _stored(entry)
    changes.claim(session, game, given)
    hand = changes.find_hand(game, number)
    if hand is None:  # pragma: no cover - the version check excludes this
        raise HandNotFound(number)
    if canonical(hand.teams) != canonical(teams):
        changes.keep_revision(game, hand, "corrected", given + 1)
    hand.teams = teams
    hand.updated_at = utcnow()
    session.flush()
    return hand


def delete_game(session: Session, game: Game, number: Any, version: int) -> None:
    """Delete the last game (a mistaken entry): the same rule as :func:`.changes.delete_hand`."""
    changes.delete_hand(session, game, number, version)


def totals_after(state: FiftyState, points: Sequence[int], number: int | None) -> list[int]:
    """The totals if game ``number`` (None: a new game) had these minus points."""
    if number is None:
        return [t + p for t, p in zip(state.totals, points, strict=False)]
    before = [0] * len(state.players)
    if number >= 2:
        before = [s.total for s in state.rows[number - 2].scores]
    out = list(before)
    for i, p in enumerate(points):
        out[i] += p
    for row in state.rows[number:]:
        for i, s in enumerate(row.scores):
            out[i] += s.points
    return out
