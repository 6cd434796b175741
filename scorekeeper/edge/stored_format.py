"""The one stored-game format, defined: how a game of either kind (Canasta and "3 ist 50") is
written to every file the app gives out and reads back: a game's or this phone's backup, the
whole database's backup (``scorekeeper export``) and a table's export
(docs/stored-format.md).

A file says what it is in ``format`` (``scorekeeper-backup`` or ``scorekeeper-table``) and which
version of this format it is written in (``format_version``, now :data:`FORMAT_VERSION`). Every
game in it is a :class:`StoredGame`: what is stored, never what is derived (totals, winners and
every hand's score are derived again on import, by the same code that scores a typed hand).

The dataclasses below are the format's definition: the store's writers build them, and the
edge's one schema writer (:func:`.spec.json_schema`) describes them, so the API description
(``components.schemas``) and :func:`stored_format_schema`, the format's JSON Schema on its own,
say the same. Pure Python, as the rest of the edge. Files written before this format are
turned into it where every imported file is read, by :mod:`.stored_files`.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from ..rules.problems import Problem
from ..rules.scoring import Rejected
from .spec import Spec, json_schema

#: the version of the format written now (1: backups before the table export shared it)
FORMAT_VERSION = 2
BACKUP: Literal["scorekeeper-backup"] = "scorekeeper-backup"
TABLE: Literal["scorekeeper-table"] = "scorekeeper-table"
FIFTY = "three-is-fifty"
#: an editing or view key as every reader takes it (random, URL-safe)
KEY_PATTERN = "^[A-Za-z0-9_-]{16,43}$"
#: the highest version a game may carry
MAX_VERSION = 1_000_000_000


def check_format_version(data: dict[str, Any], newest: int = FORMAT_VERSION) -> Rejected | None:
    """A file's ``format_version``, for both files: 1 when left out (a file of before version
    2); a file of a later version than ``newest`` (the one this app writes) is refused with a
    clear problem, not read by a guess."""
    version = data.get("format_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        return Rejected((Problem("request.type", "format_version", {"expected": "integer"}),))
    if version > newest:
        return Rejected((Problem("request.value", "format_version", {"maximum": newest}),))
    return None


#: games one import request takes (``POST /api/v1/games/import``): a larger file is refused,
#: not cut
MAX_IMPORTED_GAMES = 100


def _about(text: str, **more: Any) -> dict[str, Any]:
    return {"description": text, **more}


# ---- examples (the API description shows them; a test imports them) ---------------------------
_QUICK = {
    "natural_canastas": 0,
    "mixed_canastas": 0,
    "wild_canastas": 0,
    "meld_points": 0,
    "hand_points": 0,
    "black_threes_in_hand": 0,
    "melded": True,
}
_AT = "2026-12-04T20:15:00+00:00"
_LATER = "2026-12-04T22:40:00+00:00"  # the evening's 3 ist 50, after the Canasta
_GAME_EXAMPLE: dict[str, Any] = {
    "view_id": "EauXunIg6Lg8iLDx2Z7Dkw",
    "name": "Friday",
    "ruleset": "german",
    "players": 4,
    "options": {},
    "sides": [
        {"name": "Anna & Ben", "players": ["Anna", "Ben"]},
        {"name": "Cleo & Dan", "players": ["Cleo", "Dan"]},
    ],
    "target": 5000,
    "first_dealer": 0,
    "version": 2,
    "created_at": _AT,
    "updated_at": "2026-12-04T20:31:00+00:00",
    "hands": [
        {
            "number": 1,
            "teams": [
                {
                    "quick": {
                        **_QUICK,
                        "natural_canastas": 1,
                        "mixed_canastas": 1,
                        "meld_points": 245,
                    },
                    "red_threes": 1,
                    "went_out": True,
                    "concealed": False,
                },
                {
                    "quick": {**_QUICK, "meld_points": 110, "hand_points": 25},
                    "red_threes": 0,
                    "went_out": False,
                    "concealed": False,
                },
            ],
            "created_at": "2026-12-04T20:30:00+00:00",
            "updated_at": "2026-12-04T20:31:00+00:00",
            "lone_player": None,
            "stock_out": False,
        }
    ],
    "revisions": [
        {
            "number": 1,
            "kind": "corrected",
            "teams": [
                {"total": 1200, "went_out": True, "concealed": False},
                {"total": 85, "went_out": False, "concealed": False},
            ],
            "entered_at": "2026-12-04T20:30:00+00:00",
            "hand_created_at": "2026-12-04T20:30:00+00:00",
            "changed_at": "2026-12-04T20:31:00+00:00",
            "version": 2,
            "lone_player": None,
            "stock_out": False,
        }
    ],
}
_FIFTY_EXAMPLE: dict[str, Any] = {
    "view_id": "ciuHQJiOP08XeKPpmoy7fA",
    "name": None,
    "ruleset": FIFTY,
    "players": 3,
    "options": {"joker": 10, "games": 3},
    "sides": [
        {"name": "Anna", "players": ["Anna"]},
        {"name": "Ben", "players": ["Ben"]},
        {"name": "Cleo", "players": ["Cleo"]},
    ],
    "target": 0,
    "first_dealer": 0,
    "version": 1,
    "created_at": _LATER,
    "updated_at": _LATER,
    "hands": [
        {
            "number": 1,
            "teams": [{"points": 10}, {"points": 17}, {"points": 24}],
            "created_at": _LATER,
            "updated_at": _LATER,
            "lone_player": None,
            "stock_out": False,
        }
    ],
    "revisions": [],
}


@dataclass(frozen=True)
class StoredHand:
    """A hand as it was entered: the entry (adjustments are part of it) and its times. Canasta:
    `teams` is a hand's `teams` as `POST /api/v1/games/{id}/hands` takes it; 3 ist 50:
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

    view_id: str = field(metadata=_about("the read-only key", pattern=KEY_PATTERN))
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
    first_dealer: int = field(
        metadata=_about("the seat that dealt first (one of the game's seats)", minimum=0, maximum=5)
    )
    version: int = field(
        metadata=_about("moves on with every change", minimum=1, maximum=MAX_VERSION)
    )
    created_at: str = field(metadata=_about("ISO 8601 with its zone", format="date-time"))
    updated_at: str = field(metadata=_about("ISO 8601 with its zone", format="date-time"))
    hands: list[StoredHand]
    revisions: list[StoredRevision]
    id: str | None = field(
        default=None,
        metadata=_about(
            "the editing key; only in a file for whoever may edit", pattern=KEY_PATTERN
        ),
    )
    previous_id: str | None = field(
        default=None,
        metadata=_about("the editing key of the game this one followed", pattern=KEY_PATTERN),
    )
    side_ids: list[str] | None = field(
        default=None, metadata=_about("each side's own key (entering its part of a hand)")
    )


@dataclass(frozen=True)
class StoredTableGame:
    """A game of a table in the whole database's backup: which of the table's people (by
    their place in `people`) played in each score column."""

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
class StoredPoints:
    """The match points a table game gives its sides."""

    win: int = field(metadata=_about("a win", minimum=0, maximum=100))
    draw: int = field(metadata=_about("a draw", minimum=0, maximum=100))
    loss: int = field(metadata=_about("a loss", minimum=0, maximum=100))


@dataclass(frozen=True)
class StoredParticipant:
    """A participant of a tournament, numbered by its place in `participants`: one player's
    name, or a pair's two."""

    players: list[str] = field(metadata=_about("one name, or a pair's two", minItems=1, maxItems=2))
    absent: bool = field(metadata=_about("sits the next rounds out"))
    person: int | None = field(
        metadata=_about("the table's person it is, by their place in the table's `people`")
    )


@dataclass(frozen=True)
class StoredSeatedTable:
    """A table of a round: its number and its sides, each of participants' numbers."""

    number: int = field(metadata=_about("1, 2, …", minimum=1))
    sides: list[list[int]] = field(metadata=_about("2 to 6 sides", minItems=2, maxItems=6))


@dataclass(frozen=True)
class StoredSeating:
    """A round's seating: its tables, who sits out (participants' numbers) and the lot's
    draw."""

    tables: list[StoredSeatedTable]
    byes: list[int] = field(default_factory=list)
    draw: int = field(default=0, metadata=_about("the draw of the lot", minimum=0))


@dataclass(frozen=True)
class StoredRoundGame:
    """The game a table of a round plays."""

    table: int = field(metadata=_about("the table's number", minimum=1))
    game: str = field(metadata=_about("the game's editing key (a game of the backup)"))


@dataclass(frozen=True)
class StoredRound:
    """A round of a tournament: its seating, state, times and the game of each table."""

    number: int = field(metadata=_about("1, 2, … in order", minimum=1))
    state: str = field(
        metadata=_about("where the round is", enum=["proposed", "playing", "closed"])
    )
    seating: StoredSeating
    created_at: str = field(metadata=_about("ISO 8601", format="date-time"))
    started_at: str | None = field(metadata=_about("when its games were made"))
    ending_at: str | None = field(metadata=_about("when time was called"))
    closed_at: str | None
    games: list[StoredRoundGame] = field(default_factory=list)


@dataclass(frozen=True)
class StoredTournament:
    """A club tournament in the whole database's backup, as stored: its settings, the seed of
    its draws, its participants and its rounds."""

    id: str = field(metadata=_about("the editing key"))
    view_id: str = field(metadata=_about("the read-only key"))
    name: str
    ruleset: str
    options: dict[str, Any] = field(metadata=_about("house rules"))
    players: int = field(metadata=_about("players at a table", minimum=1))
    format: str = field(metadata=_about("who sits together", enum=["individual", "pairs"]))
    scoring: str = field(metadata=_about("what ranks first", enum=["match_points", "points"]))
    points: StoredPoints
    round_end: dict[str, int] = field(
        metadata=_about(
            "exactly one of hands, target, minutes",
            minProperties=1,
            maxProperties=1,
            propertyNames={"enum": ["hands", "target", "minutes"]},
        )
    )
    odd: str = field(metadata=_about("who does not fill a table", enum=["bye", "larger"]))
    seed: int = field(metadata=_about("the seed of the lot's draws", minimum=0))
    table: str | None = field(metadata=_about("the editing key of the table it was made from"))
    version: int = field(metadata=_about("moves on with every change", minimum=1))
    created_at: str = field(metadata=_about("ISO 8601", format="date-time"))
    updated_at: str = field(metadata=_about("ISO 8601", format="date-time"))
    participants: list[StoredParticipant]
    rounds: list[StoredRound]

    @property
    def round_end_kind(self) -> str:
        """How a round ends (``hands``, ``target`` or ``minutes``)."""
        return next(iter(self.round_end))

    @property
    def round_end_value(self) -> int:
        """Its hands, target or minutes."""
        return self.round_end[self.round_end_kind]


@dataclass(frozen=True)
class BackupFile:
    """A backup: one game, this phone's games, or (`scorekeeper export`) the whole database
    with its tables and tournaments."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "format": BACKUP,
        "format_version": FORMAT_VERSION,
        "games": [_GAME_EXAMPLE, _FIFTY_EXAMPLE],
    }

    format: Literal["scorekeeper-backup"]
    format_version: int = field(
        metadata=_about(
            "the version of the stored-game format (1: a backup of before)",
            minimum=1,
            maximum=FORMAT_VERSION,
        )
    )
    games: list[StoredGame]
    tables: list[StoredTable] | None = None
    tournaments: list[StoredTournament] | None = None


@dataclass(frozen=True)
class TablePerson:
    """One of the table's people: the id the games' `people` name them by, and the name."""

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
    """A table's export (`GET /api/v1/tables/{id}/export`): its people and every game,
    oldest first; importing it makes a new table."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "format": TABLE,
        "format_version": FORMAT_VERSION,
        "name": "Friday",
        "players": [
            {"id": 1, "name": "Anna"},
            {"id": 2, "name": "Ben"},
            {"id": 3, "name": "Cleo"},
            {"id": 4, "name": "Dan"},
        ],
        "games": [
            {"kind": "canasta", "people": [[1, 2], [3, 4]], "game": _GAME_EXAMPLE},
            {"kind": "fifty", "people": [[1], [2], [3]], "game": _FIFTY_EXAMPLE},
        ],
    }

    format: Literal["scorekeeper-table"]
    format_version: int = field(
        metadata=_about(
            "the version of the stored-game format (an export of before has none)",
            minimum=1,
            maximum=FORMAT_VERSION,
        )
    )
    name: str
    players: list[TablePerson]
    games: list[TableFileGame]


# ---- files of before, as the imports still take them -----------------------------------------
#: a game of a file of before: as ``GET /api/v1/games/{key}`` gave it (a table's export of before
#: held its 3-ist-50 games in a shape of their own); turned into a :class:`StoredGame` on import
GameOfBefore = Annotated[
    dict[str, Any],
    Spec(
        description="A game as `GET /api/v1/games/{key}` gives it (a file of before the "
        "stored-game format).",
        extra={"required": ["ruleset"], "properties": {"ruleset": {"type": "string"}}},
    ),
]


@dataclass(frozen=True)
class BackupOfBefore:
    """Games written before the stored-game format: `{"games": [...]}`, each as `GET
    /api/v1/games/{key}` gives it (`format` is not read). They import as a backup does."""

    games: Annotated[
        list[GameOfBefore], Spec(min_items=1, max_items=MAX_IMPORTED_GAMES, required=True)
    ] = field(default_factory=list)
    format: Any = None


@dataclass(frozen=True)
class TableGameOfBefore:
    """A game of a table's export of before: only `game` is read (the people are the
    table's, by the names of the game's sides)."""

    game: GameOfBefore
    kind: Any = None
    people: Any = None


@dataclass(frozen=True)
class TableOfBefore:
    """A table's export written before the stored-game format (no `format_version`): its
    games in the games API's shape."""

    format: Literal["scorekeeper-table"]
    name: str
    players: list[
        Annotated[
            Any,
            Spec(
                description='A person: a name, or `{"id", "name"}`.',
                extra={
                    "anyOf": [
                        {"type": "string"},
                        {
                            "type": "object",
                            "required": ["name"],
                            "properties": {"name": {"type": "string"}},
                        },
                    ]
                },
            ),
        ]
    ]
    games: list[TableGameOfBefore]


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
_COMPONENTS = "#/components/schemas/"


def stored_format_schema(refs: str = "#/$defs/") -> dict[str, Any]:
    """The format's JSON Schema (2020-12), as the API description carries it: every dataclass
    above under ``$defs``, the file itself one of the two files. ``refs``: where the references
    point (an OpenAPI 3.1 description takes ``$defs`` as its components with
    ``refs="#/components/schemas/"``)."""
    schemas: dict[str, Any] = {}
    for root in ROOTS:
        json_schema(root, schemas)
    defs = json.loads(json.dumps(schemas).replace(f'"{_COMPONENTS}', f'"{refs}'))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://scorekeeper.invalid/stored-format.json",
        "title": f"scorekeeper stored-game format, version {FORMAT_VERSION}",
        "oneOf": [{"$ref": f"{refs}{root.__name__}"} for root in ROOTS],
        "$defs": dict(sorted(defs.items())),
    }
