"""Issue 15: backups and moving a game to another installation, and CSV for spreadsheets.

An export is the API's own shape (``GET /api/v1/games/{id}`` without the editing key) and
``POST /api/v1/games/import`` takes it on another installation, checking every value as if it
were typed (it is untrusted input): any problem stores nothing.
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
    exported = client.get(f"/games/{game['id']}/export.json")
    assert exported.status_code == 200
    assert exported.headers["Content-Disposition"].startswith("attachment;")
    data = exported.json
    assert "id" not in data and game["id"] not in exported.text  # never the editing key
    # 615 = 155 melded + 300 (mixed canasta) + 100 (red three) + 100 (going out) - 40 in hand;
    # the second hand melds 20 less: 595. The other side: 155 + 300 - 40 = 415 each.
    assert [s["total"] for s in data["sides"]] == [615 + 595, 415 + 415]
    moved = other.test_client().post("/api/v1/games/import", json=data)
    assert moved.status_code == 201, moved.json
    [made] = moved.json["games"]
    again = other.test_client().get(f"/api/v1/games/{made['id']}").json
    for key in ("name", "ruleset", "players", "target", "options", "winner"):
        assert again[key] == data[key], key
    assert again["sides"] == data["sides"]
    assert [h["teams"] for h in again["hands"]] == [h["teams"] for h in data["hands"]]
    assert made["view_id"] != data["view_id"]  # new keys on the new installation


def test_all_games_of_a_phone_in_one_file(client: FlaskClient, other: Flask) -> None:
    first, second = made_game(client, "Wir"), made_game(client, "Oma & Opa")
    for key in (first["id"], second["id"]):
        client.get(f"/games/{key}")  # the phone remembers the games it opened
    bundle = client.get("/games/export.json").json
    assert bundle["format"] == "scorekeeper-games"
    assert sorted(g["sides"][0]["name"] for g in bundle["games"]) == ["Oma & Opa", "Wir"]
    phone = other.test_client()
    upload = {"backup": (io.BytesIO(json.dumps(bundle).encode()), "canasta-games.json")}
    answer = phone.post("/games/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 303
    start = phone.get("/").text
    assert "Oma &amp; Opa" in start and "Wir" in start  # now on the new phone's list
    assert games_in(other) == 2


@pytest.mark.parametrize(
    "body, status, where",
    [
        ({"ruleset": "german", "players": 5, "sides": []}, 422, "players"),
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
            "hands",
        ),
        (
            {
                "ruleset": "classic",
                "players": 2,
                "sides": [{"name": "A\u0000", "players": ["a"]}, {"name": "B", "players": ["b"]}],
            },
            422,
            "sides[0].name",
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
    assert "Ihr: Gesamt" in german
