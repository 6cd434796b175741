"""The 3 ist 50 page and view take the Canasta page's fast path (a page seen before
is sent after one light read; a view's poll while nothing changed is one read), and still show
a change by another server process at once. docs/api.md §4."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.fifty.test_fifty_pages import entry, save, three_players, totals
from tests.web.games.test_game_pages import create_game
from tests.web.pagehelpers import HTMX
from tests.web.play.test_page_fast_path import statements


def test_a_fifty_page_seen_before_costs_one_read(
    app: Flask, client: FlaskClient, other_process: Flask
) -> None:
    game_id = three_players(client)
    assert save(client, game_id, entry(client, game_id, p0__cards="K"))[0] == 303
    first = client.get(f"/fifty/{game_id}")
    with statements(app) as seen:
        again = client.get(f"/fifty/{game_id}")
    assert again.status_code == 200 and len(seen) == 1, seen
    assert totals(again.text) == totals(first.text) == ["10", "0", "0"]
    # a game entered on another server process shows at once
    other = other_process.test_client()
    assert save(other, game_id, entry(other, game_id, p1__cards="Q Q"))[0] == 303
    assert totals(client.get(f"/fifty/{game_id}").text) == ["10", "20", "0"]


def test_a_fifty_view_poll_while_nothing_changed_is_one_read(
    app: Flask, client: FlaskClient
) -> None:
    game_id = three_players(client)
    show = client.get(f"/fifty/{game_id}").text
    view_url = re.search(r'href="http://localhost(/fifty/view/[^"]+)"', show)
    assert view_url
    version = re.search(r"since=(\d+)", client.get(view_url[1]).text)
    assert version
    poll = f"{view_url[1]}?since={version[1]}"
    with statements(app) as seen:
        assert client.get(poll, headers=HTMX).status_code == 204
    assert len(seen) == 1
    assert save(client, game_id, entry(client, game_id, p0__cards="K"))[0] == 303
    changed = client.get(poll, headers=HTMX)
    assert changed.status_code == 200 and totals(changed.text) == ["10", "0", "0"]
    # a Canasta game's view key is no 3 ist 50 view, unchanged or not (and the other way)
    canasta = client.get(f"/games/{create_game(client)}").text
    canasta_view = re.search(r"/view/([A-Za-z0-9_-]+)", canasta)
    assert canasta_view
    canasta_since = re.search(r"since=(\d+)", client.get(f"/view/{canasta_view[1]}").text)
    assert canasta_since
    wrong = f"/fifty/view/{canasta_view[1]}?since={canasta_since[1]}"
    assert client.get(wrong, headers=HTMX).status_code == 404
    now = re.search(r"since=(\d+)", changed.text)
    assert now
    fifty_key = view_url[1].rsplit("/", 1)[1]
    assert client.get(f"/view/{fifty_key}?since={now[1]}", headers=HTMX).status_code == 404
