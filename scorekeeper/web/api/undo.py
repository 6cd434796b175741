"""Taking back the last deletion through the games API (both games): what a delete's answer
offers, and which deletion an undo request means. The store decides whether it still may
(``store.changes.undo_delete``: only the latest change, for ``UNDO_SECONDS``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ... import store
from ...store.models import Game


def revision_to_undo(game: Game, revision: int | None) -> int | None:
    """The deletion an undo request means: ``revision`` as the delete's answer gave it (read
    at the edge, :func:`~...edge.games.read_revision`), else the one that can still be undone
    (the store refuses a stale one either way)."""
    if revision is not None:
        return revision
    offer = store.undoable_deletion(game)
    return offer.id if offer is not None else None


def undo_offer(game: Game) -> dict[str, Any] | None:
    """``{"revision", "until"}`` while the game's last deletion can be undone, else None."""
    offer = store.undoable_deletion(game)
    if offer is None:
        return None
    until = offer.changed_at + timedelta(seconds=store.UNDO_SECONDS)
    return {"revision": offer.id, "until": until.isoformat()}
