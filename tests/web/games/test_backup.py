"""Backups and moving a game to another installation, and CSV for spreadsheets.

An export is a backup file (``store.backup``: everything stored, the corrections trail too);
``POST /api/v1/games/import`` and the start page take it, or an older export in the API's shape,
on another installation, checking every value as if it were typed (it is untrusted input): any
problem stores nothing, and a game already here is recognised, not doubled.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.store.db import session_scope
from scorekeeper.store.models import Game

QUICK = {
    "natural_canastas": 0,
    "mixed_canastas": 1,
    "wild_canastas": 0,
    "meld_points": 155,
    "hand_points": 40,
    "black_threes_in_hand": 0,
    "melded": True,
}


@pytest.fixture
def other(tmp_path: Path) -> Iterator[Flask]:
    """Another installation: its own database."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "other",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'other.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def made_game(client: FlaskClient, name: str = '=HYPERLINK("x")') -> dict[str, Any]:
    game = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "name": "Sonntag",
            "sides": [
                {"name": name, "players": ["Anna", "@Ben"]},
                {"name": "Ihr", "players": ["Cleo", "-Dan"]},
            ],
        },
    ).json
    for meld in (155, 135):
        teams = [
            {"quick": {**QUICK, "meld_points": meld}, "red_threes": 1, "went_out": True},
            {"quick": QUICK, "red_threes": 0},
        ]
        game = client.post(
            f"/api/v1/games/{game['id']}/hands", json={"version": game["version"], "teams": teams}
        ).json
    return game


def games_in(app: Flask) -> int:
    with app.app_context(), session_scope() as session:
        return int(session.scalar(select(func.count()).select_from(Game)) or 0)


def test_a_game_moves_to_another_installation(client: FlaskClient, other: Flask) -> None:
    game = made_game(client)
    # a correction: the trail travels with the game
    teams = [{"quick": QUICK, "red_threes": 0}, {"quick": QUICK, "red_threes": 0, "went_out": True}]
    game = client.put(
        f"/api/v1/games/{game['id']}/hands/2", json={"version": game["version"], "teams": teams}
    ).json
    exported = client.get(f"/games/{game['id']}/export.json")
    assert exported.status_code == 200
    assert exported.headers["Content-Disposition"].startswith("attachment;")
    data = exported.json
    assert data["format"] == "scorekeeper-backup"
    [record] = data["games"]
    assert "id" not in record and game["id"] not in exported.text  # never the editing key
    assert [r["kind"] for r in record["revisions"]] == ["corrected"]
    moved = other.test_client().post("/api/v1/games/import", json=data)
    assert moved.status_code == 201, moved.json
    [made] = moved.json["games"]
    assert made["imported"] is True and made["view_id"] == record["view_id"]
    again = other.test_client().get(f"/api/v1/games/{made['id']}").json
    before = client.get(f"/api/v1/games/{game['id']}").json
    for key in ("name", "ruleset", "players", "target", "options", "winner", "version"):
        assert again[key] == before[key], key
    assert again["sides"] == before["sides"]  # 615 + 415 after the correction, and so on
    assert again["created_at"] == before["created_at"]
    assert [h["teams"] for h in again["hands"]] == [h["teams"] for h in before["hands"]]
    # on the first installation, another phone gets a game of its own (the file has no
    # editing key); the phone that holds the game imports it without doubling it
    client.get(f"/games/{game['id']}")  # this phone holds the game
    upload = {"backup": (io.BytesIO(exported.data), "game.json")}
    client.post("/games/import?lang=en", data=upload, content_type="multipart/form-data")
    assert "1 game was here already and was not imported again." in client.get("/?lang=en").text
    assert games_in(client.application) == 1
    stranger = client.application.test_client()
    copy = stranger.post("/api/v1/games/import", json=data).json["games"][0]
    assert copy["imported"] is True and copy["id"] != game["id"]
    assert copy["view_id"] != record["view_id"]  # a view key is never shared
    assert games_in(client.application) == 2


def test_an_older_export_in_the_api_shape_still_imports(client: FlaskClient, other: Flask) -> None:
    game = made_game(client)
    shown = client.get(f"/api/v1/games/{game['id']}").json  # with the editing key
    moved = other.test_client().post("/api/v1/games/import", json=shown)
    assert moved.status_code == 201, moved.json
    again = other.test_client().get(f"/api/v1/games/{moved.json['games'][0]['id']}").json
    assert [s["total"] for s in again["sides"]] == [615 + 595, 415 + 415]
    assert (
        other.test_client().post("/api/v1/games/import", json=shown).json["games"][0]["imported"]
        is False
    )
    assert games_in(other) == 1


def fifty_game(client: FlaskClient) -> str:
    data = {"players": "3", "name-0": "Ola", "name-1": "Jan", "name-2": "Ewa", "joker": "10"}
    answer = client.post("/fifty/new", data={**data, "action": "create"})
    assert answer.status_code == 303, answer.text
    return answer.headers["Location"].rstrip("/").split("/")[-1]


def test_all_games_of_a_phone_in_one_file(client: FlaskClient, other: Flask) -> None:
    made = [made_game(client, f"Tisch {n}") for n in range(12)]
    for game in made:
        client.get(f"/games/{game['id']}")  # the phone remembers the games it opened
    fifty_id = fifty_game(client)
    assert f"/games/{fifty_id}/export.json" in client.get(f"/fifty/{fifty_id}").text
    alone = client.get(f"/games/{fifty_id}/export.json")  # either kind
    assert alone.status_code == 200 and alone.json["games"][0]["ruleset"] == "three-is-fifty"
    bundle = client.get("/games/export.json").json
    assert bundle["format"] == "scorekeeper-backup"
    assert len(bundle["games"]) == 13  # every game of this phone, not the newest 8
    assert {g["ruleset"] for g in bundle["games"]} == {"german", "three-is-fifty"}
    phone = other.test_client()
    upload = {"backup": (io.BytesIO(json.dumps(bundle).encode()), "games.json")}
    answer = phone.post("/games/import?lang=en", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 303
    start = phone.get("/?lang=en").text
    assert "13 games imported." in start
    assert "Tisch 11 <b" in start and "Tisch 1 <b" not in start  # newest first, ten a page
    assert "Page 1 of 2" in start and "Ola" in start
    assert "Tisch 0 <b" in phone.get("/?lang=en&page=2").text
    assert games_in(other) == 13
    # the same file again: nothing doubled, and the page says so (Polish plural forms)
    upload = {"backup": (io.BytesIO(json.dumps(bundle).encode()), "games.json")}
    phone.post("/games/import?lang=pl", data=upload, content_type="multipart/form-data")
    assert "13 gier było już tutaj" in phone.get("/?lang=pl").text
    assert games_in(other) == 13


@pytest.mark.parametrize(
    "body, status, where",
    [
        ({"ruleset": "german", "players": 5, "sides": []}, 422, "games[0].players"),
        ({"games": "all"}, 400, "games"),
        ({"games": []}, 400, "games"),
        (
            {
                "games": [
                    {
                        "ruleset": "classic",
                        "players": 2,
                        "sides": [{"name": "A", "players": ["a"]}, {"name": "B", "players": ["b"]}],
                        "hands": [
                            {
                                "teams": [
                                    {"quick": {**QUICK, "meld_points": "lots"}},
                                    {"quick": QUICK},
                                ]
                            }
                        ],
                    }
                ]
            },
            400,
            "games[0].hands[0]",
        ),
        (
            {
                "ruleset": "classic",
                "players": 2,
                "sides": [{"name": "A", "players": ["a"]}, {"name": "B", "players": ["b"]}],
                "hands": "many",
            },
            400,
            "games[0].hands",
        ),
        (
            {
                "ruleset": "classic",
                "players": 2,
                "sides": [{"name": "A\u0000", "players": ["a"]}, {"name": "B", "players": ["b"]}],
            },
            422,
            "games[0].sides[0].name",
        ),
    ],
)
def test_a_bad_file_stores_nothing(
    other: Flask, body: dict[str, Any], status: int, where: str
) -> None:
    answer = other.test_client().post("/api/v1/games/import", json=body)
    assert answer.status_code == status, answer.json
    assert any(p["where"].startswith(where) for p in answer.json["problems"]), answer.json
    assert games_in(other) == 0


def test_a_file_that_is_no_backup_is_refused_on_the_page(other: Flask) -> None:
    phone = other.test_client()
    answer = phone.post(
        "/games/import?lang=de",
        data={"backup": (io.BytesIO(b"\xff not json"), "x.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 422
    assert "keine Sicherung dieser App" in answer.text
    assert games_in(other) == 0


def test_hands_as_csv_with_names_that_look_like_formulas(client: FlaskClient) -> None:
    game = made_game(client)
    answer = client.get(f"/games/{game['id']}/hands.csv?lang=en")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(answer.text.removeprefix("\ufeff"))))
    head, first, second = rows
    # The side "=HYPERLINK(...)" starts every heading of its columns: as text, not a formula.
    assert all(
        not cell.startswith(("=", "+", "-", "@"))
        for row in rows
        for cell in row
        if not cell.lstrip("-").isdigit()
    )
    assert head[0] == "Hand" and '\'=HYPERLINK("x"): Total' in head
    total = head.index('\'=HYPERLINK("x"): Total')
    assert first[total] == "615" and second[total] == "1210"  # 615 + 595
    assert first[1] == "Anna"  # Anna deals the first hand
    german = client.get(f"/games/{game['id']}/hands.csv?lang=de").text
    assert german.startswith("\ufeff")  # the names read as UTF-8
    rows = list(csv.reader(io.StringIO(german.removeprefix("\ufeff")), delimiter=";"))
    assert "Ihr: Gesamt" in rows[0] and rows[2][total] == "1210"  # one cell each: in columns
    assert rows[0][total].startswith("'=")  # still text, not a formula
