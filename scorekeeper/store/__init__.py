"""Stored games: SQLAlchemy models and the few functions that read and change a game.

One module per idea:

- ``db``: the engine, sessions, transactions (``session_scope``, ``write_scope``), the schema
- ``models``: the tables
- ``errors``: what a change can raise (problems, a stale version, an unknown hand)
- ``entries``: one hand entry read, checked and scored, nothing stored
- ``state``: what is derived of a Canasta game (``GameState``: totals, hands, winner)
- ``derive``: the state derived from the stored hands
- ``games``: reading games by key and creating them
- ``changes``: adding, correcting, deleting and bringing back hands (versioned)
- ``cache``: everything kept for speed, in the database and in memory
- ``stamps``: the light reads that prove a kept page or game current
- ``evening``: the games of one table in a row
- ``fifty``: the same for "3 ist 50"
- ``tournaments``: club tournaments (a package: setup, rounds with a game per table, the read
  model kept while nothing changed, and them in the whole backup)

The names most callers need are gathered here, so ``from scorekeeper import store`` and
``store.get_game(...)``, ``store.add_hand(...)``, ``store.GameState`` read plainly.
"""

from __future__ import annotations

from .changes import (
    MAX_HANDS,
    UNDO_SECONDS,
    add_hand,
    changed_state,
    delete_hand,
    replace_hand,
    undo_delete,
    undoable_deletion,
)
from .derive import game_state, seats
from .entries import HAND_MAX_BYTES, CheckedHand, check_hand, checked_hand
from .errors import GameProblems, HandNotFound, StoreError, VersionConflict
from .games import (
    NAME_MAX,
    create_game,
    get_by_view,
    get_game,
    hand_count,
    recent_count,
    recent_games,
    start_again,
)
from .state import Column, Correction, GameState, HandRow, HandScore, Seat

__all__ = [
    "HAND_MAX_BYTES",
    "MAX_HANDS",
    "NAME_MAX",
    "UNDO_SECONDS",
    "CheckedHand",
    "Column",
    "Correction",
    "GameProblems",
    "GameState",
    "HandNotFound",
    "HandRow",
    "HandScore",
    "Seat",
    "StoreError",
    "VersionConflict",
    "add_hand",
    "changed_state",
    "check_hand",
    "checked_hand",
    "create_game",
    "delete_hand",
    "game_state",
    "get_by_view",
    "get_game",
    "hand_count",
    "recent_count",
    "recent_games",
    "replace_hand",
    "seats",
    "start_again",
    "undo_delete",
    "undoable_deletion",
]
