"""Imports are writes like any other: each imported game counts against the creation limit (API
and start page), a file is bounded, and a phone saving during a large import waits for one
game's transaction at most, not for the file. Also: names need a letter or digit that shows,
and the full view page is kept like the game page."""

from __future__ import annotations

import io
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask
import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.web.games import backup
from scorekeeper.web.play import pages

from .test_backup import QUICK

GERMAN = {
    "ruleset": "german",
    "players": 4,
    "sides": [
        {"name": "Wir", "players": ["Anna", "Ben"]},
        {"name": "Ihr", "players": ["Cleo", "Dan"]},
    ],
}
TEAMS = [{"quick": QUICK}, {"quick": {**QUICK, "meld_points": 135}}]


def make(tmp_path: Path, name: str, **config: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{tmp_path / name}",
            **config,
        }
    )


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Flask]:
    app = make(tmp_path, "limited.sqlite3", RATELIMIT_ENABLED=True, LIMIT_CREATE="5 per minute")
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def file_of(count: int, hands: int = 1) -> dict[str, Any]:
    """An older export (the API's shape) of ``count`` games of ``hands`` hands each."""
    game = {**GERMAN, "hands": [{"teams": TEAMS} for _ in range(hands)]}
    return {"games": [dict(game) for _ in range(count)]}


def test_each_imported_game_counts_against_the_creation_limit(limited: Flask) -> None:
    client = limited.test_client()
    answer = client.post("/api/v1/games/import", json=file_of(4))
    assert answer.status_code == 201 and len(answer.json["games"]) == 4
    assert client.post("/api/v1/games", json=GERMAN).status_code == 201  # the fifth creation
    assert client.post("/api/v1/games", json=GERMAN).status_code == 429
    assert client.post("/api/v1/games/import", json=file_of(1)).status_code == 429


def test_the_start_pages_import_is_limited_too(limited: Flask) -> None:
    client = limited.test_client()
    body = json.dumps(file_of(5)).encode()
    answer = client.post(
        "/games/import",
        data={"backup": (io.BytesIO(body), "games.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 303
    again = client.post(
        "/games/import",
        data={"backup": (io.BytesIO(body), "games.json")},
        content_type="multipart/form-data",
    )
    assert again.status_code == 429  # five games created: the limit is reached
    assert client.post("/api/v1/games", json=GERMAN).status_code == 429


def test_an_import_is_bounded(client: FlaskClient) -> None:
    many = client.post("/api/v1/games/import", json=file_of(backup.MAX_GAMES + 1))
    assert many.status_code == 400
    assert many.json["problems"][0]["code"] == "request.too_large"
    long_game = client.post("/api/v1/games/import", json=file_of(1, hands=501))
    assert long_game.status_code == 400
    assert long_game.json["problems"][0]["where"] == "games[0].hands"
    entries = client.post("/api/v1/games/import", json=file_of(25, hands=401))
    assert entries.status_code == 400  # 10,025 hands in one file: more than it checks


def test_a_save_waits_for_one_game_of_a_large_import_at_most(
    tmp_path: Path,
) -> None:
    """Two processes on one SQLite file, as behind the proxy: one imports 20 games of 75
    hands, the other saves hands meanwhile; no save fails, none waits long."""
    importing = make(tmp_path, "shared.sqlite3")
    saving = make(tmp_path, "shared.sqlite3")
    try:
        phone = saving.test_client()
        game = phone.post("/api/v1/games", json={**GERMAN, "target": 1_000_000}).json
        big = file_of(20, hands=75)  # about 500 KB: the most a request may send
        done: list[int] = []

        def run_import() -> None:
            answer = importing.test_client().post("/api/v1/games/import", json=big)
            done.append(answer.status_code)

        thread = threading.Thread(target=run_import)
        started = time.monotonic()
        thread.start()
        waits: list[float] = []
        version = game["version"]
        while thread.is_alive() and time.monotonic() - started < 120:
            begin = time.monotonic()
            answer = phone.post(
                f"/api/v1/games/{game['id']}/hands", json={"version": version, "teams": TEAMS}
            )
            waits.append(time.monotonic() - begin)
            assert answer.status_code == 201, answer.json  # never "database is locked"
            version = answer.json["version"]
        thread.join(timeout=120)
        assert done == [201]
        assert len(waits) >= 3
        assert max(waits) < 1.5, max(waits)  # one game's transaction, never the whole file
    finally:
        importing.extensions["scorekeeper.engine"].dispose()
        saving.extensions["scorekeeper.engine"].dispose()


@pytest.mark.parametrize("name", ["\u3164", "\u3164 \u3164", "\u0301" * 39, "\u115f\u1160"])
def test_a_name_needs_a_letter_or_digit_that_shows(client: FlaskClient, name: str) -> None:
    sides = [{"name": name, "players": ["Anna", "Ben"]}, GERMAN["sides"][1]]  # type: ignore[index]
    answer = client.post(
        "/api/v1/games", json={**GERMAN, "sides": sides}, headers={"Accept-Language": "de"}
    )
    assert answer.status_code == 422
    [problem] = answer.json["problems"]
    assert problem["code"] == "name.not_visible" and problem["where"] == "sides[0].name"
    assert "sichtbaren" in problem["message"]
    players = [{"name": "Wir", "players": ["Anna", name]}, GERMAN["sides"][1]]  # type: ignore[index]
    player = client.post("/api/v1/games", json={**GERMAN, "sides": players})
    assert player.json["problems"][0]["code"] == "name.not_visible"


def test_names_with_accents_and_digits_are_fine(client: FlaskClient) -> None:
    sides = [{"name": "Zoë 2", "players": ["Łukasz", "7"]}, GERMAN["sides"][1]]  # type: ignore[index]
    assert client.post("/api/v1/games", json={**GERMAN, "sides": sides}).status_code == 201


def _untokened(html: str) -> str:
    return re.sub(r'("X-CSRFToken": "|name="csrf_token" value=")[^"]+"', r"\1…", html)


def test_the_full_view_page_is_kept_until_the_game_changes(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = client.post("/api/v1/games", json=GERMAN).json
    rendered: list[str] = []
    original = flask.render_template

    def counting(template: str, **context: Any) -> str:
        rendered.append(template)
        return original(template, **context)

    monkeypatch.setattr(pages, "render_template", counting)
    first = client.get(f"/view/{game['view_id']}")
    second = client.get(f"/view/{game['view_id']}")
    assert first.status_code == second.status_code == 200
    # the same page, but for the CSRF token each answer signs anew (its time stamp moves on
    # a second boundary between the two requests)
    assert _untokened(first.text) == _untokened(second.text) and rendered == ["games/view.html"]
    client.post(
        f"/api/v1/games/{game['id']}/hands", json={"version": game["version"], "teams": TEAMS}
    )
    third = client.get(f"/view/{game['view_id']}")
    assert rendered == ["games/view.html"] * 2 and third.text != first.text
    assert client.get("/view/AAAAAAAAAAAAAAAAAAAAAA").status_code == 404
