"""The one stored-game format's names, for the store's writers. The format itself (its
dataclasses, :data:`FORMAT_VERSION`, its JSON Schema) is defined a layer down, in
:mod:`...edge.stored_format`, where the API description reads it too; files written before it
(version 1 of the backup, the table export's games in the games API's shape, a single game from
the games API) are turned into it where every imported file is read, in
:mod:`...edge.stored_files` (:func:`upgrade_game`, :func:`upgraded_backup`).
"""

from __future__ import annotations

from ..edge.stored_files import is_fifty_export, upgrade_game, upgraded_backup
from ..edge.stored_format import (
    BACKUP,
    FIFTY,
    FORMAT_VERSION,
    MAX_IMPORTED_GAMES,
    TABLE,
    BackupFile,
    StoredGame,
    StoredHand,
    StoredRevision,
    StoredTable,
    StoredTableGame,
    TableFile,
    TableFileGame,
    TablePerson,
    as_json,
    stored_format_schema,
)

__all__ = [
    "BACKUP",
    "FIFTY",
    "FORMAT_VERSION",
    "MAX_IMPORTED_GAMES",
    "TABLE",
    "BackupFile",
    "StoredGame",
    "StoredHand",
    "StoredRevision",
    "StoredTable",
    "StoredTableGame",
    "TableFile",
    "TableFileGame",
    "TablePerson",
    "as_json",
    "is_fifty_export",
    "stored_format_schema",
    "upgrade_game",
    "upgraded_backup",
]
