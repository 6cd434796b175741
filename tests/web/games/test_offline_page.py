"""What a Canasta page hands to the phone for playing on without the server (docs/offline.md,
static/offline.js): the game as the page shows it, read from the page's ``data-game``, and the
addresses of the rules engine's files for the service worker to keep."""

from __future__ import annotations

import json
import re
from html import unescape

from flask.testing import FlaskClient

from tests.web.games.test_game_pages import create_game, hand_form, save_hand


def described(html: str) -> dict:
    found = re.search(r'data-game="([^"]*)"', html)
    assert found, "the page describes no game"
    return dict(json.loads(unescape(found[1])))


def test_the_game_page_and_its_entry_form_describe_the_next_hand(client: FlaskClient) -> None:
    game_id = create_game(client)
    data = hand_form(client, game_id)
    data["out"] = "0"
    data["t0-natural_canastas"] = "2"
    data["t0-meld_points"] = "400"
    data["t1-mixed_canastas"] = "1"
    data["t1-meld_points"] = "200"
    save_hand(client, game_id, data)

    page = described(client.get(f"/games/{game_id}").text)
    form = described(client.get(f"/games/{game_id}/hands/new").text)
    assert page == form  # the page and the form it fetches ahead agree
    sheet = client.get(f"/api/v1/games/{game_id}").get_json()
    assert page["version"] == sheet["version"] == 2
    assert page["next_hand"] == 2
    assert page["page"] == f"/games/{game_id}"
    assert page["form"] == f"/games/{game_id}/hands/new"
    # who deals: the next dealer first, then the table's order of dealing
    assert page["dealers"][0] == sheet["next_dealer"]["name"]
    assert page["dealers"] == [
        sheet["seats"][(sheet["next_dealer"]["seat"] + k) % 4]["name"] for k in range(4)
    ]
    assert [c["total"] for c in page["columns"]] == [s["total"] for s in sheet["sides"]]
    assert [c["minimum"] for c in page["columns"]] == [s["minimum_meld"] for s in sheet["sides"]]
    assert page["sides"] == [[0], [1]]
    assert page["request"] == {"ruleset": "german", "players": 4}
    words = page["words"]
    assert words["total"] == "total {total}"
    assert set(words["order"]) <= set(words["items"])


def test_the_description_is_in_the_readers_language_and_escaped(client: FlaskClient) -> None:
    game_id = create_game(client, **{"side-0": 'Us "<b>"'})
    html = client.get(f"/games/{game_id}", headers={"Accept-Language": "de"}).text
    assert '"<b>"' not in html.split("data-game=", 1)[1].split(">", 1)[0]
    page = described(html)
    assert page["columns"][0]["name"] == 'Us "<b>"'
    words = page["words"]
    assert "{total}" in words["total"] and words["total"] != "total {total}"  # German
    assert words["this_hand"] != "This hand"
    assert words["items"]["going_out"] != "Going out"


def test_every_engine_file_the_page_names_is_served(client: FlaskClient) -> None:
    game_id = create_game(client)
    html = client.get(f"/games/{game_id}").text
    found = re.search(r'data-engine-files="([^"]*)"', html)
    assert found
    files = json.loads(unescape(found[1]))
    assert any(url.startswith("/engine/pyodide/") for url in files)
    assert any(url.endswith("/scorekeeper.zip") for url in files)
    assert any(url.startswith("/engine/worker.js") for url in files)
    for url in files:
        assert client.get(url).status_code == 200, url
