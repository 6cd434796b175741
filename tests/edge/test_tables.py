"""The tables' requests read at the edge (``edge/tables.py``): a new table, a rename, a merge and
an imported table's people, each into its typed value of ``edge/requests.py`` with the problem
codes, params and paths of docs/api.md §3 ("Tables"), before the store is reached."""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

import pytest

from scorekeeper.edge import requests as rq
from scorekeeper.edge.spec import json_schema
from scorekeeper.edge.tables import (
    MAX_PLAYERS,
    NOBODY,
    TABLE_FORMAT,
    person_id,
    read_merge,
    read_new_table,
    read_page,
    read_rename,
    read_table_import,
)
from scorekeeper.rules.problems import Problem
from scorekeeper.rules.scoring import Rejected
from scorekeeper.store.stored_format import FORMAT_VERSION, TABLE


def problems(answer: object) -> list[Problem]:
    assert isinstance(answer, Rejected), answer
    return list(answer.problems)


def test_a_new_table_is_read_with_its_names_tidied() -> None:
    read = read_new_table({"name": "  Friday\tclub ", "players": [" Anna", "Ben  Bo"]})
    assert read == rq.NewTable("Friday club", ["Anna", "Ben Bo"])


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"players": ["A", "B"]}, [Problem("request.missing", "name", {})]),
        (
            {"name": 7, "players": ["A", "B"]},
            [Problem("request.type", "name", {"expected": "string"})],
        ),
        ({"name": "T"}, [Problem("request.missing", "players", {"expected": "list"})]),
        (
            {"name": "T", "players": "A, B"},
            [Problem("request.type", "players", {"expected": "list"})],
        ),
        (
            {"name": "T", "players": ["A"]},
            [Problem("table.players", "players", {"minimum": 2, "maximum": MAX_PLAYERS})],
        ),
        (
            {"name": "T", "players": [f"P{i}" for i in range(MAX_PLAYERS + 1)]},
            [Problem("table.players", "players", {"minimum": 2, "maximum": MAX_PLAYERS})],
        ),
        (
            {"name": "T", "players": ["Anna", 3, "x" * 41, "\u3164", "ANNA "]},
            [
                Problem("request.type", "players[1]", {"expected": "string"}),
                Problem("name.invalid", "players[2]", {"maximum": 40}),
                Problem("name.not_visible", "players[3]", {}),
                Problem("table.player_twice", "players[4]", {"name": "ANNA"}),
            ],
        ),
        (
            {"name": "x" * 41, "players": ["A", "A"]},
            [
                Problem("name.invalid", "name", {"maximum": 40}),
                Problem("table.player_twice", "players[1]", {"name": "A"}),
            ],
        ),
    ],
)
def test_a_new_table_of_the_wrong_shape_is_refused_as_today(
    data: dict[str, Any], expected: list[Problem]
) -> None:
    assert problems(read_new_table(data)) == expected


def test_a_rename_reads_a_name() -> None:
    assert read_rename({"name": " Anna  Maria "}) == rq.Rename("Anna Maria")
    assert problems(read_rename({})) == [Problem("request.type", "name", {"expected": "string"})]
    assert problems(read_rename({"name": "\u202e"})) == [
        Problem("name.invalid", "name", {"maximum": 40})
    ]


@pytest.mark.parametrize(
    ("value", "read"),
    [
        (3, 3),
        ("17", 17),
        ("x1", NOBODY),
        (None, NOBODY),
        (True, NOBODY),
        (0, NOBODY),
        (2**31, NOBODY),
        ("9" * 13, NOBODY),
        (2.0, 2),
        (2.5, NOBODY),
        ("٣", NOBODY),
    ],
)
def test_a_persons_id_is_a_number_or_its_digits(value: Any, read: int) -> None:
    # anything else names nobody: the store answers table.player_unknown, as for an unknown id
    assert person_id(value) == read


def test_a_merge_is_read_into_two_ids() -> None:
    assert read_merge({"keep": 4, "merge": "5"}) == rq.Merge(4, 5)
    assert read_merge({"keep": [4]}) == rq.Merge(NOBODY, NOBODY)


def test_an_imported_tables_people_are_names_or_as_the_export_writes_them() -> None:
    header = {
        "format": TABLE_FORMAT,
        "name": "Friday",
        "players": [{"id": 3, "name": "Anna"}, "Ben"],
    }
    assert read_table_import(header, 2) == rq.NewTable("Friday", ["Anna", "Ben"])
    bad = {**header, "players": [{"id": 3}, {"name": "anna"}, {"name": "Anna"}]}
    assert problems(read_table_import(bad, 2)) == [
        Problem("request.type", "players[0]", {"expected": "string"}),
        Problem("table.player_twice", "players[2]", {"name": "Anna"}),
    ]


def test_the_description_states_the_bounds_the_reader_holds() -> None:
    schemas: dict[str, Any] = {}
    json_schema(rq.NewTable, schemas)
    players = schemas["NewTable"]["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (2, MAX_PLAYERS)
    assert players["items"]["maxLength"] == 40
    json_schema(rq.Merge, schemas)
    keep = schemas["Merge"]["properties"]["keep"]
    assert {"type": "integer"} in keep["anyOf"] and {"type": "string"} in keep["anyOf"]


@pytest.mark.parametrize("raw", ["0", "-1", "1.5", "x", "", "1234567", "\u0663", " 2"])
def test_a_page_of_games_is_a_number_from_one(raw: str) -> None:
    assert problems(read_page(raw)) == [Problem("request.value", "page", {})]


def test_a_page_is_read_as_its_number() -> None:
    assert (read_page("1"), read_page("007"), read_page("999999")) == (1, 7, 999_999)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"format": "scorekeeper-game"}, Problem("request.type", "format", {"expected": TABLE})),
        ({"format": None}, Problem("request.type", "format", {"expected": TABLE})),
        (
            {"format_version": "2"},
            Problem("request.type", "format_version", {"expected": "integer"}),
        ),
        ({"format_version": 0}, Problem("request.type", "format_version", {"expected": "integer"})),
        (
            {"format_version": FORMAT_VERSION + 1},
            Problem("request.value", "format_version", {"maximum": FORMAT_VERSION}),
        ),
    ],
)
def test_a_file_of_another_format_or_a_later_version_is_refused_on_that_alone(
    changes: dict[str, Any], expected: Problem
) -> None:
    # the name and people are not read: the file is not one this app reads
    header = {"format": TABLE, "name": 5, "players": "x", **changes}
    assert problems(read_table_import(header, FORMAT_VERSION)) == [expected]


def test_a_file_without_a_version_is_of_the_first() -> None:
    header = {"format": TABLE, "name": "Friday", "players": ["Anna", "Ben"]}
    assert read_table_import(header, FORMAT_VERSION) == rq.NewTable("Friday", ["Anna", "Ben"])
    assert TABLE_FORMAT == TABLE
    # the one value the request's type allows
    assert get_args(get_type_hints(rq.TableImport)["format"]) == (TABLE_FORMAT,)
