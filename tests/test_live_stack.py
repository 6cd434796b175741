"""Live updates through the real deployment on loopback (docs/live-updates.md): Caddy running
deploy/Caddyfile in front of two ``scorekeeper serve --behind-proxy`` processes on PostgreSQL.
A hand saved on one process reaches a phone watching through the other, through Caddy, as an
event per version; streams over a client's share are refused with 429 and ``Retry-After``
while the other phones (and their saves) carry on."""

from __future__ import annotations

import http.client
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.loopback import require, stack
from tests.store.postgres import POSTGRES_URL, empty_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.stack]

GAME = {
    "ruleset": "german",
    "players": 4,
    "sides": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
}
HAND = [
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
]
PER_CLIENT = 4


class Stack:
    def __init__(self, folder: Path) -> None:
        env = {
            "SCOREKEEPER_DATABASE_URL": POSTGRES_URL,
            "SCOREKEEPER_SECRET_KEY": "live-stack-" + "k" * 32,
            "SCOREKEEPER_RATELIMIT_ENABLED": "0",
            "SCOREKEEPER_STREAMS_PER_CLIENT": str(PER_CLIENT),
        }
        self.apps = [
            stack.start_app(folder / name, "app", env, "--behind-proxy") for name in ("a", "b")
        ]
        self.caddy = stack.start_caddy(folder / "caddy", [app.port for app in self.apps])

    def direct(self, index: int) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.apps[index].port, timeout=10)

    def stop(self) -> None:
        for process in (self.caddy, *self.apps):
            process.stop()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require("caddy")
    if not POSTGRES_URL:
        pytest.skip("PostgreSQL: SCOREKEEPER_TEST_POSTGRES_URL is not set")
    empty_postgres()
    running = Stack(tmp_path_factory.mktemp("live"))
    try:
        yield running
    finally:
        running.stop()


def _new_game(served: Stack) -> dict[str, object]:
    status, body, _ = stack.call(served.caddy, "POST", "/api/v1/games", GAME)
    assert status == 201, body
    return dict(body)


def _save_on(served: Stack, index: int, game_id: object, version: int) -> float:
    """Save a hand on app process ``index`` itself; the moment its answer came."""
    connection = served.direct(index)
    try:
        path = f"/api/v1/games/{game_id}/hands"
        status, body, _ = stack.call(connection, "POST", path, {"version": version, "teams": HAND})
    finally:
        connection.close()
    assert status == 201, body
    return time.monotonic()


def test_a_save_on_either_process_reaches_a_phone_watching_through_caddy(served: Stack) -> None:
    game = _new_game(served)
    watcher = stack.EventStream(served.caddy, f"/api/v1/games/{game['view_id']}/events")
    try:
        assert watcher.status == 200
        assert watcher.response.getheader("Content-Type", "").startswith("text/event-stream")
        # the phone watches through one of the two processes: one of these saves is made on
        # the other one, and both arrive, each within 2 s of its answer
        for index, version in ((0, 1), (1, 2)):
            answered = _save_on(served, index, game["id"], version)
            assert watcher.next(timeout=2.0) == ("change", {"version": version + 1})
            assert time.monotonic() - answered < 2.0
    finally:
        watcher.close()


def test_a_save_on_one_process_reaches_a_watcher_of_the_other(served: Stack) -> None:
    game = _new_game(served)
    watcher = stack.EventStream(served.direct(0), f"/api/v1/games/{game['id']}/events")
    try:
        assert watcher.status == 200
        answered = _save_on(served, 1, game["id"], 1)
        assert watcher.next(timeout=2.0) == ("change", {"version": 2})
        assert time.monotonic() - answered < 2.0
    finally:
        watcher.close()


def test_streams_over_a_clients_share_are_refused_and_the_others_carry_on(
    served: Stack,
) -> None:
    game = _new_game(served)
    path = f"/api/v1/games/{game['view_id']}/events"
    # one client address opens more streams than its share of both processes together
    opened = [stack.EventStream(served.caddy, path, source="127.0.0.9") for _ in range(10)]
    try:
        statuses = sorted(s.status for s in opened)
        kept = statuses.count(200)
        # each process serves the address its share (Caddy spreads them over both)
        assert PER_CLIENT <= kept <= 2 * PER_CLIENT, statuses
        refused = [s for s in opened if s.status != 200]
        assert refused and {s.status for s in refused} == {429}
        body = refused[0].response.read().decode()
        assert "stream.too_many" in body
        assert int(refused[0].response.getheader("Retry-After", "0")) >= 10
        # another phone still watches, and a save is answered at once
        other = stack.EventStream(served.caddy, path, source="127.0.0.10")
        try:
            assert other.status == 200
            started = time.monotonic()
            status, _, _ = stack.call(
                served.caddy,
                "POST",
                f"/api/v1/games/{game['id']}/hands",
                {"version": 1, "teams": HAND},
            )
            assert status == 201
            assert time.monotonic() - started < 1.0
            assert other.next(timeout=2.0) == ("change", {"version": 2})
            for stream in opened:
                if stream.status == 200:
                    assert stream.next(timeout=2.0) == ("change", {"version": 2})
        finally:
            other.close()
    finally:
        for stream in opened:
            stream.close()


def test_when_a_process_dies_its_watchers_come_back_through_the_other(tmp_path: Path) -> None:
    """A process killed under its watchers: their streams end (Caddy cannot go on with a
    response whose process is gone), and a reconnection, as the browser's EventSource makes it
    with the last event's id, is served by the other process and hears the next save. SQLite
    here: one file, two processes (the other process's save is read within 0.5 s)."""
    require("caddy")
    env = {
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'failover.sqlite3'}",
        "SCOREKEEPER_SECRET_KEY": "live-failover-" + "k" * 32,
        "SCOREKEEPER_RATELIMIT_ENABLED": "0",
    }
    apps = [stack.start_app(tmp_path / name, "app", env, "--behind-proxy") for name in "ab"]
    caddy = stack.start_caddy(tmp_path / "caddy", [app.port for app in apps])
    watchers: list[stack.EventStream] = []
    try:
        status, game, _ = stack.call(caddy, "POST", "/api/v1/games", GAME)
        assert status == 201
        path = f"/api/v1/games/{game['view_id']}/events"
        watchers = [stack.EventStream(caddy, path, source=f"127.0.2.{i}") for i in range(1, 7)]
        assert all(w.status == 200 for w in watchers)
        apps[0].popen.kill()
        apps[0].popen.wait()
        ended = 0
        for watcher in watchers:
            try:
                if watcher.next(timeout=0.5) is None:
                    ended += 1
            except (TimeoutError, OSError):
                pass  # this one is on the surviving process: still open, quiet
            except Exception:
                ended += 1  # cut off mid-stream
        assert ended >= 1  # least_conn put some on each process
        again = stack.EventStream(caddy, path, headers={"Last-Event-ID": "1"}, source="127.0.2.9")
        watchers.append(again)
        assert again.status == 200
        answered = time.monotonic()
        status, body, _ = stack.call(
            caddy, "POST", f"/api/v1/games/{game['id']}/hands", {"version": 1, "teams": HAND}
        )
        assert status == 201, body
        assert again.next(timeout=2.0) == ("change", {"version": 2})
        assert time.monotonic() - answered < 2.0
    finally:
        for watcher in watchers:
            watcher.close()
        for process in (caddy, *apps):
            process.stop()
