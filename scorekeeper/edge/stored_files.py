"""Imported files read once, at the edge: a backup (``POST /api/v1/games/import``, the start
page's import form, ``scorekeeper import``) and a table's export (``POST
/api/v1/tables/import``, the tables page's form, ``scorekeeper import``), in the stored-game
format of :mod:`.stored_format` (version 1 or 2), or written before it (one game, or
``{"games": [...]}`` in the games API's shape; a table's export with its games in that shape):
those are turned into the format first (:func:`upgrade_game`, :func:`upgraded_backup`).

Every game is read the same way, whichever file and whichever way it came in
(:func:`read_stored_game`): into a :class:`ReadGame`, the :class:`~.stored_format.StoredGame`
with its times checked and its defaults filled in, the new game's set-up read as ``POST
/api/v1/games`` reads it, and every hand's and earlier entry's entry read as a save reads it.
What needs the game made from that set-up (an entry against the ruleset, the side keys against
its sides) is the store's to check. A file's ``format_version`` is checked by one function
(:func:`.stored_format.check_format_version`) for both files. A table's export is streamed: its
header is read first (:func:`..tables.read_table_import`), then each game as it comes
(:func:`read_table_game`).
The whole database's backup also holds its tables (:func:`read_backup_tables`) and its club
tournaments (:func:`read_backup_tournaments`).

Problems are data, with today's codes and paths (``where`` names the game and hand: ``games[0]
.hands[2].created_at``); a file that cannot be read comes back as a
:class:`~..rules.scoring.Rejected`. Pure Python, as the rest of the edge.

>>> [p.where for p in read_backup_file({"format": BACKUP, "format_version": 9}).problems]
['format_version']
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from ..rules import fifty as fifty_rules
from ..rules.problems import Problem
from ..rules.ruleset import resolve_ruleset
from ..rules.scoring import Rejected
from ..tournaments.model import Format, OddCount, RoundEnd, RoundState, Scoring
from .games import (
    MAX_FIFTY_GAMES,
    MAX_HANDS,
    FiftyHandRead,
    FiftySetup,
    GameSetup,
    HandRead,
    fifty_setup,
    read_fifty_entry,
    read_hand,
    read_new_game,
)
from .stored_format import (
    BACKUP,
    FIFTY,
    KEY_PATTERN,
    MAX_VERSION,
    StoredGame,
    StoredHand,
    StoredParticipant,
    StoredPoints,
    StoredRevision,
    StoredRound,
    StoredRoundGame,
    StoredSeatedTable,
    StoredSeating,
    StoredTable,
    StoredTableGame,
    StoredTournament,
    check_format_version,
)
from .tournaments import MAX_PARTICIPANTS, MAX_ROUNDS, POINTS_MAX, ROUND_END_BOUNDS

KEY = re.compile(KEY_PATTERN)
REVISION_KINDS = ("corrected", "deleted")
#: corrections and deletions kept per game in a file (a take-back each hand, several times)
MAX_REVISIONS = 4 * MAX_HANDS

#: a table's name and each of its people's in the whole database's backup
TABLE_NAME_MAX = 40
#: people of one table in the whole database's backup
MAX_TABLE_PEOPLE = 200
#: games of one table in the whole database's backup
MAX_TABLE_GAMES = 100_000
#: the most tournaments one whole database's backup may hold
MAX_TOURNAMENTS = 10_000
#: a tournament's name and each of its participants' in the whole database's backup
TOURNAMENT_NAME_MAX = 40
#: the highest seed of a tournament's draws
MAX_SEED = 2**31 - 1
#: a participant's place among its table's people is below this
MAX_TABLE_PEOPLE_PLACE = 10_000

#: an entry as read: a Canasta hand, or one game of an evening of 3 ist 50
EntryRead = HandRead | FiftyHandRead


@dataclass(frozen=True)
class ReadGame:
    """One game of an imported file, read: the game as the format holds it (times checked and
    written in UTC, defaults filled in; ``view_id`` empty when the file gave none), its set-up
    as a new game's, and each hand's and earlier entry's entry as read (in the order of
    ``stored.hands`` and ``stored.revisions``)."""

    stored: StoredGame
    setup: GameSetup | FiftySetup
    hands: tuple[EntryRead, ...]
    revisions: tuple[EntryRead, ...]

    @property
    def keyed(self) -> bool:
        """The file gave the game's editing key (else it is recognised by its view key)."""
        return self.stored.id is not None


class _Refused(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.code for p in problems))
        self.problems = problems


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


# ---- the files ---------------------------------------------------------------------------------
def read_backup_file(
    data: Any, max_games: int | None = None, max_hands: int | None = None
) -> tuple[ReadGame, ...] | Rejected:
    """Every game of a backup (or of a file of before, upgraded first), read; nothing is
    stored here. ``max_games``: games per file; ``max_hands``: hands and earlier entries in the
    whole file (each is scored on import: its CPU)."""
    data = upgraded_backup(data)
    if not isinstance(data, dict):  # pragma: no cover - upgraded_backup always gives one
        return Rejected((Problem("request.type", "", {"expected": "object"}),))
    refused = check_format_version(data)
    if refused is not None:
        return refused
    items = data.get("games")
    if not isinstance(items, list):
        return Rejected((Problem("request.type", "games", {"expected": "list"}),))
    if not items:  # nothing to import (a limit is no part of that problem)
        return Rejected((Problem("request.missing", "games", {}),))
    if max_games is not None and len(items) > max_games:
        return Rejected((Problem("request.too_large", "games", {"limit": max_games}),))
    if max_hands is not None:
        counted = sum(
            len(item.get("hands") or []) + len(item.get("revisions") or [])
            for item in items
            if isinstance(item, dict)
            and isinstance(item.get("hands", []), list)
            and isinstance(item.get("revisions", []), list)
        )
        if counted > max_hands:
            return Rejected((Problem("request.too_large", "games", {"limit": max_hands}),))
    games = []
    for g, item in enumerate(items):
        read = read_stored_game(item, f"games[{g}]")
        if isinstance(read, Rejected):
            return read
        games.append(read)
    return tuple(games)


def read_table_game(item: Any, where: str) -> ReadGame | Rejected:
    """One game of a table's export, as it comes from the stream: ``{"kind", "people",
    "game"}`` (only ``game`` is read: its people are the table's, by its sides' names), the
    game in this format or of before (upgraded)."""
    body = item.get("game") if isinstance(item, dict) else None
    if not isinstance(body, dict):
        return Rejected((Problem("request.type", where, {"expected": "object"}),))
    return read_stored_game(upgrade_game(body), f"{where}.game")


def read_stored_game(item: Any, where: str) -> ReadGame | Rejected:
    """One game of a file (in this format: a file of before is upgraded first), read as
    ``POST /api/v1/games`` reads a new game and a save reads each hand; ``where`` names it."""
    try:
        return _game(item, where)
    except _Refused as refused:
        return Rejected(tuple(refused.problems))


def read_backup_tables(data: Any, games: Container[str]) -> tuple[StoredTable, ...] | Rejected:
    """The tables of the whole database's backup (``scorekeeper export``): each with its
    people's names and its games (a link names a game of the backup, ``games``: their editing
    keys; its seats name the table's people by their place). ``id`` and ``view_id`` are empty
    when the file gave none (the store makes new ones)."""
    try:
        return _tables(data, games)
    except _Refused as refused:
        return Rejected(tuple(refused.problems))


def _objects(
    data: Any, name: str, limit: int | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The objects of one of the whole database's lists (``tables``, ``tournaments``; left out:
    none), each with its ``where``, as they are read (one that is no object refuses the file
    when it is reached)."""
    items = data.get(name, []) if isinstance(data, dict) else []
    if not isinstance(items, list):
        raise _Refused([Problem("request.type", name, {"expected": "list"})])
    if limit is not None and len(items) > limit:
        raise _Refused([Problem("request.too_large", name, {"limit": limit})])
    for i, item in enumerate(items):
        where = f"{name}[{i}]"
        if not isinstance(item, dict):
            raise _Refused([Problem("request.type", where, {"expected": "object"})])
        yield where, item


def _tables(data: Any, games: Container[str]) -> tuple[StoredTable, ...]:
    out = []
    problems: list[Problem] = []
    now = datetime.now(UTC).isoformat()
    for where, item in _objects(data, "tables"):
        table_id = read_key(item, "id", where, problems)
        view_id = read_key(item, "view_id", where, problems)
        name = item.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= TABLE_NAME_MAX:
            problems.append(Problem("request.value", f"{where}.name", {}))
            name = ""
        people = _list(item, "people", where, MAX_TABLE_PEOPLE)
        if not all(isinstance(p, str) and 1 <= len(p) <= TABLE_NAME_MAX for p in people):
            problems.append(Problem("request.value", f"{where}.people", {}))
        links = []
        for g, link in enumerate(_list(item, "games", where, MAX_TABLE_GAMES)):
            seats = link.get("seats") if isinstance(link, dict) else None
            game = link.get("game") if isinstance(link, dict) else None
            if (
                not isinstance(game, str)
                or game not in games
                or not isinstance(seats, list)
                or not all(
                    isinstance(side, list)
                    and all(
                        isinstance(p, int) and not isinstance(p, bool) and 0 <= p < len(people)
                        for p in side
                    )
                    for side in seats
                )
            ):
                problems.append(Problem("request.value", f"{where}.games[{g}]", {}))
                continue
            links.append(StoredTableGame(game, seats))
        created = _time(item.get("created_at"), f"{where}.created_at", problems, now)
        out.append(
            StoredTable(
                id=table_id or "",
                view_id=view_id or "",
                name=name,
                version=read_whole(
                    item.get("version", 1), f"{where}.version", (1, MAX_VERSION), problems
                ),
                created_at=created,
                updated_at=_time(item.get("updated_at"), f"{where}.updated_at", problems, created),
                people=list(people),
                games=links,
            )
        )
    if problems:
        raise _Refused(problems)
    return tuple(out)


def read_backup_tournaments(
    data: Any, games: Container[str], tables: Container[str] = ()
) -> tuple[StoredTournament, ...] | Rejected:
    """The club tournaments of the whole database's backup (``scorekeeper export``), read
    into the format's values: the settings checked as a new tournament's (the ruleset and
    table size resolved), the seatings against the participants, a round's games against the
    backup's (``games``: their editing keys), times written in UTC. A tournament's table is
    kept only when it is one of the backup's (``tables``); ``id`` and ``view_id`` are empty
    when the file gave none (the store makes new ones)."""
    try:
        return _tournaments(data, games, tables)
    except _Refused as refused:
        return Rejected(tuple(refused.problems))


def _tournaments(
    data: Any, games: Container[str], tables: Container[str]
) -> tuple[StoredTournament, ...]:
    out = []
    problems: list[Problem] = []
    now = datetime.now(UTC).isoformat()
    for where, item in _objects(data, "tournaments", MAX_TOURNAMENTS):
        out.append(_tournament(item, where, games, tables, problems, now))
    if problems:
        raise _Refused(problems)
    return tuple(out)


def _tournament(
    item: dict[str, Any],
    where: str,
    games: Container[str],
    tables: Container[str],
    problems: list[Problem],
    now: str,
) -> StoredTournament:
    """One tournament; its problems are added to ``problems`` in the order they always came."""
    rs, size, rs_problems = resolve_ruleset(
        item.get("ruleset"), item.get("players"), item.get("options")
    )
    problems.extend(Problem(p.code, f"{where}.{p.where}", p.params) for p in rs_problems)
    given = item.get("points")
    if not isinstance(given, dict) or set(given) != {"win", "draw", "loss"}:
        problems.append(Problem("request.value", f"{where}.points", {}))
        given = {"win": 2, "draw": 1, "loss": 0}
    points = StoredPoints(
        **{
            kind: read_whole(given[kind], f"{where}.points.{kind}", (0, POINTS_MAX), problems)
            for kind in ("win", "draw", "loss")
        }
    )
    end = item.get("round_end")
    end_kind, end_value = RoundEnd.HANDS.value, 1
    if isinstance(end, dict) and len(end) == 1 and next(iter(end)) in ROUND_END_BOUNDS:
        end_kind = str(next(iter(end)))
        bounds = ROUND_END_BOUNDS[RoundEnd(end_kind)]
        end_value = read_whole(end[end_kind], f"{where}.round_end", bounds, problems)
    else:
        problems.append(Problem("request.value", f"{where}.round_end", {}))
    table = read_key(item, "table", where, problems)
    created = _time(item.get("created_at"), f"{where}.created_at", problems, now)
    tournament_id = read_key(item, "id", where, problems)
    view_id = read_key(item, "view_id", where, problems)
    name = _name(item.get("name"), f"{where}.name", problems)
    fmt = _choice(item.get("format"), Format, f"{where}.format", problems)
    scoring = _choice(item.get("scoring"), Scoring, f"{where}.scoring", problems)
    odd = _choice(item.get("odd"), OddCount, f"{where}.odd", problems)
    seed = read_whole(item.get("seed"), f"{where}.seed", (0, MAX_SEED), problems)
    version = read_whole(item.get("version", 1), f"{where}.version", (1, MAX_VERSION), problems)
    updated = _time(item.get("updated_at"), f"{where}.updated_at", problems, created)
    people = _list(item, "participants", where, MAX_PARTICIPANTS)
    if len(people) < 2:
        problems.append(Problem("request.value", f"{where}.participants", {}))
    participants = []
    for j, person in enumerate(people):
        read = _participant(person, f"{where}.participants[{j}]", problems)
        if read is not None:
            participants.append(read)
    rounds = [
        _round(stored, f"{where}.rounds[{j}]", len(people), games, problems, created)
        for j, stored in enumerate(_list(item, "rounds", where, MAX_ROUNDS))
    ]
    numbers = [r.number for r in rounds if r is not None]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(Problem("request.value", f"{where}.rounds", {}))
    options = item.get("options")
    return StoredTournament(
        id=tournament_id or "",
        view_id=view_id or "",
        name=name,
        ruleset=rs.id if rs is not None else "",
        options=dict(options) if isinstance(options, dict) else {},
        players=size,
        format=fmt,
        scoring=scoring,
        points=points,
        round_end={end_kind: end_value},
        odd=odd,
        seed=seed,
        table=table if table in tables else None,
        version=version,
        created_at=created,
        updated_at=updated,
        participants=participants,
        rounds=[r for r in rounds if r is not None],
    )


def _name(value: Any, where: str, problems: list[Problem]) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= TOURNAMENT_NAME_MAX:
        problems.append(Problem("request.value", where, {}))
        return ""
    return value


def _choice(value: Any, kind: type[StrEnum], where: str, problems: list[Problem]) -> str:
    """One of an enum's values (else a problem, and its first)."""
    try:
        return str(kind(value).value)
    except ValueError:
        problems.append(Problem("request.value", where, {}))
        return str(next(iter(kind)).value)


def _participant(value: Any, where: str, problems: list[Problem]) -> StoredParticipant | None:
    names = value.get("players") if isinstance(value, dict) else None
    if not isinstance(names, list) or not 1 <= len(names) <= 2:
        problems.append(Problem("request.value", where, {}))
        return None
    clean = [_name(n, f"{where}.players", problems) for n in names]
    absent = value.get("absent", False)
    place = value.get("person")
    if not isinstance(absent, bool) or not (
        place is None or (isinstance(place, int) and 0 <= place < MAX_TABLE_PEOPLE_PLACE)
    ):
        problems.append(Problem("request.value", where, {}))
        return None
    return StoredParticipant(clean, absent, place)


def _round(
    value: Any,
    where: str,
    count: int,
    games: Container[str],
    problems: list[Problem],
    created: str,
) -> StoredRound | None:
    """A round of a tournament of ``count`` participants (None: not one, a problem)."""
    if not isinstance(value, dict):
        problems.append(Problem("request.value", where, {}))
        return None
    number = read_whole(value.get("number"), f"{where}.number", (1, MAX_ROUNDS), problems)
    seating = _seating(value.get("seating"), count, f"{where}.seating", problems)
    links = []
    for k, link in enumerate(_list(value, "games", where, MAX_PARTICIPANTS)):
        game = link.get("game") if isinstance(link, dict) else None
        table = link.get("table") if isinstance(link, dict) else None
        if (
            game not in games
            or not isinstance(table, int)
            or isinstance(table, bool)
            or not 0 < table <= MAX_PARTICIPANTS
        ):
            problems.append(Problem("request.value", f"{where}.games[{k}]", {}))
            continue
        links.append(StoredRoundGame(table, str(game)))
    begun = _time(value.get("created_at"), f"{where}.created_at", problems, created)
    return StoredRound(
        number=number,
        state=_choice(value.get("state"), RoundState, f"{where}.state", problems),
        seating=seating or StoredSeating([], [], 0),
        created_at=begun,
        started_at=_moment_or_none(value, "started_at", where, problems, begun),
        ending_at=_moment_or_none(value, "ending_at", where, problems, begun),
        closed_at=_moment_or_none(value, "closed_at", where, problems, begun),
        games=links,
    )


def _moment_or_none(
    item: dict[str, Any], name: str, where: str, problems: list[Problem], default: str
) -> str | None:
    """A moment that may be left out (null: None)."""
    if item.get(name) is None:
        return None
    return _time(item.get(name), f"{where}.{name}", problems, default)


def _seating(value: Any, count: int, where: str, problems: list[Problem]) -> StoredSeating | None:
    """A round's seating: tables numbered with sides of participant numbers (below
    ``count``), and byes (None: not one, a problem)."""

    def numbers(items: Any) -> bool:
        return (
            isinstance(items, list)
            and len(items) <= count
            and all(
                isinstance(p, int) and not isinstance(p, bool) and 0 <= p < count for p in items
            )
        )

    if not isinstance(value, dict) or not numbers(value.get("byes", [])):
        problems.append(Problem("request.value", where, {}))
        return None
    tables = value.get("tables")
    if not isinstance(tables, list) or len(tables) > count:
        problems.append(Problem("request.value", where, {}))
        return None
    seated = []
    for table in tables:
        sides = table.get("sides") if isinstance(table, dict) else None
        number = table.get("number") if isinstance(table, dict) else None
        if (
            not isinstance(number, int)
            or isinstance(number, bool)
            or not 0 < number <= count
            or not isinstance(sides, list)
            or not 1 < len(sides) <= 6
            or not all(numbers(side) and len(side) <= 3 for side in sides)
        ):
            problems.append(Problem("request.value", where, {}))
            return None
        seated.append(StoredSeatedTable(number, [list(side) for side in sides]))
    draw = value.get("draw", 0)
    if isinstance(draw, bool) or not isinstance(draw, int) or not 0 <= draw < 2**31:
        problems.append(Problem("request.value", f"{where}.draw", {}))
        return None
    return StoredSeating(seated, list(value.get("byes", [])), draw)


# ---- one game ----------------------------------------------------------------------------------
def _at(where: str, problems: Any) -> list[Problem]:
    return [Problem(p.code, f"{where}.{p.where}" if p.where else where, p.params) for p in problems]


def _setup(item: dict[str, Any]) -> GameSetup | FiftySetup | Rejected:
    """The game's set-up, read as a new game of its kind is."""
    sides = item.get("sides")
    if item.get("ruleset") == FIFTY:
        options = item.get("options")
        if not isinstance(options, dict):
            options = {}
        names = (
            [s.get("name") if isinstance(s, dict) else s for s in sides]
            if isinstance(sides, list)
            else sides
        )
        return fifty_setup(
            names,
            options.get("joker", fifty_rules.DEFAULT_JOKER),
            options.get("games"),
            item.get("target") or None,
            item.get("name"),
        )
    if isinstance(sides, list):  # only what a side is: older exports carry totals beside it
        sides = [
            {"name": s.get("name"), "players": s.get("players")} if isinstance(s, dict) else s
            for s in sides
        ]
    return read_new_game(
        {
            "ruleset": item.get("ruleset"),
            "players": item.get("players"),
            "sides": sides,
            "options": item.get("options"),
            "target": item.get("target"),
            "name": item.get("name"),
        }
    )


def read_key(item: dict[str, Any], name: str, where: str, problems: list[Problem]) -> str | None:
    value = item.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not KEY.match(value):
        problems.append(Problem("request.value", f"{where}.{name}", {}))
        return None
    return value


def _side_ids(item: dict[str, Any], where: str, problems: list[Problem]) -> list[str] | None:
    """The side keys a file gives (None: none, a file of before side keys or without its keys):
    all different keys; whether there is one per side of the game is the store's to say."""
    value = item.get("side_ids")
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or not all(isinstance(k, str) and KEY.match(k) for k in value)
        or len(set(value)) != len(value)
    ):
        problems.append(Problem("request.value", f"{where}.side_ids", {}))
        return None
    return value


def read_moment(value: Any, where: str, problems: list[Problem], default: datetime) -> datetime:
    """A moment of a file in UTC (one without a zone is taken as UTC); ``default`` when left out
    or unreadable (the latter a problem)."""
    if value is None:
        return default
    try:
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError(value)
        moment = datetime.fromisoformat(value)
    except ValueError:
        problems.append(Problem("request.value", where, {}))
        return default
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _time(value: Any, where: str, problems: list[Problem], default: str) -> str:
    """:func:`read_moment` as ISO 8601; ``default`` when left out or unreadable."""
    found = len(problems)
    moment = read_moment(value, where, problems, datetime.min)
    return default if value is None or len(problems) > found else moment.isoformat()


def read_whole(value: Any, where: str, bounds: tuple[int, int], problems: list[Problem]) -> int:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem("request.type", where, {"expected": "integer"}))
        return low
    if not low <= value <= high:
        problems.append(Problem("request.value", where, {"minimum": low, "maximum": high}))
        return low
    return value


def _list(item: dict[str, Any], name: str, where: str, limit: int) -> list[Any]:
    value = item.get(name, [])
    if not isinstance(value, list):
        raise _Refused([Problem("request.type", f"{where}.{name}", {"expected": "list"})])
    if len(value) > limit:
        raise _Refused([Problem("request.too_large", f"{where}.{name}", {"limit": limit})])
    return value


def _entry(setup: GameSetup | FiftySetup, entry: dict[str, Any]) -> EntryRead:
    """An entry read as a save reads it (checked against the game by the store)."""
    if isinstance(setup, FiftySetup):
        options = fifty_rules.Options(joker=setup.joker)
        return read_fifty_entry(entry.get("teams"), len(setup.players), options)
    return read_hand(entry.get("teams"), entry.get("lone_player"), entry.get("stock_out", False))


def _teams(entry: dict[str, Any]) -> list[Any]:
    teams = entry.get("teams")
    return teams if isinstance(teams, list) else []


def _lone(read: EntryRead) -> int | None:
    lone = read.lone_player if isinstance(read, HandRead) else None
    return lone if isinstance(lone, int) and not isinstance(lone, bool) else None


def _stock_out(read: EntryRead) -> bool:
    return read.stock_out if isinstance(read, HandRead) else False


def _game(item: Any, where: str) -> ReadGame:
    if not isinstance(item, dict):
        raise _Refused([Problem("request.type", where, {"expected": "object"})])
    setup = _setup(item)
    if isinstance(setup, Rejected):
        raise _Refused(_at(where, setup.problems))
    fifty = isinstance(setup, FiftySetup)
    players = len(setup.players) if isinstance(setup, FiftySetup) else setup.players
    problems: list[Problem] = []
    game_id = read_key(item, "id", where, problems)
    view_id = read_key(item, "view_id", where, problems)
    previous = read_key(item, "previous_id", where, problems)
    now = datetime.now(UTC).isoformat()
    created = _time(item.get("created_at"), f"{where}.created_at", problems, now)
    updated = _time(item.get("updated_at"), f"{where}.updated_at", problems, created)
    limit = MAX_FIFTY_GAMES if fifty else MAX_HANDS
    hands = _list(item, "hands", where, limit)
    revisions = _list(item, "revisions", where, MAX_REVISIONS)
    version = item.get("version", 1 + len(hands) + len(revisions))
    version = read_whole(version, f"{where}.version", (1, MAX_VERSION), problems)
    seats = max(1, players)
    first_dealer = read_whole(
        item.get("first_dealer", 0), f"{where}.first_dealer", (0, seats - 1), problems
    )
    side_ids = _side_ids(item, where, problems)
    if problems:
        raise _Refused(problems)
    stored_hands, hand_reads = [], []
    for h, entry in enumerate(hands):
        at = f"{where}.hands[{h}]"
        if not isinstance(entry, dict):
            raise _Refused([Problem("request.type", at, {"expected": "object"})])
        number = entry.get("number", h + 1)
        if number != h + 1:
            raise _Refused([Problem("request.value", f"{at}.number", {"expected": h + 1})])
        read = _entry(setup, entry)
        made = _time(entry.get("created_at"), f"{at}.created_at", problems, created)
        stored_hands.append(
            StoredHand(
                number=h + 1,
                teams=_teams(entry),
                created_at=made,
                updated_at=_time(entry.get("updated_at"), f"{at}.updated_at", problems, made),
                lone_player=_lone(read),
                stock_out=_stock_out(read),
            )
        )
        hand_reads.append(read)
    stored_revisions, revision_reads = [], []
    for r, entry in enumerate(revisions):
        at = f"{where}.revisions[{r}]"
        if not isinstance(entry, dict):
            raise _Refused([Problem("request.type", at, {"expected": "object"})])
        kind = entry.get("kind")
        if kind not in REVISION_KINDS:
            problems.append(Problem("request.value", f"{at}.kind", {}))
        number = read_whole(entry.get("number"), f"{at}.number", (1, limit + 1), problems)
        revision_version = read_whole(entry.get("version"), f"{at}.version", (1, version), problems)
        read = _entry(setup, entry)
        entered = _time(entry.get("entered_at"), f"{at}.entered_at", problems, created)
        stored_revisions.append(
            StoredRevision(
                number=number,
                kind="deleted" if kind == "deleted" else "corrected",
                teams=_teams(entry),
                entered_at=entered,
                hand_created_at=_time(
                    entry.get("hand_created_at"), f"{at}.hand_created_at", problems, entered
                ),
                changed_at=_time(entry.get("changed_at"), f"{at}.changed_at", problems, entered),
                version=revision_version,
                lone_player=_lone(read),
                stock_out=_stock_out(read),
            )
        )
        revision_reads.append(read)
    if problems:
        raise _Refused(problems)
    options = item.get("options")
    stored = StoredGame(
        view_id=view_id or "",
        name=setup.name,
        ruleset=setup.ruleset.id if isinstance(setup, GameSetup) else FIFTY,
        players=players,
        options=dict(options) if isinstance(options, dict) else {},
        sides=list(item.get("sides") or []),
        target=setup.target,
        first_dealer=first_dealer,
        version=version,
        created_at=created,
        updated_at=updated,
        hands=stored_hands,
        revisions=stored_revisions,
        id=game_id,
        previous_id=previous,
        side_ids=side_ids,
    )
    return ReadGame(stored, setup, tuple(hand_reads), tuple(revision_reads))
