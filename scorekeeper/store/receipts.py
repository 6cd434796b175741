"""Exactly once: the ``entry_id`` a phone gives each hand entry, kept with the hand it made.

A phone that lost the answer to a save (the connection dropped after the commit) cannot know
whether the hand was stored, so its outbox sends the entry again under the same id. The game
answers such a repeat as it answered the first time (the same hand, 201 or 200) and changes
nothing, whatever version the repeat carries. The receipt is written in the same transaction
as the hand; the unique index per game makes a racing copy fail (``IntegrityError``) and the
caller then answers it as a repeat too.

A repeat is the same entry: the receipt keeps a digest of what the entry said (:func:`digest`,
everything but its version and its id), and the same ``entry_id`` with other content is
refused (409 ``entry.reused``) instead of being answered as the first and silently dropped.
When the hand an entry made or corrected is deleted, its receipts say so
(:func:`forget_hand`; an undo of that deletion clears it, :func:`restore_hand`): a repeat then
answers ``entry.deleted`` (410), not the first answer for a hand that is gone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, func, insert, select, update
from sqlalchemy.orm import Session

from ..rules.problems import Problem
from .models import EntryReceipt, Hand, utcnow

_RECEIPTS = cast(Table, EntryReceipt.__table__)


#: What a request carries besides its content: a repeat may carry another version (the
#: phone's outbox builds on the newest state it knows), another form token, and "save
#: anyway" for "save".
NOT_CONTENT = frozenset({"entry_id", "version", "csrf_token", "action"})


@dataclass(frozen=True)
class Receipt:
    """What the first save under an ``entry_id`` did: the hand, whether it was new, what the
    entry said (None: not known, a receipt kept before digests were) and whether that hand
    has been deleted since."""

    number: int
    created: bool
    content: str | None = None
    deleted: bool = False

    def same_content(self, content: str | None) -> bool:
        """Whether an entry saying ``content`` is this entry again (an unknown side counts
        as the same: only a difference that can be seen refuses it)."""
        return self.content is None or content is None or self.content == content

    def problem(self, content: str | None) -> tuple[int, Problem] | None:
        """Why a request under this receipt's id is not answered as the first time, if it is
        not: other content (409 ``entry.reused``), or the hand it made was deleted since
        (410 ``entry.deleted``)."""
        if not self.same_content(content):
            return 409, Problem("entry.reused", "entry_id", {})
        if self.deleted:
            return 410, Problem("entry.deleted", "entry_id", {"number": self.number})
        return None


def digest(target: Any, fields: Iterable[tuple[str, Any]]) -> str:
    """What an entry says, as 64 hex digits: its target (the hand it corrects; None: a new
    one) and its fields but :data:`NOT_CONTENT`, in a canonical order (JSON keys sorted, a
    form's fields by name, each name's values in their order).

    >>> a = digest(None, {"teams": [1, 2], "version": 3}.items())
    >>> a == digest(None, {"version": 9, "teams": [1, 2]}.items())
    True
    >>> a == digest(None, {"teams": [2, 1]}.items()) or a == digest(4, {"teams": [1, 2]}.items())
    False
    """
    kept = sorted(((k, v) for k, v in fields if k not in NOT_CONTENT), key=lambda kv: kv[0])
    text = json.dumps([target, kept], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def seen(session: Session, game_id: str, entry_id: str) -> Receipt | None:
    """The receipt of ``entry_id`` in this game, if it has one."""
    row = session.execute(
        select(
            _RECEIPTS.c.number,
            _RECEIPTS.c.created,
            _RECEIPTS.c.content,
            _RECEIPTS.c.deleted_at_version,
        ).where(_RECEIPTS.c.game_id == game_id, _RECEIPTS.c.entry_id == entry_id)
    ).first()
    if row is None:
        return None
    return Receipt(row.number, bool(row.created), row.content, row.deleted_at_version is not None)


def last_number(session: Session, game_id: str) -> int:
    """The number of the game's last hand (0: none), read after a save."""
    found = session.scalar(select(func.max(Hand.number)).where(Hand.game_id == game_id))
    return int(found or 0)


def record(
    session: Session,
    game_id: str,
    entry_id: str,
    number: int,
    created: bool,
    content: str | None = None,
) -> None:
    """Keep the receipt with the change just made (same transaction), with the :func:`digest`
    of what the entry said. A plain insert, not an ORM object: the save's flushes are done,
    and another would make its kept state look stale (see ``cache.answer``). Raises
    ``IntegrityError`` when the game has the id already."""
    session.execute(
        insert(_RECEIPTS).values(
            game_id=game_id,
            entry_id=entry_id,
            number=number,
            created=created,
            saved_at=utcnow(),
            content=content,
        )
    )


def forget_hand(session: Session, game_id: str, number: int, version: int) -> None:
    """Hand ``number`` was deleted (the game now at ``version``): its entries' receipts say
    so. The undo receipts (``undo:…``) too: an undo sent again after its hand went again is
    stale already (``changes.undone_already``)."""
    session.execute(
        update(_RECEIPTS)
        .where(
            _RECEIPTS.c.game_id == game_id,
            _RECEIPTS.c.number == number,
            _RECEIPTS.c.deleted_at_version.is_(None),
        )
        .values(deleted_at_version=version)
    )


def restore_hand(session: Session, game_id: str, number: int, version: int) -> None:
    """The deletion of hand ``number`` that moved the game to ``version`` was undone: the
    receipts it marked are of a hand that is there again."""
    session.execute(
        update(_RECEIPTS)
        .where(
            _RECEIPTS.c.game_id == game_id,
            _RECEIPTS.c.number == number,
            _RECEIPTS.c.deleted_at_version == version,
        )
        .values(deleted_at_version=None)
    )
