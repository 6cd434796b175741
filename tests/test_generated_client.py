"""A client generated from the description plays a German game against the live server: the
description is fetched from ``scorekeeper serve`` (a process on loopback, a fresh SQLite
database), ``openapi-python-client`` generates a Python client from it into a temporary folder
(never committed), and that client, with nothing else to talk to the API, creates a German
game, enters three hands counted the quick way, corrects the second and reads the totals.

The expected scores are counted here by hand from the rulebook's numbers (docs/rulebook.md §2:
a natural canasta 500, a mixed one 300; §4: going out 100, each red three 100, the cards left in
hand counted minus)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.test_serve import start, stop

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "scorekeeper_generated_client"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[str]:
    server, port = start(tmp_path, "--host", "127.0.0.1")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        out = stop(server)
        assert "Traceback" not in out, out[-4000:]


def generated(live: str, folder: Path) -> dict[str, ModuleType]:
    """The client generated from the live server's description, its modules by short name."""
    with urllib.request.urlopen(f"{live}/api/v1/openapi.json", timeout=10) as answer:
        (folder / "openapi.json").write_bytes(answer.read())
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    made = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(folder / "openapi.json"),
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        check=False,
    )
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    sys.path.insert(0, str(folder))
    try:
        names = {
            "client": f"{PACKAGE}.client",
            "models": f"{PACKAGE}.models",
            "create": f"{PACKAGE}.api.games.games_api_create",
            "add_hand": f"{PACKAGE}.api.games.games_api_add_hand",
            "replace_hand": f"{PACKAGE}.api.games.games_api_replace_hand",
            "detail": f"{PACKAGE}.api.games.games_api_detail",
        }
        return {short: importlib.import_module(name) for short, name in names.items()}
    finally:
        sys.path.remove(str(folder))


def quick(models: ModuleType, natural: int, mixed: int, melded: int, left: int) -> Any:
    return models.Quick(
        natural_canastas=natural,
        mixed_canastas=mixed,
        meld_points=melded,
        hand_points=left,
        melded=True,
    )


def test_a_generated_client_plays_a_german_game(live: str, tmp_path: Path) -> None:
    client_modules = generated(live, tmp_path)
    models = client_modules["models"]
    with client_modules["client"].Client(base_url=live, raise_on_unexpected_status=True) as api:
        play(client_modules, models, api)


def play(client_modules: dict[str, ModuleType], models: ModuleType, api: Any) -> None:
    # (a hand's side is described as an object without its fields: read by key, ``["score"]``)

    made = client_modules["create"].sync_detailed(
        client=api,
        body=models.NewGame(
            ruleset="german",
            players=4,
            name="Donnerstag",
            sides=[
                models.NewSide(name="Wir", players=["Anna", "Ben"]),
                models.NewSide(name="Ihr", players=["Cleo", "Dan"]),
            ],
        ),
    )
    assert made.status_code == 201, made.content
    game = made.parsed
    assert isinstance(game, models.Game)
    key, version = game.id, game.version
    assert isinstance(key, str) and game.ruleset == "german"

    # (teams, the scores by the rulebook): hand 1 "Wir" go out with a natural canasta and a red
    # three: 500 + 100 + 100 + 185 melded = 885; "Ihr" 150 melded, 40 left: 110
    hands = [
        (
            [
                models.Side(quick=quick(models, 1, 0, 185, 0), went_out=True, red_threes=1),
                models.Side(quick=quick(models, 0, 0, 150, 40)),
            ],
            (885, 110),
        ),
        (  # entered wrong at first: corrected below
            [
                models.Side(quick=quick(models, 0, 0, 90, 25)),
                models.Side(quick=quick(models, 0, 1, 210, 0), went_out=True),
            ],
            (65, 610),
        ),
        (  # "Ihr": 300 + 100 + 230 = 630; "Wir" 120 melded, 60 left, two red threes: 260
            [
                models.Side(quick=quick(models, 0, 0, 120, 60), red_threes=2),
                models.Side(quick=quick(models, 0, 1, 230, 0), went_out=True),
            ],
            (260, 630),
        ),
    ]
    for teams, scores in hands:
        saved = client_modules["add_hand"].sync_detailed(
            key, client=api, body=models.HandEntry(version=version, teams=teams)
        )
        assert saved.status_code == 201, saved.content
        assert isinstance(saved.parsed, models.Game)
        version = saved.parsed.version
        last = saved.parsed.hands[-1]
        assert tuple(side.score for side in last.sides) == scores

    # hand 2 really went: "Wir" out with a natural canasta, 500 + 100 + 240 = 840; "Ihr" a
    # mixed canasta with 180 melded and 35 left: 300 + 180 - 35 = 445
    corrected = client_modules["replace_hand"].sync_detailed(
        key,
        "2",
        client=api,
        body=models.HandEntry(
            version=version,
            teams=[
                models.Side(quick=quick(models, 1, 0, 240, 0), went_out=True),
                models.Side(quick=quick(models, 0, 1, 180, 35)),
            ],
        ),
    )
    assert corrected.status_code == 200, corrected.content
    stale = client_modules["replace_hand"].sync_detailed(  # the old version: refused, 409
        key, "2", client=api, body=models.HandEntry(version=version, teams=hands[1][0])
    )
    assert stale.status_code == 409

    read = client_modules["detail"].sync_detailed(key, client=api)
    assert read.status_code == 200
    final = read.parsed
    assert isinstance(final, models.Game)
    assert [side.name for side in final.sides] == ["Wir", "Ihr"]
    assert [side.total for side in final.sides] == [885 + 840 + 260, 110 + 445 + 630]
    assert len(final.hands) == 3 and final.winner is None and not final.finished
    assert tuple(side.score for side in final.hands[1].sides) == (840, 445)
