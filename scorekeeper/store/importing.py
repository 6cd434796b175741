"""A backup imported (docs/api.md §3 "Details and additions"): a backup file of :mod:`.backup`
(the stored-game format of :mod:`.stored_format`), or a file of before (one game, or
``{"games": [...]}`` in the games API's shape) turned into one, read at the edge
(:mod:`..edge.stored_files`), every game checked before anything is stored, then each stored in
a transaction of its own. Shared by the games API and the start page's import (both above this
layer)."""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any

from .backup import read_backup, restore
from .db import write_scope
from .stored_format import MAX_IMPORTED_GAMES

MAX_GAMES = MAX_IMPORTED_GAMES  # one file from the phone; a file beyond that is refused
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


def import_backup(
    data: Any, mine: Container[str] = (), counted: Callable[[int], None] | None = None
) -> list[Imported]:
    """Check every game of ``data``, then store each one not here yet, one transaction per
    game (``mine``: the editing keys the importing phone holds; a file without keys of one of
    those games is recognised). Raises ``GameProblems`` before anything is stored.
    ``counted`` is told of every game stored, as it is stored (the creation limit counts them:
    a failure half-way still counts those stored)."""
    checked = read_backup(data, MAX_GAMES, MAX_ENTRIES)
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
