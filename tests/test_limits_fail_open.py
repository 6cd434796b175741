"""The rate limits are a guard, not a dependency. ``scorekeeper serve`` counts
in a real ``redis-server`` on loopback; the Redis process is then hung (SIGSTOP) and later
stopped outright, mid-test. Every request is answered normally within 1 s meanwhile, the log
says so in one line per outage, and the limits count in Redis again once it is back.
Before the fix every request answered 500 (after 5 s each while Redis hung)."""

from __future__ import annotations

import http.client
import json
import signal
import time
from pathlib import Path

import pytest

from tests.loopback import require, stack

pytestmark = pytest.mark.stack

GAME = {
    "ruleset": "german",
    "players": 4,
    "sides": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
}
HAND = [
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
]
DOWN = "Rate limit storage unreachable"
BACK = "Rate limit storage recovered"


def ask(port: int, method: str, path: str, body: object | None = None) -> tuple[int, float]:
    """(status, seconds) of one request from 127.0.0.2."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=("127.0.0.2", 0)
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data else {}
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    finally:
        connection.close()


def answered_normally(port: int, source: str) -> list[float]:
    """A page, a new game and a saved hand from ``source``: each answered as usual; their
    durations."""
    took = []
    status, seconds = ask(port, "GET", "/")
    assert status == 200
    took.append(seconds)
    started = time.monotonic()
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(source, 0)
    )
    try:
        connection.request(
            "POST", "/api/v1/games", json.dumps(GAME), {"Content-Type": "application/json"}
        )
        game = json.loads(connection.getresponse().read())
        took.append(time.monotonic() - started)
        started = time.monotonic()
        connection.request(
            "POST",
            f"/api/v1/games/{game['id']}/hands",
            json.dumps({"version": game["version"], "teams": HAND}),
            {"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        response.read()
        assert response.status == 201
        took.append(time.monotonic() - started)
    finally:
        connection.close()
    return took


def wait_for_log(server: stack.Process, text: str, count: int, port: int) -> None:
    """Requests (which make Flask-Limiter look at its store again, after 1, 2, 4 … s) until
    ``text`` is in the log ``count`` times; 45 s at most."""
    deadline = time.monotonic() + 45
    while server.output().count(text) < count:
        assert time.monotonic() < deadline, server.output()
        assert ask(port, "GET", "/referee")[0] == 200
        time.sleep(0.25)


def test_requests_are_answered_within_a_second_while_redis_hangs_or_is_gone(
    tmp_path: Path,
) -> None:
    require("redis-server")
    redis = stack.start_redis(tmp_path / "redis")
    env = {
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'limits.sqlite3'}",
        "SCOREKEEPER_SECRET_KEY": "fail-open",
        "SCOREKEEPER_RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{redis.port}/0",
        "SCOREKEEPER_LIMIT_CREATE": "3 per minute",
    }
    server = stack.start_app(tmp_path / "app", "app", env)
    port = server.port
    try:
        # limits counted in Redis: the fourth game of 127.0.0.2 in a minute is refused
        assert [ask(port, "POST", "/api/v1/games", GAME)[0] for _ in range(4)] == [
            201,
            201,
            201,
            429,
        ]

        # 1. Redis hangs: the process is stopped, its socket still accepts connections
        redis.popen.send_signal(signal.SIGSTOP)
        took = [s for _ in range(3) for s in answered_normally(port, "127.0.0.5")]
        print(f"Redis hung: slowest of {len(took)} answers {max(took):.3f} s")
        assert max(took) < 1.0, took
        assert server.output().count(DOWN) == 1, server.output()
        redis.popen.send_signal(signal.SIGCONT)
        wait_for_log(server, BACK, 1, port)
        # the counts are Redis's again: 127.0.0.2 is still over its limit
        assert ask(port, "POST", "/api/v1/games", GAME)[0] == 429

        # 2. Redis is gone: connections are refused
        redis.stop()
        took = [s for _ in range(3) for s in answered_normally(port, "127.0.0.6")]
        print(f"Redis gone: slowest of {len(took)} answers {max(took):.3f} s")
        assert max(took) < 1.0, took
        assert server.output().count(DOWN) == 2, server.output()
        redis = stack.start_redis(tmp_path / "redis", port=redis.port)  # back, empty
        wait_for_log(server, BACK, 2, port)
        assert [ask(port, "POST", "/api/v1/games", GAME)[0] for _ in range(4)] == [
            201,
            201,
            201,
            429,
        ]
        log = server.output()
        print(log)
        assert "Traceback" not in log and " 500 " not in log, log
    finally:
        server.stop()
        redis.stop()
