"""Light reads for pages that are sent again until something changes (issue 16).

A game page shows the game and, when it is one of an evening's games, the evening's standings;
both change only when one of these games changes (each change moves its ``version`` and
``updated_at`` on) or when the chain itself changes (a game joins it with "same players again",
or a game of it is deleted). :func:`chain_stamp` reads exactly that, in one statement without
the ORM, so a page kept from an earlier request can be checked against the database on every
request: the database stays the truth, also with several server processes.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from sqlalchemy import bindparam, func, or_, select

from .db import engine
from .models import Game, HandRevision

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
# built once: only the keys change from request to request
_CHAIN = select(*_COLUMNS).where(
    or_(
        Game.id.in_(bindparam("ids", expanding=True)),
        Game.previous_id.in_(bindparam("ids", expanding=True)),
    )
)
_VIEW = select(Game.ruleset, Game.version).where(Game.view_id == bindparam("view_id"))


def chain_stamp(chain: Iterable[str]) -> Stamp:
    """What a page of the games ``chain`` depends on, as it is now: the rows of the games in
    it and of any game that follows one of them (a newcomer changes the stamp even before it
    is known as a member). Sorted, so equal states give equal stamps."""
    with engine().connect() as connection:
        rows = connection.execute(_CHAIN, {"ids": sorted(set(chain))}).all()
    return tuple(sorted(tuple(row) for row in rows))


def view_version(view_id: str) -> tuple[str, int] | None:
    """The ruleset and version of the game with this view key (one indexed read), or None for
    an unknown key."""
    with engine().connect() as connection:
        row = connection.execute(_VIEW, {"view_id": view_id}).first()
    return None if row is None else (str(row[0]), int(row[1]))
