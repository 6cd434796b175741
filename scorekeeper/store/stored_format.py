"""Files written before the one stored-game format, turned into it: version 1 of the backup;
the table export's games in the games API's shape, and its 3-ist-50 games in a shape of their
own; a single game from the games API (:func:`upgrade_game`, :func:`upgraded_backup`).

The format itself (its dataclasses, :data:`FORMAT_VERSION`, its JSON Schema) is defined a layer
down, in :mod:`...edge.stored_format`, where the API description reads it too; its names are
given here as well, for the store's writers.
"""

from __future__ import annotations

from typing import Any

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


# ---- files of before ---------------------------------------------------------------------------
def is_fifty_export(item: Any) -> bool:
    """A 3-ist-50 game as table exports of before wrote it (``players`` as names, ``games``
    with each evening game's entries)."""
    return (
        isinstance(item, dict)
        and item.get("ruleset") == FIFTY
        and "games" in item
        and "hands" not in item
    )


def upgrade_game(item: Any) -> Any:
    """A game of a file of before, as this format holds it (what it did not carry is left out:
    the reader fills it in as for a new game). A game in this format is given back as it is;
    anything else is left for the reader to refuse."""
    if not isinstance(item, dict):
        return item
    if is_fifty_export(item):
        rows = item.get("games")
        return {
            "name": item.get("name"),
            "ruleset": FIFTY,
            "sides": item.get("players"),
            "options": {"joker": item.get("joker", 10), "games": item.get("stop_after")},
            "target": item.get("target"),
            "created_at": item.get("created_at"),
            "revisions": [],
            "hands": [
                {"number": n + 1, "teams": row.get("entries") if isinstance(row, dict) else row}
                for n, row in enumerate(rows)
            ]
            if isinstance(rows, list)
            else rows,
        }
    if "first_dealer" in item or "revisions" in item:  # a backup's game: this format already
        return item
    hands = item.get("hands", [])  # the games API's shape: the entries of its derived hands
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
        "revisions": [],
        "hands": [
            {k: h.get(k) for k in ("teams", "lone_player", "stock_out") if k in h}
            if isinstance(h, dict)
            else h
            for h in hands
        ]
        if isinstance(hands, list)
        else hands,
    }


def upgraded_backup(data: Any) -> Any:
    """A backup in this format: a backup file as it is (its games upgraded where a file of
    before wrote them otherwise); one game, or ``{"games": [...]}``, of before turned into
    one."""
    if isinstance(data, dict) and data.get("format") == BACKUP:
        items = data.get("games")
        if isinstance(items, list):
            return {**data, "games": [upgrade_game(i) for i in items]}
        return data
    if isinstance(data, dict) and "games" in data and not is_fifty_export(data):
        items = data["games"]
        return {"games": [upgrade_game(i) for i in items] if isinstance(items, list) else items}
    return {"games": [upgrade_game(data)]}
