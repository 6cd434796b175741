"""A backup imported (docs/api.md §3 "Details and additions"): a backup file of
:mod:`.backup`, or an older export in the games API's shape (one game, or ``{"games": [...]}``)
turned into one, every game checked before anything is stored, then each stored in a
transaction of its own. Shared by the games API and the start page's import (both above this
layer), and by the table import."""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any

from .backup import is_backup, read_backup, restore
from .db import write_scope

MAX_GAMES = 100  # one file from the phone; a file beyond that is refused, not cut
#: hands and earlier entries in one file (each is checked and scored: the import's CPU)
MAX_ENTRIES = 10_000


@dataclass(frozen=True)
class Imported:
    """One game of an imported file: ``added`` (else it was here already); ``game_id`` only
    when the file held the editing key or the game is new here."""

    game_id: str | None
    view_id: str
    version: int
    ruleset: str
    added: bool


def _older(item: Any) -> Any:
    """A game in the API's shape (older exports): what a backup holds of it."""
    if not isinstance(item, dict):
        return item
    hands = item.get("hands", [])
    return {
        "id": item.get("id"),
        "view_id": item.get("view_id"),
        "name": item.get("name"),
        "ruleset": item.get("ruleset"),
        "players": item.get("players"),
        "options": item.get("options"),
        "sides": item.get("sides"),
        "target": item.get("target"),
        "created_at": item.get("created_at"),
        "updated_at": item.get("updated_at"),
        "hands": [
            {k: h.get(k) for k in ("teams", "lone_player", "stock_out") if k in h}
            if isinstance(h, dict)
            else h
            for h in hands
        ]
        if isinstance(hands, list)
        else hands,
    }


def as_backup(data: Any) -> Any:
    """A backup file; an older export (one game, or ``{"games": [...]}`` in the API's shape)
    turned into one."""
    if is_backup(data):
        return data
    if isinstance(data, dict) and "games" in data:
        items = data["games"]
        return {"games": [_older(i) for i in items] if isinstance(items, list) else items}
    return {"games": [_older(data)]}


def import_backup(
    data: Any, mine: Container[str] = (), counted: Callable[[int], None] | None = None
) -> list[Imported]:
    """Check every game of ``data``, then store each one not here yet, one transaction per
    game (``mine``: the editing keys the importing phone holds; a file without keys of one of
    those games is recognised). Raises ``GameProblems`` before anything is stored.
    ``counted`` is told of every game stored, as it is stored (the creation limit counts them:
    a failure half-way still counts those stored)."""
    checked = read_backup(as_backup(data), MAX_GAMES, MAX_ENTRIES)
    out: list[Imported] = []
    if counted is not None:
        counted(0)
    for one in checked:
        with write_scope() as session:
            game, added = restore(session, one, mine)
            out.append(
                Imported(
                    game.id if added or one.keyed or game.id in mine else None,
                    game.view_id,
                    game.version,
                    game.ruleset,
                    added,
                )
            )
        if counted is not None:
            counted(int(added))
    return out
