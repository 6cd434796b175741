"""The stored games' requests read at the edge (``edge.games``): a new game, a hand, a side's
part, a version, an entry's id, with the codes of docs/api.md §3 "Games (stored)"; the store
takes what they read."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.edge import games
from scorekeeper.rules.problems import Problem
from scorekeeper.rules.scoring import Rejected

SIDES = [{"name": "Us", "players": ["Anna", "Ben"]}, {"name": "Them", "players": ["Cleo", "Dan"]}]


def _problems(value: Any) -> list[tuple[str, str]]:
    assert isinstance(value, Rejected), value
    return [(p.code, p.where) for p in value.problems]


def test_a_new_game_is_read_into_its_setup() -> None:
    setup = games.read_new_game(
        {"ruleset": "german", "sides": SIDES, "name": "  Friday  ", "target": 3000.0}
    )
    assert isinstance(setup, games.GameSetup)
    assert (setup.ruleset.id, setup.players, setup.name, setup.target) == (
        "german",
        4,
        "Friday",
        3000,
    )
    assert [s.players for s in setup.sides] == [["Anna", "Ben"], ["Cleo", "Dan"]]
    assert games.read_new_game({"ruleset": "german", "sides": SIDES, "name": ""}).name is None  # type: ignore[union-attr]


def test_a_new_games_problems_come_in_todays_order() -> None:
    """The game's name, then the sides (count and size before the names), then the target."""
    wrong = games.read_new_game(
        {
            "ruleset": "german",
            "name": "\u202e",
            "sides": [{"name": "Us", "players": ["Anna"]}, {"players": ["Cleo", 7]}],
            "target": 50,
        }
    )
    assert _problems(wrong) == [
        ("name.invalid", "name"),
        ("sides.size", "sides[0].players"),
        ("request.type", "sides[1].players[1]"),
        ("request.missing", "sides[1].name"),
        ("request.value", "target"),
    ]
    assert _problems(games.read_new_game({"ruleset": "german", "sides": SIDES[:1]})) == [
        ("sides.count", "sides")
    ]
    assert _problems(games.read_new_game({"ruleset": "nope", "sides": "x"})) == [
        ("ruleset.unknown", "ruleset")
    ]


def test_a_side_of_one_is_named_by_its_player() -> None:
    """3-player cutthroat: three sides of one (docs/rulebook.md §4 "3 players")."""
    sides = [{"players": ["Anna"]}, {"players": ["Ben"]}, {"name": "C", "players": ["Cleo"]}]
    setup = games.read_new_game({"ruleset": "classic", "players": 3, "sides": sides})
    assert isinstance(setup, games.GameSetup)
    assert [s.name for s in setup.sides] == ["Anna", "Ben", "C"]


def test_a_hand_is_read_with_what_could_not_be_read() -> None:
    hand = games.read_hand_body(
        {"teams": [{"total": 120, "went_out": True}, {"total": "x"}], "stock_out": "no"}
    )
    assert hand.before == (Problem("request.type", "stock_out", {"expected": "boolean"}),)
    assert [(p.code, p.where) for p in hand.unread] == [("request.type", "teams[1].total")]
    assert hand.stored[0] == {"total": 120, "went_out": True, "concealed": False}
    unstorable = games.read_hand([{"total": 5, "adjustments": [{"points": 5, "note": "\ud800"}]}])
    assert unstorable.unstorable == (Problem("request.value", "teams", {}),)
    assert games.read_hand([{"total": 5}], stored=True).unstorable == ()


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (None, Problem("request.missing", "version", {"expected": "integer"})),
        ("3", Problem("request.type", "version", {"expected": "integer"})),
        (True, Problem("request.type", "version", {"expected": "integer"})),
        (-1, Problem("request.value", "version", {"minimum": 0, "maximum": 2**31 - 1})),
        (2**31, Problem("request.value", "version", {"minimum": 0, "maximum": 2**31 - 1})),
    ],
)
def test_a_version_is_a_whole_number(value: Any, problem: Problem) -> None:
    assert games.read_version(value) == Rejected((problem,))
    assert games.read_version(7.0) == 7


def test_an_entry_id_and_a_revision() -> None:
    assert games.read_entry_id(None) is None
    assert games.read_entry_id("hand-0001") == "hand-0001"
    assert _problems(games.read_entry_id("short")) == [("request.entry_id", "entry_id")]
    assert _problems(games.read_entry_id(12345678)) == [("request.type", "entry_id")]
    assert games.read_revision({}) is None
    assert games.read_revision({"revision": 4.0}) == 4
    assert games.read_revision({"revision": "4"}) == games.NO_REVISION


def test_a_part_is_read_alone() -> None:
    part = games.read_part({"melds": ["K K K"], "hands": [""], "went_out": False})
    assert isinstance(part, games.PartRead)
    assert part.stored["melds"] == [["K", "K", "K"]]
    assert _problems(games.read_part(None)) == [("request.missing", "part")]
    assert _problems(games.read_part({"colour": 1})) == [("request.unknown_key", "part.colour")]
    big = {"total": 5, "adjustments": [{"points": 1, "note": "x" * 80}] * 5}
    assert isinstance(games.read_part(big), games.PartRead)  # within the bound
    assert _problems(games.read_number({"hand": "2"}, "hand")) == [("request.type", "hand")]
    assert games.read_number({}, "version") is None


def test_an_evening_of_three_is_fifty_is_read_into_its_setup() -> None:
    """3 ist 50 (docs/rulebook.md §7): 2 to 6 names, or one side of one per player."""
    setup = games.read_new_fifty_game(
        {"ruleset": "three-is-fifty", "players": [" Ola ", "Jan"], "stop_after": 5}
    )
    assert setup == games.FiftySetup(["Ola", "Jan"], 10, 5, None)
    by_sides = games.read_new_fifty_game(
        {"players": 2, "sides": [{"players": ["Ola"]}, {"name": "Jan", "players": ["Jan"]}]}
    )
    assert isinstance(by_sides, games.FiftySetup) and by_sides.players == ["Ola", "Jan"]
    assert _problems(games.read_new_fifty_game({"players": ["Ola"]})) == [
        ("players.not_allowed", "players")
    ]
    assert _problems(games.read_new_fifty_game({"players": ["A", "B"], "target": 5})) == [
        ("request.value", "target")
    ]


def test_a_game_of_the_evening_is_placed_at_the_key_it_came_under() -> None:
    options = games.fifty_rules.Options()
    read = games.read_fifty_hand_body({"piles": ["3 A", "K"]}, 2, options)
    assert isinstance(read, games.FiftyHandRead) and read.problems == ()
    assert read.stored == [{"cards": ["3", "A"]}, {"cards": ["K"]}]
    assert read.points[0] > read.points[1] > 0
    wrong = games.read_fifty_hand_body({"points": [5, "x"]}, 2, options)
    assert isinstance(wrong, games.FiftyHandRead)
    assert [(p.code, p.where) for p in wrong.problems] == [("request.type", "points[1]")]
    assert _problems(games.read_fifty_hand_body({}, 2, options)) == [("request.missing", "piles")]
