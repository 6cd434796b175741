"""Exactly once: a hand entry sent twice under the same ``entry_id`` (the phone lost the answer
and its outbox sent it again) is stored once and answered as the first time, whatever version
it carries; the JSON API (POST and PUT), the Canasta hand form and the 3 ist 50 form alike."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.store.db import session_scope
from scorekeeper.store.models import EntryReceipt, Hand
from tests.web.api.test_games_api import DETAIL_HAND, GAMES, create
from tests.web.canasta.test_game_pages import DETAIL_US, QUICK_THEM, create_game, hand_form
from tests.web.fifty.test_fifty_pages import entry, three_players
from tests.web.pagehelpers import HTMX

ENTRY = "phone-A_0001"


def hands(app: Flask, game_id: str) -> int:
    with app.app_context(), session_scope() as session:
        return int(session.scalar(select(func.count()).where(Hand.game_id == game_id)) or 0)


def post(client: FlaskClient, game: dict[str, Any], version: int, entry_id: Any) -> Any:
    body = {"version": version, "teams": DETAIL_HAND, "entry_id": entry_id}
    return client.post(f"{GAMES}/{game['id']}/hands", json=body)


def test_api_repeat_is_answered_as_the_first_and_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    game = create(client)
    first = post(client, game, 1, ENTRY)
    assert first.status_code == 201 and first.get_json()["hand"] == 1
    # The answer was lost: the same entry again, once with the old version, once with another.
    for version in (1, 2, 7):
        again = post(client, game, version, ENTRY)
        assert again.status_code == 201, again.get_json()
        assert again.get_json()["hand"] == 1
        assert again.headers["Location"] == first.headers["Location"]
        assert again.get_json()["version"] == 2
    assert hands(app, game["id"]) == 1
    # Another entry is a new hand.
    assert post(client, game, 2, "phone-A_0002").get_json()["hand"] == 2
    assert hands(app, game["id"]) == 2


def test_api_correction_repeat_answers_200(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    assert post(client, game, 1, ENTRY).status_code == 201
    body = {"version": 2, "teams": DETAIL_HAND, "entry_id": "fix-hand-1"}
    first = client.put(f"{GAMES}/{game['id']}/hands/1", json=body)
    assert first.status_code == 200 and first.get_json()["version"] == 3
    again = client.put(f"{GAMES}/{game['id']}/hands/1", json={**body, "version": 3})
    assert again.status_code == 200 and again.get_json()["hand"] == 1
    assert again.get_json()["version"] == 3  # nothing changed
    # An entry id taken by a new hand answers 201 even when sent as a correction.
    assert (
        client.put(f"{GAMES}/{game['id']}/hands/1", json={**body, "entry_id": ENTRY}).status_code
        == 201
    )


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("short", "request.entry_id"),
        ("a" * 65, "request.entry_id"),
        ("no spaces!", "request.entry_id"),
        (12345678, "request.type"),
    ],
)
def test_api_refuses_a_bad_entry_id(client: FlaskClient, value: Any, code: str) -> None:
    game = create(client)
    answer = post(client, game, 1, value)
    assert answer.status_code == 400
    assert [p["code"] for p in answer.get_json()["problems"]] == [code]
    assert answer.get_json()["problems"][0]["where"] == "entry_id"
    assert client.get(f"{GAMES}/{game['id']}").get_json()["version"] == 1


def test_api_conflict_without_entry_id_is_still_409(client: FlaskClient) -> None:
    game = create(client)
    assert post(client, game, 1, "phone-A_0001").status_code == 201
    assert post(client, game, 1, "phone-B_0001").status_code == 409


def test_canasta_form_repeat_stores_one_hand(app: Flask, client: FlaskClient) -> None:
    game_id = create_game(client)
    data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    assert re.fullmatch(r"[A-Za-z0-9_-]{8,64}", data["entry_id"])
    data["action"] = "save"
    url = f"/games/{game_id}/hands"
    assert client.post(url, data=data).status_code == 303
    # Sent again, by the outbox (htmx headers) and by a browser without JavaScript.
    again = client.post(url, data=data, headers=HTMX)
    assert again.status_code == 200 and again.headers["HX-Redirect"] == f"/games/{game_id}"
    assert client.post(url, data=data).status_code == 303
    assert hands(app, game_id) == 1
    # A new form has a new id; the form shown again after a refusal keeps its id.
    fresh = hand_form(client, game_id)
    assert fresh["entry_id"] != data["entry_id"]
    fresh["action"] = "save"
    fresh["out"] = "0"
    refused = client.post(url, data=fresh)
    assert refused.status_code == 422
    assert f'value="{fresh["entry_id"]}"' in refused.text
    with app.app_context(), session_scope() as session:
        kept = session.scalars(select(EntryReceipt).where(EntryReceipt.game_id == game_id)).all()
        assert [(r.entry_id, r.number, r.created) for r in kept] == [(data["entry_id"], 1, True)]


def test_canasta_form_conflict_keeps_the_entry_id(client: FlaskClient) -> None:
    game_id = create_game(client)
    phone_a = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    phone_b = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    url = f"/games/{game_id}/hands"
    phone_a["action"] = phone_b["action"] = "save"
    assert client.post(url, data=phone_a).status_code == 303
    conflict = client.post(url, data=phone_b)
    assert conflict.status_code == 409
    assert f'value="{phone_b["entry_id"]}"' in conflict.text
    # Phone A's entry sent again is no conflict: it was saved.
    assert client.post(url, data=phone_a).status_code == 303


def test_fifty_form_repeat_and_correction(app: Flask, client: FlaskClient) -> None:
    game_id = three_players(client)
    data = entry(client, game_id, p0__cards="3 A K 7", p1__mode="points", p1__points="12")
    data["action"] = "save"
    url = f"/fifty/{game_id}/games"
    assert client.post(url, data=data).status_code == 303
    assert client.post(url, data=data).status_code == 303
    assert hands(app, game_id) == 1
    fix = entry(client, game_id, 1, p1__points="15")
    fix["action"] = "save"
    assert client.post(f"{url}/1", data=fix).status_code == 303
    page = client.get(f"/fifty/{game_id}").text
    fix["version"] = "9"
    assert client.post(f"{url}/1", data=fix).status_code == 303  # a repeat: no 409
    assert client.get(f"/fifty/{game_id}").text.count("15") == page.count("15")
    assert hands(app, game_id) == 1
