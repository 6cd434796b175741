"""A hand entered by its sides: each side of a partnership game enters its own part of the
open hand (its melds, canastas, threes, cards left, whether it went out) on its own phone, and
the part that completes a legal hand saves it, through the same :func:`.changes.add_hand` as a
hand entered whole.

The keys of a game: its editing key (everything), its view key (reading), and one key per side
(:class:`.models.GameSide`): reading, and entering that side's part. :func:`find` tells which
one a request came with.

A part is checked as the whole hand would be, with the sides not yet in standing as sides that
laid and held nothing: the problems of the part itself, and those it makes with the parts
already in (two sides out, too many red threes or cards), are refused and nothing changes.
Every change of a part moves the game's version on (a watcher sees it like a saved hand), under
the same write lock as a save; a part sent with the version its phone last read is refused
(409) when its side's part changed since, so two phones of one side never overwrite each other
unseen, and one sent for a hand already saved is refused as such.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from dataclasses import dataclass
from typing import Any, Literal, cast

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from ..edge.games import PART_MAX_BYTES as PART_MAX_BYTES
from ..edge.games import PartRead, read_hand
from ..edge.reading import Reader, read_side
from ..rules.games import winner
from ..rules.problems import Problem
from ..rules.ruleset import PRESETS
from ..rules.scoring import SideScore, score_side
from . import cache, receipts
from .changes import MAX_HANDS, add_hand, claim, closed_round_of, state_before
from .derive import derive_state
from .entries import canonical, read_entry, ruleset_of
from .errors import GameProblems, NotAllowed, PartConflict, VersionConflict
from .games import KEY, get_by_view, get_game, unloaded
from .models import Game, GameSide, utcnow

# A side's part is bounded at half what a whole hand may take (edge.games.PART_MAX_BYTES).
#: what a side that has not sent its part stands as while the others are checked: nothing laid,
#: nothing held, not out
NOTHING: dict[str, Any] = {"melds": [], "hands": [], "red_threes": 0, "went_out": False}

_SIDES = cast(Table, GameSide.__table__)

Kind = Literal["game", "view", "side"]


@dataclass(frozen=True)
class Link:
    """The game a key opens, and what kind of key it is (``side``: the side's index)."""

    game: Game
    kind: Kind
    side: int | None = None


def find(session: Session, key: Any) -> Link | None:
    """The Canasta game a key opens (editing key, a side's key or the view key), or None."""
    if not isinstance(key, str) or not KEY.match(key):
        return None
    game = get_game(session, key)
    if game is not None:
        return Link(game, "game")
    # the side's row and its game in one read
    found = session.execute(
        select(Game, GameSide.side)
        .join(GameSide, GameSide.game_id == Game.id)
        .where(GameSide.key == key)
        .options(*unloaded())
    ).first()
    if found is not None:
        return Link(found[0], "side", found[1]) if found[0].ruleset in PRESETS else None
    game = get_by_view(session, key)
    return Link(game, "view") if game is not None else None


def side_keys(session: Session, game_id: str) -> list[str]:
    """The game's side keys in the order of its sides (empty: a game without)."""
    query = select(_SIDES.c.key).where(_SIDES.c.game_id == game_id).order_by(_SIDES.c.side)
    return list(session.scalars(query))


@dataclass(frozen=True)
class Part:
    """One side's part of the open hand as shown: what it sent (as stored) and its score."""

    side: int
    part: dict[str, Any] | None
    score: SideScore | None
    updated_at: Any = None


@dataclass(frozen=True)
class Parts:
    """The open hand's parts: every side, in order (``part`` None: not in yet)."""

    hand: int
    parts: list[Part]
    version: int
    finished: bool

    @property
    def sides_in(self) -> int:
        return sum(1 for p in self.parts if p.part is not None)


def _rows(session: Session, game: Game, lock: bool = False) -> list[GameSide]:
    query = select(GameSide).where(GameSide.game_id == game.id).order_by(GameSide.side)
    if lock:
        query = query.execution_options(populate_existing=True)
    return list(session.scalars(query))


def open_hand(game: Game) -> tuple[int, list[int] | None]:
    """The number of the hand not yet saved, and the totals so far when known."""
    before = state_before(game, game.version)
    if before is not None:
        return before.hands + 1, before.totals
    state = cache.state_of(game, derive_state)
    return state.next_hand, [c.total for c in state.columns]


def read_parts(session: Session, game: Game, rows: list[GameSide] | None = None) -> Parts:
    """The parts of the game's open hand, each scored alone (``rows``: the game's side rows
    as this session has them, else read)."""
    number, totals = open_hand(game)
    rules = ruleset_of(game)
    shown = []
    for row in rows if rows is not None else _rows(session, game):
        if row.part is not None and row.hand == number:
            reader = Reader()
            entry = read_side(reader, row.part, "part")
            score = score_side(rules, game.players, entry)
            shown.append(Part(row.side, row.part, score, row.updated_at))
        else:
            shown.append(Part(row.side, None, None))
    finished = totals is not None and winner(totals, game.target) is not None
    return Parts(number, shown, game.version, finished)


def check_with_others(game: Game, side: int, stored: dict[str, Any], others: list[Any]) -> None:
    """Check a part as the hand it is part of: ``others`` the stored parts by side (None:
    not in). Problems of this part and those it makes with the others are raised (422),
    placed at ``part``; the sides not in stand as :data:`NOTHING`."""
    teams = [o if o is not None else NOTHING for o in others]
    teams[side] = stored
    entry = read_entry(ruleset_of(game), game.players, len(game.sides), teams, None, False)
    own = f"teams[{side}]"
    problems = []
    for problem in entry.problems:
        if problem.where == "teams" or problem.where == own:
            problems.append(Problem(problem.code, "part", problem.params))
        elif problem.where.startswith((own + ".", own + "[")):
            problems.append(
                Problem(problem.code, "part" + problem.where[len(own) :], problem.params)
            )
    if problems:
        raise GameProblems(problems)


@dataclass(frozen=True)
class Outcome:
    """What a part change did: ``saved`` the hand it completed and saved (else None);
    ``repeat`` whether it was a request seen before (nothing changed)."""

    saved: int | None
    repeat: bool = False
    shown: Parts | None = None  # the parts after a part stored or taken back (read in the change)


def _locked(session: Session, link: Link) -> Game:
    """The game read again under its write lock (PostgreSQL: the row; SQLite: the write
    transaction holds the database): what the change decides on is current."""
    query = (
        select(Game)
        .where(Game.id == link.game.id)
        .options(*unloaded())  # its hands stay unread: the summary or the kept state says enough
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    game = session.scalars(query).first()
    assert game is not None  # games are never deleted
    return game


def may_enter(link: Link, side: int) -> None:
    """Raise :class:`NotAllowed` unless ``link`` may change side ``side``'s part (a view key
    never does; a side's key its own side only)."""
    if link.kind == "view":
        raise NotAllowed("view.read_only")
    if link.kind == "side" and link.side != side:
        raise NotAllowed("side.other")


def _checks(
    session: Session,
    game: Game,
    side: int,
    rows: list[GameSide],
    version: int | None,
    hand: int | None,
) -> tuple[int, list[int] | None]:
    """What every part change checks first: the open hand, the tournament round, the hand and
    version the phone sent (either may be left out; read at the edge)."""
    if not rows:  # 3-player cutthroat: see games.new_sides
        raise GameProblems([Problem("part.no_sides", "side", {})])
    if not 0 <= side < len(rows):
        raise GameProblems([Problem("side.not_found", "side", {"side": side})], 404)
    number, totals = open_hand(game)
    # What decides which parts belong to the open hand is read here, under the game's lock,
    # from the stored hands themselves (one indexed read), never from a state kept in memory:
    # whatever a page derived and kept, the part that completes the hand sees it complete.
    fresh = receipts.last_number(session, game.id) + 1
    if fresh != number:  # pragma: no cover - a kept state out of step with the hands
        number, totals = fresh, None
    closed = session.scalar(closed_round_of(game.id))
    if closed is not None:
        raise GameProblems([Problem("tournament.round_closed", "", {"round": closed})], 409)
    if totals is not None and winner(totals, game.target) is not None:
        raise GameProblems([Problem("game.finished", "", {})])
    if number > MAX_HANDS:
        raise GameProblems([Problem("request.too_large", "hands", {"limit": MAX_HANDS})], 422)
    if hand is not None and hand != number:
        raise PartConflict(
            "part.hand_saved" if hand < number else "part.hand_unknown", hand, number
        )
    if version is not None and rows[side].version > version:
        raise VersionConflict(version, game.version)
    return number, totals


def _bump(session: Session, game: Game) -> int:
    """Move the game's version on for a part (no hand changes): the summary the next save
    reads is carried over, so that save still needs no hand read. The new version."""
    now = utcnow()
    version = game.version
    kept = cache.summary_at(game, version)
    summary = cache.summary(version + 1, now, kept[0], kept[1]) if kept is not None else None
    claim(session, game, version, summary, now)
    return version + 1


def put_part(
    session: Session,
    link: Link,
    side: int,
    part: PartRead,
    version: int | None = None,
    hand: int | None = None,
    entry_id: str | None = None,
) -> Outcome:
    """Enter (or correct) side ``side``'s part of the open hand (``part``: read at the edge,
    :func:`~..edge.games.read_part`); when every side is then in, the hand is saved at once.
    Raises :class:`NotAllowed`, :class:`GameProblems`,
    :class:`PartConflict`, :class:`VersionConflict`; nothing changes then."""
    may_enter(link, side)
    stored = part.stored
    game = _locked(session, link)
    rows = _rows(session, game, lock=True)
    if entry_id is not None:  # sent before: answered as the game is now, nothing changes
        first = receipts.seen(session, game.id, entry_id)
        if first is not None:
            row = rows[side] if 0 <= side < len(rows) else None
            if (
                row is not None
                and row.entry_id == entry_id
                and row.part is not None
                and canonical(row.part) != canonical(stored)
            ):
                raise GameProblems([Problem("entry.reused", "entry_id", {})], 409)
            return Outcome(first.number if first.created else None, repeat=True)
    number, _totals = _checks(session, game, side, rows, version, hand)
    others = [r.part if r.part is not None and r.hand == number else None for r in rows]
    check_with_others(game, side, stored, others)
    others[side] = stored
    if all(o is not None for o in others):
        saved = add_hand(session, game, game.version, read_hand(others, stored=True))
        if entry_id is not None:
            receipts.record(session, game.id, entry_id, saved.number, True)
        return Outcome(saved.number)
    after = _bump(session, game)
    row = rows[side]
    row.part, row.hand, row.version = stored, number, after
    row.entry_id, row.updated_at = entry_id, utcnow()
    session.flush()
    if entry_id is not None:  # a repeat is answered as now, never stored as a new part
        receipts.record(session, game.id, entry_id, number, False)
    return Outcome(None, shown=read_parts(session, game, rows))


def withdraw_part(
    session: Session, link: Link, side: int, version: int | None = None, hand: int | None = None
) -> bool:
    """Take back side ``side``'s part of the open hand; False when there was none (nothing
    changes, the version stays). Same errors as :func:`put_part`."""
    may_enter(link, side)
    game = _locked(session, link)
    rows = _rows(session, game, lock=True)
    number, _totals = _checks(session, game, side, rows, version, hand)
    row = rows[side]
    if row.part is None or row.hand != number:
        return False
    after = _bump(session, game)
    row = rows[side]
    row.part, row.hand, row.version = None, None, after
    row.entry_id, row.updated_at = None, utcnow()
    session.flush()
    return True


def get_by_side(session: Session, key: Any) -> Game | None:
    """The Canasta game a side's key opens (to be read as its view is), or None."""
    if not isinstance(key, str) or not KEY.match(key):
        return None
    row = session.scalars(select(GameSide).where(GameSide.key == key)).first()
    return get_game(session, row.game_id) if row is not None else None


def is_side_key(session: Session, key: Any) -> bool:
    """Whether ``key`` is a side's key (checked where a page or answer refuses it)."""
    return get_by_side(session, key) is not None


def parts_of_hand(session: Session, game_id: str, number: int) -> list[dict[str, Any] | None]:
    """The parts of hand ``number`` by side (None: not in), read alone: what the scorer's
    whole-hand form starts from."""
    query = (
        select(_SIDES.c.part, _SIDES.c.hand)
        .where(_SIDES.c.game_id == game_id)
        .order_by(_SIDES.c.side)
    )
    return [part if hand == number else None for part, hand in session.execute(query)]
