"""The few functions that create and change a stored game, and the derived score sheet.

Every function takes the caller's SQLAlchemy ``Session`` and never commits: the caller wraps a
change in ``store.db.session_scope()`` so that the version bump and the hand write are one
transaction (all or nothing).

Concurrency (two phones at one table): each change of the hands runs a conditional
``UPDATE games SET version = version + 1 WHERE id = :id AND version = :v`` *first* and checks
that it touched one row; otherwise :class:`VersionConflict` (HTTP 409). The UPDATE takes the
row's write lock (PostgreSQL row lock, SQLite database write lock) until the transaction ends,
so a second writer with the same version waits and then finds ``version`` moved on: exactly one
of them wins, and no hand is lost.

Derived state is never trusted beyond the version it was made for: :func:`game_state` derives
the sheet from every hand with the rules engine (``rules.scoring.score_hand``, the one score
computation of the product; each hand's score is kept beside it for the engine that made it).
A save also keeps a summary on the game row (``games.summary``: hand count and totals, tagged
with the engine, version and ``updated_at`` it belongs to), written in its version bump, so the
next save needs no other hand even when nothing is cached (a take-back keeps it too; any other
change clears it).

Errors are exceptions carrying data, for the web layer to translate:
:class:`GameProblems` (400/422 with ``Problem`` list, nothing stored), :class:`VersionConflict`
(409), :class:`HandNotFound` (404).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from sqlalchemy import Table, bindparam, event, func, select, update
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session, aliased, lazyload, object_session, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from ..rules.api import Reader, read_sides, side_json
from ..rules.game import is_cutthroat, winner
from ..rules.problems import Problem
from ..rules.ruleset import PRESETS, RuleSet, resolve_ruleset
from ..rules.scoring import SIDE_COUNTS, HandResult, SideEntry, SideScore, score_hand
from .models import Game, Hand, HandRevision, utcnow

NAME_MAX = 40
# A hand is stored as read (``rules.api.side_json``), at most this many bytes of JSON: a
# 4-player hand in detail takes about 700, a 6-player one with every card listed under 2,000.
HAND_MAX_BYTES = 8192
MAX_HANDS = 500  # far beyond any real game; keeps one game's re-score bounded
MAX_PLAYERS_PER_SIDE = 6
_KEY = re.compile(r"^[A-Za-z0-9_-]{16,43}$")


# ---- errors ---------------------------------------------------------------------------------


class StoreError(Exception):
    """Base of the errors a change of a game can raise."""


class GameProblems(StoreError):
    """The input breaks a rule or cannot be read; nothing was stored.

    ``status`` is 400 when any problem is about the shape of the request (``request.*``),
    else 422 -- the same split as ``POST /api/v1/score``.
    """

    def __init__(self, problems: Sequence[Problem], status: int | None = None):
        super().__init__("; ".join(p.code for p in problems))
        self.problems = list(problems)
        if status is None:
            status = 400 if any(p.code.startswith("request.") for p in problems) else 422
        self.status = status


class VersionConflict(StoreError):
    """The game changed since the client read it (``version`` is stale): HTTP 409."""

    def __init__(self, given: int, current: int | None):
        super().__init__(f"version {given} is stale (current {current})")
        self.given = given
        self.current = current


class HandNotFound(StoreError):
    """There is no hand with that number in the game: HTTP 404."""

    def __init__(self, number: Any):
        super().__init__(f"no hand {number!r}")
        self.number = number


# ---- the derived score sheet ----------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One score column: a side, or one player in 3-player cutthroat."""

    name: str
    players: list[str]
    total: int
    minimum_meld: int  # initial-meld minimum for the next hand (RULES.md §3)
    to_target: int  # points still missing to the target (0 once reached)


@dataclass(frozen=True)
class HandScore:
    """What one column got in one hand."""

    score: int
    items: dict[str, int]  # melded_cards, canasta_bonus, red_threes, going_out, in_hand
    canastas: dict[str, int]
    total: int  # cumulative, after this hand
    minimum_meld: int  # the initial-meld minimum the column had in this hand
    went_out: bool
    concealed: bool
    team: int  # index into the hand's ``teams`` this column scored with
    alone: bool  # 3-player cutthroat: played alone in this hand (False in partnership games)


@dataclass(frozen=True)
class Seat:
    """A player at the table: seat index in dealing order, name and score column."""

    seat: int
    name: str
    column: int


@dataclass(frozen=True)
class Correction:
    """What a corrected hand was before one correction (issue 15): the earlier entry re-scored,
    when it had been entered and when it was changed."""

    entered_at: datetime
    changed_at: datetime
    scores: list[int]  # per column, as the earlier entry scored


@dataclass(frozen=True)
class HandRow:
    """One stored hand, re-scored."""

    number: int
    teams: list[Any]  # the entry as stored (the API request's ``teams``)
    lone_player: int | None
    stock_out: bool
    scores: list[HandScore]  # one per column, in column order
    dealer: Seat
    created_at: datetime
    updated_at: datetime
    problems: list[Problem] = field(default_factory=list)  # only if the rules changed since
    warnings: list[Problem] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)  # oldest first

    @property
    def corrected(self) -> bool:
        return bool(self.corrections)


@dataclass(frozen=True)
class GameState:
    """The whole score sheet of a game, derived from its hands.

    ``winner`` (RULES.md §4): after the last hand, if one or more columns have reached
    ``target``, the column with the highest total wins. If the highest total is shared by two
    columns at or above the target there is no winner yet: the game goes on until a hand breaks
    the tie. ``finished`` is ``winner is not None``; a finished game takes no new hand, but its
    hands can still be corrected or the last one deleted, and the winner follows.

    It carries ``view_id`` but not the editing key, so a read-only page can be rendered from it
    without leaking the key.
    """

    view_id: str
    name: str | None
    ruleset: str
    ruleset_name: str
    players: int
    cutthroat: bool
    options: dict[str, Any]  # house rules as given at creation
    house_rules: dict[str, Any]  # effective parameters that differ from the preset
    target: int
    columns: list[Column]
    hands: list[HandRow]
    winner: int | None
    next_dealer: Seat
    seats: list[Seat]
    version: int
    created_at: datetime
    updated_at: datetime
    rules: RuleSet  # the rules the hands are scored with (house rules applied)
    base_rules: RuleSet  # the preset the house rules change
    # Hands before the first row of ``hands`` that this sheet leaves out: only the answer of a
    # save that read no hand but its own (:func:`changed_state`); never cached, never shown.
    skipped: int = 0

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def margin(self) -> int | None:
        """How far the winner is ahead of the next column (None while nobody has won)."""
        if self.winner is None:
            return None
        others = [c.total for i, c in enumerate(self.columns) if i != self.winner]
        return self.columns[self.winner].total - max(others, default=0)

    @property
    def next_hand(self) -> int:
        return self.skipped + len(self.hands) + 1


# ---- reading and creating games --------------------------------------------------------------


def _canasta(game: Game | None, any_ruleset: bool) -> Game | None:
    # The same tables hold games of "3 ist 50" (store.fifty), which this module cannot score:
    # the Canasta pages and API see only Canasta games.
    if game is None or any_ruleset or game.ruleset in PRESETS:
        return game
    return None


# Reading a game loads its row only: its hands (and their history) are loaded when its state has
# to be derived, which the state cache (:func:`game_state`) spares most requests.
# A game's corrections and deletions (issue 15) are read where they are used (the game page's
# undo offer; deriving the history; a change), not by every preview and save (issue 16).
# Deletion records grow with every take-back: the undo offer loads the latest one only.
_LAZY = [lazyload(Game.hands), lazyload(Game.revisions)]
_NEWER = aliased(HandRevision)
_LATEST_REVISION = HandRevision.id == (
    select(func.max(_NEWER.id)).where(_NEWER.game_id == HandRevision.game_id).scalar_subquery()
)
_WITH_REVISIONS = [lazyload(Game.hands), selectinload(Game.revisions.and_(_LATEST_REVISION))]


def hand_count(game: Game) -> int:
    """How many hands the game has, without loading them when its state is cached (also for
    a game whose session has ended)."""
    if "hands" in sa_inspect(game).unloaded:
        cached = _cached(game.id, _stamp(game))
        if cached is not None:
            return len(cached.hands)
        session = object_session(game)
        if session is not None:  # counted, not loaded
            count = select(func.count()).select_from(Hand).where(Hand.game_id == game.id)
            return int(session.scalar(count) or 0)
    return len(game.hands)


def get_game(
    session: Session, game_id: Any, any_ruleset: bool = False, revisions: bool = False
) -> Game | None:
    """The game with this editing key, with its hands; None for unknown or malformed keys
    (and, unless ``any_ruleset``, for games of another kind than Canasta). ``revisions``: load
    its latest correction or deletion at once, to be read after the session (the undo offer):
    ``game.revisions`` then holds that one only (deriving the sheet reads what it needs)."""
    if not isinstance(game_id, str) or not _KEY.match(game_id):
        return None
    options = _WITH_REVISIONS if revisions else _LAZY
    return _canasta(session.get(Game, game_id, options=options), any_ruleset)


def get_by_view(session: Session, view_id: Any, any_ruleset: bool = False) -> Game | None:
    """The game with this read-only key, or None (see :func:`get_game`)."""
    if not isinstance(view_id, str) or not _KEY.match(view_id):
        return None
    return _canasta(
        session.scalars(select(Game).where(Game.view_id == view_id).options(*_LAZY)).first(),
        any_ruleset,
    )


def recent_games(session: Session, limit: int = 10, ids: Iterable[str] | None = None) -> list[Game]:
    """The most recently changed games, newest first.

    ``ids``: only among these editing keys (e.g. the games this browser created), since every
    ``Game.id`` grants editing and must not be shown to strangers.
    """
    query = (
        select(Game)
        .where(Game.ruleset.in_(list(PRESETS)))
        .order_by(Game.updated_at.desc(), Game.created_at.desc())
    )
    if ids is not None:
        keys = [k for k in ids if isinstance(k, str) and _KEY.match(k)][:200]
        if not keys:
            return []
        query = query.where(Game.id.in_(keys))
    return list(session.scalars(query.limit(max(0, min(limit, 200)))))


def create_game(
    session: Session,
    ruleset: Any,
    players: Any,
    sides: Any,
    options: Any = None,
    target: Any = None,
    name: Any = None,
) -> Game:
    """Validate and add a new game (flushed, not committed).

    ``sides``: ``[{"name": str, "players": [str, …]}, …]``, one entry per score column: 2 sides
    of ``players / 2``, for 6 players also 3 sides of 2, and in 3-player cutthroat 3 sides of one
    player each. Names are trimmed and must have 1..40 characters. ``options``: house rules
    (``RuleSet.with_options``). ``target``: defaults to the ruleset's target for the player
    count (or the ``target`` house rule). Raises :class:`GameProblems`.
    """
    problems: list[Problem] = []
    rs, count, rs_problems = resolve_ruleset(ruleset, players, options)
    problems.extend(rs_problems)
    clean_name = None
    if name is not None and name != "":
        clean_name = _clean_name(name, "name", problems)
    clean_sides = _clean_sides(sides, count, problems) if rs is not None else []
    if target is None:
        target_value = (
            (
                rs.target
                if isinstance(options, dict) and "target" in options
                else rs.target_for(count)
            )
            if rs is not None
            else 0
        )
    elif isinstance(target, bool) or not isinstance(target, int):
        problems.append(Problem("request.type", "target", {"expected": "integer"}))
        target_value = 0
    elif not 100 <= target <= 1_000_000:
        problems.append(Problem("request.value", "target", {"minimum": 100, "maximum": 1_000_000}))
        target_value = 0
    else:
        target_value = target
    if problems or rs is None:
        raise GameProblems(problems)
    now = utcnow()
    game = Game(
        name=clean_name,
        ruleset=rs.id,
        players=count,
        options=dict(options) if isinstance(options, dict) else {},
        sides=clean_sides,
        target=target_value,
        version=1,
        created_at=now,
        updated_at=now,
    )
    session.add(game)
    session.flush()
    return game


def _clean_name(value: Any, where: str, problems: list[Problem]) -> str:
    if not isinstance(value, str):
        problems.append(Problem("request.type", where, {"expected": "string"}))
        return ""
    text = " ".join(value.split())
    if not 1 <= len(text) <= NAME_MAX or any(
        unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in text
    ):
        problems.append(Problem("name.invalid", where, {"maximum": NAME_MAX}))
        return ""
    return text


def start_again(session: Session, game: Game) -> Game:
    """A new game (of either kind) for the same table: same rules, house rules, target, name,
    sides and players in the same seats, no hands (flushed, not committed). Nothing needs
    checking again: it was all checked when ``game`` was created."""
    now = utcnow()
    again = Game(
        name=game.name,
        ruleset=game.ruleset,
        players=game.players,
        options=dict(game.options),
        sides=[{**side, "players": list(side["players"])} for side in game.sides],
        target=game.target,
        version=1,
        created_at=now,
        updated_at=now,
        previous_id=game.id,
    )
    session.add(again)
    session.flush()
    return again


def _clean_sides(sides: Any, players: int, problems: list[Problem]) -> list[dict[str, Any]]:
    if sides is None:
        problems.append(Problem("request.missing", "sides", {}))
        return []
    if not isinstance(sides, list):
        problems.append(Problem("request.type", "sides", {"expected": "list"}))
        return []
    allowed = (
        [3]
        if is_cutthroat(players)
        else [n for n in SIDE_COUNTS.get(players, (2,)) if players % n == 0]
    )
    if len(sides) not in allowed:
        problems.append(
            Problem(
                "sides.count",
                "sides",
                {"players": players, "allowed": allowed, "sides": len(sides)},
            )
        )
        return []
    size = players // len(sides)
    out = []
    for i, side in enumerate(sides):
        where = f"sides[{i}]"
        if not isinstance(side, dict):
            problems.append(Problem("request.type", where, {"expected": "object"}))
            continue
        names = side.get("players")
        if not isinstance(names, list):
            problems.append(
                Problem(
                    "request.type" if names is not None else "request.missing",
                    f"{where}.players",
                    {"expected": "list"},
                )
            )
            names = []
        elif len(names) != size:
            problems.append(
                Problem(
                    "sides.size",
                    f"{where}.players",
                    {"side": i + 1, "size": size, "have": len(names)},
                )
            )
            names = []
        clean_players = [
            _clean_name(p, f"{where}.players[{j}]", problems)
            for j, p in enumerate(names[:MAX_PLAYERS_PER_SIDE])
        ]
        side_name = side.get("name")
        if side_name is None and size == 1 and clean_players:
            side_name = clean_players[0]  # one-player side: the player's name
        out.append(
            {
                "name": _clean_name(side_name, f"{where}.name", problems)
                if side_name is not None
                else _missing(f"{where}.name", problems),
                "players": clean_players,
            }
        )
    return out


def _missing(where: str, problems: list[Problem]) -> str:
    problems.append(Problem("request.missing", where, {}))
    return ""


# ---- checking a hand entry ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    """A hand entry read and scored: which columns each team stands for."""

    sides: list[SideEntry]
    members: list[list[int]]  # per team: the columns it scores for, in seating order
    result: HandResult
    problems: list[Problem]


def _ruleset(game: Game) -> RuleSet:
    return _resolved(game.ruleset, game.players, _canonical(game.options or {}))


@lru_cache(maxsize=256)
def _resolved(ruleset: str, players: int, options: str) -> RuleSet:
    rs, _, _ = resolve_ruleset(ruleset, players, json.loads(options))
    if rs is None:  # stored house rules no longer valid: score with the preset
        rs = PRESETS.get(ruleset) or PRESETS["classic"]
    return rs


def _read_entry(
    rs: RuleSet, players: int, columns: int, teams: Any, lone_player: Any, stock_out: bool
) -> _Entry:
    """Read a ``teams`` list for a game of ``players`` with ``columns`` score columns, score
    it and collect every problem."""
    reader = Reader()
    sides = read_sides(reader, {"teams": teams})
    problems = list(reader.problems)
    members: list[list[int]] = []
    if is_cutthroat(players):
        if len(sides) == 2:
            if (
                isinstance(lone_player, bool)
                or not isinstance(lone_player, int)
                or not 0 <= lone_player < columns
            ):
                problems.append(Problem("hand.lone_player", "lone_player", {}))
                lone = 0
            else:
                lone = lone_player
            members = [[lone], [c for c in range(columns) if c != lone]]
            # Partners score their own red threes (RULES.md §4 "3 players").
            partners = sides[1]
            if isinstance(partners.red_threes, int) and partners.red_threes == 0:
                partners.red_threes = [0, 0]
            if not isinstance(partners.red_threes, list) or len(partners.red_threes) != 2:
                problems.append(Problem("red_threes.per_partner", "teams[1].red_threes", {}))
            if isinstance(sides[0].red_threes, list) and len(sides[0].red_threes) != 1:
                problems.append(Problem("red_threes.per_partner", "teams[0].red_threes", {}))
        elif len(sides) == 3:
            if lone_player is not None:
                problems.append(Problem("hand.lone_player", "lone_player", {}))
            members = [[0], [1], [2]]
        elif sides:
            problems.append(
                Problem(
                    "teams.count",
                    "teams",
                    {"teams": len(sides), "players": players, "allowed": [2, 3]},
                )
            )
    else:
        if lone_player is not None:
            problems.append(Problem("hand.lone_player", "lone_player", {}))
        if sides and len(sides) != columns:
            problems.append(
                Problem(
                    "teams.count",
                    "teams",
                    {"teams": len(sides), "players": players, "allowed": [columns]},
                )
            )
        members = [[i] for i in range(len(sides))]
    if stock_out and any(s.went_out or s.concealed for s in sides):
        problems.append(Problem("hand.stock_out_went_out", "stock_out", {}))
    if not sides:
        result = HandResult([], [], [])
    else:
        # Scored even when a field cannot be read, so the live preview shows what it can;
        # the rule problems count only for an entry read in full.
        result = score_hand(rs, players, sides)
        if not reader.problems:
            problems.extend(result.problems)
    if len(members) != len(result.sides):
        members = []
    return _Entry(sides, members, result, problems)


#: How many scored hands :func:`_scored` keeps. Each is keyed by a 16-byte digest (not by the
#: hand's text) and holds the hand as read and scored; a stored hand is at most
#: :data:`HAND_MAX_BYTES` of JSON holding no more cards than the decks (``card.too_many``),
#: which reads into under 64 KB of objects (measured with tracemalloc: a 4-player hand in
#: detail about 22 KB, 3 decks' worth of cards about 51 KB), so the cache stays under
#: 512 × 64 KB = 32 MB.
SCORED_MAX = 512
_SCORED: OrderedDict[bytes, _Entry] = OrderedDict()
_SCORED_LOCK = threading.Lock()


def _scored(
    ruleset: str,
    players: int,
    options: str,
    columns: int,
    teams: str,
    lone_player: int | None,
    stock_out: bool,
) -> _Entry:
    """Scoring one stored hand that has no score stored beside it (an entry of an older
    engine, an earlier entry of a corrected hand), memoized on a digest of its JSON text."""
    key = hashlib.blake2b(
        json.dumps([ruleset, players, options, columns, teams, lone_player, stock_out]).encode(
            "utf-8", "surrogatepass"
        ),
        digest_size=16,
    ).digest()
    with _SCORED_LOCK:
        entry = _SCORED.get(key)
        if entry is not None:
            _SCORED.move_to_end(key)
            return entry
    rs = _resolved(ruleset, players, options)
    entry = _read_entry(rs, players, columns, json.loads(teams), lone_player, stock_out)
    with _SCORED_LOCK:
        _SCORED[key] = entry
        while len(_SCORED) > SCORED_MAX:
            _SCORED.popitem(last=False)
    return entry


def _clear_scored() -> None:
    with _SCORED_LOCK:
        _SCORED.clear()


_scored.cache_clear = _clear_scored  # type: ignore[attr-defined]  # as lru_cache had it


def _stored_entry(game: Game, options: str, hand: Hand) -> _Entry:
    kept = _entry_from_json(getattr(hand, "scored", None))
    if kept is not None:
        return kept
    return _scored(
        game.ruleset,
        game.players,
        options,
        len(game.sides),
        _canonical(hand.teams),
        hand.lone_player,
        bool(hand.stock_out),
    )


# ---- scores kept beside the entry -------------------------------------------------------------
# A save stores what the engine made of the hand (``Hand.scored``), so that deriving a game's
# sheet reads numbers instead of scoring every hand again (a cold start re-scored all of them).
# The stored score carries the fingerprint of the code that made it: the source of the rules
# engine and of this module. Any change there (a rule fixed, a parameter added) makes every
# stored score stale; the hand is then scored again when read, and stored again when saved.


def _fingerprint() -> str:
    digest = hashlib.sha256()
    here = Path(__file__).resolve()
    for path in [here, *sorted((here.parent.parent / "rules").glob("*.py"))]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


ENGINE_VERSION = _fingerprint()


def _problems_json(problems: Sequence[Problem]) -> list[list[Any]]:
    return [[p.code, p.where, p.params] for p in problems]


def _entry_json(entry: _Entry) -> dict[str, Any] | None:
    """What the engine made of a hand, as JSON for ``Hand.scored`` (None if it cannot be)."""
    data = {
        "engine": ENGINE_VERSION,
        "sides": [[s.went_out, s.concealed] for s in entry.sides],
        "scores": [[r.score, r.items, r.canastas, r.player_scores] for r in entry.result.sides],
        "members": entry.members,
        "problems": _problems_json(entry.problems),
        "warnings": _problems_json(entry.result.warnings),
    }
    try:
        json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return data


def _entry_from_json(data: Any) -> _Entry | None:
    """The entry as :func:`_entry_json` stored it, if the same engine stored it."""
    if not isinstance(data, dict) or data.get("engine") != ENGINE_VERSION:
        return None
    try:
        sides = [
            SideEntry(went_out=bool(out), concealed=bool(concealed))
            for out, concealed in data["sides"]
        ]
        scores = [
            SideScore(
                int(score),
                dict(items),
                dict(canastas),
                player_scores=list(players) if players is not None else None,
            )
            for score, items, canastas, players in data["scores"]
        ]
        problems = [Problem(c, w, dict(p)) for c, w, p in data["problems"]]
        warnings = [Problem(c, w, dict(p)) for c, w, p in data["warnings"]]
        members = [list(m) for m in data["members"]]
    except (KeyError, TypeError, ValueError):
        return None
    return _Entry(sides, members, HandResult(scores, problems, warnings), problems)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class CheckedHand:
    """A hand entry read, checked and scored for one game (nothing stored): what the live
    preview shows and what a save stores, so a save scores the new hand once."""

    game_id: str
    teams: Any  # as given (the API request's ``teams``)
    lone_player: Any
    stock_out: bool  # also implied by three teams of one in cutthroat
    entry: _Entry

    @property
    def problems(self) -> list[Problem]:
        return self.entry.problems

    @property
    def result(self) -> HandResult:
        return self.entry.result

    @property
    def lone(self) -> Any:
        """The lone player's column as a save stores it: only for a cutthroat hand of two
        teams (the lone player against a partnership), else None."""
        cutthroat_pair = len(self.entry.members) == 2 and len(self.entry.members[1]) > 1
        return self.lone_player if cutthroat_pair else None

    @property
    def stored(self) -> list[dict[str, Any]]:
        """What a save stores: each side as the reader built it (``rules.api.side_json``),
        never the request's own JSON (issue 12: unread keys are refused, not kept)."""
        return [side_json(side) for side in self.entry.sides]


def read_hand(
    game: Game, teams: Any, lone_player: Any = None, stock_out: Any = False
) -> CheckedHand:
    """Read, check and score a hand entry for this game without storing it.

    In cutthroat, three teams of one mean the stock ran out before anyone took the pile, so
    ``stock_out`` is implied.
    """
    problems: list[Problem] = []
    if not isinstance(stock_out, bool):
        problems.append(Problem("request.type", "stock_out", {"expected": "boolean"}))
        stock_out = False
    if is_cutthroat(game.players) and isinstance(teams, list) and len(teams) == 3:
        stock_out = True
    entry = _read_entry(
        _ruleset(game), game.players, len(game.sides), teams, lone_player, stock_out
    )
    problems.extend(entry.problems)
    problems.extend(_storable(teams, "teams"))
    checked = CheckedHand(
        game.id,
        teams,
        lone_player,
        stock_out,
        _Entry(entry.sides, entry.members, entry.result, problems),
    )
    if not problems and len(_canonical(checked.stored).encode()) > HAND_MAX_BYTES:
        problems.append(Problem("hand.too_large", "teams", {"limit": HAND_MAX_BYTES}))
    return checked


def check_hand(
    game: Game, teams: Any, lone_player: Any = None, stock_out: Any = False
) -> tuple[bool, list[Problem]]:
    """Validate a hand entry for this game without storing it: ``(stock_out, problems)``."""
    checked = read_hand(game, teams, lone_player, stock_out)
    return checked.stock_out, list(checked.problems)


def _checked(
    game: Game, checked: CheckedHand | None, teams: Any, lone_player: Any, stock_out: Any
) -> CheckedHand:
    """The entry checked for this game: the caller's, if it checked these very arguments."""
    if (
        checked is None
        or checked.game_id != game.id
        or checked.teams is not teams
        or checked.lone_player != lone_player
    ):
        checked = read_hand(game, teams, lone_player, stock_out)
    if checked.problems:
        raise GameProblems(list(checked.problems))
    return checked


# ---- changing the hands ----------------------------------------------------------------------


def _version(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameProblems(
            [
                Problem(
                    "request.type" if value is not None else "request.missing",
                    "version",
                    {"expected": "integer"},
                )
            ]
        )
    if not 0 <= value < 2**31:
        raise GameProblems(
            [Problem("request.value", "version", {"minimum": 0, "maximum": 2**31 - 1})]
        )
    return value


MAX_DEPTH = 12


def _storable(value: Any, where: str) -> list[Problem]:
    """Problems that would keep a JSON value from being stored on every backend: NaN and
    infinities (PostgreSQL's json rejects them), lone surrogates (not encodable as UTF-8) and
    absurd nesting."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return [Problem("request.too_large", where, {"limit": MAX_DEPTH})]
        if (isinstance(item, float) and not math.isfinite(item)) or (
            isinstance(item, str) and not _encodable(item)
        ):
            return [Problem("request.value", where, {})]
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return []


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# The version bump as one Core statement, built once: through the ORM's bulk UPDATE it cost
# ~0.3 ms of a 1.7 ms save (in process) and synchronised nothing (``_claim`` sets or expires
# what it changed itself).
_GAMES = cast(Table, Game.__table__)
_BUMP = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("key"), _GAMES.c.version == bindparam("given"))
    .values(
        version=_GAMES.c.version + 1,
        updated_at=bindparam("now", type_=_GAMES.c.updated_at.type),
        summary=bindparam("kept", type_=_GAMES.c.summary.type),
    )
)


def _claim(
    session: Session,
    game: Game,
    version: int,
    summary: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> None:
    """The conditional version bump that serialises writers (see the module docstring).

    Runs as the first write of the transaction; afterwards everything is re-read under the lock.
    It also writes the game's summary after the change (``summary``, made for the version and
    ``updated_at`` = ``now`` it sets), else clears it: a summary describes its version only.
    A caller gives a summary only when the game was read at ``version``: nothing read before
    the lock can be older then (every change moves the version on), so nothing is read again.
    """
    now = now or utcnow()
    result = session.execute(_BUMP, {"key": game.id, "given": version, "now": now, "kept": summary})
    if result.rowcount != 1:  # type: ignore[attr-defined]
        current = session.scalar(select(Game.version).where(Game.id == game.id))
        raise VersionConflict(version, current)
    session.info[_CLAIMED] = True  # states derived from now on wait for the commit
    if summary is not None:
        for key, value in (("version", version + 1), ("updated_at", now), ("summary", summary)):
            set_committed_value(game, key, value)
        return
    # What was read before the lock may be older than ``version``: read it again.
    session.expire_all()


def add_hand(
    session: Session,
    game: Game,
    version: Any,
    teams: Any,
    lone_player: Any = None,
    stock_out: Any = False,
    checked: CheckedHand | None = None,
) -> Hand:
    """Append the next hand to ``game`` (flushed, not committed) and bump its version.

    ``teams``: the list of sides as in ``POST /api/v1/score`` (stored exactly as given). In
    3-player cutthroat, either ``[lone player's side, partnership]`` with ``lone_player`` the
    lone player's column and the partnership's ``red_threes`` a list of two (one per partner,
    in seating order), or three teams of one (column order) when the stock ran out before
    anyone took the pile. ``stock_out``: the stock ran out (nobody went out).

    Raises :class:`GameProblems` (nothing stored; also ``game.finished`` when the game already
    has a winner), :class:`VersionConflict`.
    """
    given = _version(version)
    checked = _checked(game, checked, teams, lone_player, stock_out)
    # What the sheet was at ``given``: this session's, the cache's or the game's summary (then
    # no hand is read at all, issue 16); else derived from the hands once the game is claimed.
    before = _before(game, given)
    now = utcnow()
    claimed = before is None
    if before is None:
        _claim(session, game, given)
        state = _state_at(game, given)
        before = _Before(len(state.hands), [c.total for c in state.columns], state)
    rules = before.state.rules if before.state is not None else _ruleset(game)
    table = before.state.seats if before.state is not None else seats(game)
    hand = Hand(
        number=before.hands + 1,
        teams=checked.stored,
        lone_player=checked.lone,
        stock_out=checked.stock_out,
        created_at=now,
        updated_at=now,
        scored=_entry_json(checked.entry),
    )
    # The sheet after the save: the one before it and one more row (no hand read again).
    totals = list(before.totals)
    row = _hand_row(game, rules, table, totals, hand, checked.entry, [])
    if claimed:
        game.summary = _summary(game.version, game.updated_at, hand.number, totals)
    else:
        _claim(session, game, given, _summary(given + 1, now, hand.number, totals), now)
    if before.hands >= MAX_HANDS:
        raise GameProblems([Problem("request.too_large", "hands", {"limit": MAX_HANDS})], 422)
    if winner(before.totals, game.target) is not None:
        raise GameProblems([Problem("game.finished", "", {})])
    if "hands" in sa_inspect(game).unloaded:
        hand.game_id = game.id  # the other hands stay unread
        session.add(hand)
    else:
        game.hands.append(hand)
    session.flush()
    if before.state is not None:
        after = _finish(game, rules, table, totals, [*before.state.hands, row])
        _derived(session, game, after)
    else:  # the answer's sheet: the new row only (see GameState.skipped)
        after = _finish(game, rules, table, totals, [row], skipped=before.hands)
    session.info.setdefault(_ANSWER, {})[game.id] = (session.info.get(_FLUSHES, 0), after)
    return hand


@dataclass(frozen=True)
class _Before:
    """The sheet a new hand is added to: its hand count and totals, and the whole sheet when
    it is at hand (this session's or the cache's), else None (the game's summary)."""

    hands: int
    totals: list[int]
    state: GameState | None


def _summary(version: int, updated_at: datetime, hands: int, totals: list[int]) -> dict[str, Any]:
    """``games.summary``: what the next save needs of the sheet at ``version``."""
    return {
        "engine": ENGINE_VERSION,
        "version": version,
        "updated_at": updated_at.isoformat(),
        "hands": hands,
        "totals": list(totals),
    }


def _before(game: Game, version: int) -> _Before | None:
    """The sheet at ``version`` without reading a hand, if the game was read at ``version``
    and its sheet is known: derived by this session or cached, else from the game's summary
    when it was made for this very version and ``updated_at`` by this engine. None: unknown
    (the game is to be claimed and derived)."""
    if game.version != version:
        return None
    session = object_session(game)
    info = session.info if session is not None else {}
    kept = info.get(_DERIVED, {}).get(game.id)
    state: GameState | None = None
    if kept is not None and kept[0] == info.get(_FLUSHES, 0) and kept[1] == _stamp(game):
        state = kept[2]
    elif not info.get(_CLAIMED):
        state = _cached(game.id, _stamp(game))
    if state is not None:
        return _Before(len(state.hands), [c.total for c in state.columns], state)
    summary = game.summary
    if (
        not isinstance(summary, dict)
        or summary.get("engine") != ENGINE_VERSION
        or summary.get("version") != version
        or summary.get("updated_at") != game.updated_at.isoformat()
    ):
        return None
    hands, totals = summary.get("hands"), summary.get("totals")
    if (
        not isinstance(hands, int)
        or not isinstance(totals, list)
        or len(totals) != len(game.sides)
        or not all(isinstance(t, int) and not isinstance(t, bool) for t in totals)
    ):
        return None
    return _Before(hands, list(totals), None)


def changed_state(session: Session, game: Game) -> GameState | None:
    """The sheet this session's last save into ``game`` left (to answer with once committed:
    it is what the commit stores), with ``skipped`` hands left out; None when the session
    changed something after it, or made no sheet (then read the committed game)."""
    kept = session.info.get(_ANSWER, {}).get(game.id)
    if kept is None or kept[0] != session.info.get(_FLUSHES, 0):
        return None
    return kept[1]  # type: ignore[no-any-return]


def replace_hand(
    session: Session,
    game: Game,
    number: Any,
    version: Any,
    teams: Any,
    lone_player: Any = None,
    stock_out: Any = False,
    checked: CheckedHand | None = None,
) -> Hand:
    """Correct hand ``number`` (any hand, also in a finished game); bumps the version.

    Same arguments and errors as :func:`add_hand`, plus :class:`HandNotFound`.
    """
    given = _version(version)
    if _find(game, number) is None:
        raise HandNotFound(number)
    checked = _checked(game, checked, teams, lone_player, stock_out)
    stock = checked.stock_out
    _claim(session, game, given)
    hand = _find(game, number)
    if hand is None:  # pragma: no cover - the version check excludes this
        raise HandNotFound(number)
    lone = checked.lone
    stored = checked.stored
    if (_canonical(hand.teams), hand.lone_player, bool(hand.stock_out)) != (
        _canonical(stored),
        lone,
        stock,
    ):
        keep_revision(game, hand, "corrected", given + 1)
    hand.teams = stored
    hand.lone_player = lone
    hand.stock_out = stock
    hand.scored = _entry_json(checked.entry)
    hand.updated_at = utcnow()
    session.flush()
    return hand


def keep_revision(game: Game, hand: Hand, kind: str, version: int) -> HandRevision:
    """Keep ``hand`` as it is now, before it is corrected or deleted (``kind``); ``version``:
    the game's version once the change is made. Also used by :mod:`.fifty`."""
    revision = HandRevision(
        number=hand.number,
        kind=kind,
        teams=hand.teams,
        lone_player=hand.lone_player,
        stock_out=bool(hand.stock_out),
        entered_at=hand.updated_at,
        hand_created_at=hand.created_at,
        changed_at=utcnow(),
        version=version,
    )
    session = object_session(game)
    if "revisions" in sa_inspect(game).unloaded and session is not None:
        revision.game_id = game.id  # the game's other revisions stay unread
        session.add(revision)
    else:
        game.revisions.append(revision)
    return revision


# A deleted hand can be brought back for this long (issue 15: a message with "Undo" for a
# while, also after a reload), and only while nothing else has changed in the game.
UNDO_SECONDS = 15 * 60


def undoable_deletion(game: Game) -> HandRevision | None:
    """The deletion that :func:`undo_delete` can still take back, if any: the game's latest
    change, made less than :data:`UNDO_SECONDS` ago."""
    return undoable_deletion_at(game, game.version)


def undo_delete(session: Session, game: Game, revision_id: Any, version: Any) -> Hand:
    """Bring back the hand deleted last (flushed, not committed); bumps the version.

    ``version`` is the game's version the undo was offered at: if anything changed since (a
    new hand, a correction, another undo) the undo is stale (:class:`VersionConflict`), so it
    never overwrites a newer change. Raises :class:`GameProblems` (``hand.undo_expired``) when
    the offer is gone (too old, or not the latest deletion).
    """
    given = _version(version)
    _claim(session, game, given)
    last = undoable_deletion_at(game, given)
    if last is None or isinstance(revision_id, bool) or last.id != revision_id:
        raise GameProblems([Problem("hand.undo_expired", "", {})], 422)
    hand = Hand(
        number=last.number,
        teams=last.teams,
        lone_player=last.lone_player,
        stock_out=last.stock_out,
        created_at=last.hand_created_at,
        updated_at=last.entered_at,
    )
    if "revisions" in sa_inspect(game).unloaded:
        session.delete(last)
    else:
        game.revisions.remove(last)
    if "hands" in sa_inspect(game).unloaded:
        hand.game_id = game.id  # the other hands stay unread
        session.add(hand)
    else:
        game.hands.append(hand)
    session.flush()
    return hand


def undoable_deletion_at(game: Game, version: int) -> HandRevision | None:
    """:func:`undoable_deletion` as it was at ``version`` (the game is re-read after the
    version bump, so its version is one higher by then)."""
    last = _latest_revision(game)
    if last is None:
        return None
    if last.kind != "deleted" or last.version != version or last.number != hand_count(game) + 1:
        return None
    if (utcnow() - last.changed_at).total_seconds() > UNDO_SECONDS:
        return None
    return last


def _latest_revision(game: Game) -> HandRevision | None:
    """The game's latest correction or deletion: read alone unless its revisions are loaded."""
    session = object_session(game)
    if "revisions" in sa_inspect(game).unloaded and session is not None:
        latest = select(HandRevision).where(HandRevision.game_id == game.id)
        return session.scalars(latest.order_by(HandRevision.id.desc()).limit(1)).first()
    return game.revisions[-1] if game.revisions else None


def delete_hand(session: Session, game: Game, number: Any, version: Any) -> None:
    """Delete the last hand (a mistaken entry); bumps the version.

    Only the last hand can go, so the hands stay numbered 1..n in playing order (and the
    dealer rotation stays right); deleting another is the problem ``hand.not_last`` (422).
    Raises :class:`HandNotFound`, :class:`GameProblems`, :class:`VersionConflict`.
    """
    given = _version(version)
    # The sheet before it, when known without reading the hands (issue 16): then only the hand
    # itself is read, and the sheet after it needs no other (nor does the next save).
    before = _before(game, given) if game.ruleset in PRESETS else None
    if before is None or "hands" not in sa_inspect(game).unloaded:
        hand = _find(game, number)
    else:
        hand = _read_hand(game, number)
    if hand is None:
        raise HandNotFound(number)
    summary, now = None, utcnow()
    if before is not None and hand.number == before.hands:
        if before.state is not None:
            rows = before.state.hands
            totals = [s.total for s in rows[-2].scores] if len(rows) > 1 else []
        else:
            scored = _column_scores(
                _stored_entry(game, _canonical(game.options or {}), hand), len(before.totals)
            )
            totals = [t - s for t, s in zip(before.totals, scored, strict=True)]
        summary = _summary(given + 1, now, hand.number - 1, totals or [0] * len(game.sides))
    _claim(session, game, given, summary, now)
    if summary is None:  # read again under the lock
        hand = _find(game, number)
        if hand is None:  # pragma: no cover - the version check excludes this
            raise HandNotFound(number)
        last = len(game.hands)
    else:
        last = hand.number
    if hand.number != last:
        raise GameProblems(
            [Problem("hand.not_last", "number", {"number": hand.number, "last": last})]
        )
    keep_revision(game, hand, "deleted", given + 1)
    if "hands" in sa_inspect(game).unloaded:
        session.delete(hand)
    else:
        game.hands.remove(hand)
    session.flush()
    if before is not None and summary is not None:
        totals = list(summary["totals"])
        rules = before.state.rules if before.state is not None else _ruleset(game)
        table = before.state.seats if before.state is not None else seats(game)
        if before.state is not None:
            after = _finish(game, rules, table, totals, before.state.hands[:-1])
            _derived(session, game, after)
        else:  # the answer's sheet: no hand (see GameState.skipped)
            after = _finish(game, rules, table, totals, [], skipped=hand.number - 1)
        session.info.setdefault(_ANSWER, {})[game.id] = (session.info.get(_FLUSHES, 0), after)


def _read_hand(game: Game, number: Any) -> Hand | None:
    """Hand ``number`` of the game, read alone (its other hands stay unread)."""
    session = object_session(game)
    if session is None or isinstance(number, bool) or not isinstance(number, int):
        return None
    return session.scalars(
        select(Hand).where(Hand.game_id == game.id, Hand.number == number)
    ).first()


def _find(game: Game, number: Any) -> Hand | None:
    if isinstance(number, bool) or not isinstance(number, int):
        return None
    return next((h for h in game.hands if h.number == number), None)


# ---- the derived sheet ---------------------------------------------------------------------


def seats(game: Game) -> list[Seat]:
    """Players in seating (and dealing) order: partnerships sit interleaved, so for two sides
    A and B: A1, B1, A2, B2 (three sides of two: A1, B1, C1, A2, B2, C2)."""
    out: list[Seat] = []
    size = max((len(s.get("players") or []) for s in game.sides), default=0)
    for j in range(size):
        for c, side in enumerate(game.sides):
            names = side.get("players") or []
            if j < len(names):
                out.append(Seat(len(out), str(names[j]), c))
    return out or [Seat(0, "", 0)]


def _live_corrections(game: Game) -> dict[int, list[HandRevision]]:
    """:func:`_earlier_entries`, read from the database: the corrections that no later deletion
    of their hand's number ended, without the deletion records (one for every take-back,
    issue 16). A game without a session: its loaded revisions."""
    session = object_session(game)
    if session is None:
        return _earlier_entries(game)
    later = aliased(HandRevision)
    ended = (
        select(later.id)
        .where(
            later.game_id == HandRevision.game_id,
            later.number == HandRevision.number,
            later.kind == "deleted",
            later.id > HandRevision.id,
        )
        .exists()
    )
    query = select(HandRevision).where(
        HandRevision.game_id == game.id, HandRevision.kind == "corrected", ~ended
    )
    out: dict[int, list[HandRevision]] = {}
    for revision in session.scalars(query.order_by(HandRevision.id)):
        out.setdefault(revision.number, []).append(revision)
    return out


def _earlier_entries(game: Game) -> dict[int, list[HandRevision]]:
    """Each hand's corrections, oldest first: the rows of its number after the last deletion of
    that number (an earlier hand of that number was deleted; its trail is not this hand's)."""
    out: dict[int, list[HandRevision]] = {}
    for revision in game.revisions:
        if revision.kind == "deleted":
            out.pop(revision.number, None)
        elif revision.kind == "corrected":
            out.setdefault(revision.number, []).append(revision)
    return out


def _column_scores(entry: _Entry, columns: int) -> list[int]:
    """What each column scored with an entry (a partner's own red threes in cutthroat)."""
    out = [0] * columns
    for t, result in enumerate(entry.result.sides):
        cols = entry.members[t] if t < len(entry.members) else []
        for k, c in enumerate(cols):
            if c >= columns:
                continue
            out[c] = result.score
            if result.player_scores is not None and len(cols) > 1 and k < len(result.player_scores):
                out[c] = result.player_scores[k]
    return out


# ---- the state cache --------------------------------------------------------------------------
# A game's state is derived once per version and kept (bounded by the hands it holds): the game
# page, the live preview and the API read it instead of reading every hand. Keys are the game's
# version and ``updated_at``, both moved on by every change (``_claim``), so a cached state is
# never stale, also with several server processes. Only committed states enter the cache: a
# session that changes a game keeps the state it derived last, and hands it over when it
# commits, if nothing was flushed after deriving it.

# Bounds: a cached sheet takes about 4.5 KB per hand (measured with tracemalloc on varied
# 4-player hands, half of it the entry as stored), so 10,000 hands stay under 50 MB. Saves do
# not need the cache (the summary on the game row), and a sheet that fell out is derived again
# from the stored scores (60 hands in ~3 ms): 256 games, more than one server's tables show in a
# while, kept the RSS after 1,000 games viewed and saved at 1.31x idle (512: 1.47x).
STATE_CACHE_HANDS = 10_000
STATE_CACHE_GAMES = 256
_STATES: OrderedDict[str, tuple[Any, GameState]] = OrderedDict()
_STATES_HANDS = [0]
_STATES_LOCK = threading.Lock()
_CLAIMED = "scorekeeper.claimed"  # session.info: this session bumped a version
_DERIVED = "scorekeeper.derived"  # session.info: {game id: (flushes, stamp, state)}
_FLUSHES = "scorekeeper.flushes"
_ANSWER = "scorekeeper.answer"  # session.info: {game id: (flushes, state)} of the last save


def _stamp(game: Game) -> tuple[int, Any]:
    return game.version, game.updated_at


def _cached(game_id: str, stamp: tuple[int, Any]) -> GameState | None:
    with _STATES_LOCK:
        found = _STATES.get(game_id)
        if found is None or found[0] != stamp:
            return None
        _STATES.move_to_end(game_id)
        return found[1]


def _remember(game_id: str, stamp: tuple[int, Any], state: GameState) -> None:
    with _STATES_LOCK:
        old = _STATES.pop(game_id, None)
        if old is not None:
            _STATES_HANDS[0] -= len(old[1].hands)
        _STATES[game_id] = (stamp, state)
        _STATES_HANDS[0] += len(state.hands)
        while _STATES and (
            _STATES_HANDS[0] > STATE_CACHE_HANDS or len(_STATES) > STATE_CACHE_GAMES
        ):
            _, (_, gone) = _STATES.popitem(last=False)
            _STATES_HANDS[0] -= len(gone.hands)


def forget_states() -> None:
    """Empty the state cache (a cold start, for tests and benchmarks)."""
    with _STATES_LOCK:
        _STATES.clear()
        _STATES_HANDS[0] = 0


@event.listens_for(Session, "after_flush")
def _count_flush(session: Session, _context: Any) -> None:
    session.info[_FLUSHES] = session.info.get(_FLUSHES, 0) + 1


@event.listens_for(Session, "after_commit")
def _publish(session: Session) -> None:
    derived = session.info.pop(_DERIVED, {})
    flushes = session.info.get(_FLUSHES, 0)
    for game_id, (at, stamp, state) in derived.items():
        if at == flushes:
            _remember(game_id, stamp, state)
    session.info.pop(_CLAIMED, None)
    session.info.pop(_ANSWER, None)


@event.listens_for(Session, "after_rollback")
def _discard(session: Session) -> None:
    session.info.pop(_DERIVED, None)
    session.info.pop(_ANSWER, None)
    session.info.pop(_CLAIMED, None)


def _derived(session: Session, game: Game, state: GameState) -> None:
    """Keep the state a changing session derived, for itself and for the cache once it
    commits (unless something is flushed after it)."""
    session.info.setdefault(_DERIVED, {})[game.id] = (
        session.info.get(_FLUSHES, 0),
        _stamp(game),
        state,
    )


def _state_at(game: Game, version: int) -> GameState:
    """The state as committed at ``version``, the version this session has just claimed (so
    nobody else can change the game): from the cache, else derived from its hands."""
    session = object_session(game)
    kept = session.info.get(_DERIVED, {}).get(game.id) if session is not None else None
    if kept is not None and kept[2].version == version and kept[0] == session.info.get(_FLUSHES, 0):  # type: ignore[union-attr]
        return kept[2]  # type: ignore[no-any-return]  # this session's own last change
    with _STATES_LOCK:
        found = _STATES.get(game.id)
    if found is not None and found[1].version == version:
        return found[1]
    return _derive(game)


def game_state(game: Game) -> GameState:
    """The game's sheet: totals, minimums, the dealer, the winner and every hand's scores;
    from the cache when this version was derived before (see above)."""
    stamp = _stamp(game)
    session = object_session(game)
    claimed = session is not None and session.info.get(_CLAIMED)
    if claimed:
        kept = session.info.get(_DERIVED, {}).get(game.id)  # type: ignore[union-attr]
        if kept is not None and kept[0] == session.info.get(_FLUSHES, 0) and kept[1] == stamp:  # type: ignore[union-attr]
            return kept[2]  # type: ignore[no-any-return]
    else:
        cached = _cached(game.id, stamp)
        if cached is not None:
            return cached
    state = _derive(game)
    if session is None:
        return state
    if claimed:
        _derived(session, game, state)
    else:
        _remember(game.id, stamp, state)
    return state


def _derive(game: Game) -> GameState:
    """Derive totals, minimums, the dealer and the winner from every stored hand (each one's
    score as stored beside it, or scored again)."""
    rs = _ruleset(game)
    table = seats(game)
    totals = [0] * len(game.sides)
    rows: list[HandRow] = []
    options = _canonical(game.options or {})
    earlier = _live_corrections(game)
    for hand in game.hands:
        rows.append(
            _hand_row(
                game,
                rs,
                table,
                totals,
                hand,
                _stored_entry(game, options, hand),
                earlier.get(hand.number, []),
            )
        )
    return _finish(game, rs, table, totals, rows)


def _hand_row(
    game: Game,
    rs: RuleSet,
    table: list[Seat],
    totals: list[int],
    hand: Hand,
    entry: _Entry,
    earlier: Sequence[Any],
) -> HandRow:
    """One hand's row of the sheet; adds its scores to ``totals`` (the totals before it)."""
    players = game.players
    cutthroat = is_cutthroat(players)
    n = len(game.sides)
    minimums = [rs.initial_meld_minimum(t, players) for t in totals]
    scores: list[HandScore | None] = [None] * n
    for t, (side, result) in enumerate(zip(entry.sides, entry.result.sides, strict=False)):
        cols = entry.members[t] if t < len(entry.members) else []
        base = result.score - result.items.get("red_threes", 0)
        for k, c in enumerate(cols):
            if c >= n:
                continue
            items = dict(result.items)
            score = result.score
            if result.player_scores is not None and len(cols) > 1 and k < len(result.player_scores):
                score = result.player_scores[k]
                items["red_threes"] = score - base
            totals[c] += score
            scores[c] = HandScore(
                score,
                items,
                dict(result.canastas),
                totals[c],
                minimums[c],
                side.went_out or side.concealed,
                side.concealed,
                t,
                cutthroat and len(cols) == 1,
            )
    filled = [
        s
        if s is not None
        else HandScore(0, {}, {}, totals[c], minimums[c], False, False, -1, False)
        for c, s in enumerate(scores)
    ]
    return HandRow(
        hand.number,
        hand.teams,
        hand.lone_player,
        bool(hand.stock_out),
        filled,
        table[(hand.number - 1) % len(table)],
        hand.created_at,
        hand.updated_at,
        list(entry.problems),
        list(entry.result.warnings),
        [
            Correction(
                r.entered_at,
                r.changed_at,
                _column_scores(
                    _scored(
                        game.ruleset,
                        players,
                        _canonical(game.options or {}),
                        n,
                        _canonical(r.teams),
                        r.lone_player,
                        bool(r.stock_out),
                    ),
                    n,
                ),
            )
            for r in earlier
        ],
    )


def _finish(
    game: Game,
    rs: RuleSet,
    table: list[Seat],
    totals: list[int],
    rows: list[HandRow],
    skipped: int = 0,
) -> GameState:
    """The sheet from its rows and the totals after the last one (``skipped``: hands before
    the first of ``rows``, left out)."""
    players = game.players
    target = game.target
    columns = [
        Column(
            str(side.get("name", "")),
            [str(p) for p in side.get("players") or []],
            totals[c],
            rs.initial_meld_minimum(totals[c], players),
            max(0, target - totals[c]),
        )
        for c, side in enumerate(game.sides)
    ]
    base_rs = PRESETS.get(game.ruleset, rs)
    return GameState(
        view_id=game.view_id,
        name=game.name,
        ruleset=game.ruleset,
        ruleset_name=rs.name,
        players=players,
        options=dict(game.options or {}),
        cutthroat=is_cutthroat(players),
        house_rules=rs.options_against(base_rs),
        target=target,
        columns=columns,
        hands=rows,
        winner=winner(totals, target),
        next_dealer=table[(skipped + len(rows)) % len(table)],
        seats=table,
        version=game.version,
        created_at=game.created_at,
        updated_at=game.updated_at,
        rules=rs,
        base_rules=base_rs,
        skipped=skipped,
    )
