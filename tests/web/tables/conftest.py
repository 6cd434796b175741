"""A table of six players and twelve games: Canasta under the German, Polish and classic rules
(partnerships mixed, 2, 4 and 6 players, one game left running, one hand in detail, one as
totals only) and two
evenings of 3 ist 50, made through the API and the table's page."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import fifty
from scorekeeper.store.db import write_scope
from tests.web.examples import CONTRACT_TEAMS

PEOPLE = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]

# (ruleset, sides as lists of players, hands to play; 0: until someone has won)
CANASTA = [
    ("german", [["Anna", "Ben"], ["Cleo", "Dan"]], 0),
    ("polish", [["Anna", "Cleo"], ["Ben", "Eva"]], 0),
    ("classic", [["Dan", "Finn"], ["Anna", "Ben"]], 0),
    ("german", [["Eva", "Finn"], ["Cleo", "Dan"]], 0),
    ("classic", [["Anna", "Dan"], ["Ben", "Eva"], ["Cleo", "Finn"]], 0),
    ("polish", [["Anna", "Ben"], ["Cleo", "Dan"]], 1),
    ("classic", [["Anna"], ["Finn"]], 0),
    ("german", [["Ben", "Cleo"], ["Dan", "Eva"]], 0),
    ("classic", [["Anna", "Cleo", "Eva"], ["Ben", "Dan", "Finn"]], 0),
    ("polish", [["Cleo", "Eva"], ["Anna", "Finn"]], 0),
]
FIFTY = [["Anna", "Ben", "Cleo", "Dan"], ["Eva", "Finn", "Ben"]]


def quick_hand(i: int, columns: int, goer: int) -> list[dict[str, Any]]:
    """A hand counted the quick way, varied by ``i``: ``goer`` went out (concealed now and
    then), the others melded a little."""
    teams = []
    for c in range(columns):
        if c == goer:
            teams.append(
                {
                    "quick": {
                        "natural_canastas": 1 + (i % 2),
                        "mixed_canastas": 1,
                        "wild_canastas": 0,
                        "meld_points": 200 + 15 * (i % 7),
                        "hand_points": 0,
                        "black_threes_in_hand": 0,
                        "melded": True,
                    },
                    "red_threes": i % 2,
                    "went_out": True,
                    "concealed": i % 5 == 3,
                }
            )
        else:
            teams.append(
                {
                    "quick": {
                        "natural_canastas": 0,
                        "mixed_canastas": (i + c) % 2,
                        "wild_canastas": 0,
                        "meld_points": 110 + 10 * ((i + c) % 4),
                        "hand_points": 25 + 5 * (i % 3),
                        "black_threes_in_hand": 0,
                        "melded": True,
                    },
                    "red_threes": 1 if (i + c) % 3 == 0 else 0,
                    "went_out": False,
                    "concealed": False,
                }
            )
    return teams


def make_table(app: Flask, client: FlaskClient) -> dict[str, Any]:
    made = client.post("/api/v1/tables", json={"name": "Donnerstag", "players": PEOPLE})
    assert made.status_code == 201, made.json
    table = made.json
    assert table is not None
    key = table["id"]
    count = 0
    for g, (ruleset, sides, hands) in enumerate(CANASTA):
        players = sum(len(s) for s in sides)
        body = {
            "ruleset": ruleset,
            "players": players,
            "table": key,
            "target": 2500,
            "sides": [{"name": " & ".join(s), "players": s} for s in sides],
        }
        created = client.post("/api/v1/games", json=body)
        assert created.status_code == 201, created.json
        game = created.json
        assert game is not None
        version = game["version"]
        n = 0
        while True:
            if g == 7 and n == 0:  # one hand in detail (docs/api.md §1)
                teams = CONTRACT_TEAMS
            elif g == 3 and n == 1:  # one hand entered as each side's total only
                teams = [{"total": 630, "went_out": True}, {"total": 215}]
            else:
                teams = quick_hand(count, len(sides), (n + g) % len(sides) if n < 3 else 0)
            count += 1
            n += 1
            saved = client.post(
                f"/api/v1/games/{game['id']}/hands", json={"version": version, "teams": teams}
            )
            assert saved.status_code == 201, saved.json
            answer = saved.json
            assert answer is not None
            version = answer["version"]
            if answer["finished"] or (hands and n >= hands) or n > 20:
                break
    for g, names in enumerate(FIFTY):
        seats = {f"seat{i + 1}": name for i, name in enumerate(names)}
        started = client.post(f"/tables/{key}/games", data={"ruleset": fifty.RULESET_ID, **seats})
        assert started.status_code == 303
        game_id = started.headers["Location"].rsplit("/", 1)[1]
        with app.app_context(), write_scope() as session:
            game = fifty.get_game(session, game_id)
            assert game is not None
            game.options = {**game.options, "games": 3}
            for n in range(3):
                points = [{"points": 10 + 7 * ((n + i + g) % 4)} for i in range(len(names))]
                fifty.add_game(session, game, game.version, fifty.entry_of(game, points))
    return table


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> dict[str, Any]:
    return make_table(app, client)
