"""Changing a stored game's hands: add, correct, delete the last, take a deletion back. Each
change keeps what a hand said before (``HandRevision``) and moves the game's version on.

Every function takes the caller's SQLAlchemy ``Session`` and never commits: the caller wraps a
change in ``store.db.write_scope()`` so that the version bump and the hand write are one
transaction (all or nothing).

Concurrency (two phones at one table): each change runs a conditional
``UPDATE games SET version = version + 1 WHERE id = :id AND version = :v`` *first* and checks
that it touched one row; otherwise :class:`.errors.VersionConflict` (HTTP 409). The UPDATE
takes the row's write lock (PostgreSQL row lock, SQLite database write lock) until the
transaction ends, so a second writer with the same version waits and then finds ``version``
moved on: exactly one of them wins, and no hand is lost.

A save also writes the game's summary (hand count and totals, :func:`.cache.summary`) in its
version bump, so the next save needs no other hand even when nothing is kept in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Select, Table, bindparam, select, update
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session, object_session
from sqlalchemy.orm.attributes import set_committed_value

from ..edge.games import MAX_HANDS as MAX_HANDS
from ..edge.games import HandRead
from ..rules.games import winner
from ..rules.problems import Problem
from ..rules.ruleset import PRESETS
from . import cache, receipts
from .derive import column_scores, derive_state, finish_state, hand_row, seats, stored_entry
from .entries import CheckedHand, canonical, checked_for, ruleset_of
from .errors import GameProblems, HandNotFound, VersionConflict
from .games import hand_count
from .models import (
    Game,
    GameSide,
    Hand,
    HandRevision,
    TournamentGame,
    TournamentRound,
    utcnow,
)
from .state import GameState


def parse_version(value: Any) -> int:
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


_GAMES = cast(Table, Game.__table__)
_TOURNAMENT_GAMES = cast(Table, TournamentGame.__table__)
_ROUNDS = cast(Table, TournamentRound.__table__)
_SIDES = cast(Table, GameSide.__table__)


def closed_round_of(game_id: Any) -> Select[tuple[int]]:
    """The number of the closed tournament round the game was played in (no row: none).
    ``game_id``: a key, or the games table's own column inside a statement on it. Such a
    game's round result stands: its table takes no new hand (the director may still correct a
    mistyped one)."""
    return (
        select(_ROUNDS.c.number)
        .select_from(_TOURNAMENT_GAMES.join(_ROUNDS, _ROUNDS.c.id == _TOURNAMENT_GAMES.c.round_id))
        .where(_TOURNAMENT_GAMES.c.game_id == game_id, _ROUNDS.c.state == "closed")
    )


_BUMP = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("key"), _GAMES.c.version == bindparam("given"))
    .values(
        version=_GAMES.c.version + 1,
        updated_at=bindparam("now", type_=_GAMES.c.updated_at.type),
        summary=bindparam("kept", type_=_GAMES.c.summary.type),
    )
)
#: the same for a new hand, which a game of a closed tournament round does not take
_BUMP_NEW_HAND = _BUMP.where(~closed_round_of(_GAMES.c.id).exists())


def claim(
    session: Session,
    game: Game,
    version: int,
    summary: dict[str, Any] | None = None,
    now: datetime | None = None,
    new_hand: bool = False,
) -> None:
    """The conditional version bump that serialises writers (see the module docstring).

    Runs as the first write of the transaction; afterwards everything is re-read under the lock.
    A ``new_hand`` into a game of a tournament round the director has closed is the problem
    ``tournament.round_closed`` (409), checked in the same statement.
    It also writes the game's summary after the change (``summary``, made for the version and
    ``updated_at`` = ``now`` it sets), else clears it: a summary describes its version only.
    A caller gives a summary only when the game was read at ``version``: nothing read before
    the lock can be older then (every change moves the version on), so nothing is read again.
    """
    now = now or utcnow()
    bump = _BUMP_NEW_HAND if new_hand else _BUMP
    result = session.execute(bump, {"key": game.id, "given": version, "now": now, "kept": summary})
    if result.rowcount != 1:  # type: ignore[attr-defined]
        current = session.scalar(select(Game.version).where(Game.id == game.id))
        closed = session.scalar(closed_round_of(game.id)) if new_hand else None
        if closed is not None:  # whatever the version: the round takes no new hand
            raise GameProblems([Problem("tournament.round_closed", "", {"round": closed})], 409)
        raise VersionConflict(version, current)
    cache.claim(session)  # states derived from now on wait for the commit
    if summary is not None:
        for key, value in (("version", version + 1), ("updated_at", now), ("summary", summary)):
            set_committed_value(game, key, value)
        return
    # What was read before the lock may be older than ``version``: read it again.
    session.expire_all()


def add_hand(
    session: Session,
    game: Game,
    version: int,
    read: HandRead,
    checked: CheckedHand | None = None,
) -> Hand:
    """Append the next hand to ``game`` (flushed, not committed) and bump its version.

    ``read``: the hand as the edge read it (:func:`~..edge.games.read_hand`: its sides as in
    ``POST /api/v1/score``, stored as read). In 3-player cutthroat, either ``[lone player's
    side, partnership]`` with ``lone_player`` the lone player's column and the partnership's
    ``red_threes`` a list of two (one per partner, in seating order), or three teams of one
    (column order) when the stock ran out before anyone took the pile. ``stock_out``: the stock
    ran out (nobody went out). ``checked``: the preview's check of this very hand, if any.

    Raises :class:`GameProblems` (nothing stored; also ``game.finished`` when the game already
    has a winner), :class:`VersionConflict`.
    """
    given = parse_version(version)
    checked = checked_for(game, checked, read)
    # What the state was at ``given``: this session's, the cache's or the game's summary (then
    # no hand is read at all); else derived from the hands once the game is claimed.
    before = state_before(game, given)
    now = utcnow()
    claimed = before is None
    if before is None:
        claim(session, game, given, new_hand=True)
        state = cache.state_at(game, given, derive_state)
        before = Before(len(state.hands), [c.total for c in state.columns], state)
    rules = before.state.rules if before.state is not None else ruleset_of(game)
    table = before.state.seats if before.state is not None else seats(game)
    hand = Hand(
        number=before.hands + 1,
        teams=checked.stored,
        lone_player=checked.lone,
        stock_out=checked.stock_out,
        created_at=now,
        updated_at=now,
        scored=cache.score_json(checked.entry),
    )
    # The state after the save: the one before it and one more row (no hand read again).
    totals = list(before.totals)
    row = hand_row(game, rules, table, totals, hand, checked.entry, [])
    if claimed:
        game.summary = cache.summary(game.version, game.updated_at, hand.number, totals)
    else:
        summary = cache.summary(given + 1, now, hand.number, totals)
        claim(session, game, given, summary, now, new_hand=True)
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
    clear_parts(session, game.id, given + 1)
    if before.state is not None:
        after = finish_state(game, rules, table, totals, [*before.state.hands, row])
        cache.keep_own(session, game, after)
    else:  # the answer's state: the new row only (see GameState.skipped)
        after = finish_state(game, rules, table, totals, [row], skipped=before.hands)
    cache.keep_answer(session, game, after)
    return hand


def clear_parts(session: Session, game_id: str, version: int) -> None:
    """A hand was saved (whole, or by the part that completed it): the sides' parts of it
    (``store.parts``) are done with. Their rows take the version of the save, so a phone
    still showing one is told it is stale."""
    session.execute(
        update(_SIDES)
        .where(_SIDES.c.game_id == game_id, _SIDES.c.part.is_not(None))
        .values(part=None, hand=None, entry_id=None, version=version, updated_at=utcnow())
    )


@dataclass(frozen=True)
class Before:
    """The state a new hand is added to: its hand count and totals, and the whole state when
    it is at hand (this session's or the cache's), else None (the game's summary)."""

    hands: int
    totals: list[int]
    state: GameState | None


def state_before(game: Game, version: int) -> Before | None:
    """The state at ``version`` without reading a hand, if the game was read at ``version``
    and its state is known: kept (this session's or the app's), else from the game's summary
    when it was made for this very version by this engine. None: unknown (the game is to be
    claimed and derived)."""
    if game.version != version:
        return None
    state = cache.known_state(game)
    if state is not None:
        return Before(len(state.hands), [c.total for c in state.columns], state)
    kept = cache.summary_at(game, version)
    return Before(kept[0], kept[1], None) if kept is not None else None


def changed_state(session: Session, game: Game) -> GameState | None:
    """The state this session's last save into ``game`` left (to answer with once committed:
    it is what the commit stores), with ``skipped`` hands left out; None when the session
    changed something after it, or made no state (then read the committed game)."""
    return cache.answer(session, game)


def replace_hand(
    session: Session,
    game: Game,
    number: Any,
    version: int,
    read: HandRead,
    checked: CheckedHand | None = None,
) -> Hand:
    """Correct hand ``number`` (any hand, also in a finished game); bumps the version.

    Same arguments and errors as :func:`add_hand`, plus :class:`HandNotFound`.
    """
    given = parse_version(version)
    if find_hand(game, number) is None:
        raise HandNotFound(number)
    checked = checked_for(game, checked, read)
    stock = checked.stock_out
    claim(session, game, given)
    hand = find_hand(game, number)
    if hand is None:  # pragma: no cover - the version check excludes this
        raise HandNotFound(number)
    lone = checked.lone
    stored = checked.stored
    if (canonical(hand.teams), hand.lone_player, bool(hand.stock_out)) != (
        canonical(stored),
        lone,
        stock,
    ):
        keep_revision(game, hand, "corrected", given + 1)
    hand.teams = stored
    hand.lone_player = lone
    hand.stock_out = stock
    hand.scored = cache.score_json(checked.entry)
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


# A deleted hand can be brought back for this long (a message with "Undo" for a
# while, also after a reload), and only while nothing else has changed in the game.
UNDO_SECONDS = 15 * 60


def undoable_deletion(game: Game) -> HandRevision | None:
    """The deletion that :func:`undo_delete` can still take back, if any: the game's latest
    change, made less than :data:`UNDO_SECONDS` ago."""
    return undoable_deletion_at(game, game.version)


def undo_delete(session: Session, game: Game, revision_id: Any, version: int) -> Hand:
    """Bring back the hand deleted last (flushed, not committed); bumps the version.

    ``version`` is the game's version the undo was offered at: if anything changed since (a
    new hand, a correction, another undo) the undo is stale (:class:`VersionConflict`), so it
    never overwrites a newer change. Raises :class:`GameProblems` (``hand.undo_expired``) when
    the offer is gone (too old, or not the latest deletion). The same undo again (its answer
    was lost) changes nothing and returns the hand the first one brought back
    (:func:`undone_already`).
    """
    given = parse_version(version)
    again = undone_already(session, game, given)
    if again is not None:
        return again
    try:
        claim(session, game, given)
    except VersionConflict:
        # A copy of this undo sent at the same moment may have just committed it.
        again = undone_already(session, game, given)
        if again is not None:
            return again
        raise
    last = undoable_deletion_at(game, given)
    if last is None or isinstance(revision_id, bool) or last.id != revision_id:
        raise GameProblems([Problem("hand.undo_expired", "", {})], 422)
    deleted_at = last.version  # the receipts of the hand were marked with it
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
    receipts.restore_hand(session, game.id, hand.number, deleted_at)
    receipts.record(session, game.id, undo_receipt(given), hand.number, True)
    return hand


def undo_receipt(version: int) -> str:
    """The receipt an undo leaves, named by the version it was offered at: a game's version
    only moves on, so each undo has its own, and the ``:`` keeps it apart from every
    ``entry_id`` a phone may send."""
    return f"undo:{version}"


def undone_already(session: Session, game: Game, version: int) -> Hand | None:
    """The hand an undo offered at ``version`` brought back, when that undo was done already
    (its answer was lost and the phone sent it again); None otherwise. The repeat is answered
    as the first one was and changes nothing."""
    first = receipts.seen(session, game.id, undo_receipt(version))
    if first is None:
        return None
    hand = read_one_hand(game, first.number)
    if hand is None:  # deleted again since: the old undo is stale
        raise VersionConflict(version, game.version)
    return hand


def undoable_deletion_at(game: Game, version: int) -> HandRevision | None:
    """:func:`undoable_deletion` as it was at ``version`` (the game is re-read after the
    version bump, so its version is one higher by then)."""
    last = latest_revision(game)
    if last is None:
        return None
    if last.kind != "deleted" or last.version != version or last.number != hand_count(game) + 1:
        return None
    if (utcnow() - last.changed_at).total_seconds() > UNDO_SECONDS:
        return None
    return last


def latest_revision(game: Game) -> HandRevision | None:
    """The game's latest correction or deletion: read alone unless its revisions are loaded."""
    session = object_session(game)
    if "revisions" in sa_inspect(game).unloaded and session is not None:
        latest = select(HandRevision).where(HandRevision.game_id == game.id)
        return session.scalars(latest.order_by(HandRevision.id.desc()).limit(1)).first()
    return game.revisions[-1] if game.revisions else None


def already_deleted(game: Game, number: Any, version: Any) -> bool:
    """Whether deleting hand ``number`` of the game at ``version`` was done already: the game's
    latest change is that very deletion, made from ``version``, and nothing changed since. A
    phone that lost the answer and taps again is then answered as the first time (the undo
    on offer), not with a conflict; nothing changes."""
    if isinstance(number, bool) or not isinstance(number, int):
        return False
    if isinstance(version, bool) or not isinstance(version, int) or game.version != version + 1:
        return False
    last = latest_revision(game)
    return (
        last is not None
        and last.kind == "deleted"
        and last.number == number
        and last.version == game.version
    )


def _deleted_meanwhile(session: Session, game: Game, number: Any, version: int) -> bool:
    """Whether a copy of this delete sent at the same moment has just committed it (the hand
    was gone, or the version had moved on, when this one looked): the game read again."""
    session.expire(game)
    return already_deleted(game, number, version)


def delete_hand(session: Session, game: Game, number: Any, version: int) -> None:
    """Delete the last hand (a mistaken entry); bumps the version.

    Only the last hand can go, so the hands stay numbered 1..n in playing order (and the
    dealer rotation stays right); deleting another is the problem ``hand.not_last`` (422).
    The same delete again (:func:`already_deleted`: its answer was lost) changes nothing and
    raises nothing: the caller answers as the first time.
    Raises :class:`HandNotFound`, :class:`GameProblems`, :class:`VersionConflict`.
    """
    given = parse_version(version)
    if already_deleted(game, number, given):
        return
    # The state before it, when known without reading the hands: then only the hand
    # itself is read, and the state after it needs no other (nor does the next save).
    before = state_before(game, given) if game.ruleset in PRESETS else None
    if before is None or "hands" not in sa_inspect(game).unloaded:
        hand = find_hand(game, number)
    else:
        hand = read_one_hand(game, number)
    if hand is None:
        if _deleted_meanwhile(session, game, number, given):
            return
        raise HandNotFound(number)
    summary, now = None, utcnow()
    if before is not None and hand.number == before.hands:
        if before.state is not None:
            rows = before.state.hands
            totals = [s.total for s in rows[-2].scores] if len(rows) > 1 else []
        else:
            scored = column_scores(
                stored_entry(game, canonical(game.options or {}), hand), len(before.totals)
            )
            totals = [t - s for t, s in zip(before.totals, scored, strict=True)]
        summary = cache.summary(given + 1, now, hand.number - 1, totals or [0] * len(game.sides))
    try:
        claim(session, game, given, summary, now)
    except VersionConflict:
        if _deleted_meanwhile(session, game, number, given):
            return
        raise
    if summary is None:  # read again under the lock
        hand = find_hand(game, number)
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
    receipts.forget_hand(session, game.id, hand.number, given + 1)
    if "hands" in sa_inspect(game).unloaded:
        session.delete(hand)
    else:
        game.hands.remove(hand)
    session.flush()
    if before is not None and summary is not None:
        totals = list(summary["totals"])
        rules = before.state.rules if before.state is not None else ruleset_of(game)
        table = before.state.seats if before.state is not None else seats(game)
        if before.state is not None:
            after = finish_state(game, rules, table, totals, before.state.hands[:-1])
            cache.keep_own(session, game, after)
        else:  # the answer's state: no hand (see GameState.skipped)
            after = finish_state(game, rules, table, totals, [], skipped=hand.number - 1)
        cache.keep_answer(session, game, after)


def read_one_hand(game: Game, number: Any) -> Hand | None:
    """Hand ``number`` of the game, read alone (its other hands stay unread)."""
    session = object_session(game)
    if session is None or isinstance(number, bool) or not isinstance(number, int):
        return None
    return session.scalars(
        select(Hand).where(Hand.game_id == game.id, Hand.number == number)
    ).first()


def find_hand(game: Game, number: Any) -> Hand | None:
    if isinstance(number, bool) or not isinstance(number, int):
        return None
    return next((h for h in game.hands if h.number == number), None)
