"""A table as JSON: what ``GET /api/v1/tables/<id>`` answers, and the whole table as a backup
(export and import)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any

import ijson
from ijson.common import ObjectBuilder
from sqlalchemy.orm import Session

from ...edge.stored_files import read_table_game
from ...edge.tables import read_table_import
from ...rules.problems import Problem
from ...rules.scoring import Rejected
from ...store import backup, tables
from ...store.errors import GameProblems
from ...store.models import Table
from ...store.stored_format import (
    FORMAT_VERSION,
    TABLE,
    TableFile,
    TableFileGame,
    TablePerson,
    as_json,
)
from ...store.table_stats import Figures, GameFacts, TableStats, rated, table_stats

FORMAT = TABLE


def figures_json(figures: Figures) -> dict[str, Any]:
    return {
        "games": figures.games,
        "wins": figures.wins,
        "win_rate": figures.win_rate,
        "hands": figures.hands,
        "average_hand": figures.average_hand,
        "canastas": {"natural": figures.natural, "mixed": figures.mixed, "wild": figures.wild},
        "went_out": figures.went_out,
        "concealed": figures.concealed,
        "red_threes": figures.red_threes,
        "red_threes_hands": figures.known,
        "canastas_hands": figures.known,
        "best_hand": figures.best_hand,
        "highest_game": figures.highest_game,
        "lowest_game": figures.lowest_game,
        "fifty": {
            "games": figures.fifty_games,
            "wins": figures.fifty_wins,
            "played": figures.fifty_decks,
            "average_minus": figures.fifty_average,
        },
    }


def game_json(facts: GameFacts, names: dict[int, str], editing: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": facts.game_id} if editing else {}
    out.update(
        {
            "view_id": facts.view_id,
            "kind": facts.kind,
            "ruleset": facts.ruleset,
            "created": facts.created_at.isoformat(),
            "finished": facts.finished,
            "winner": facts.winners[0] if facts.winners else None,
            "winners": list(facts.winners),
            "hands": facts.hands,
            "sides": [
                {
                    "name": c.name,
                    "players": [names.get(p, "") for p in c.players],
                    "total": c.total,
                }
                for c in facts.columns
            ],
        }
    )
    return out


def stats_json(stats: TableStats, names: dict[int, str]) -> dict[str, Any]:
    def pair(key: tuple[int, int]) -> list[str]:
        return [names.get(key[0], ""), names.get(key[1], "")]

    return {
        "players": [
            {
                "id": p,
                "name": names[p],
                **figures_json(stats.players.get(p, Figures())),
                "rating": rated(stats, p),
            }
            for p in names
        ],
        "partnerships": [
            {"players": pair(key), **figures_json(figures)}
            for key, figures in sorted(stats.partnerships.items())
        ],
        "head_to_head": {
            "players": [
                {"players": pair(key), "games": m.games, "wins": [m.first, m.second]}
                for key, m in sorted(stats.players_met.items())
            ],
            "partnerships": [
                {
                    "partnerships": [pair(a), pair(b)],
                    "games": m.games,
                    "wins": [m.first, m.second],
                }
                for (a, b), m in sorted(stats.partnerships_met.items())
            ],
        },
        "records": [
            {
                "kind": r.kind,
                "value": r.value,
                "side": r.names,
                "game": r.view_id,
                "hand": r.hand or None,
            }
            for r in stats.records
        ],
    }


#: games in one answer of ``GET /api/v1/tables/<id>`` (``?page=`` for the older ones; the
#: export has them all): a season's table keeps up to 5,000
GAMES_PER_PAGE = 100


def table_json(session: Session, table: Table, editing: bool, page: int = 1) -> dict[str, Any]:
    """The table as the API answers it, with page ``page`` of its games (newest first, at most
    :data:`GAMES_PER_PAGE`; a page past the last is the last); the editing keys (the table's
    and its games') only for ``editing``."""
    people = tables.people(session, table)
    names = {p.id: p.name for p in people}
    stats = table_stats(session, table)
    shown, page, pages = stats.games_page(page, GAMES_PER_PAGE)
    out: dict[str, Any] = {"id": table.id} if editing else {}
    out.update(
        {
            "view_id": table.view_id,
            "name": table.name,
            "version": table.version,
            "players": [{"id": p.id, "name": p.name} for p in people],
            "games": [game_json(g, names, editing) for g in shown],
            "games_total": len(stats.games),
            "page": page,
            "pages": pages,
            "stats": stats_json(stats, names),
        }
    )
    if editing:
        merges = tables.merges(session, table)
        latest = merges[0] if merges else None
        out["merges"] = [
            {
                "id": m.id,
                "keep": {"id": m.keep_id, "name": m.keep_name},
                "merged": {"id": m.gone_id, "name": m.gone_name},
                "at": m.merged_at.isoformat(),
                "undone_at": m.undone_at.isoformat() if m.undone_at else None,
                "undoable": tables.undoable(table, m, latest),
            }
            for m in merges
        ]
    return out


# ---- backup ------------------------------------------------------------------------------------


def table_export(session: Session, table: Table) -> dict[str, Any]:
    """The whole table (:class:`...store.stored_format.TableFile`): its people and every game,
    oldest first, each in the one stored-game format (both kinds; without editing keys:
    importing makes a table of its own) with the people of its sides."""
    games = [
        TableFileGame(
            "canasta" if tables.is_canasta(game.ruleset) else "fifty",
            link.players,
            backup.stored_game(game, with_keys=False),
        )
        for link, game in tables.linked_games(session, table)
    ]
    people = [TablePerson(p.id, p.name) for p in tables.people(session, table)]
    out: dict[str, Any] = as_json(TableFile(FORMAT, FORMAT_VERSION, table.name, people, games))
    return out


def import_table_file(session: Session, source: IO[bytes]) -> Table:
    """A table from its export file (seekable: an upload kept in a temporary file), as a new
    table: every game read at the edge as every imported game is, checked as if typed and
    stored through the same store functions as the API, in one transaction (a problem anywhere
    stores nothing). The file is read as it is parsed: the table's name and people first, then
    one game at a time, so that the file is never held in memory whole (a table of 1,000 games
    is 3.2 MB of JSON, and several times that as Python objects). Raises :class:`GameProblems`
    (unreadable JSON: 400 ``request.invalid_json``)."""
    try:
        parser = _parser(source)
        header = _header(source, parser)
        source.seek(0)
        games = parser.items(source, "games.item", use_float=True) if header.pop("games") else None
        return _import(session, header, games)
    except (ijson.JSONError, StopIteration):
        raise GameProblems([Problem("request.invalid_json", "", {})], 400) from None


def peek_format(source: IO[bytes]) -> Any:
    """The ``format`` of an export file, read without its games (the file is left at its
    start). Raises :class:`GameProblems` when it is no JSON object."""
    try:
        return _header(source, _parser(source)).get("format")
    except (ijson.JSONError, StopIteration):
        raise GameProblems([Problem("request.invalid_json", "", {})], 400) from None
    finally:
        source.seek(0)


def _parser(source: IO[bytes]) -> Any:
    """ijson's fast C parser, or its Python one for a file with an integer beyond 64 bits (JSON
    allows it, the C parser cannot hold it: a 400 for a readable file otherwise). The file is
    read through once (fast) and left at its start. Raises ijson's error for unreadable JSON."""
    try:
        for _ in ijson.basic_parse(source, use_float=True):
            pass
        return ijson
    except ijson.JSONError as error:
        if "overflow" not in str(error):
            raise
        return ijson.get_backend("python")
    finally:
        source.seek(0)


def _header(source: IO[bytes], parser: Any) -> dict[str, Any]:
    """Every top-level value of the export but its games, built from the parser's events;
    ``games``: whether the file has a list of games (skipped here, read by the second pass)."""
    events = iter(parser.parse(source, use_float=True))
    first = next(events, None)
    if first is None or first[1] != "start_map":
        raise GameProblems([Problem("request.type", "format", {"expected": FORMAT})])
    header: dict[str, Any] = {"games": False}
    for prefix, event, value in events:
        if prefix != "" or event != "map_key":
            break  # the end of the top-level object
        _, inner, start = next(events)
        if value == "games":
            header["games"] = inner == "start_array"
            _value(events, inner, start, keep=False)
        else:
            header[value] = _value(events, inner, start, keep=True)
    return header


def _value(events: Iterator[tuple[str, str, Any]], event: str, value: Any, keep: bool) -> Any:
    """The value that starts with ``event`` (built when ``keep``, else only read past)."""
    builder = ObjectBuilder()
    builder.event(event, value)
    depth = 1 if event in ("start_map", "start_array") else 0
    while depth:
        _, event, value = next(events)
        if keep:
            builder.event(event, value)
        if event in ("start_map", "start_array"):
            depth += 1
        elif event in ("end_map", "end_array"):
            depth -= 1
    return builder.value if keep else None


def _import(session: Session, header: dict[str, Any], items: Iterable[Any] | None) -> Table:
    new = read_table_import(header, FORMAT_VERSION)
    if isinstance(new, Rejected):
        raise GameProblems(list(new.problems))
    table = tables.create_table(session, new)
    if items is None or isinstance(items, (str, dict)) or not isinstance(items, Iterable):
        raise GameProblems([Problem("request.type", "games", {"expected": "list"})])
    for g, item in enumerate(items):
        if g >= tables.MAX_GAMES:  # counted as read: the rest is never parsed
            raise GameProblems(
                [Problem("request.too_large", "games", {"limit": tables.MAX_GAMES})], 400
            )
        _import_game(session, table, item, f"games[{g}]")
    return table


def _import_game(session: Session, table: Table, item: Any, where: str) -> None:
    """One game of the export (this format, or a file of before: upgraded), read at the edge as
    every imported game is (:func:`...edge.stored_files.read_table_game`), checked as a
    backup's game is and stored as a game of its own."""
    read = read_table_game(item, where)
    if isinstance(read, Rejected):
        raise GameProblems(list(read.problems))
    checked = backup.checked_game(read, f"{where}.game")
    game = backup.restore(session, checked)[0]  # keyless: a game of its own
    tables.attach(session, table, game)
