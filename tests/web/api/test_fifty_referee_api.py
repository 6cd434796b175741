"""3 ist 50's "What may I play?" (``POST /api/v1/referee/three-is-fifty``) echoes the cards as
they were given: threes with their colour (docs/api.md §2), since suits never matter in the
game (seed 001) but every request reads a three by its colour."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

URL = "/api/v1/referee/three-is-fifty"


@pytest.mark.parametrize(
    ("body", "moves"),
    [
        # Rule 1 takes the middle three and the discard top's (3d is a red three), rule 2 the
        # run of threes on the own pile (3c 3h), rule 3 puts it on any pile topped by a three.
        (
            {
                "middle": ["3s", "K"],
                "discard_top": "3d",
                "piles": [["9", "3c", "3h"], ["3s"]],
                "player": 0,
                "hand": ["3h", "4"],
            },
            [
                ("3h", "middle", 1, ["3h", "3s", "3d"]),
                ("3h", "own_pile", 1, ["3h", "3c", "3h"]),
                ("3h", "any_pile", 0, ["3h"]),
                ("3h", "any_pile", 1, ["3h"]),
            ],
        ),
        # Nothing matches: a black three may be discarded, and is answered as the hand holds
        # it (a symbol as its letter).
        (
            {"piles": [[], ["K"]], "player": 0, "hand": "3♣ 7"},
            [("3c", "discard", None, ["3c"]), ("7", "discard", None, ["7"])],
        ),
        # The hand holds the three of clubs: every move names the three of clubs, never
        # another black three.
        (
            {"piles": [["3s"], ["K"]], "player": 1, "hand": ["3c", "K"]},
            [
                ("3c", "any_pile", 0, ["3c"]),
                ("K", "own_pile", 0, ["K", "K"]),
                ("K", "any_pile", 1, ["K"]),
            ],
        ),
        # A three given without a colour (this game accepts it) keeps none.
        (
            {"piles": [["3"], []], "player": 1, "hand": ["3"]},
            [("3", "any_pile", 0, ["3"])],
        ),
    ],
)
def test_threes_come_back_with_their_colour(
    client: FlaskClient, body: dict[str, Any], moves: list[tuple[Any, ...]]
) -> None:
    response = client.post(URL, json=body)
    assert response.status_code == 200, response.get_json()
    got = [(m["card"], m["kind"], m["to_pile"], m["cards"]) for m in response.get_json()["moves"]]
    assert got == [(c, k, t, cards) for c, k, t, cards in moves]
