"""``scorekeeper serve`` holds the event streams on threads of their own (scorekeeper/serving.py,
docs/live-updates.md): with 2 threads for everything else, more streams than that stay open and
each hears of a save at once, a flood of streams beyond the bound is answered 503 at once, and
saves and pages are answered as quickly as without them."""

from __future__ import annotations

import http.client
import time
from pathlib import Path

import pytest

from tests.loopback import stack

pytestmark = [pytest.mark.stack]

GAME = {
    "ruleset": "german",
    "players": 4,
    "sides": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
}
HAND = [
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
]


def _timed(app: stack.Process, method: str, path: str, body: object = None) -> tuple[int, float]:
    connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=10)
    try:
        started = time.monotonic()
        status, _, _ = stack.call(connection, method, path, body)
        return status, time.monotonic() - started
    finally:
        connection.close()


def test_streams_take_no_thread_a_save_needs_and_a_flood_gets_503(tmp_path: Path) -> None:
    env = {
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'streams.sqlite3'}",
        "SCOREKEEPER_SECRET_KEY": "streams-" + "k" * 32,
        "SCOREKEEPER_RATELIMIT_ENABLED": "0",
    }
    app = stack.start_app(
        tmp_path, "app", env, "--threads", "2", "--streams", "6", "--streams-per-client", "20"
    )
    opened: list[stack.EventStream] = []
    try:
        connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=10)
        status, game, _ = stack.call(connection, "POST", "/api/v1/games", GAME)
        connection.close()
        assert status == 201
        path = f"/api/v1/games/{game['view_id']}/events"
        # a flood: 12 streams from one phone, twice the bound and six times --threads
        for _ in range(12):
            connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=10)
            opened.append(stack.EventStream(connection, path))
        statuses = [stream.status for stream in opened]
        assert statuses.count(200) == 6 and statuses.count(503) == 6, statuses
        busy = next(stream for stream in opened if stream.status == 503)
        assert int(busy.response.getheader("Retry-After", "0")) >= 1
        assert "stream.busy" in busy.response.read().decode()

        # meanwhile saves and pages are answered at once, on the 2 ordinary threads
        for version in (1, 2, 3):
            status, seconds = _timed(
                app, "POST", f"/api/v1/games/{game['id']}/hands",
                {"version": version, "teams": HAND},
            )  # fmt: skip
            assert status == 201 and seconds < 0.5, (status, seconds)
            status, seconds = _timed(app, "GET", f"/view/{game['view_id']}")
            assert status == 200 and seconds < 0.5, (status, seconds)
        for stream in opened:
            if stream.status == 200:
                received = [stream.next(timeout=2.0) for _ in range(3)]
                assert received == [("change", {"version": v}) for v in (2, 3, 4)]
    finally:
        for stream in opened:
            stream.close()
        app.stop()
