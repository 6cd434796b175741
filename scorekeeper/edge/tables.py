"""The tables' requests (docs/api.md §3 "Tables") read once, at the edge, into the typed values
of :mod:`.requests` that the store takes: a new table (:class:`~.requests.NewTable`), a person
renamed (:class:`~.requests.Rename`), two people merged (:class:`~.requests.Merge`), the table
of an export file (:func:`read_table_import`).

Every check of a request's shape is made here, with today's codes, params and paths: names
tidied (1 to 40 characters that show), 2 to 40 people of distinct names. What the store checks
is what needs the database: a person's id that names nobody at the table, a name another person
has, a merge of two people who played together. Pure Python, as the rest of the edge. A request
that cannot be read comes back as a :class:`~..rules.scoring.Rejected` with its problems.

>>> read_new_table({"name": " Thursdays ", "players": ["Anna", "Ben"]})
NewTable(name='Thursdays', players=['Anna', 'Ben'])
>>> [p.code for p in read_new_table({"name": "T", "players": ["Anna", "anna"]}).problems]
['table.player_twice']
"""

from __future__ import annotations

from typing import Any

from ..rules.problems import Problem
from ..rules.scoring import Rejected
from . import requests as rq
from .reading import Reader, name_text, whole
from .stored_format import check_format_version

#: people at one table: a club, not a city
MAX_PLAYERS = 40
#: the fewest people a new table starts with
MIN_PLAYERS = 2
#: an id that names nobody (ids are counted from 1)
NOBODY = 0


def read_names(reader: Reader, value: Any, where: str, minimum: int = MIN_PLAYERS) -> list[str]:
    """A list of ``minimum`` to :data:`MAX_PLAYERS` names, each tidied, no name twice (case
    does not count): ``table.players`` for a count outside, ``table.player_twice`` at the
    second of a name."""
    if not isinstance(value, list):
        code = "request.missing" if value is None else "request.type"
        reader.fail(code, where, expected="list")
        return []
    if not minimum <= len(value) <= MAX_PLAYERS:
        reader.fail("table.players", where, minimum=minimum, maximum=MAX_PLAYERS)
        return []
    names = [name_text(reader, v, f"{where}[{i}]") for i, v in enumerate(value)]
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name and name.casefold() in seen:
            reader.fail("table.player_twice", f"{where}[{i}]", name=name)
        seen.add(name.casefold())
    return names


def _new_table(reader: Reader, name: Any, players: Any) -> rq.NewTable:
    text = name_text(reader, name, "name") if name is not None else ""
    if name is None:
        reader.fail("request.missing", "name")
    return rq.NewTable(text, read_names(reader, players, "players"))


def read_new_table(data: dict[str, Any]) -> rq.NewTable | Rejected:
    """``POST /api/v1/tables`` (and the new-table form): its name and its 2 to 40 people."""
    reader = Reader()
    table = _new_table(reader, data.get("name"), data.get("players"))
    return reader.rejected() if reader.problems else table


#: the ``format`` of a table's export file: the default of :class:`~.requests.TableImport`'s
#: ``format``, the one value its type allows
TABLE_FORMAT: str = rq.TableImport.format


def read_table_import(header: dict[str, Any], newest: int) -> rq.NewTable | Rejected:
    """The table an export file makes (``POST /api/v1/tables/import``, ``scorekeeper
    import-table``), from the file's values but its games (read one at a time after it,
    :func:`.stored_files.read_table_game`): its ``format`` (``request.type`` for another), its
    ``format_version`` (checked as a backup's is, :func:`.stored_format.check_format_version`:
    none later than ``newest``), then its name and its people, each a name or, as the export
    writes them, ``{"id", "name"}``. A file of another format or version is refused on that
    alone."""
    if header.get("format") != TABLE_FORMAT:
        return Rejected((Problem("request.type", "format", {"expected": TABLE_FORMAT}),))
    refused = check_format_version(header, newest)
    if refused is not None:
        return refused
    people = header.get("players")
    names = (
        [p.get("name") if isinstance(p, dict) else p for p in people]
        if isinstance(people, list)
        else people
    )
    reader = Reader()
    table = _new_table(reader, header.get("name"), names)
    return reader.rejected() if reader.problems else table


def read_name(value: Any) -> str | Rejected:
    """A person's name (at ``name``), tidied: a new person at the table (the table's page)."""
    reader = Reader()
    name = name_text(reader, value, "name")
    return reader.rejected() if reader.problems else name


def read_rename(data: dict[str, Any]) -> rq.Rename | Rejected:
    """``PUT /api/v1/tables/{key}/players/{player}`` (and the form): the person's new name."""
    name = read_name(data.get("name"))
    return name if isinstance(name, Rejected) else rq.Rename(name)


#: the most digits a page number of a table's games has
PAGE_DIGITS = 6


def read_page(raw: str) -> int | Rejected:
    """``GET /api/v1/tables/{key}?page=``: a page of the table's games, 1 to 999,999 (a page
    past the last is the last)."""
    if not raw.isascii() or not raw.isdigit() or len(raw) > PAGE_DIGITS or int(raw) < 1:
        return Rejected((Problem("request.value", "page", {}),))
    return int(raw)


def person_id(value: Any) -> int:
    """A person's id as sent (a number, or its digits as text), or :data:`NOBODY` for a value
    that is no id: the store then says that it names nobody at the table
    (``table.player_unknown``), as for an id it does not know."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 12:
        value = int(value)
    value = whole(value)  # 3.0 is 3, as JSON Schema counts it
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**31:
        return value
    return NOBODY


def read_merge(data: dict[str, Any]) -> rq.Merge:
    """``POST /api/v1/tables/{key}/merge`` (and the form): the ids of the person kept and the
    person merged into them. Nothing here is refused: whether an id names someone at the table
    is the store's to say."""
    return rq.Merge(person_id(data.get("keep")), person_id(data.get("merge")))
