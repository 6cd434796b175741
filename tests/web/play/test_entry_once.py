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
from werkzeug.datastructures import MultiDict

from scorekeeper.store.db import session_scope
from scorekeeper.store.models import EntryReceipt, Hand
from tests.web.api.test_fifty_games_api import create as create_fifty
from tests.web.api.test_games_api import DETAIL_HAND, GAMES, create
from tests.web.fifty.test_fifty_pages import entry, three_players
from tests.web.games.test_game_pages import DETAIL_US, QUICK_THEM, create_game, hand_form
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
    # An entry id taken by a new hand, sent as a correction, is another entry under that id.
    reused = client.put(f"{GAMES}/{game['id']}/hands/1", json={**body, "entry_id": ENTRY})
    assert reused.status_code == 409
    assert [p["code"] for p in reused.get_json()["problems"]] == ["entry.reused"]


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


# ---- the same id with other content; a repeat of a hand deleted since ------------------------

OTHER_HAND = [
    {"melds": [["A"] * 7], "hands": [[], []], "went_out": True},
    {"melds": [["K", "K", "K"]], "hands": [["5"], []], "went_out": False},
]


def problem(response: Any) -> dict[str, Any]:
    (only,) = response.get_json()["problems"]
    return dict(only)


def test_api_an_entry_id_with_other_content_is_409_entry_reused(
    app: Flask, client: FlaskClient
) -> None:
    game = create(client)
    assert post(client, game, 1, ENTRY).status_code == 201
    url = f"{GAMES}/{game['id']}/hands"
    # other cards under the same id: refused, nothing stored, said in the reader's language
    answers = [
        client.post(
            url,
            json={"version": 2, "teams": OTHER_HAND, "entry_id": ENTRY},
            headers={"Accept-Language": lang},
        )
        for lang in ("en", "de", "pl")
    ]
    assert [a.status_code for a in answers] == [409, 409, 409]
    said = [problem(a) for a in answers]
    assert {(p["code"], p["where"]) for p in said} == {("entry.reused", "entry_id")}
    assert len({p["message"] for p in said}) == 3
    # the same content with another version and its keys in another order is still a repeat
    again = client.post(url, json={"entry_id": ENTRY, "teams": DETAIL_HAND, "version": 5})
    assert again.status_code == 201 and again.get_json()["hand"] == 1
    read = client.get(f"{GAMES}/{game['id']}").get_json()
    assert len(read["hands"]) == 1 and read["version"] == 2


def test_api_a_repeat_of_a_deleted_hand_is_410_entry_deleted(
    app: Flask, client: FlaskClient
) -> None:
    game = create(client)
    url = f"{GAMES}/{game['id']}/hands"
    assert post(client, game, 1, ENTRY).status_code == 201
    fix = {"version": 2, "teams": OTHER_HAND, "entry_id": "fix-hand-1"}
    assert client.put(f"{url}/1", json=fix).status_code == 200
    assert client.delete(f"{url}/1?version=3").status_code == 200
    # the entry that made hand 1, and the one that corrected it: the hand is gone
    for entry_id, sent in (
        (ENTRY, lambda: post(client, game, 1, ENTRY)),
        ("fix-hand-1", lambda: client.put(f"{url}/1", json=fix)),
    ):
        gone = sent()
        assert gone.status_code == 410, (entry_id, gone.get_json())
        said = problem(gone)
        assert (said["code"], said["where"]) == ("entry.deleted", "entry_id")
        assert "1" in said["message"]
    read = client.get(f"{GAMES}/{game['id']}").get_json()
    assert read["hands"] == [] and read["version"] == 4
    # a new hand 1 under another entry: the old entry still names the deleted one
    assert post(client, game, 4, "phone-A_0002").get_json()["hand"] == 1
    assert post(client, game, 5, ENTRY).status_code == 410
    assert hands(app, game["id"]) == 1


def test_api_an_undone_deletion_makes_the_entry_a_repeat_again(client: FlaskClient) -> None:
    game = create(client)
    url = f"{GAMES}/{game['id']}/hands"
    assert post(client, game, 1, ENTRY).status_code == 201
    assert client.delete(f"{url}/1?version=2").status_code == 200
    assert post(client, game, 3, ENTRY).status_code == 410
    undo = client.post(f"{GAMES}/{game['id']}/undo", json={"version": 3})
    assert undo.status_code == 200, undo.get_json()
    again = post(client, game, 4, ENTRY)
    assert again.status_code == 201 and again.get_json()["hand"] == 1
    assert again.get_json()["version"] == 4


def test_fifty_api_reused_and_deleted_entries(app: Flask, client: FlaskClient) -> None:
    game = create_fifty(client)
    url = f"{GAMES}/{game['id']}/hands"
    first = {"version": 1, "points": [10, 0, 5], "entry_id": "phone-1-a"}
    assert client.post(url, json=first).status_code == 201
    other = client.post(url, json={**first, "points": [5, 5, 5]})
    assert other.status_code == 409 and problem(other)["code"] == "entry.reused"
    assert client.post(url, json={**first, "version": 4}).status_code == 201  # a repeat
    assert client.delete(f"{url}/1?version=2").status_code == 200
    gone = client.post(url, json=first)
    assert gone.status_code == 410 and problem(gone)["code"] == "entry.deleted"
    read = client.get(f"{GAMES}/{game['id']}").get_json()
    assert read["version"] == 3 and hands(app, game["id"]) == 0


def test_canasta_form_reused_and_deleted_entries(app: Flask, client: FlaskClient) -> None:
    game_id = create_game(client)
    url = f"/games/{game_id}/hands"
    data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    data["action"] = "save"
    assert client.post(url, data=data).status_code == 303

    def sent(**changes: str) -> MultiDict[str, str]:
        copy = data.copy()
        for key, value in changes.items():
            copy[key.replace("__", "-")] = value
        return copy

    # "save anyway" and another version: the same entry
    assert client.post(url, data=sent(action="save-anyway", version="7")).status_code == 303
    # other points under the same id: the form again, with why, and nothing stored
    reused = client.post(url, data=sent(t1__meld_points="255"), headers=HTMX)
    assert reused.status_code == 409
    assert "saved before with other content" in reused.text
    assert 'value="255"' in reused.text  # the form as it was sent
    assert hands(app, game_id) == 1
    # the hand deleted: the repeat says so, and the form comes back under a new id
    version = client.get(f"{GAMES}/{game_id}").get_json()["version"]
    assert client.delete(f"{GAMES}/{game_id}/hands/1?version={version}").status_code == 200
    gone = client.post(url, data=data)
    assert gone.status_code == 410
    assert "deleted since" in gone.text
    assert f'value="{data["entry_id"]}"' not in gone.text
    fresh = re.search(r'name="entry_id" value="([^"]+)"', gone.text)
    assert fresh is not None
    assert hands(app, game_id) == 0
    # saved under the new id, it is a new hand
    again = sent(entry_id=fresh[1], version=str(version + 1))
    assert client.post(url, data=again).status_code == 303
    assert hands(app, game_id) == 1
