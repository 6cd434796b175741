"""The one stored-game format: how a game of either kind (Canasta and "3 ist 50") is written to
every file the app gives out and reads back: a game's or this phone's backup, the whole
database's backup (``scorekeeper export``) and a table's export.

A file says what it is in ``format`` (``scorekeeper-backup`` or ``scorekeeper-table``) and which
version of this format it is written in (``format_version``, now :data:`FORMAT_VERSION`). Every
game in it is a :class:`StoredGame`: what is stored, never what is derived (totals, winners and
every hand's score are derived again on import, by the same code that scores a typed hand).

The dataclasses below are the format's definition: the writers build them (:mod:`.backup`),
and :func:`stored_format_schema` gives their JSON Schema (2020-12), which the API description
carries. Files written before this format (version 1 of the backup; the table export's games
in the games API's shape, and its 3-ist-50 games in a shape of their own; a single game from
the games API) are turned into it by :func:`upgrade_game` and :func:`upgraded_backup`.
"""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass, field
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

#: the version of the format written now (1: backups before the table export shared it)
FORMAT_VERSION = 2
BACKUP: Literal["scorekeeper-backup"] = "scorekeeper-backup"
TABLE: Literal["scorekeeper-table"] = "scorekeeper-table"
FIFTY = "three-is-fifty"


def _about(text: str, **more: Any) -> dict[str, Any]:
    return {"description": text, **more}


@dataclass(frozen=True)
class StoredHand:
    """A hand as it was entered: the entry (adjustments are part of it) and its times. Canasta:
    ``teams`` is a hand's ``teams`` as ``POST /api/v1/games/{id}/hands`` takes it; 3 ist 50:
    one entry per player, as the evening's game was saved."""

    number: int = field(metadata=_about("1, 2, … in order", minimum=1))
    teams: list[Any] = field(metadata=_about("the entry as stored"))
    created_at: str = field(metadata=_about("ISO 8601 with its zone", format="date-time"))
    updated_at: str = field(metadata=_about("ISO 8601 with its zone", format="date-time"))
    lone_player: int | None = field(
        default=None, metadata=_about("3-player cutthroat: who played alone")
    )
    stock_out: bool = field(default=False, metadata=_about("the stock ran out"))


@dataclass(frozen=True)
class StoredRevision:
    """One correction or deletion of a hand, with what the hand said before it (the
    corrections trail, in the order the changes were made)."""

    number: int = field(metadata=_about("the hand's number", minimum=1))
    kind: Literal["corrected", "deleted"]
    teams: list[Any] = field(metadata=_about("the entry before the change"))
    entered_at: str = field(metadata=_about("when that entry was made", format="date-time"))
    hand_created_at: str = field(
        metadata=_about("when the hand was first saved", format="date-time")
    )
    changed_at: str = field(metadata=_about("when it was changed", format="date-time"))
    version: int = field(metadata=_about("the game's version the change made", minimum=1))
    lone_player: int | None = None
    stock_out: bool = False


@dataclass(frozen=True)
class StoredGame:
    """A game of either kind as every file holds it."""

    view_id: str = field(metadata=_about("the read-only key"))
    name: str | None
    ruleset: str = field(metadata=_about("german, polish, classic, american or three-is-fifty"))
    players: int = field(metadata=_about("players at the table", minimum=1))
    options: dict[str, Any] = field(
        metadata=_about("house rules (3 ist 50: its joker and number of games)")
    )
    sides: list[Any] = field(
        metadata=_about("the score columns: {name, players} (3 ist 50: one per player)")
    )
    target: int | None
    first_dealer: int = field(metadata=_about("the seat that dealt first", minimum=0))
    version: int = field(metadata=_about("moves on with every change", minimum=1))
    created_at: str = field(metadata=_about("ISO 8601 with its zone", format="date-time"))
    updated_at: str = field(metadata=_about("ISO 8601 with its zone", format="date-time"))
    hands: list[StoredHand]
    revisions: list[StoredRevision]
    id: str | None = field(
        default=None, metadata=_about("the editing key; only in a file for whoever may edit")
    )
    previous_id: str | None = field(
        default=None, metadata=_about("the editing key of the game this one followed")
    )
    side_ids: list[str] | None = field(
        default=None, metadata=_about("each side's own key (entering its part of a hand)")
    )


@dataclass(frozen=True)
class StoredTableGame:
    """A game of a table in the whole database's backup: which of the table's people (by
    their place in ``people``) played in each score column."""

    game: str = field(metadata=_about("the game's editing key"))
    seats: list[list[int]]


@dataclass(frozen=True)
class StoredTable:
    """A table of regular players in the whole database's backup."""

    id: str
    view_id: str
    name: str
    version: int
    created_at: str = field(metadata=_about("ISO 8601", format="date-time"))
    updated_at: str = field(metadata=_about("ISO 8601", format="date-time"))
    people: list[str]
    games: list[StoredTableGame]


@dataclass(frozen=True)
class BackupFile:
    """A backup: one game, this phone's games, or (``scorekeeper export``) the whole database
    with its tables and tournaments."""

    format: Literal["scorekeeper-backup"]
    format_version: int = field(metadata=_about("the version of the stored-game format"))
    games: list[StoredGame]
    tables: list[StoredTable] | None = None
    tournaments: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class TablePerson:
    id: int
    name: str


@dataclass(frozen=True)
class TableFileGame:
    """A game of a table's export: its kind, which of the table's people (by id) played in each
    score column, and the game."""

    kind: Literal["canasta", "fifty"]
    people: list[list[int]]
    game: StoredGame


@dataclass(frozen=True)
class TableFile:
    """A table's export (``GET /api/v1/tables/{id}/export``): its people and every game,
    oldest first; importing it makes a new table."""

    format: Literal["scorekeeper-table"]
    format_version: int
    name: str
    players: list[TablePerson]
    games: list[TableFileGame]


def as_json(value: Any) -> Any:
    """A value of the format as JSON data (the optional keys a file leaves out are left out:
    a file without editing keys has no ``id``)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item is None and f.default is None and f.name in _LEFT_OUT_WHEN_NONE:
                continue
            out[f.name] = as_json(item)
        return out
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    return value


#: optional keys left out of a file rather than written as null
_LEFT_OUT_WHEN_NONE = {"id", "previous_id", "side_ids", "tables", "tournaments"}


# ---- the JSON Schema ---------------------------------------------------------------------------
ROOTS = (BackupFile, TableFile)


def stored_format_schema(refs: str = "#/$defs/") -> dict[str, Any]:
    """The format's JSON Schema (2020-12): every dataclass above under ``$defs``, the file
    itself one of the two files. ``refs``: where the references point; an OpenAPI 3.1
    description takes ``$defs`` as its components with ``refs="#/components/schemas/"``."""
    defs: dict[str, Any] = {}
    for root in ROOTS:
        _schema_of(root, defs, refs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://scorekeeper.invalid/stored-format.json",
        "title": f"scorekeeper stored-game format, version {FORMAT_VERSION}",
        "oneOf": [{"$ref": f"{refs}{root.__name__}"} for root in ROOTS],
        "$defs": defs,
    }


def _schema_of(kind: Any, defs: dict[str, Any], refs: str) -> dict[str, Any]:
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        name = kind.__name__
        if name not in defs:
            defs[name] = {}  # recursion guard
            hints = get_type_hints(kind)
            properties: dict[str, Any] = {}
            required = []
            for f in dataclasses.fields(kind):
                schema = dict(_schema_of(hints[f.name], defs, refs))
                schema.update(f.metadata)
                properties[f.name] = schema
                no_default = (
                    f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
                )
                if no_default:
                    required.append(f.name)
            defs[name] = {
                "type": "object",
                "description": " ".join((kind.__doc__ or "").split()),
                "properties": properties,
                "required": required,
            }
        return {"$ref": f"{refs}{name}"}
    origin = get_origin(kind)
    args = get_args(kind)
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (Union, types.UnionType):
        options = [_schema_of(a, defs, refs) for a in args if a is not type(None)]
        one = options[0] if len(options) == 1 else {"anyOf": options}
        return {"anyOf": [one, {"type": "null"}]} if type(None) in args else one
    if origin is list:
        return {"type": "array", "items": _schema_of(args[0], defs, refs) if args else {}}
    if origin is dict:
        return {"type": "object"}
    if kind is Any:
        return {}
    simple = {bool: "boolean", int: "integer", str: "string", float: "number"}
    if kind in simple:
        return {"type": simple[kind]}
    raise TypeError(f"no schema for {kind!r}")


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
