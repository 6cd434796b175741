"""The event streams (scorekeeper/web/live, docs/live-updates.md) through the test client: an
event per version for every change, none merged; tables and tournaments; unknown keys; the
bounds per client and in all (429/503 with ``Retry-After``, in the reader's language); a
second process on the same SQLite file, and on PostgreSQL (LISTEN/NOTIFY)."""

from __future__ import annotations

import json
import queue
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from tests.store.postgres import POSTGRES_URL, empty_postgres
from tests.web.tournaments.making import hand as tournament_hand
from tests.web.tournaments.making import make, post, start_round

GAME = {
    "ruleset": "german",
    "players": 4,
    "sides": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
}
HAND = [
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
]


class Reader:
    """A stream read on a thread of its own: its events (name, data) in a queue."""

    def __init__(self, client: FlaskClient, path: str, **kwargs: Any) -> None:
        self.response = client.get(path, buffered=False, **kwargs)
        self.events: queue.Queue[tuple[str, Any] | None] = queue.Queue()
        self.text: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        if self.response.status_code == 200:
            self.thread.start()

    def _read(self) -> None:
        try:
            for chunk in self.response.response:
                text = chunk.decode() if isinstance(chunk, bytes) else chunk
                self.text.append(text)
                name = re.search(r"^event: (\w+)$", text, re.M)
                data = re.search(r"^data: (.*)$", text, re.M)
                if name and data:
                    self.events.put((name[1], json.loads(data[1])))
        finally:
            self.events.put(None)

    def next(self, timeout: float = 2.0) -> tuple[str, Any] | None:
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        """Wait for the stream's end (it is short in these tests), then let it go."""
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        self.response.close()


@pytest.fixture
def quick(app: Flask) -> Flask:
    """Streams that end after 2 s with a heartbeat every 0.3 s."""
    app.config.update(STREAM_SECONDS=2, STREAM_HEARTBEAT=0.3)
    return app


def _game(client: FlaskClient) -> dict[str, Any]:
    made = client.post("/api/v1/games", json=GAME)
    assert made.status_code == 201
    return dict(made.get_json())


def _save(client: FlaskClient, game: dict[str, Any], version: int) -> None:
    saved = client.post(
        f"/api/v1/games/{game['id']}/hands", json={"version": version, "teams": HAND}
    )
    assert saved.status_code == 201, saved.get_json()


def test_every_change_is_an_event_of_its_own_none_merged(quick: Flask, client: FlaskClient) -> None:
    game = _game(client)
    reader = Reader(client, f"/api/v1/games/{game['view_id']}/events")
    try:
        assert reader.response.status_code == 200
        assert reader.response.mimetype == "text/event-stream"
        assert reader.response.headers["Cache-Control"] == "no-store"
        time.sleep(0.2)
        for version in (1, 2, 3):  # three saves in a row, faster than a watcher reads
            _save(client, game, version)
        assert [reader.next() for _ in range(3)] == [
            ("change", {"version": 2}),
            ("change", {"version": 3}),
            ("change", {"version": 4}),
        ]
        corrected = client.put(
            f"/api/v1/games/{game['id']}/hands/2", json={"version": 4, "teams": HAND}
        )
        assert corrected.status_code == 200
        assert reader.next() == ("change", {"version": 5})
        deleted = client.delete(f"/api/v1/games/{game['id']}/hands/3?version=5")
        assert deleted.status_code == 200
        assert reader.next() == ("change", {"version": 6})
        assert reader.next(timeout=3) is None  # it ends by itself (STREAM_SECONDS)
        text = "".join(reader.text)
        assert text.startswith("retry: ")
        assert ": keep-alive" in text  # comments keep proxies from closing it
        assert "id: 6\n" in text  # the browser's Last-Event-ID on reconnecting
    finally:
        reader.close()


def test_a_page_that_shows_an_older_version_is_told_what_came_since(
    quick: Flask, client: FlaskClient
) -> None:
    game = _game(client)
    for version in (1, 2):
        _save(client, game, version)
    reader = Reader(client, f"/api/v1/games/{game['id']}/events?since=1")
    again = Reader(client, f"/api/v1/games/{game['id']}/events", headers={"Last-Event-ID": "2"})
    current = Reader(client, f"/api/v1/games/{game['id']}/events?since=3")
    try:
        assert [reader.next(), reader.next()] == [
            ("change", {"version": 2}),
            ("change", {"version": 3}),
        ]
        assert again.next() == ("change", {"version": 3})
        assert current.next(timeout=3) is None  # nothing new: no event until it ends
    finally:
        for r in (reader, again, current):
            r.close()


def test_unknown_or_malformed_keys_are_404_in_the_readers_language(client: FlaskClient) -> None:
    for path in (
        "/api/v1/games/AAAAAAAAAAAAAAAAAAAAAA/events",
        "/api/v1/games/not*a*key/events",
        "/api/v1/tables/AAAAAAAAAAAAAAAAAAAAAA/events",
        "/api/v1/tournaments/AAAAAAAAAAAAAAAAAAAAAA/events",
    ):
        answer = client.get(path, headers={"Accept-Language": "de"})
        assert answer.status_code == 404, path
        problem = answer.get_json()["problems"][0]
        assert problem["code"].endswith(".not_found")
        english = client.get(path).get_json()["problems"][0]["message"]
        assert problem["message"] != english and problem["message"].endswith(" nicht."), path


def test_a_client_over_its_share_gets_429_and_the_server_full_503(
    quick: Flask, client: FlaskClient
) -> None:
    quick.config.update(STREAMS_PER_CLIENT=2)
    watch = quick.extensions["scorekeeper.watch"]
    watch.per_client, watch.streams = 2, 3
    game = _game(client)
    path = f"/api/v1/games/{game['view_id']}/events"
    mine = [Reader(client, path) for _ in range(2)]
    refused = client.get(path, headers={"Accept-Language": "pl"})
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 10
    problem = refused.get_json()["problems"][0]
    assert problem["code"] == "stream.too_many"
    assert "zbyt wiele" in problem["message"].lower()
    other = Reader(client, path, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    full = client.get(path, environ_base={"REMOTE_ADDR": "10.0.0.3"})
    assert full.status_code == 503
    assert int(full.headers["Retry-After"]) >= 1
    assert full.get_json()["problems"][0]["code"] == "stream.busy"
    assert watch.count == 3
    # the others still hear of a save, and once they end their places are free again
    _save(client, game, 1)
    for reader in (*mine, other):
        assert reader.next() == ("change", {"version": 2})
        assert reader.next(timeout=3) is None
    deadline = time.monotonic() + 2
    while watch.count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert watch.count == 0
    assert client.get(path, buffered=False).status_code == 200


def test_a_tables_stream_tells_of_a_hand_of_its_games(quick: Flask, client: FlaskClient) -> None:
    made = client.post(
        "/api/v1/tables", json={"name": "Friday", "players": ["Ala", "Bea", "Cem", "Dan"]}
    )
    assert made.status_code == 201, made.get_json()
    table = made.get_json()
    game = _game_at(client, table["id"])
    reader = Reader(client, f"/api/v1/tables/{table['view_id']}/events")
    try:
        time.sleep(0.2)
        _save(client, game, 1)
        event = reader.next()
        assert event is not None and event[0] == "change" and len(event[1]["stamp"]) == 16
    finally:
        reader.close()


def _game_at(client: FlaskClient, table_id: str) -> dict[str, Any]:
    body = {
        **GAME,
        "sides": [
            {"name": "1", "players": ["Ala", "Cem"]},
            {"name": "2", "players": ["Bea", "Dan"]},
        ],
        "table": table_id,
    }
    made = client.post("/api/v1/games", json=body)
    assert made.status_code == 201, made.get_json()
    return dict(made.get_json())


def test_a_tournaments_stream_tells_of_hands_and_a_closed_round(
    quick: Flask, client: FlaskClient
) -> None:
    key = make(client)
    first, _second = start_round(client, key, 1)
    page = client.get(f"/tournaments/{key}").text
    found = re.search(r"/tournaments/view/([A-Za-z0-9_-]+)", page)
    assert found
    reader = Reader(client, f"/api/v1/tournaments/{found[1]}/events")
    try:
        time.sleep(0.2)
        added = client.post(
            f"/api/v1/games/{first}/hands", json={"version": 1, "teams": tournament_hand(0)}
        )
        assert added.status_code == 201, added.get_json()
        first_event = reader.next()
        assert first_event is not None and first_event[0] == "change"
        assert post(client, f"/tournaments/{key}/rounds/1/close").status_code == 303
        closed = reader.next()
        assert closed is not None and closed[0] == "change" and closed != first_event
    finally:
        reader.close()


def test_a_save_of_another_process_on_the_same_sqlite_file_arrives(
    quick: Flask, client: FlaskClient, other_process: Flask
) -> None:
    game = _game(client)
    reader = Reader(client, f"/api/v1/games/{game['id']}/events")
    try:
        time.sleep(0.2)
        _save(other_process.test_client(), game, 1)  # its commit does not wake this process
        started = time.monotonic()
        assert reader.next() == ("change", {"version": 2})
        assert time.monotonic() - started < 1.5  # the watch reads twice a second
    finally:
        reader.close()


@pytest.fixture
def postgres_pair() -> Iterator[tuple[Flask, Flask]]:
    if not POSTGRES_URL:
        pytest.skip("PostgreSQL: SCOREKEEPER_TEST_POSTGRES_URL is not set")
    empty_postgres()
    config = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "DATABASE_URL": POSTGRES_URL,
        "WTF_CSRF_ENABLED": False,
        "STREAM_SECONDS": 3,
        "STREAM_HEARTBEAT": 0.5,
    }
    apps = (create_app(config), create_app(config))
    yield apps
    for made in apps:
        made.extensions["scorekeeper.watch"].stop()
        made.extensions["scorekeeper.engine"].dispose()


@pytest.mark.postgres
def test_on_postgresql_another_processs_save_arrives_by_notify(
    postgres_pair: tuple[Flask, Flask],
) -> None:
    watching, saving = postgres_pair
    client = watching.test_client()
    game = _game(client)
    reader = Reader(client, f"/api/v1/games/{game['id']}/events")
    try:
        watch = watching.extensions["scorekeeper.watch"]
        deadline = time.monotonic() + 5
        while not watch._listening and time.monotonic() < deadline:
            time.sleep(0.05)
        assert watch._listening  # LISTEN: then it reads only every 5 s unless notified
        time.sleep(0.3)
        started = time.monotonic()
        _save(saving.test_client(), game, 1)
        assert reader.next() == ("change", {"version": 2})
        assert time.monotonic() - started < 1.0  # well before the 5 s safety read
    finally:
        reader.close()


def test_a_game_deleted_with_its_table_ends_its_stream_with_gone(
    quick: Flask, client: FlaskClient
) -> None:
    made = client.post(
        "/api/v1/tables", json={"name": "Friday", "players": ["Ala", "Bea", "Cem", "Dan"]}
    )
    table = made.get_json()
    game = _game_at(client, table["id"])
    game_stream = Reader(client, f"/api/v1/games/{game['view_id']}/events")
    table_stream = Reader(client, f"/api/v1/tables/{table['id']}/events")
    try:
        time.sleep(0.2)
        assert client.delete(f"/api/v1/tables/{table['id']}").status_code in (200, 204)
        assert game_stream.next() == ("gone", {})
        assert game_stream.next() is None  # and it ends at once
        assert table_stream.next() == ("gone", {})
    finally:
        game_stream.close()
        table_stream.close()


@pytest.mark.postgres
def test_on_postgresql_a_lost_listening_connection_is_made_again(
    postgres_pair: tuple[Flask, Flask],
) -> None:
    """The database ends the listening connection (a restart, an administrator): the watch
    polls meanwhile, listens again, and no save goes unheard."""
    watching, saving = postgres_pair
    client = watching.test_client()
    game = _game(client)
    watch = watching.extensions["scorekeeper.watch"]
    reader = Reader(client, f"/api/v1/games/{game['id']}/events")
    admin = create_engine(POSTGRES_URL)
    try:
        deadline = time.monotonic() + 5
        while not watch._listening and time.monotonic() < deadline:
            time.sleep(0.05)
        assert watch._listening
        with admin.begin() as connection:
            ended = connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE query LIKE 'LISTEN scorekeeper_changes%' AND pid <> pg_backend_pid()"
                )
            ).all()
        assert ended  # both apps' listeners
        started = time.monotonic()
        _save(saving.test_client(), game, 1)
        assert reader.next() == ("change", {"version": 2})
        assert time.monotonic() - started < 2.0
        deadline = time.monotonic() + 5
        while not watch._listening and time.monotonic() < deadline:
            time.sleep(0.05)
        assert watch._listening  # listening again
    finally:
        reader.close()
        admin.dispose()
