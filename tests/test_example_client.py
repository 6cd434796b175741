"""The example client of the API reference (examples/play_german.py, docs/api.md §3 "A first
client") plays its German game against ``scorekeeper serve`` started as a subprocess on loopback
with a fresh SQLite database. What it prints must be what the API holds, and both must be the
scores counted here by hand from the rulebook.

Hand by hand, from docs/rulebook.md (§1 card values: joker and two 50, ace 20, king to eight
10, seven to four 5, black three 5; §2 a natural canasta 500, a mixed one 300; §4 going out
100, each red three 100, every card left in hand counted minus, a black three left in hand −5):

- Hand 1, card by card. Wir: K×7 = 70, 9 9 9 9 9 2 X = 50 + 50 + 50 = 150, A A A 2 = 60 + 50
  = 110, so 330 in cards; a natural and a mixed canasta 500 + 300; one red three 100; going
  out 100: 1,330. Sie: 8 8 8 8 = 40 and Q Q Q X = 30 + 50 = 80, 120 in cards; left in hand
  3s 5 6 (5 + 5 + 5) and X (50), −65: 55.
- Hand 2, quick, as first entered. Wir: 200 in cards + a mixed canasta 300 − 25 in hand − one
  black three 5 = 470. Sie: 260 + two natural canastas 1,000 + two red threes 200 + going out
  100 = 1,560. Corrected to 240 in cards for Wir: 510.
- Hand 3, totals: −60 and 1,015.

Totals: Wir 1,330 + 510 − 60 = 1,780; Sie 55 + 1,560 + 1,015 = 2,630.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import ROOT
from tests.test_serve import start, stop

EXAMPLE = ROOT / "examples" / "play_german.py"

# (hand, Wir's score, Sie's score) as counted in the module's docstring
BY_HAND = [(1, 1330, 55), (2, 510, 1560), (3, -60, 1015)]
FIRST_HAND_2 = (470, 1560)  # hand 2 before its correction
TOTALS = {"Wir": 1780, "Sie": 2630}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[str]:
    server, port = start(tmp_path, "--host", "127.0.0.1")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        out = stop(server)
        assert "Traceback" not in out, out[-4000:]


def api(base: str, method: str, path: str, body: Any = None, language: str = "en") -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept-Language", language)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        return json.load(error)


def test_the_example_client_plays_a_german_game(live: str) -> None:
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), live],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    printed = run.stdout
    lines = printed.splitlines()

    key = re.search(r"edit key (\S+),", printed)
    assert key, printed
    game = api(live, "GET", f"/api/v1/games/{key.group(1)}")

    # The game as the API holds it: the German ruleset, two sides of two, three hands, the
    # scores counted by hand, hand 2 corrected once.
    assert game["ruleset"] == "german" and game["players"] == 4
    assert [side["players"] for side in game["sides"]] == [["Anna", "Ben"], ["Cleo", "Dan"]]
    assert [
        (hand["number"], *(side["score"] for side in hand["sides"])) for hand in game["hands"]
    ] == BY_HAND
    assert {side["name"]: side["total"] for side in game["sides"]} == TOTALS
    first = api(live, "GET", f"/api/v1/games/{key.group(1)}/hands/1")
    assert [side["canastas"] for side in first["sides"]] == [
        {"natural": 1, "mixed": 1, "wild": 0},
        {"natural": 0, "mixed": 0, "wild": 0},
    ]
    corrected = api(live, "GET", f"/api/v1/games/{key.group(1)}/hands/2")
    assert corrected["teams"][0]["quick"]["meld_points"] == 240  # the PUT replaced the entry

    # What the client printed: each hand as saved (hand 2 before its correction), then the
    # table's rows with the corrected scores and running totals, then the totals row.
    assert "Hand 1 saved: 1330, 55" in lines
    assert f"Hand 2 saved: {FIRST_HAND_2[0]}, {FIRST_HAND_2[1]}" in lines
    assert "Hand 3 saved: -60, 1015" in lines
    rows = [line for line in lines if re.match(r"\s+\d+ ", line)]
    running = [0, 0]
    assert len(rows) == len(BY_HAND)
    for row, (number, wir, sie) in zip(rows, BY_HAND, strict=True):
        running = [running[0] + wir, running[1] + sie]
        cells = re.findall(r"([+-]\d+) = *(-?\d+)", row)
        assert row.split()[0] == str(number)
        assert [(int(score), int(total)) for score, total in cells] == [
            (wir, running[0]),
            (sie, running[1]),
        ], row
    header = lines[lines.index(rows[0]) - 1]
    totals_row = next(line for line in lines if line.startswith("Total"))
    assert header.split()[1:] == list(TOTALS)
    assert [int(cell) for cell in totals_row.split()[1:]] == list(TOTALS.values())
    assert running == list(TOTALS.values())

    # The refused request: its code and the German message the API gives for it, and nothing
    # stored (the version the client read afterwards is the game's version now).
    refused = {
        "version": game["version"],
        "teams": [{"total": 1234, "went_out": True}, {"total": 0}],
    }
    german = api(live, "POST", f"/api/v1/games/{key.group(1)}/hands", refused, language="de")
    english = api(live, "POST", f"/api/v1/games/{key.group(1)}/hands", refused, language="en")
    problem = german["problems"][0]
    assert problem["code"] == "total.not_multiple_of_5"
    assert problem["message"] != english["problems"][0]["message"]
    assert f"Refused (422): total.not_multiple_of_5 at {problem['where']!r}" in lines
    assert f"  {problem['message']}" in lines
    assert f"Version still {game['version']}: nothing was stored." in lines
    assert api(live, "GET", f"/api/v1/games/{key.group(1)}")["version"] == game["version"]
