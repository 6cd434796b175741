"""A game page seen before is sent again after one light read of the database, and
never when something it shows has changed: a hand saved by another server process, a game
joining the evening, an undo offer running out. A view's poll while nothing changed is one read.

docs/api.md §4 (the pages); the figures are in docs/measurements.md.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper import store
from scorekeeper.edge.games import read_hand
from scorekeeper.store import cache, changes
from scorekeeper.store.db import session_scope
from tests.web.games.test_corrections import a_game_whose_hand_was_deleted
from tests.web.games.test_game_pages import (
    DETAIL_US,
    QUICK_THEM,
    create_game,
    hand_form,
    save_hand,
)

# docs/api.md §3's worked example: the detail side scores 690, the quick side 415.
TEAMS = [
    {
        "melds": [["K", "K", "K", "2"], ["7", "7", "7", "7", "7", "2", "2"]],
        "hands": [[], ["5", "Q"]],
        "red_threes": 1,
        "went_out": True,
    },
    {
        "quick": {"mixed_canastas": 1, "meld_points": 155, "hand_points": 40},
        "red_threes": 0,
    },
]


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements SQLite runs for the app while the block runs (traced on the driver's
    connections: the light reads of store.stamps bypass SQLAlchemy's statement events)."""
    seen: list[str] = []

    def record(sql: str) -> None:
        if sql.lstrip().split(None, 1)[0].upper() in {"SELECT", "INSERT", "UPDATE", "DELETE"}:
            seen.append(sql)

    def checkout(connection: sqlite3.Connection, *_: object) -> None:
        connection.set_trace_callback(record)

    def checkin(connection: sqlite3.Connection | None, *_: object) -> None:
        if connection is not None:
            connection.set_trace_callback(None)

    engine = app.extensions["scorekeeper.engine"]
    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)
    try:
        yield seen
    finally:
        event.remove(engine, "checkout", checkout)
        event.remove(engine, "checkin", checkin)


def totals(html: str) -> list[str]:
    return re.findall(r'<div class="total">([^<]*)</div>', html)


def test_a_page_seen_before_costs_one_read(app: Flask, client: FlaskClient) -> None:
    game_id = create_game(client)
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    first = client.get(f"/games/{game_id}")
    with statements(app) as seen:
        again = client.get(f"/games/{game_id}")
    assert again.status_code == 200
    assert len(seen) == 1 and seen[0].lstrip().upper().startswith("SELECT")
    token = re.compile(
        r'X-CSRFToken&#34;: &#34;[^&]+&#34;|"X-CSRFToken": "[^"]+"|name="csrf_token" value="[^"]+"'
    )
    assert token.sub("", again.text) == token.sub("", first.text)  # the token is per reader
    assert totals(again.text) == ["690", "415"]


def test_a_hand_saved_by_another_process_shows_at_once(
    app: Flask, client: FlaskClient, other_process: Flask
) -> None:
    game_id = create_game(client)
    assert totals(client.get(f"/games/{game_id}").text) == ["0", "0"]
    with other_process.app_context(), session_scope() as session:
        game = store.get_game(session, game_id)
        assert game is not None
        store.add_hand(session, game, game.version, read_hand(TEAMS))
    assert totals(client.get(f"/games/{game_id}").text) == ["690", "415"]


def test_a_game_joining_the_evening_changes_the_page(
    client: FlaskClient, other_process: Flask
) -> None:
    first = create_game(client)
    assert "Tonight" not in client.get(f"/games/{first}").text
    # "same players again" on another server process: the page learns of the new game
    again = other_process.test_client().post(f"/games/{first}/again")
    assert again.status_code == 303
    assert "Tonight: 2 games" in client.get(f"/games/{first}").text


def test_an_undo_offer_ends_on_the_page_when_its_time_is_up(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = a_game_whose_hand_was_deleted(client)
    assert "Undo" in client.get(f"/games/{game_id}").text
    later = cache.time.time() + store.UNDO_SECONDS + 1
    monkeypatch.setattr(cache.time, "time", lambda: later)
    monkeypatch.setattr(changes, "utcnow", lambda: datetime.fromtimestamp(later, UTC))
    assert "Undo" not in client.get(f"/games/{game_id}").text


def test_a_view_poll_while_nothing_changed_is_one_read(app: Flask, client: FlaskClient) -> None:
    game_id = create_game(client)
    page = client.get(f"/games/{game_id}").text
    view = re.search(r"/view/([A-Za-z0-9_-]+)", page)
    assert view
    live = client.get(f"/view/{view[1]}").text
    since = re.search(r"since=(\d+)", live)
    assert since
    poll = f"/view/{view[1]}?since={since[1]}"
    with statements(app) as seen:
        quiet = client.get(poll, headers={"HX-Request": "true"})
    assert quiet.status_code == 204 and len(seen) == 1
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    changed = client.get(poll, headers={"HX-Request": "true"})
    assert changed.status_code == 200 and totals(changed.text) == ["690", "415"]
    # a key of no game, or of a game of another kind, is never "unchanged"
    assert client.get(f"/view/{'x' * 22}?since=1", headers={"HX-Request": "true"}).status_code == (
        404
    )


def test_a_preview_reads_the_game_row_only(app: Flask, client: FlaskClient) -> None:
    game_id = create_game(client)
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    form = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    client.post(f"/games/{game_id}/preview", data=form, headers={"HX-Request": "true"})
    with statements(app) as seen:
        preview = client.post(
            f"/games/{game_id}/preview", data=form, headers={"HX-Request": "true"}
        )
    assert preview.status_code == 200 and "690" in preview.text
    # the game's row; neither its hands (the state is kept per version) nor its revisions
    assert len(seen) == 1 and "FROM games" in seen[0], seen


def kept_pages(app: Flask, game_id: str) -> list[tuple[str, ...]]:
    return [key for key in cache.kept(app).pages.weights() if key[0] == game_id]


def test_a_changed_game_replaces_its_kept_page(app: Flask, client: FlaskClient) -> None:
    """Memory: a game's page is kept once per language and address, not once per version."""
    game_id = create_game(client)
    client.get(f"/games/{game_id}")
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    page = client.get(f"/games/{game_id}")
    assert page.content_type == "text/html; charset=utf-8"
    assert totals(page.text) == ["690", "415"]
    assert len(kept_pages(app, game_id)) == 1
    client.get(f"/games/{game_id}?lang=de")  # another address (and language): its own page
    assert len(kept_pages(app, game_id)) == 2


def test_query_parameters_that_do_not_change_the_page_share_its_kept_copy(
    app: Flask, client: FlaskClient
) -> None:
    """``/games/<id>?x=<random>`` is the game page: it is sent from the kept copy and pushes
    no other page out; only ``all`` (every hand of a long game) makes a page of its own."""
    game_id = create_game(client)
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    first = client.get(f"/games/{game_id}?x=1").text
    with statements(app) as seen:
        again = client.get(f"/games/{game_id}?x=2&y=3").text
    assert len(seen) == 1  # the stamp only: sent from the kept copy
    assert totals(again) == totals(first) == ["690", "415"]
    assert "x=1" not in first and "x=2" not in again  # its links carry no stray parameter
    assert len(kept_pages(app, game_id)) == 1
    client.get(f"/games/{game_id}?all=1")
    assert len(kept_pages(app, game_id)) == 2
