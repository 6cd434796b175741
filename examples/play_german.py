"""Play a German Canasta game against a running scorekeeper, with the standard library only.

    python3 examples/play_german.py http://127.0.0.1:5000

Written from the README and the API reference alone (docs/api.md, /api-reference): it creates
a game for four players in two partnerships, enters three hands in the three ways the API takes
them (card by card, quickly as players count, as one total per side), corrects one of them,
reads the totals back and prints a score table. Last, it shows how a refused request looks:
its stable code and the message in German (``Accept-Language: de``).
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from typing import Any


class Refused(Exception):
    """The server answered with a problem (4xx): its status and the problems it listed."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.problems: list[dict[str, Any]] = body.get("problems", [])


class Client:
    """The few calls a scorekeeping client needs, as JSON over HTTP."""

    def __init__(self, base_url: str, language: str = "en") -> None:
        self.base = base_url.rstrip("/")
        self.language = language

    def call(self, method: str, path: str, body: Any = None, language: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        request.add_header("Accept-Language", language or self.language)
        if data is not None:
            # Without it a write is refused with 415 (request.content_type).
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as error:
            try:
                problem = json.load(error)
            except ValueError:
                problem = {"problems": [{"code": "?", "message": error.reason, "where": ""}]}
            raise Refused(error.code, problem) from None


def hand_in_detail() -> list[dict[str, Any]]:
    """Hand 1, card by card: every meld on the table and the cards left in each hand."""
    wir = {
        # A natural canasta of kings, a mixed canasta of nines (two wild cards), and a meld of
        # aces with a two; one red three laid out; Anna went out, so no cards are left.
        "melds": ["K K K K K K K", "9 9 9 9 9 2 X", "A A A 2"],
        "hands": ["", ""],
        "red_threes": 1,
        "went_out": True,
    }
    sie = {
        # No canasta; two melds; Cleo holds a black three and two small cards, Dan a joker.
        "melds": ["8 8 8 8", "Q Q Q X"],
        "hands": ["3s 5 6", "X"],
        "red_threes": 0,
    }
    return [wir, sie]


def hand_quick(meld_points: int) -> list[dict[str, Any]]:
    """Hand 2, the quick way: canastas counted, card points summed, points left in hand."""
    wir = {
        "quick": {
            "natural_canastas": 0,
            "mixed_canastas": 1,
            "wild_canastas": 0,
            "meld_points": meld_points,
            "hand_points": 25,
            "black_threes_in_hand": 1,
        },
        "red_threes": 0,
    }
    sie = {
        "quick": {
            "natural_canastas": 2,
            "mixed_canastas": 0,
            "wild_canastas": 0,
            "meld_points": 260,
            "hand_points": 0,
        },
        "red_threes": 2,
        "went_out": True,
    }
    return [wir, sie]


def hand_as_totals() -> list[dict[str, Any]]:
    """Hand 3, one total per side, as the table added it up on paper."""
    return [{"total": -60}, {"total": 1015, "went_out": True}]


def score_table(game: dict[str, Any]) -> str:
    """The sheet as text: each hand's score per side and the running total, then the totals."""
    names = [side["name"] for side in game["sides"]]
    width = max(16, *(len(name) + 2 for name in names))
    lines = ["Hand" + "".join(f"{name:>{width}}" for name in names)]
    for hand in game["hands"]:
        cells = "".join(
            f"{side['score']:>+{width - 8}} ={side['total']:>6}" for side in hand["sides"]
        )
        lines.append(f"{hand['number']:>4}{cells}")
    lines.append("-" * len(lines[0]))
    lines.append("Total" + "".join(f"{side['total']:>{width}}" for side in game["sides"])[1:])
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: {argv[0]} BASE_URL   (e.g. http://127.0.0.1:5000)", file=sys.stderr)
        return 2
    api = Client(argv[1])

    game = api.call(
        "POST",
        "/api/v1/games",
        {
            "ruleset": "german",
            "players": 4,
            "name": "Example evening",
            "sides": [
                {"name": "Wir", "players": ["Anna", "Ben"]},
                {"name": "Sie", "players": ["Cleo", "Dan"]},
            ],
        },
    )
    key = game["id"]  # the editing key: keep it secret; view_id is for the other phones
    print(f"Game created: edit key {key}, read-only view {game['view_id']}")

    hands = f"/api/v1/games/{key}/hands"
    for number, teams in enumerate(
        (hand_in_detail(), hand_quick(meld_points=200), hand_as_totals()), start=1
    ):
        # entry_id makes a resend after a lost answer safe: it is saved once.
        entry = {"version": game["version"], "teams": teams, "entry_id": f"example-{key}-{number}"}
        game = api.call("POST", hands, entry)
        saved = game["hands"][-1]
        print(
            f"Hand {saved['number']} saved: " + ", ".join(str(s["score"]) for s in saved["sides"])
        )

    # Hand 2 was counted wrong: Wir had 240 points of melded cards, not 200. A correction
    # carries the version the client last saw; a stale one is refused with 409.
    game = api.call(
        "PUT", f"{hands}/2", {"version": game["version"], "teams": hand_quick(meld_points=240)}
    )
    print("Hand 2 corrected.")

    # The totals, as anyone reading the game sees them.
    game = api.call("GET", f"/api/v1/games/{key}")
    print()
    print(score_table(game))
    winner = game["winner"]  # null until a side reaches the target (German: 5,000)
    if winner is None:
        print(f"No winner yet; next is hand {game['next_hand']}.")
    else:
        print(f"{game['sides'][winner]['name']} won.")

    # A refused request: a total that is no multiple of 5. Nothing is stored; the problem has
    # a stable code for programs and a message in the language asked for.
    print()
    try:
        api.call(
            "POST",
            hands,
            {
                "version": game["version"],
                "teams": [{"total": 1234, "went_out": True}, {"total": 0}],
            },
            language="de",
        )
    except Refused as refused:
        for problem in refused.problems:
            print(f"Refused ({refused.status}): {problem['code']} at {problem['where']!r}")
            print(f"  {problem['message']}")
    else:
        print("The server took a total of 1234: that was not expected.")
        return 1
    unchanged = api.call("GET", f"/api/v1/games/{key}")
    print(f"Version still {unchanged['version']}: nothing was stored.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
