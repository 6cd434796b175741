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

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..rules import fifty as rules
from ..rules.problems import Problem
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
STOP_GAMES = (1, 100)  # "stop after N games"
STOP_TARGET = (10, 100_000)  # "stop when someone reaches T minus points"
MAX_GAMES = 300  # far beyond any evening; keeps a re-score bounded


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
def _bounded(
    value: Any, where: str, bounds: tuple[int, int], problems: list[Problem]
) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem("request.type", where, {"expected": "integer"}))
        return None
    low, high = bounds
    if not low <= value <= high:
        problems.append(Problem("request.value", where, {"minimum": low, "maximum": high}))
        return None
    return value


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


def new_game(
    players: Any,
    joker: Any = rules.DEFAULT_JOKER,
    stop_after: Any = None,
    target: Any = None,
    name: Any = None,
) -> Game:
    """A new 3-ist-50 game, validated but not stored.

    ``players``: 2 to 6 names in seating order (each its own score column). ``joker``: minus
    points of a joker (0..100). ``stop_after``: end after this many games; ``target``: end once
    a total reaches it; both optional. Raises :class:`GameProblems`.
    """
    problems: list[Problem] = []
    names: list[str] = []
    if not isinstance(players, list):
        problems.append(Problem("request.type", "players", {"expected": "list"}))
    elif len(players) not in rules.PLAYERS_ALLOWED:
        problems.append(
            Problem(
                "players.not_allowed",
                "players",
                {"players": len(players), "allowed": list(rules.PLAYERS_ALLOWED)},
            )
        )
    else:
        names = [games.clean_name(p, f"players[{i}]", problems) for i, p in enumerate(players)]
    options, option_problems = rules.read_options({"joker": joker})
    problems.extend(option_problems)
    games_limit = _bounded(stop_after, "stop_after", STOP_GAMES, problems)
    target_value = _bounded(target, "target", STOP_TARGET, problems)
    clean_name = None
    if name is not None and name != "":
        clean_name = games.clean_name(name, "name", problems)
    if problems:
        raise GameProblems(problems)
    stored: dict[str, Any] = options.as_dict()
    if games_limit is not None:
        stored["games"] = games_limit
    now = utcnow()
    game = Game(
        name=clean_name,
        ruleset=RULESET_ID,
        players=len(names),
        options=stored,
        sides=[{"name": p, "players": [p]} for p in names],
        target=target_value or 0,
        version=1,
        created_at=now,
        updated_at=now,
    )
    return game


# ---- one game's entry ------------------------------------------------------------------------
def read_entry(
    entries: Any, players: int, options: rules.Options
) -> tuple[list[int], list[list[str] | None], list[Problem]]:
    """Read one game's entry: ``(points, piles, problems)`` per player in seating order.

    ``entries``: one ``{"cards": <cards>}`` or ``{"points": int}`` per player. Cards are any
    notation :func:`~..rules.fifty.read_cards` accepts; the counts of all piles
    together are checked against the deck (``card.too_many``, placed at every pile holding
    that rank). A number must lie within what the deck holds, and so must the game's sum
    (``three_is_fifty.points_over_deck``). Problems point at ``players[i].cards`` /
    ``players[i].points``. Never raises.
    """
    problems: list[Problem] = []
    points = [0] * players
    piles: list[list[str] | None] = [None] * players
    if not isinstance(entries, list):
        return points, piles, [Problem("request.type", "players", {"expected": "list"})]
    if len(entries) != players:
        return (
            points,
            piles,
            [Problem("piles.count", "players", {"players": players, "piles": len(entries)})],
        )
    most = rules.deck_points(players, options)
    for i, entry in enumerate(entries):
        where = f"players[{i}]"
        if not isinstance(entry, dict) or ("cards" in entry) == ("points" in entry):
            problems.append(Problem("request.type", where, {"expected": "cards or points"}))
            continue
        if "cards" in entry:
            cards, card_problems = rules.read_cards(entry["cards"], f"{where}.cards")
            problems.extend(Problem(p.code, f"{where}.cards", p.params) for p in card_problems)
            if not card_problems:
                piles[i] = cards
                points[i] = rules.pile_points(cards, options)
            continue
        value = entry["points"]
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(Problem("request.type", f"{where}.points", {"expected": "integer"}))
        elif not 0 <= value <= most:
            problems.append(
                Problem("request.value", f"{where}.points", {"minimum": 0, "maximum": most})
            )
        else:
            points[i] = value
    known = [p for p in piles if p is not None]
    for problem in rules.card_count_problems(known, players):
        rank = problem.params.get("rank")
        for i, pile in enumerate(piles):
            if pile is not None and rank in pile:
                problems.append(Problem(problem.code, f"players[{i}].cards", problem.params))
    if not problems and sum(points) > most:
        problems.append(
            Problem(
                "three_is_fifty.points_over_deck",
                "players",
                {"points": sum(points), "maximum": most},
            )
        )
    return points, piles, problems


def check_entry(game: Game, entries: Any) -> tuple[list[int], list[Problem]]:
    """An entry's minus points per player and its problems, without storing (live preview)."""
    points, _piles, problems = read_entry(entries, len(game.sides), _stored_options(game))
    return points, problems


def entry_points(game: Game, entries: Any) -> list[int]:
    """Minus points per player of a (valid) entry."""
    return check_entry(game, entries)[0]


def _clean_entries(entries: list[Any], players: int) -> list[dict[str, Any]]:
    """The entry as stored: cards as game ranks (threes are "3"), numbers as numbers."""
    out: list[dict[str, Any]] = []
    for entry in entries[:players]:
        if "cards" in entry:
            out.append({"cards": rules.read_cards(entry["cards"])[0]})
        else:
            out.append({"points": int(entry["points"])})
    return out


def checked_entry(game: Game, entries: Any) -> list[dict[str, Any]]:
    """One game's entry as stored (cards as game ranks); raises :class:`GameProblems`."""
    _points, problems = check_entry(game, entries)
    if problems:
        raise GameProblems(problems)
    return _clean_entries(entries, len(game.sides))


# ---- changing the games ----------------------------------------------------------------------
def add_game(session: Session, game: Game, version: Any, entries: Any) -> Hand:
    """Append the next game (flushed, not committed) and bump the version.

    Raises :class:`GameProblems` (nothing stored; ``game.finished`` once the evening has
    ended), :class:`VersionConflict`.
    """
    given = changes.parse_version(version)
    teams = checked_entry(game, entries)
    changes.claim(session, game, given)
    if len(game.hands) >= MAX_GAMES:
        raise GameProblems([Problem("request.too_large", "games", {"limit": MAX_GAMES})], 422)
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


def replace_game(session: Session, game: Game, number: Any, version: Any, entries: Any) -> Hand:
    """Correct game ``number`` (any game, also after the end); bumps the version.

    Raises :class:`GameProblems`, :class:`VersionConflict`, :class:`HandNotFound`.
    """
    given = changes.parse_version(version)
    if changes.find_hand(game, number) is None:
        raise HandNotFound(number)
    teams = checked_entry(game, entries)
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


def delete_game(session: Session, game: Game, number: Any, version: Any) -> None:
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
