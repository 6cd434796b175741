"""The tournaments' requests read at the edge (``edge/tournaments.py``): a new tournament into a
``TournamentSetup``, a seating by hand into the engine's ``Seating``, a swap and an absence, with
the problem codes, params and paths of docs/api.md §3 ("Tournaments"), before the store is
reached."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.edge import requests as rq
from scorekeeper.edge.spec import json_schema
from scorekeeper.edge.tournaments import (
    MAX_PARTICIPANTS,
    POINTS_MAX,
    ROUND_END_BOUNDS,
    SEATING_MAX,
    read_absence,
    read_new_tournament,
    read_seating,
    read_swap,
)
from scorekeeper.rules.problems import Problem
from scorekeeper.rules.scoring import Rejected
from scorekeeper.tournaments.model import (
    Format,
    OddCount,
    Points,
    RoundEnd,
    Scoring,
    Seating,
    TableSeating,
)

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hanna"]


def body(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Club cup",
        "ruleset": "german",
        "players": 4,
        "round_end": {"hands": 2},
        "participants": list(NAMES),
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


def problems(answer: object) -> list[Problem]:
    assert isinstance(answer, Rejected), answer
    return list(answer.problems)


def test_a_new_tournament_is_read_into_the_engines_values() -> None:
    setup = read_new_tournament(
        body(
            name=" Spring  cup ",
            format="pairs",
            scoring="points",
            odd="larger",
            points={"win": 3, "draw": 1, "loss": 0},
            round_end={"minutes": 45},
            participants=[["Anna", " Ben"], ["Cleo", "Dan"], ["Eve", "Finn"]],
            options={"going_out_bonus": 200},
        )
    )
    assert not isinstance(setup, Rejected)
    assert (setup.name, setup.ruleset.id, setup.players) == ("Spring cup", "german", 4)
    assert (setup.format, setup.scoring, setup.odd) == (
        Format.PAIRS,
        Scoring.POINTS,
        OddCount.LARGER,
    )
    assert setup.points == Points(3, 1, 0)
    assert (setup.round_end, setup.round_end_value) == (RoundEnd.MINUTES, 45)
    assert setup.participants == [["Anna", "Ben"], ["Cleo", "Dan"], ["Eve", "Finn"]]
    assert setup.options == {"going_out_bonus": 200} and setup.table is None


def test_left_out_values_take_the_clubs_defaults() -> None:
    setup = read_new_tournament(body(format=None, scoring=None, odd=None, points=None))
    assert not isinstance(setup, Rejected)
    assert (setup.format, setup.scoring, setup.odd) == (
        Format.INDIVIDUAL,
        Scoring.MATCH_POINTS,
        OddCount.BYE,
    )
    assert setup.points == Points(2, 1, 0) and setup.participants == [[n] for n in NAMES]


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        # Literal values: the allowed ones named, at the field
        (
            {"format": "teams"},
            [
                Problem(
                    "request.value",
                    "format",
                    {"field": "format", "allowed": ["individual", "pairs"]},
                )
            ],
        ),
        (
            {"scoring": 1},
            [
                Problem(
                    "request.value",
                    "scoring",
                    {"field": "scoring", "allowed": ["match_points", "points"]},
                )
            ],
        ),
        (
            {"odd": ["bye"]},
            [Problem("request.value", "odd", {"field": "odd", "allowed": ["bye", "larger"]})],
        ),
        # wrong types
        ({"name": None}, [Problem("request.type", "name", {"expected": "string"})]),
        ({"points": [2, 1, 0]}, [Problem("request.type", "points", {"field": "points"})]),
        ({"round_end": "hands"}, [Problem("request.type", "round_end", {"field": "round_end"})]),
        ({"round_end": ...}, [Problem("request.missing", "round_end", {"field": "round_end"})]),
        (
            {"participants": "Anna, Ben"},
            [Problem("request.type", "participants", {"field": "participants"})],
        ),
        (
            {"participants": ...},
            [Problem("request.missing", "participants", {"field": "participants"})],
        ),
        # too long
        ({"name": "x" * 41}, [Problem("name.invalid", "name", {"maximum": 40})]),
        (
            {"participants": ["Anna", "x" * 41, "Cleo", "Dan"]},
            [Problem("name.invalid", "participants[1]", {"maximum": 40})],
        ),
        (
            {"participants": [f"P{i}" for i in range(MAX_PARTICIPANTS + 1)]},
            [
                Problem(
                    "tournament.participants",
                    "participants",
                    {"minimum": 2, "maximum": MAX_PARTICIPANTS, "have": MAX_PARTICIPANTS + 1},
                )
            ],
        ),
        # an unknown key of the match points, and each bound at its own path
        (
            {"points": {"win": 2, "tie": 1}},
            [Problem("request.unknown_key", "points", {"key": "tie"})],
        ),
        (
            {"points": {"win": POINTS_MAX + 1, "loss": True}},
            [
                Problem("tournament.points", "points.win", {"minimum": 0, "maximum": POINTS_MAX}),
                Problem("tournament.points", "points.loss", {"minimum": 0, "maximum": POINTS_MAX}),
            ],
        ),
        (
            {"points": {"win": 1, "draw": 2, "loss": 0}},
            [Problem("tournament.points_order", "points", {})],
        ),
        ({"round_end": {"laps": 3}}, [Problem("tournament.round_end", "round_end", {})]),
        (
            {"round_end": {"hands": 2, "minutes": 30}},
            [Problem("tournament.round_end", "round_end", {})],
        ),
        (
            {"round_end": {"target": 99}},
            [
                Problem(
                    "tournament.round_end_value",
                    "round_end.target",
                    {"kind": "target", "minimum": 100, "maximum": 1_000_000},
                )
            ],
        ),
        (
            {"round_end": {"minutes": 30.5}},
            [
                Problem(
                    "tournament.round_end_value",
                    "round_end.minutes",
                    {"kind": "minutes", "minimum": 1, "maximum": 600},
                )
            ],
        ),
        # a pair at its path, names of a pair at theirs
        (
            {"format": "pairs", "participants": [["A", "B"], ["C", "D", "E"], "F"]},
            [
                Problem("tournament.pair", "participants[1]", {"participant": 1}),
                Problem("tournament.pair", "participants[2]", {"participant": 2}),
                Problem(
                    "tournament.participants",
                    "participants",
                    {"minimum": 2, "maximum": MAX_PARTICIPANTS, "have": 1},
                ),
            ],
        ),
        (
            {"format": "pairs", "participants": [["A", "B"], ["C", 4], ["a", "E"]]},
            [
                Problem("request.type", "participants[1][1]", {"expected": "string"}),
                Problem("tournament.player_twice", "participants[2][0]", {"name": "a"}),
            ],
        ),
        (
            {
                "format": "pairs",
                "ruleset": "classic",
                "players": 3,
                "participants": [NAMES[i : i + 2] for i in range(0, 8, 2)],
            },
            [Problem("tournament.pairs_table", "players", {"players": 3, "allowed": [4, 6]})],
        ),
        ({"ruleset": "bridge"}, [Problem("ruleset.unknown", "ruleset", {"ruleset": "bridge"})]),
    ],
)
def test_a_new_tournament_of_the_wrong_shape_is_refused_as_today(
    changes: dict[str, Any], expected: list[Problem]
) -> None:
    assert problems(read_new_tournament(body(**changes))) == expected


def test_a_number_written_with_a_point_is_the_integer_it_is() -> None:
    # JSON Schema (and so the description) counts 30.0 an integer: it is read as one
    setup = read_new_tournament(body(round_end={"minutes": 30.0}, points={"win": 3.0}))
    assert not isinstance(setup, Rejected)
    assert setup.round_end_value == 30 and setup.points == Points(3, 1, 0)
    assert read_swap({"a": 2.0, "b": 0}) == rq.Swap(2, 0)
    seating = read_seating({"tables": [{"number": 1.0, "sides": [[0.0], [1]]}], "byes": [2.0]})
    assert seating == Seating((TableSeating(1, ((0,), (1,))),), (2,))
    assert all(type(p) is int for p in (*seating.byes, *seating.tables[0].participants))


def test_problems_come_in_todays_order() -> None:
    found = problems(
        read_new_tournament(
            body(
                name="",
                format="teams",
                points={"win": -1},
                round_end={},
                participants=["Anna", "anna"],
            )
        )
    )
    assert [p.where for p in found] == [
        "name",
        "format",
        "points.win",
        "round_end",
        "participants[1]",
        "participants",
    ]


def test_with_a_table_the_participants_may_be_left_out() -> None:
    setup = read_new_tournament(body(participants=None, table="k" * 22))
    assert not isinstance(setup, Rejected)
    assert setup.participants is None and setup.table == "k" * 22
    # pairs are named: a table's people are individuals
    assert problems(read_new_tournament(body(participants=None, format="pairs", table="k"))) == [
        Problem("request.missing", "participants", {"field": "participants"})
    ]


def test_a_seating_is_read_into_the_engines_seating() -> None:
    read = read_seating({"tables": [{"number": 1, "sides": [[0, 3], [2, 1]]}], "byes": [4]})
    assert read == Seating((TableSeating(1, ((0, 3), (2, 1))),), (4,))
    assert read_seating({"tables": []}) == Seating((), ())


WRONG = [Problem("request.type", "seating", {"field": "tables"})]


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"tables": {}},
        {"tables": [], "byes": "4"},
        {"tables": [[1, [[0, 1]]]]},
        {"tables": [{"number": 1}]},
        {"tables": [{"number": "1", "sides": []}]},
        {"tables": [{"number": True, "sides": []}]},
        {"tables": [{"number": 1, "sides": [[0, 1]] * 7}]},
        {"tables": [{"number": 1, "sides": [[0, 1, 2, 3, 4, 5, 6]]}]},
        {"tables": [{"number": 1, "sides": [[0, -1]]}]},
        {"tables": [{"number": 1, "sides": [[0, 10_000]]}]},
        {"tables": [{"number": 1, "sides": ["01"]}]},
        {"tables": [], "byes": [1.5]},
    ],
)
def test_a_seating_of_the_wrong_shape_is_one_problem(data: dict[str, Any]) -> None:
    assert problems(read_seating(data)) == WRONG


def test_a_seating_too_large_is_refused() -> None:
    many = {"tables": [], "byes": list(range(SEATING_MAX + 1))}
    assert problems(read_seating(many)) == [
        Problem("request.too_large", "seating", {"limit": SEATING_MAX})
    ]


def test_a_swap_names_two_numbers() -> None:
    assert read_swap({"a": 3, "b": 0}) == rq.Swap(3, 0)
    assert problems(read_swap({"a": 3, "b": "seven"})) == [
        Problem("seating.unknown", "b", {"participant": "seven"})
    ]
    assert problems(read_swap({"b": 1})) == [
        Problem("seating.unknown", "a", {"participant": "None"})
    ]


def test_an_absence_is_true_or_false() -> None:
    assert read_absence({"absent": False}) == rq.Absence(False)
    assert problems(read_absence({})) == [Problem("request.missing", "absent", {"field": "absent"})]
    assert problems(read_absence({"absent": "yes"})) == [
        Problem("request.type", "absent", {"field": "absent"})
    ]


def test_the_description_states_the_bounds_the_reader_holds() -> None:
    schemas: dict[str, Any] = {}
    json_schema(rq.NewTournament, schemas)
    properties = schemas["NewTournament"]["properties"]
    for kind, (low, high) in ROUND_END_BOUNDS.items():
        described = properties["round_end"]["properties"][kind.value]
        assert (described["minimum"], described["maximum"]) == (low, high)
    assert properties["round_end"]["additionalProperties"] is False
    assert properties["participants"]["maxItems"] == MAX_PARTICIPANTS
    assert {"enum": [f.value for f in Format]} in properties["format"]["anyOf"]
    win = schemas["MatchPoints"]["properties"]["win"]
    assert (win["minimum"], win["maximum"]) == (0, POINTS_MAX)
    assert schemas["MatchPoints"]["additionalProperties"] is False
    json_schema(rq.Seating, schemas)
    assert schemas["Seating"]["properties"]["tables"]["maxItems"] == SEATING_MAX
    assert schemas["SeatedTable"]["properties"]["number"]["maximum"] == 9_999
