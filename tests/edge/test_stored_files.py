"""Imported files read once, at the edge (``edge/stored_files.py``): a backup of either version
of the stored-game format (docs/stored-format.md), a file of before, and each game of a table's
export, into the format's typed values, with the codes and paths that docs/api.md §3 gives the
imports, before the store is reached."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorekeeper.edge.games import FiftyHandRead, FiftySetup, GameSetup, HandRead
from scorekeeper.edge.stored_files import (
    ReadGame,
    read_backup_file,
    read_backup_tables,
    read_table_game,
)
from scorekeeper.edge.stored_format import (
    BACKUP,
    FORMAT_VERSION,
    BackupFile,
    StoredGame,
    StoredHand,
    StoredTable,
    StoredTableGame,
    TableFile,
    check_format_version,
)
from scorekeeper.edge.tables import read_table_import
from scorekeeper.rules.problems import Problem
from scorekeeper.rules.scoring import Rejected


def example() -> dict[str, Any]:
    return copy.deepcopy(BackupFile.EXAMPLE)


def problems(answer: object) -> list[tuple[str, str]]:
    assert isinstance(answer, Rejected), answer
    return [(p.code, p.where) for p in answer.problems]


def games(answer: object) -> tuple[ReadGame, ...]:
    assert not isinstance(answer, Rejected), answer
    assert isinstance(answer, tuple)
    return answer


def test_the_example_backup_is_read_into_the_format_s_values() -> None:
    canasta, evening = games(read_backup_file(example()))
    assert isinstance(canasta.stored, StoredGame)
    assert isinstance(canasta.setup, GameSetup) and canasta.setup.players == 4
    assert [type(h) for h in canasta.hands] == [HandRead]
    assert [type(r) for r in canasta.revisions] == [HandRead]
    assert isinstance(canasta.stored.hands[0], StoredHand)
    assert canasta.stored.hands[0].created_at == "2026-12-04T20:30:00+00:00"
    assert canasta.stored.revisions[0].kind == "corrected"
    assert not canasta.keyed  # the example carries the view key only
    assert isinstance(evening.setup, FiftySetup)
    assert evening.setup.players == ["Anna", "Ben", "Cleo"]
    assert [type(h) for h in evening.hands] == [FiftyHandRead]
    assert evening.stored.players == 3


def test_times_are_written_in_utc_and_defaults_filled_in() -> None:
    data = example()
    game = data["games"][0]
    game["created_at"] = "2026-12-04T21:15:00+01:00"
    game["id"] = "A" * 22
    del game["updated_at"], game["version"], game["hands"][0]["created_at"]
    game["hands"][0].pop("updated_at")
    read = games(read_backup_file(data))[0]
    assert read.keyed
    assert read.stored.created_at == "2026-12-04T20:15:00+00:00"
    assert read.stored.updated_at == read.stored.created_at  # the creation time
    assert read.stored.hands[0].created_at == read.stored.created_at
    assert read.stored.version == 3  # one for the game, its hand and its correction


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"format_version": FORMAT_VERSION + 1}, [("request.value", "format_version")]),
        ({"format_version": "2"}, [("request.type", "format_version")]),
        ({"format_version": True}, [("request.type", "format_version")]),
        ({"games": {}}, [("request.type", "games")]),
        ({"games": []}, [("request.missing", "games")]),
        ({"games": [7]}, [("request.type", "games[0]")]),
    ],
)
def test_a_file_that_cannot_be_read(change: dict[str, Any], expected: list[Any]) -> None:
    assert problems(read_backup_file({**example(), **change})) == expected


def test_a_file_of_version_1_is_read() -> None:
    data = example()
    del data["format_version"]
    assert len(games(read_backup_file(data))) == 2


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("ruleset",), "chess", ("ruleset.unknown", "games[0].ruleset")),
        (("view_id",), "short", ("request.value", "games[0].view_id")),
        (("created_at",), "yesterday", ("request.value", "games[0].created_at")),
        (("first_dealer",), 4, ("request.value", "games[0].first_dealer")),
        (("version",), 0, ("request.value", "games[0].version")),
        (("side_ids",), ["A" * 22, "A" * 22], ("request.value", "games[0].side_ids")),
        (("hands",), {}, ("request.type", "games[0].hands")),
        (("hands", 0, "number"), 2, ("request.value", "games[0].hands[0].number")),
        (("hands", 0, "updated_at"), 5, ("request.value", "games[0].hands[0].updated_at")),
        (("revisions", 0, "kind"), "moved", ("request.value", "games[0].revisions[0].kind")),
        (("revisions", 0, "version"), 9, ("request.value", "games[0].revisions[0].version")),
    ],
)
def test_a_game_s_problem_names_the_game_and_hand(
    path: tuple[Any, ...], value: Any, expected: tuple[str, str]
) -> None:
    data = example()
    target: Any = data["games"][0]
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    found = problems(read_backup_file(data))
    assert expected in found, found


def test_the_limits_of_one_import() -> None:
    assert problems(read_backup_file(example(), max_games=1)) == [("request.too_large", "games")]
    refused = read_backup_file(example(), max_hands=2)  # two hands and a correction
    assert isinstance(refused, Rejected)
    assert refused.problems == (Problem("request.too_large", "games", {"limit": 2}),)


def test_files_of_before_are_upgraded_first() -> None:
    game = {
        "ruleset": "german",
        "players": 4,
        "sides": [
            {"name": "A", "players": ["Anna", "Ben"], "total": 0},
            {"name": "B", "players": ["Cleo", "Dan"], "total": 0},
        ],
        "hands": [{"teams": BackupFile.EXAMPLE["games"][0]["hands"][0]["teams"], "scores": []}],
    }
    one = games(read_backup_file(game))  # a single game of the games API
    several = games(read_backup_file({"games": [game, game]}))
    assert len(one) == 1 and len(several) == 2
    assert one[0].stored.hands[0].number == 1 and one[0].stored.revisions == []


def test_one_format_version_check_for_both_files() -> None:
    assert check_format_version({}) is None
    later = {"format_version": FORMAT_VERSION + 1}
    table = read_table_import({**TableFile.EXAMPLE, **later}, FORMAT_VERSION)
    backup = read_backup_file({"format": BACKUP, **later})
    assert isinstance(table, Rejected) and isinstance(backup, Rejected)
    checked = check_format_version(later)
    assert isinstance(checked, Rejected)
    assert table.problems == backup.problems == checked.problems


def test_a_table_s_game_is_read_as_it_comes() -> None:
    item = copy.deepcopy(TableFile.EXAMPLE["games"][1])
    read = read_table_game(item, "games[1]")
    assert isinstance(read, ReadGame) and isinstance(read.setup, FiftySetup)
    assert problems(read_table_game({"game": 3}, "games[4]")) == [("request.type", "games[4]")]
    item["game"]["sides"] = "Anna"
    assert problems(read_table_game(item, "games[1]")) == [
        ("request.type", "games[1].game.players")
    ]


def whole_table(**change: Any) -> dict[str, Any]:
    table = {
        "id": "T" * 22,
        "view_id": "V" * 22,
        "name": "Mittwoch",
        "version": 3,
        "created_at": "2026-12-02T19:00:00+01:00",
        "updated_at": "2026-12-02T23:00:00Z",
        "people": ["Anna", "Ben", "Cleo", "Dan"],
        "games": [{"game": "G" * 22, "seats": [[0, 1], [2, 3]]}],
    }
    return {"tables": [{**table, **change}]}


def test_the_whole_backup_s_tables_are_read_into_the_format_s_values() -> None:
    read = read_backup_tables(whole_table(), {"G" * 22})
    assert isinstance(read, tuple)
    (table,) = read
    assert isinstance(table, StoredTable)
    assert table.people == ["Anna", "Ben", "Cleo", "Dan"]
    assert table.games == [StoredTableGame("G" * 22, [[0, 1], [2, 3]])]
    assert table.created_at == "2026-12-02T18:00:00+00:00"
    assert table.updated_at == "2026-12-02T23:00:00+00:00"
    assert read_backup_tables({}, ()) == ()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"tables": {}}, [("request.type", "tables")]),
        ({"tables": [3]}, [("request.type", "tables[0]")]),
        (whole_table(id="short"), [("request.value", "tables[0].id")]),
        (whole_table(name=""), [("request.value", "tables[0].name")]),
        (whole_table(people="Anna"), [("request.type", "tables[0].people")]),
        (whole_table(people=["Anna", "Ben", "Cleo", 7]), [("request.value", "tables[0].people")]),
        (whole_table(people=["A"] * 201), [("request.too_large", "tables[0].people")]),
        (whole_table(version=0), [("request.value", "tables[0].version")]),
        (whole_table(created_at="soon"), [("request.value", "tables[0].created_at")]),
        # a game the backup does not hold, a seat of nobody, a key that is no key
        (
            whole_table(games=[{"game": "H" * 22, "seats": []}]),
            [("request.value", "tables[0].games[0]")],
        ),
        (
            whole_table(games=[{"game": "G" * 22, "seats": [[4]]}]),
            [("request.value", "tables[0].games[0]")],
        ),
        (
            whole_table(games=[{"game": ["G"], "seats": []}]),
            [("request.value", "tables[0].games[0]")],
        ),
    ],
)
def test_a_table_of_the_whole_backup_that_cannot_be_read(
    data: dict[str, Any], expected: list[Any]
) -> None:
    assert problems(read_backup_tables(data, {"G" * 22})) == expected


def test_the_ruleset_is_the_one_the_set_up_resolved() -> None:
    canasta, evening = games(read_backup_file(example()))
    assert isinstance(canasta.setup, GameSetup)
    assert canasta.stored.ruleset == canasta.setup.ruleset.id == "german"
    assert evening.stored.ruleset == "three-is-fifty"
