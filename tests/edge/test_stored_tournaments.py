"""The club tournaments of the whole database's backup (``scorekeeper export``, docs/api.md
§5), read once at the edge (``edge/stored_files.read_backup_tournaments``) into the stored
format's values: the store only makes rows of them. The codes and paths are those the command
line has always printed for a broken tournament."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scorekeeper.edge.stored_files import read_backup_tournaments
from scorekeeper.edge.stored_format import (
    StoredParticipant,
    StoredPoints,
    StoredRoundGame,
    StoredSeatedTable,
    StoredSeating,
    StoredTournament,
    as_json,
    stored_format_schema,
)
from scorekeeper.rules.scoring import Rejected

GAME = "G" * 22
TABLE = "T" * 22
NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve"]


def tournament(**change: Any) -> dict[str, Any]:
    """A tournament as ``scorekeeper export`` writes it: five at one table of four (Eve, absent,
    is no person of the table), one round played and closed, the next proposed."""
    base: dict[str, Any] = {
        "id": "K" * 22,
        "view_id": "V" * 22,
        "name": "Cup",
        "ruleset": "german",
        "options": {},
        "players": 4,
        "format": "individual",
        "scoring": "match_points",
        "points": {"win": 2, "draw": 1, "loss": 0},
        "round_end": {"hands": 4},
        "odd": "bye",
        "seed": 12345,
        "table": TABLE,
        "version": 3,
        "created_at": "2026-12-02T19:00:00+00:00",
        "updated_at": "2026-12-02T23:00:00+00:00",
        "participants": [
            {"players": [n], "absent": n == "Eve", "person": i if i < 4 else None}
            for i, n in enumerate(NAMES)
        ],
        "rounds": [
            {
                "number": 1,
                "state": "closed",
                "seating": {
                    "tables": [{"number": 1, "sides": [[0, 2], [1, 3]]}],
                    "byes": [4],
                    "draw": 7,
                },
                "created_at": "2026-12-02T19:10:00+00:00",
                "started_at": "2026-12-02T19:11:00+00:00",
                "ending_at": None,
                "closed_at": "2026-12-02T20:00:00+00:00",
                "games": [{"table": 1, "game": GAME}],
            },
            {
                "number": 2,
                "state": "proposed",
                "seating": {
                    "tables": [{"number": 1, "sides": [[0, 1], [2, 4]]}],
                    "byes": [3],
                    "draw": 0,
                },
                "created_at": "2026-12-02T20:10:00+00:00",
                "started_at": None,
                "ending_at": None,
                "closed_at": None,
                "games": [],
            },
        ],
    }
    return {**base, **change}


def a_round(index: int = 0, **change: Any) -> dict[str, Any]:
    return {**copy.deepcopy(tournament()["rounds"][index]), **change}


def person(index: int = 0, **change: Any) -> dict[str, Any]:
    return {**copy.deepcopy(tournament()["participants"][index]), **change}


def read(*items: Any) -> tuple[StoredTournament, ...]:
    answer = read_backup_tournaments({"tournaments": list(items)}, {GAME}, {TABLE})
    assert not isinstance(answer, Rejected), answer
    assert isinstance(answer, tuple)
    return answer


def problems(data: Any) -> list[tuple[str, str]]:
    answer = read_backup_tournaments(data, {GAME}, {TABLE})
    assert isinstance(answer, Rejected), answer
    return [(p.code, p.where) for p in answer.problems]


def test_a_tournament_is_read_into_the_format_s_values() -> None:
    (t,) = read(tournament())
    assert isinstance(t, StoredTournament)
    assert (t.ruleset, t.players, t.format, t.scoring, t.odd) == (
        "german",
        4,
        "individual",
        "match_points",
        "bye",
    )
    assert t.points == StoredPoints(2, 1, 0)
    assert (t.round_end_kind, t.round_end_value) == ("hands", 4)
    assert t.participants[4] == StoredParticipant(["Eve"], True, None)
    first, second = t.rounds
    assert first.seating == StoredSeating([StoredSeatedTable(1, [[0, 2], [1, 3]])], [4], 7)
    assert first.games == [StoredRoundGame(1, GAME)]
    assert (second.state, second.started_at, second.games) == ("proposed", None, [])


def test_what_is_read_is_written_back_the_same() -> None:
    """Read and written again, an exported tournament gives the same JSON (so a restored
    database exports the same bytes) and keeps to the format's schema."""
    (t,) = read(tournament())
    assert as_json(t) == tournament()
    schema = stored_format_schema()
    validator = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/StoredTournament"})
    validator.validate(json.loads(json.dumps(as_json(t))))
    assert not validator.is_valid({**tournament(), "round_end": {"laps": 2}})


def test_times_are_written_in_utc_and_what_was_left_out_is_filled_in() -> None:
    (t,) = read(
        tournament(
            created_at="2026-12-02T20:00:00+01:00",
            updated_at="2026-12-02T23:00:00",  # no zone: taken as UTC
            id=None,
            view_id=None,
            version=None,
            rounds=[a_round(0, created_at=None)],
        )
        | {"version": 1}
    )
    assert t.created_at == "2026-12-02T19:00:00+00:00"
    assert t.updated_at == "2026-12-02T23:00:00+00:00"
    assert (t.id, t.view_id) == ("", "")  # the store makes new keys
    assert t.rounds[0].created_at == t.created_at  # a round left without one: the tournament's
    (older,) = read({k: v for k, v in tournament().items() if k not in ("version", "updated_at")})
    assert older.version == 1 and older.updated_at == older.created_at
    seating = a_round(0)["seating"]
    del seating["draw"]  # a seating stored before its draw was kept
    (drawn,) = read(tournament(rounds=[a_round(0, seating=seating)]))
    assert drawn.rounds[0].seating.draw == 0


def test_a_table_that_is_not_in_the_backup_is_let_go() -> None:
    (t,) = read(tournament(table="U" * 22))
    assert t.table is None
    assert read_backup_tournaments({}, (), ()) == ()
    assert read_backup_tournaments([], (), ()) == ()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"tournaments": {}}, [("request.type", "tournaments")]),
        ({"tournaments": [3]}, [("request.type", "tournaments[0]")]),
        ({"tournaments": [{}] * 10_001}, [("request.too_large", "tournaments")]),
        (
            {"tournaments": [tournament(ruleset="nope")]},
            [("ruleset.unknown", "tournaments[0].ruleset")],
        ),
        (
            {"tournaments": [tournament(players=9)]},
            [("players.not_allowed", "tournaments[0].players")],
        ),
        (
            {"tournaments": [tournament(points={"win": 2})]},
            [("request.value", "tournaments[0].points")],
        ),
        (
            {"tournaments": [tournament(points={"win": "2", "draw": -1, "loss": 101})]},
            [
                ("request.type", "tournaments[0].points.win"),
                ("request.value", "tournaments[0].points.draw"),
                ("request.value", "tournaments[0].points.loss"),
            ],
        ),
        (
            {"tournaments": [tournament(round_end={"laps": 2})]},
            [("request.value", "tournaments[0].round_end")],
        ),
        (
            {"tournaments": [tournament(round_end={"hands": 51})]},
            [("request.value", "tournaments[0].round_end")],
        ),
        (
            {"tournaments": [tournament(round_end={"minutes": True})]},
            [("request.type", "tournaments[0].round_end")],
        ),
        ({"tournaments": [tournament(table="short")]}, [("request.value", "tournaments[0].table")]),
        # every setting wrong at once: each named, in the order they have always come
        (
            {
                "tournaments": [
                    tournament(
                        id=5,
                        view_id="x",
                        name="",
                        format="swiss",
                        scoring=1,
                        odd=None,
                        seed=-1,
                        version=0,
                        created_at="soon",
                        updated_at=3,
                    )
                ]
            },
            [
                ("request.value", f"tournaments[0].{name}")
                for name in (
                    "created_at",
                    "id",
                    "view_id",
                    "name",
                    "format",
                    "scoring",
                    "odd",
                    "seed",
                    "version",
                    "updated_at",
                )
            ],
        ),
        (
            {"tournaments": [tournament(name="N" * 41, options={"x": 1})]},
            [
                ("options.unknown", "tournaments[0].options.x"),
                ("request.value", "tournaments[0].name"),
            ],
        ),
        (
            {"tournaments": [tournament(participants="Anna")]},
            [("request.type", "tournaments[0].participants")],
        ),
        (
            {"tournaments": [tournament(participants=[person()] * 401)]},
            [("request.too_large", "tournaments[0].participants")],
        ),
        (
            {"tournaments": [tournament(participants=[person()], rounds=[a_round(0)])]},
            [
                ("request.value", "tournaments[0].participants"),
                ("request.value", "tournaments[0].rounds[0].seating"),  # seats nobody
            ],
        ),
        (
            {
                "tournaments": [
                    tournament(
                        participants=[
                            person(),
                            3,
                            person(players=[]),
                            person(players=["A", "B", "C"]),
                            person(players=["", 7]),
                            person(absent=1),
                            person(person=-1),
                            person(person=True),
                        ]
                    )
                ]
            },
            [("request.value", f"tournaments[0].participants[{i}]") for i in (1, 2, 3)]
            + [("request.value", "tournaments[0].participants[4].players")] * 2
            + [("request.value", f"tournaments[0].participants[{i}]") for i in (5, 6)],
        ),
        ({"tournaments": [tournament(rounds={})]}, [("request.type", "tournaments[0].rounds")]),
        (
            {"tournaments": [tournament(rounds=[a_round()] * 31)]},
            [("request.too_large", "tournaments[0].rounds")],
        ),
        (
            {"tournaments": [tournament(rounds=[3, a_round(number=2)])]},
            [
                ("request.value", "tournaments[0].rounds[0]"),
                ("request.value", "tournaments[0].rounds"),
            ],
        ),
        (
            {
                "tournaments": [
                    tournament(rounds=[a_round(1, number=1), a_round(0, number=2)][::-1])
                ]
            },
            [("request.value", "tournaments[0].rounds")],
        ),
        (
            {
                "tournaments": [
                    tournament(
                        rounds=[
                            a_round(
                                number="1",
                                state="done",
                                seating=None,
                                created_at="x",
                                started_at=5,
                                ending_at="y",
                                closed_at=[],
                            )
                        ]
                    )
                ]
            },
            [("request.type", "tournaments[0].rounds[0].number")]
            + [
                ("request.value", f"tournaments[0].rounds[0].{name}")
                for name in (
                    "seating",
                    "created_at",
                    "state",
                    "started_at",
                    "ending_at",
                    "closed_at",
                )
            ],
        ),
        (
            {
                "tournaments": [
                    tournament(rounds=[a_round(seating={"tables": [], "byes": [], "draw": -1})])
                ]
            },
            [("request.value", "tournaments[0].rounds[0].seating.draw")],
        ),
        (
            {
                "tournaments": [
                    tournament(
                        rounds=[
                            a_round(
                                games=[
                                    {"table": 1, "game": "H" * 22},
                                    {"table": 0, "game": GAME},
                                    {"table": True, "game": GAME},
                                    3,
                                ]
                            )
                        ]
                    )
                ]
            },
            [("request.value", f"tournaments[0].rounds[0].games[{i}]") for i in range(4)],
        ),
        (
            {"tournaments": [tournament(rounds=[a_round(games={})])]},
            [("request.type", "tournaments[0].rounds[0].games")],
        ),
    ],
)
def test_a_tournament_that_cannot_be_read(data: Any, expected: list[tuple[str, str]]) -> None:
    assert problems(data) == expected


@pytest.mark.parametrize(
    "seating",
    [
        {"tables": [], "byes": [5]},  # a bye of nobody
        {"tables": [{"number": 0, "sides": [[0], [1]]}]},
        {"tables": [{"number": 1, "sides": [[0]]}]},  # one side
        {"tables": [{"number": 1, "sides": [[0, 1, 2, 3], [4]]}]},  # a side of four
        {"tables": [3]},
        {"tables": {}},
        {"tables": [{"number": 1, "sides": [[0], [1]]}] * 6},  # more tables than participants
    ],
)
def test_a_seating_that_cannot_be_read(seating: dict[str, Any]) -> None:
    data = {"tournaments": [tournament(rounds=[a_round(seating=seating)])]}
    assert problems(data) == [("request.value", "tournaments[0].rounds[0].seating")]
