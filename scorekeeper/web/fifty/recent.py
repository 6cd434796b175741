"""This browser's games of 3 ist 50, for the start page and the game's own start page (apart
from the area's routes, so that the start page lists them without importing those)."""

from __future__ import annotations

from ...store import fifty as store
from ...store.db import session_scope
from ..play import pages


def recent_ids() -> list[str]:
    return pages.recent_ids(pages.FIFTY_COOKIE)


def recent_games(ids: list[str] | None = None) -> list[tuple[str, store.FiftyState]]:
    """This browser's games of 3 ist 50 (or those of ``ids``: a page of them), newest first."""
    ids = recent_ids() if ids is None else ids
    out = []
    if ids:
        with session_scope() as session:
            for game_id in ids:
                game = store.get_game(session, game_id)
                if game is not None:
                    out.append((game_id, store.fifty_state(game)))
    return out
