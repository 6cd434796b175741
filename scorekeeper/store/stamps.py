"""Light reads that prove a kept page or game current (see :mod:`.cache`).

A game page shows the game and, when it is one of an evening's games, the evening's standings;
both change only when one of these games changes (each change moves its ``version`` and
``updated_at`` on) or when the chain itself changes (a game joins it with "same players again",
or a game of it is deleted). :func:`chain_stamp` reads exactly that, in one statement without
the ORM, so a page kept from an earlier request can be checked against the database on every
request: the database stays the truth, also with several server processes.

These reads run on every view of a page, so they skip SQLAlchemy's per-statement work (a large
part of a kept page's cost): each statement is compiled once per dialect (and number of keys)
to the driver's own SQL (kept in ``cache.kept().statements``) and run on a pooled connection's
cursor. Values come back as the
driver gives them; a stamp is only ever compared with another one of the same engine.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, Select, bindparam, func, or_, select
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from . import cache
from .db import engine
from .models import Game, HandRevision, Tournament, TournamentGame, TournamentRound

#: (id, previous_id, version, updated_at, last revision's time) of every game in the chain or
#: following one of it
Stamp = tuple[tuple[Hashable, ...], ...]

# the latest correction or deletion: the undo offer of a deletion depends on its time
_LAST_REVISION = (
    select(func.max(HandRevision.changed_at))
    .where(HandRevision.game_id == Game.id)
    .scalar_subquery()
)
_COLUMNS = (Game.id, Game.previous_id, Game.version, Game.updated_at, _LAST_REVISION)


def _chain_statement(count: int) -> ClauseElement:
    keys = [bindparam(f"k{i}", type_=Game.id.type) for i in range(count)]
    return select(*_COLUMNS).where(or_(Game.id.in_(keys), Game.previous_id.in_(keys)))


def _game_statement(_count: int) -> ClauseElement:
    return select(Game.version, Game.updated_at).where(Game.id == bindparam("k0"))


def _view_statement(_count: int) -> ClauseElement:
    return select(Game.ruleset, Game.version).where(Game.view_id == bindparam("k0"))


def _rows(name: str, keys: Sequence[str]) -> list[Sequence[Any]]:
    """The rows of the statement ``name`` for these keys (bound as k0, k1, …)."""
    bound = engine()
    compiled = _compile(bound, name, len(keys))
    sql, order = compiled
    values: Mapping[str, str] = {f"k{i}": key for i, key in enumerate(keys)}
    parameters: Any = values if order is None else tuple(values[k] for k in order)
    connection = bound.raw_connection()
    try:
        cursor = connection.cursor()
        try:
            cursor.execute(sql, parameters)
            return list(cursor.fetchall())
        finally:
            cursor.close()
    finally:
        connection.close()  # back to the pool, which ends the read's transaction


def _owner_statement(_count: int) -> ClauseElement:
    return select(Game.ruleset, Game.id).where(Game.view_id == bindparam("k0"))


def tournament_stamp_query() -> Select[str, int, int, datetime, int]:
    """A tournament's editing key and what proves a kept view of it current: its version;
    over its games, their number, newest change and sum of versions (add the ``where``). The
    poll reads it here on the driver's cursor; a view built in a session reads it there."""
    return (
        select(
            Tournament.id,
            Tournament.version,
            func.count(Game.id),
            func.max(Game.updated_at),
            func.sum(Game.version),
        )
        .select_from(Tournament)
        .outerjoin(TournamentRound, TournamentRound.tournament_id == Tournament.id)
        .outerjoin(TournamentGame, TournamentGame.round_id == TournamentRound.id)
        .outerjoin(Game, Game.id == TournamentGame.game_id)
        .group_by(Tournament.id, Tournament.version)
    )


def _tournament_statement(_count: int) -> ClauseElement:
    key = bindparam("k0", type_=Tournament.id.type)
    return tournament_stamp_query().where(or_(Tournament.id == key, Tournament.view_id == key))


_STATEMENTS = {
    "chain": _chain_statement,
    "game": _game_statement,
    "view": _view_statement,
    "owner": _owner_statement,
    "tournament": _tournament_statement,
}


def _compile(bound: Engine, name: str, count: int) -> tuple[str, tuple[str, ...] | None]:
    """The driver's SQL of statement ``name`` and its parameters' names in order (None when
    the driver takes them by name)."""
    compiled_statements = cache.kept().statements
    key = (bound.dialect.name, name, count)
    found = compiled_statements.get(key)
    if found is None:
        compiled = _STATEMENTS[name](count).compile(dialect=bound.dialect)
        assert isinstance(compiled, SQLCompiler)
        order = (
            tuple(compiled.positiontup) if compiled.positional and compiled.positiontup else None
        )
        found = (compiled.string, order)
        compiled_statements[key] = found  # one dict store: atomic; a race compiles twice
    return found


def chain_stamp(chain: Iterable[str]) -> Stamp:
    """What a page of the games ``chain`` depends on, as it is now: the rows of the games in
    it and of any game that follows one of them (a newcomer changes the stamp even before it
    is known as a member). Sorted, so equal states give equal stamps."""
    rows = _rows("chain", sorted(set(chain)))
    return tuple(sorted(tuple(row) for row in rows))


def game_stamp(game_id: str) -> tuple[Hashable, ...] | None:
    """The version and time of change of the game with this editing key (one indexed read),
    or None for an unknown key: what a kept copy of the game is checked against."""
    rows = _rows("game", [game_id])
    return tuple(rows[0]) if rows else None


def view_version(view_id: str) -> tuple[str, int] | None:
    """The ruleset and version of the game with this view key (one indexed read), or None for
    an unknown key."""
    rows = _rows("view", [view_id])
    return None if not rows else (str(rows[0][0]), int(rows[0][1]))


def view_owner(view_id: str) -> tuple[str, str] | None:
    """The ruleset and editing key of the game with this view key (one indexed read), or None
    for an unknown key: a kept view page is kept under the game's own key."""
    rows = _rows("owner", [view_id])
    return None if not rows else (str(rows[0][0]), str(rows[0][1]))


def tournament_stamp(key: str) -> tuple[str, bool, tuple[Hashable, ...]] | None:
    """The tournament with this editing or view key: its editing key, whether ``key`` was
    that one, and what proves a kept view of it current (its version; its games' count,
    newest change and sum of versions), in one light read; None for an unknown key."""
    rows = _rows("tournament", [key])
    if not rows:
        return None
    row = tuple(rows[0])
    return str(row[0]), row[0] == key, row[1:]
