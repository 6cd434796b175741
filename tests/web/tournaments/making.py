"""A tournament made through its pages: the new form posted, round 1 seated and confirmed; hands
entered at its tables through the JSON API, as the tables' phones do."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

EIGHT = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hanna"]


def form(**changes: Any) -> dict[str, Any]:
    """The new form as a director fills it: 8 players, tables of 4, 2 hands a round."""
    data: dict[str, Any] = {
        "name": "Spring cup",
        "ruleset": "german",
        "players": "4",
        "format": "individual",
        "scoring": "match_points",
        "win": "2",
        "draw": "1",
        "loss": "0",
        "round_end": "hands",
        "hands": "2",
        "target": "3000",
        "minutes": "60",
        "odd": "bye",
        "participants": "\n".join(EIGHT),
    }
    data.update(changes)
    return data


def make(client: FlaskClient, **changes: Any) -> str:
    made = client.post("/tournaments/new", data=form(**changes))
    assert made.status_code == 303, made.text
    found = re.search(r"/tournaments/([A-Za-z0-9_-]+)$", made.headers["Location"])
    assert found
    return found[1]


def post(client: FlaskClient, url: str, **data: Any) -> Any:
    return client.post(url, data=data)


def games(client: FlaskClient, key: str) -> list[str]:
    """The editing keys of the current round's games, in table order, as the director's page
    links them."""
    page = client.get(f"/tournaments/{key}").text
    return list(dict.fromkeys(re.findall(r'href="/games/([A-Za-z0-9_-]{16,})"', page)))


def start_round(client: FlaskClient, key: str, number: int) -> list[str]:
    """Seat round ``number`` by lot and confirm it; its games, in table order."""
    assert post(client, f"/tournaments/{key}/rounds").status_code == 303
    assert post(client, f"/tournaments/{key}/rounds/{number}/confirm").status_code == 303
    return games(client, key)


def hand(winner: int, bonus: int = 0) -> list[dict[str, Any]]:
    """A quick hand of two sides: ``winner`` went out with two canastas."""
    teams = []
    for side in range(2):
        won = side == winner
        teams.append(
            {
                "quick": {
                    "natural_canastas": 1 if won else 0,
                    "mixed_canastas": 1,
                    "wild_canastas": 0,
                    "meld_points": (300 if won else 150) + bonus,
                    "hand_points": 0 if won else 40,
                    "black_threes_in_hand": 0,
                    "melded": True,
                },
                "red_threes": 0,
                "went_out": won,
                "concealed": False,
            }
        )
    return teams


def play(client: FlaskClient, game_id: str, winner: int, bonus: int = 0) -> dict[str, Any]:
    game = client.get(f"/api/v1/games/{game_id}").json
    assert game is not None
    saved = client.post(
        f"/api/v1/games/{game_id}/hands",
        json={"version": game["version"], "teams": hand(winner, bonus)},
    )
    assert saved.status_code == 201, saved.json
    assert saved.json is not None
    return saved.json
