"""Exactly once: the ``entry_id`` a phone gives each hand entry, kept with the hand it made.

A phone that lost the answer to a save (the connection dropped after the commit) cannot know
whether the hand was stored, so its outbox sends the entry again under the same id. The game
answers such a repeat as it answered the first time (the same hand, 201 or 200) and changes
nothing, whatever version the repeat carries. The receipt is written in the same transaction
as the hand; the unique index per game makes a racing copy fail (``IntegrityError``) and the
caller then answers it as a repeat too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, func, insert, select
from sqlalchemy.orm import Session

from ..rules.problems import Problem
from .errors import GameProblems
from .models import EntryReceipt, Hand, utcnow

ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")

_RECEIPTS = cast(Table, EntryReceipt.__table__)


@dataclass(frozen=True)
class Receipt:
    """What the first save under an ``entry_id`` did: the hand, and whether it was new."""

    number: int
    created: bool


def read_entry_id(value: Any, where: str = "entry_id") -> str | None:
    """The ``entry_id`` of a request (None: none given). Raises :class:`GameProblems` for
    anything but 8 to 64 characters of ``A–Z a–z 0–9 _ -``."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise GameProblems([Problem("request.type", where, {"expected": "string"})])
    if ENTRY_ID.fullmatch(value) is None:
        raise GameProblems([Problem("request.entry_id", where, {"minimum": 8, "maximum": 64})])
    return value


def seen(session: Session, game_id: str, entry_id: str) -> Receipt | None:
    """The receipt of ``entry_id`` in this game, if it has one."""
    row = session.execute(
        select(_RECEIPTS.c.number, _RECEIPTS.c.created).where(
            _RECEIPTS.c.game_id == game_id, _RECEIPTS.c.entry_id == entry_id
        )
    ).first()
    return Receipt(row.number, bool(row.created)) if row is not None else None


def last_number(session: Session, game_id: str) -> int:
    """The number of the game's last hand (0: none), read after a save."""
    found = session.scalar(select(func.max(Hand.number)).where(Hand.game_id == game_id))
    return int(found or 0)


def record(session: Session, game_id: str, entry_id: str, number: int, created: bool) -> None:
    """Keep the receipt with the change just made (same transaction). A plain insert, not an
    ORM object: the save's flushes are done, and another would make its kept state look
    stale (see ``cache.answer``). Raises ``IntegrityError`` when the game has the id already."""
    session.execute(
        insert(_RECEIPTS).values(
            game_id=game_id,
            entry_id=entry_id,
            number=number,
            created=created,
            saved_at=utcnow(),
        )
    )
