"""The stored games (scorekeeper.store): create, change, derive; on SQLite and PostgreSQL.

PostgreSQL runs when ``SCOREKEEPER_TEST_POSTGRES_URL`` is set (scripts/test sets it); without it
the PostgreSQL cases are reported as skipped (tests/conftest.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy.orm import Session

from scorekeeper import create_app
from scorekeeper import store as games
from scorekeeper.edge.games import read_hand
from scorekeeper.store import GameProblems, HandNotFound, VersionConflict, changes
from scorekeeper.store.db import session_scope
from scorekeeper.store.models import Game, Hand
from tests.store.postgres import empty_postgres

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@contextmanager
def backend_app(backend: str, tmp_path: Path) -> Iterator[Flask]:
    """An app on a fresh database of the given backend (emptied again afterwards)."""
    url = empty_postgres() if backend == "postgres" else f"sqlite:///{tmp_path / 'store.sqlite3'}"
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False}
    )
    try:
        yield app
    finally:
        app.extensions["scorekeeper.engine"].dispose()
        if backend == "postgres":
            empty_postgres()


@pytest.fixture(params=BACKENDS)
def db_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    with backend_app(request.param, tmp_path) as app, app.app_context():
        yield app


# ---- helpers ---------------------------------------------------------------------------------

GERMAN_SIDES = [
    {"name": "Wir", "players": ["Anna", "Ben"]},
    {"name": "Ihr", "players": ["Cleo", "Dan"]},
]
CUTTHROAT_SIDES = [{"players": ["Ann"]}, {"players": ["Bob"]}, {"players": ["Cy"]}]


def quick(
    meld: int = 0,
    hand: int = 0,
    natural: int = 0,
    mixed: int = 0,
    red: int | list[int] = 0,
    out: bool = False,
) -> dict[str, Any]:
    """One side entered quickly (docs/api.md §3 ``quick``)."""
    return {
        "quick": {
            "natural_canastas": natural,
            "mixed_canastas": mixed,
            "meld_points": meld,
            "hand_points": hand,
        },
        "red_threes": red,
        "went_out": out,
    }


def new_game(ruleset: str = "german", players: int = 4, sides: Any = None, **kwargs: Any) -> str:
    with session_scope() as session:
        game = games.create_game(
            session, ruleset, players, GERMAN_SIDES if sides is None else sides, **kwargs
        )
        return game.id


def add(game_id: str, teams: list[Any], version: int | None = None, **kwargs: Any) -> None:
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        given = game.version if version is None else version
        games.add_hand(session, game, given, read_hand(teams, **kwargs))


def state(game_id: str) -> games.GameState:
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        return games.game_state(game)


def totals(game_id: str) -> list[int]:
    return [c.total for c in state(game_id).columns]


# 1,500 exactly: two natural canastas 1,000 + 300 melded + 100 going out + one red three 100.
DEEP: Any = 1
for _ in range(20):
    DEEP = [DEEP]

HAND_1500 = [quick(meld=300, natural=2, red=1, out=True), quick(meld=50, hand=20)]


# ---- creating and reading ------------------------------------------------------------------------


def test_create_and_read(db_app: Flask) -> None:
    game_id = new_game(name="  Freitag   Abend ")
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        assert len(game.id) >= 22 and len(game.view_id) >= 22 and game.id != game.view_id
        assert games.get_by_view(session, game.view_id) is game
        assert games.get_game(session, game.view_id) is None  # the view key grants no editing
        assert games.get_by_view(session, game.id) is None
        sheet = games.game_state(game)
    assert sheet.name == "Freitag Abend"
    assert sheet.version == 1 and sheet.hands == [] and sheet.winner is None
    assert [(c.name, c.players, c.total, c.minimum_meld, c.to_target) for c in sheet.columns] == [
        ("Wir", ["Anna", "Ben"], 0, 50, 5000),
        ("Ihr", ["Cleo", "Dan"], 0, 50, 5000),
    ]
    assert sheet.target == 5000 and sheet.ruleset == "german" and not sheet.cutthroat
    assert sheet.created_at.tzinfo is not None and sheet.created_at.utcoffset() == UTC.utcoffset(
        None
    )
    assert not hasattr(sheet, "id")  # the editing key never reaches a rendered sheet


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("bridge", 4, GERMAN_SIDES), "ruleset.unknown"),
        (("german", 2, GERMAN_SIDES), "players.not_allowed"),
        (("german", "4", GERMAN_SIDES), "request.type"),
        (("german", 4, None), "request.missing"),
        (("german", 4, "Wir"), "request.type"),
        (("german", 4, GERMAN_SIDES[:1]), "sides.count"),
        (
            ("german", 4, [{"name": "A", "players": ["a"]}, {"name": "B", "players": ["b"]}]),
            "sides.size",
        ),
        (("german", 4, [{"name": "", "players": ["a", "b"]}, GERMAN_SIDES[1]]), "name.invalid"),
        (
            ("german", 4, [{"name": "x" * 41, "players": ["a", "b"]}, GERMAN_SIDES[1]]),
            "name.invalid",
        ),
        (("german", 4, [{"name": "A", "players": ["a", "   "]}, GERMAN_SIDES[1]]), "name.invalid"),
        (
            ("german", 4, [{"name": "A\x00", "players": ["a", "b"]}, GERMAN_SIDES[1]]),
            "name.invalid",
        ),
        (("german", 4, [{"players": ["a", "b"]}, GERMAN_SIDES[1]]), "request.missing"),
        (("german", 4, [{"name": 7, "players": ["a", "b"]}, GERMAN_SIDES[1]]), "request.type"),
        (("classic", 3, GERMAN_SIDES), "sides.count"),
        (("classic", 6, [{"name": "A", "players": list("abc")}] * 3), "sides.size"),
    ],
)
def test_create_problems(db_app: Flask, args: tuple[Any, ...], code: str) -> None:
    with pytest.raises(GameProblems) as error, session_scope() as session:
        games.create_game(session, *args)
    assert code in [p.code for p in error.value.problems]
    with session_scope() as session:
        assert games.recent_games(session) == []


def test_create_options_and_target(db_app: Flask) -> None:
    with pytest.raises(GameProblems) as error, session_scope() as session:
        games.create_game(session, "german", 4, GERMAN_SIDES, {"nope": 1})
    assert [p.code for p in error.value.problems] == ["options.unknown"]
    assert error.value.status == 422
    with pytest.raises(GameProblems) as error, session_scope() as session:
        games.create_game(session, "german", 4, GERMAN_SIDES, target=5)
    assert error.value.status == 400
    game_id = new_game(options={"two_value": 20, "target": 3000})
    sheet = state(game_id)
    assert sheet.target == 3000 and sheet.options == {"two_value": 20, "target": 3000}
    assert sheet.house_rules == {"two_value": 20, "target": 3000}
    assert state(new_game(target=2500)).target == 2500


@pytest.mark.parametrize(
    ("ruleset", "players", "sides", "target", "seating"),
    [
        (
            "polish",
            2,
            [{"name": "P", "players": ["Piotr"]}, {"name": "K", "players": ["Kasia"]}],
            5000,
            ["Piotr", "Kasia"],
        ),
        ("classic", 3, CUTTHROAT_SIDES, 7500, ["Ann", "Bob", "Cy"]),
        ("classic", 4, GERMAN_SIDES, 5000, ["Anna", "Cleo", "Ben", "Dan"]),
        (
            "classic",
            6,
            [
                {"name": "A", "players": ["a1", "a2", "a3"]},
                {"name": "B", "players": ["b1", "b2", "b3"]},
            ],
            10000,
            ["a1", "b1", "a2", "b2", "a3", "b3"],
        ),
        (
            "classic",
            6,
            [
                {"name": "A", "players": ["a1", "a2"]},
                {"name": "B", "players": ["b1", "b2"]},
                {"name": "C", "players": ["c1", "c2"]},
            ],
            10000,
            ["a1", "b1", "c1", "a2", "b2", "c2"],
        ),
    ],
)
def test_player_counts(
    db_app: Flask, ruleset: str, players: int, sides: Any, target: int, seating: list[str]
) -> None:
    sheet = state(new_game(ruleset, players, sides))
    assert sheet.target == target
    assert [s.name for s in sheet.seats] == seating
    assert sheet.cutthroat == (players == 3)
    if players == 3:
        assert [c.name for c in sheet.columns] == ["Ann", "Bob", "Cy"]


# ---- hands: totals, minimums, dealer, winner ----------------------------------------------------


def test_totals_and_minimums_follow_the_hands(db_app: Flask) -> None:
    game_id = new_game()
    add(game_id, HAND_1500)
    sheet = state(game_id)
    assert totals(game_id) == [1500, 30]
    # docs/rulebook.md §3 (German): from 1,500 the initial meld needs 90.
    assert [c.minimum_meld for c in sheet.columns] == [90, 50]
    assert [c.to_target for c in sheet.columns] == [3500, 4970]
    row = sheet.hands[0]
    assert [s.minimum_meld for s in row.scores] == [50, 50]  # what they needed in that hand
    assert row.scores[0].items == {
        "melded_cards": 300,
        "canasta_bonus": 1000,
        "red_threes": 100,
        "going_out": 100,
        "in_hand": 0,
    }
    assert row.dealer.name == "Anna" and sheet.next_dealer.name == "Cleo"
    assert sheet.version == 2

    add(game_id, [quick(meld=50), quick(meld=300, natural=1, out=True)])
    sheet = state(game_id)
    assert totals(game_id) == [1550, 930]
    assert [s.minimum_meld for s in sheet.hands[1].scores] == [90, 50]
    assert sheet.next_dealer.name == "Ben"

    # Correct the first hand: the side falls below 1,500 and needs 50 again.
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.replace_hand(
            session,
            game,
            1,
            3,
            read_hand([quick(meld=300, natural=2, out=True), quick(meld=50, hand=20)]),
        )
    sheet = state(game_id)
    assert totals(game_id) == [1450, 930] and sheet.version == 4
    assert [c.minimum_meld for c in sheet.columns] == [50, 50]

    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.delete_hand(session, game, 2, 4)
    assert totals(game_id) == [1400, 30] and state(game_id).version == 5
    assert state(game_id).next_dealer.name == "Cleo"


def test_negative_total_minimum(db_app: Flask) -> None:
    game_id = new_game("classic", 4)
    add(game_id, [quick(red=2), quick(meld=300, natural=1, out=True)])  # red threes, no meld
    sheet = state(game_id)
    assert totals(game_id) == [-200, 900]
    # docs/rulebook.md §3 classic: below 0
    assert [c.minimum_meld for c in sheet.columns] == [15, 50]


def test_dealer_rotates_round_the_table(db_app: Flask) -> None:
    game_id = new_game()
    dealers = []
    for _ in range(5):
        add(game_id, [quick(meld=50), quick(meld=50)], stock_out=True)
        dealers.append(state(game_id).hands[-1].dealer.name)
    assert dealers == ["Anna", "Cleo", "Ben", "Dan", "Anna"]
    assert all(h.stock_out for h in state(game_id).hands)


def test_winner_at_target_and_ties(db_app: Flask) -> None:
    big_out = quick(meld=400, natural=8, out=True)  # 4,500
    big_in = quick(meld=500, natural=8)  # 4,500 without going out
    game_id = new_game()
    add(game_id, [big_out, quick(meld=50)])
    assert state(game_id).winner is None
    add(game_id, [quick(meld=100), big_out])  # 4,600 : 4,550 -> nobody at 5,000
    assert totals(game_id) == [4600, 4550] and state(game_id).winner is None
    add(game_id, [quick(meld=500), big_out])  # 5,100 : 9,050
    sheet = state(game_id)
    assert sheet.winner == 1 and sheet.finished and sheet.columns[1].to_target == 0

    # A finished game takes no new hand ...
    with pytest.raises(GameProblems) as error:
        add(game_id, [quick(meld=50), quick(meld=50)])
    assert [p.code for p in error.value.problems] == ["game.finished"]
    assert state(game_id).version == 4
    # ... but a correction still works, and the winner follows (a tie at the top: play on).
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.replace_hand(session, game, 3, 4, read_hand([big_out, quick(meld=500)]))
    assert totals(game_id) == [9100, 5050] and state(game_id).winner == 0
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.replace_hand(session, game, 3, 5, read_hand([big_in, quick(meld=50, hand=0)]))
    # 4,600 + 4,500 = 9,100 : 4,550 + 50 = 4,600: side 0 wins
    assert state(game_id).winner == 0
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.replace_hand(
            session,
            game,
            3,
            6,
            read_hand(
                [quick(meld=500, out=False, natural=1), quick(meld=900, natural=1, out=True)]
            ),
        )
    # 4,600 + 1,000 = 5,600 : 4,550 + 1,500 = 6,050: both past, the higher wins
    assert totals(game_id) == [5600, 6050] and state(game_id).winner == 1
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.replace_hand(
            session,
            game,
            3,
            7,
            read_hand(
                [quick(meld=950, natural=1, out=False), quick(meld=900, natural=1, out=True)]
            ),
        )
    assert totals(game_id) == [6050, 6050] and state(game_id).winner is None  # tie: play on
    add(game_id, [quick(meld=50), quick(meld=50, hand=5)])
    assert totals(game_id) == [6100, 6095] and state(game_id).winner == 0
    # Deleting the deciding hand reopens the game.
    with session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.delete_hand(session, game, 4, 9)
    assert state(game_id).winner is None


def test_cutthroat_own_totals_and_red_threes(db_app: Flask) -> None:
    game_id = new_game("classic", 3, CUTTHROAT_SIDES)
    # Hand 1: Ann alone; Bob and Cy partners who went out; Bob has a red three, Cy none.
    add(
        game_id,
        [quick(meld=100, red=1), quick(meld=200, natural=2, red=[1, 0], out=True)],
        lone_player=0,
    )
    sheet = state(game_id)
    assert totals(game_id) == [200, 1400, 1300]
    bob = sheet.hands[0].scores[1]
    assert bob.items["red_threes"] == 100 and bob.score == 1400 and not bob.alone
    assert sheet.hands[0].scores[2].items["red_threes"] == 0
    assert sheet.hands[0].scores[0].alone and sheet.hands[0].lone_player == 0
    # Hand 2: Cy alone and went out; the partners Ann and Bob: Ann's two red threes count
    # for her only (docs/rulebook.md §4 "3 players").
    add(game_id, [quick(meld=300, natural=2, out=True), quick(meld=100, red=[2, 0])], lone_player=2)
    assert totals(game_id) == [200 + 300, 1400 + 100, 1300 + 1400]
    sheet = state(game_id)
    assert [c.minimum_meld for c in sheet.columns] == [50, 90, 90]
    # Hand 3: the stock ran out before anyone took the pile: everyone alone.
    add(game_id, [quick(meld=50), quick(meld=60, red=1), quick(meld=70)])
    sheet = state(game_id)
    assert totals(game_id) == [550, 1500 + 160, 2770]
    assert sheet.hands[2].stock_out and sheet.hands[2].lone_player is None
    assert [s.alone for s in sheet.hands[2].scores] == [True, True, True]
    assert [h.dealer.name for h in sheet.hands] == ["Ann", "Bob", "Cy"]
    assert sheet.target == 7500


@pytest.mark.parametrize(
    ("teams", "kwargs", "code"),
    [
        (
            [quick(meld=100), quick(meld=200, natural=2, red=[0, 0], out=True)],
            {},
            "hand.lone_player",
        ),
        (
            [quick(meld=100), quick(meld=200, natural=2, red=[0, 0], out=True)],
            {"lone_player": 3},
            "hand.lone_player",
        ),
        (
            [quick(meld=100), quick(meld=200, natural=2, red=1, out=True)],
            {"lone_player": 0},
            "red_threes.per_partner",
        ),
        ([quick(meld=50), quick(meld=60), quick(meld=70)], {"lone_player": 1}, "hand.lone_player"),
        (
            [quick(meld=50), quick(meld=60), quick(meld=70, natural=2, out=True)],
            {},
            "hand.stock_out_went_out",
        ),
        ([quick(meld=50)] * 4, {}, "teams.count"),
        # cutthroat: two canastas to go out (docs/rulebook.md §4)
        (
            [quick(meld=100), quick(meld=200, natural=1, red=[0, 0], out=True)],
            {"lone_player": 1},
            "going_out.not_enough_canastas",
        ),
    ],
)
def test_cutthroat_hand_problems(
    db_app: Flask, teams: list[Any], kwargs: dict[str, Any], code: str
) -> None:
    game_id = new_game("classic", 3, CUTTHROAT_SIDES)
    with pytest.raises(GameProblems) as error:
        add(game_id, teams, **kwargs)
    assert code in [p.code for p in error.value.problems]
    assert state(game_id).version == 1 and state(game_id).hands == []


def test_six_players_in_three_sides(db_app: Flask) -> None:
    sides = [{"name": n, "players": [n + "1", n + "2"]} for n in "ABC"]
    game_id = new_game("classic", 6, sides)
    add(game_id, [quick(meld=300, natural=2, red=5, out=True), quick(meld=50), quick(meld=60)])
    # docs/rulebook.md §4: five red threes score 1,000 with six players.
    assert totals(game_id) == [300 + 1000 + 1000 + 100, 50, 60]
    with pytest.raises(GameProblems) as error:
        add(game_id, [quick(meld=50), quick(meld=50)])  # this game has three sides
    assert [p.code for p in error.value.problems] == ["teams.count"]


# ---- problems leave the game as it was -----------------------------------------------------------


@pytest.mark.parametrize(
    ("teams", "code", "status"),
    [
        ([{"melds": [["K", "K"]]}, quick(meld=50)], "meld.too_small", 422),
        (
            [{"melds": [["K", "K", "K"], ["K", "K", "K", "2"]]}, quick(meld=50)],
            "meld.same_rank_twice",
            422,
        ),
        (
            [quick(meld=300, natural=2, out=True), quick(meld=300, natural=1, out=True)],
            "going_out.two_sides",
            422,
        ),
        ([quick(meld=50, red=3), quick(meld=50, red=2)], "red_threes.too_many", 422),
        ([quick(meld=50)], "teams.count", 422),
        ("K K K", "request.type", 400),
        ([{"melds": "nonsense"}, quick()], "request.type", 400),
        ([{"red_threes": float("nan")}, quick()], "request.type", 400),
        ([{"foo": float("inf")}, quick()], "request.value", 400),
        ([{"foo": DEEP}, quick()], "request.too_large", 400),
        ([{"note": "\ud800"}, quick()], "request.value", 400),
        ([{"\udfff": 1, "note": "\u0000"}, quick()], "request.value", 400),
    ],
)
def test_rule_problems_store_nothing(db_app: Flask, teams: Any, code: str, status: int) -> None:
    game_id = new_game()
    add(game_id, HAND_1500)
    before = state(game_id)
    with pytest.raises(GameProblems) as error:
        add(game_id, teams)
    assert code in [p.code for p in error.value.problems]
    assert error.value.status == status
    with pytest.raises(GameProblems), session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.replace_hand(session, game, 1, 2, read_hand(teams))
    after = state(game_id)
    assert after.version == before.version == 2
    assert after.hands == before.hands


@pytest.mark.parametrize("version", [None, "2", True, -1, 2**40, 1.0])
def test_bad_version(db_app: Flask, version: Any) -> None:
    game_id = new_game()
    with pytest.raises(GameProblems) as error, session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.add_hand(session, game, version, read_hand(HAND_1500))
    assert error.value.status == 400
    assert error.value.problems[0].where == "version"


def test_stale_version_conflicts(db_app: Flask) -> None:
    game_id = new_game()
    # Two phones read version 1; the first save wins, the second gets a conflict.
    add(game_id, HAND_1500, version=1)
    with pytest.raises(VersionConflict) as conflict:
        add(game_id, [quick(meld=50), quick(meld=60)], version=1)
    assert (conflict.value.given, conflict.value.current) == (1, 2)
    for change in ("replace", "delete"):
        with pytest.raises(VersionConflict), session_scope() as session:
            game = games.get_game(session, game_id)
            assert game is not None
            if change == "replace":
                games.replace_hand(session, game, 1, 1, read_hand(HAND_1500))
            else:
                games.delete_hand(session, game, 1, 1)
    sheet = state(game_id)
    assert sheet.version == 2 and len(sheet.hands) == 1 and totals(game_id) == [1500, 30]


def test_delete_only_the_last_hand(db_app: Flask) -> None:
    game_id = new_game()
    add(game_id, HAND_1500)
    add(game_id, HAND_1500)
    with pytest.raises(GameProblems) as error, session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.delete_hand(session, game, 1, 3)
    assert [p.code for p in error.value.problems] == ["hand.not_last"]
    for number in (0, 3, "2", None):
        with pytest.raises(HandNotFound), session_scope() as session:
            game = games.get_game(session, game_id)
            assert game is not None
            games.delete_hand(session, game, number, 3)
        with pytest.raises(HandNotFound), session_scope() as session:
            game = games.get_game(session, game_id)
            assert game is not None
            games.replace_hand(session, game, number, 3, read_hand(HAND_1500))
    assert state(game_id).version == 3 and len(state(game_id).hands) == 2


def test_failure_in_the_middle_of_a_save_changes_nothing(
    db_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game()
    add(game_id, HAND_1500)
    real_flush = Session.flush

    def flush_then_fail(self: Session, *args: Any, **kwargs: Any) -> None:
        pending = bool(self.new or self.dirty or self.deleted)
        real_flush(self, *args, **kwargs)  # the hand row is written (in the transaction) ...
        if pending:
            raise RuntimeError("disk on fire")  # ... and then the save breaks

    monkeypatch.setattr(Session, "flush", flush_then_fail)
    with pytest.raises(RuntimeError):
        add(game_id, [quick(meld=50), quick(meld=60)])
    with pytest.raises(RuntimeError), session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        games.delete_hand(session, game, 1, 2)
    monkeypatch.undo()
    # The same after the service returned, when the caller fails before the commit.
    with pytest.raises(RuntimeError), session_scope() as session:
        game = games.get_game(session, game_id)
        assert game is not None
        hand = games.add_hand(session, game, 2, read_hand([quick(meld=50), quick(meld=60)]))
        assert hand.id is not None  # flushed
        raise RuntimeError("request aborted")
    sheet = state(game_id)
    assert sheet.version == 2 and len(sheet.hands) == 1 and totals(game_id) == [1500, 30]
    add(game_id, [quick(meld=50), quick(meld=60)], version=2)  # the game goes on normally
    assert state(game_id).version == 3


def test_concurrent_adds_exactly_one_wins(db_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = new_game()
    real_claim = changes.claim

    def slow_claim(session: Session, game: Game, version: int, *more: Any, **named: Any) -> None:
        real_claim(session, game, version, *more, **named)  # (a save gives the summary after it)
        time.sleep(0.05)  # hold the lock a while: the other phone's save must wait for it

    monkeypatch.setattr(changes, "claim", slow_claim)
    rounds = 5
    for version in range(1, rounds + 1):
        barrier = threading.Barrier(2)
        outcomes: list[str] = []

        def save(
            version: int = version,
            barrier: threading.Barrier = barrier,
            outcomes: list[str] = outcomes,
        ) -> None:
            with db_app.app_context():
                barrier.wait()
                try:
                    add(game_id, [quick(meld=50), quick(meld=60)], version=version)
                    outcomes.append("saved")
                except VersionConflict:
                    outcomes.append("conflict")

        threads = [threading.Thread(target=save) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert sorted(outcomes) == ["conflict", "saved"], outcomes
    sheet = state(game_id)
    assert sheet.version == rounds + 1
    assert [h.number for h in sheet.hands] == list(range(1, rounds + 1))
    assert totals(game_id) == [50 * rounds, 60 * rounds]


def test_recent_games(db_app: Flask) -> None:
    first, second, third = new_game(), new_game(), new_game()
    add(first, HAND_1500)  # the most recently changed game comes first
    with session_scope() as session:
        assert [g.id for g in games.recent_games(session, 2)] == [first, third]
        assert {g.id for g in games.recent_games(session, 10)} == {first, second, third}
        assert [g.id for g in games.recent_games(session, 10, ids=[second, "junk", 5])] == [second]
        assert games.recent_games(session, 10, ids=[]) == []


def test_deleting_a_game_deletes_its_hands(db_app: Flask) -> None:
    game_id = new_game()
    add(game_id, HAND_1500)
    with session_scope() as session:
        session.execute(Game.__table__.delete().where(Game.id == game_id))
    with session_scope() as session:
        count = session.execute(Hand.__table__.select()).all()
    assert count == []


def test_sixty_hand_sheet(db_app: Flask) -> None:
    game_id = new_game(target=1_000_000)
    teams = [
        {
            "melds": [["K", "K", "K", "2"], ["7", "7", "7", "7", "7", "2", "2"]],
            "red_threes": 0,
            "hands": [[], ["5", "Q"]],
            "went_out": True,
        },
        {"melds": [["A", "A", "A"]], "hands": [["4", "4"], ["9"]]},
    ]
    for _ in range(60):
        add(game_id, teams)
    sheet = state(game_id)
    assert len(sheet.hands) == 60
    assert totals(game_id) == [60 * 590, 60 * 40]
    assert sheet.hands[-1].scores[0].total == 60 * 590


def test_odd_but_storable_entries(db_app: Flask) -> None:
    # Unknown keys are refused, each named, and nothing is stored; a hand is stored
    # as it was read (every quick count, cards in English notation).
    game_id = new_game()
    teams = [{**quick(meld=50), "note": "a\u0000b", "big": 10**30}, quick(meld=60)]
    with pytest.raises(GameProblems) as refused:
        add(game_id, teams)
    assert [(p.code, p.where) for p in refused.value.problems] == [
        ("request.unknown_key", "teams[0].note"),
        ("request.unknown_key", "teams[0].big"),
    ]
    assert state(game_id).hands == []
    add(game_id, [quick(meld=50), {"melds": ["D D D", "7 7 x"], "hands": [["3s"], []]}])
    stored = state(game_id).hands[0].teams
    assert stored[0]["quick"] == {
        "natural_canastas": 0,
        "mixed_canastas": 0,
        "wild_canastas": 0,
        "meld_points": 50,
        "hand_points": 0,
        "black_threes_in_hand": 0,
    }
    assert stored[1] == {
        "melds": [["Q", "Q", "Q"], ["7", "7", "X"]],
        "hands": [["3b"], []],
        "red_threes": 0,
        "went_out": False,
        "concealed": False,
    }
