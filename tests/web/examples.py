"""The example hand of docs/api.md §1, shared by the tests of the score API, the command line
and the stored-games API: one side scored card by card, the other quickly."""

from __future__ import annotations

from typing import Any

CONTRACT_TEAMS: list[dict[str, Any]] = [
    {
        "melds": [["K", "K", "K", "2"], ["7", "7", "7", "7", "7", "2", "2"]],
        "red_threes": 1,
        "hands": [[], ["5", "Q"]],
        "went_out": True,
        "concealed": False,
    },
    {
        "quick": {
            "natural_canastas": 0,
            "mixed_canastas": 1,
            "wild_canastas": 0,
            "meld_points": 155,
            "hand_points": 40,
            "black_threes_in_hand": 0,
            "melded": True,
        },
        "red_threes": 0,
        "went_out": False,
        "concealed": False,
    },
]
CONTRACT_EXAMPLE: dict[str, Any] = {
    "ruleset": "german",
    "players": 4,
    "options": {},
    "teams": CONTRACT_TEAMS,
}
