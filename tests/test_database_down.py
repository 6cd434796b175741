"""The database down, for real: ``scorekeeper serve`` on a PostgreSQL server of its own
(tests/store/postgres.py ``Cluster``) that is stopped and started again while the app runs.

While the database cannot be reached, a page and a save answer 503 with ``Retry-After`` and a
message in the reader's language (the API: the problem ``service.unavailable``), nothing is
stored, and the process keeps running; once the database is back, everything works again
within seconds (the pool checks its connections before use) and nothing saved before is lost.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.loopback import require, stack
from tests.store.postgres import Cluster

SIDES = [{"name": "Us", "players": ["Anna", "Ben"]}, {"name": "Them", "players": ["Cleo", "Dan"]}]
HAND = [
    {"quick": {"natural_canastas": 2, "meld_points": 400}, "went_out": True},
    {"quick": {"mixed_canastas": 1, "meld_points": 200}, "went_out": False},
]
#: how soon after the database is back every request must succeed again
BACK_WITHIN = 10.0


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    found = Cluster()
    if found.binaries is None:
        require("pg_ctl")  # skips, or fails in CI
    try:
        yield found.create()
    finally:
        found.remove()


@pytest.fixture
def served(cluster: Cluster, tmp_path: Path) -> Iterator[stack.Process]:
    env = {"SCOREKEEPER_SECRET_KEY": "database-down", "SCOREKEEPER_RATELIMIT_ENABLED": "0"}
    process = stack.start_app(tmp_path, "app", env, "--db", cluster.url)
    try:
        yield process
    finally:
        process.stop()
        if not _running(cluster):  # a test that failed with the database stopped
            cluster.start()


def _running(cluster: Cluster) -> bool:
    try:
        socket.create_connection(("127.0.0.1", cluster.port), timeout=1).close()
        return True
    except OSError:
        return False


def call(
    port: int, method: str, path: str, body: Any = None, lang: str = "en"
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Accept-Language": lang}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def test_pages_and_saves_answer_503_and_everything_works_again_once_it_is_back(
    cluster: Cluster, served: stack.Process
) -> None:
    port = served.port
    status, _, body = call(port, "POST", "/api/v1/games", {"ruleset": "german", "sides": SIDES})
    assert status == 201, body
    game = json.loads(body)
    hands = f"/api/v1/games/{game['id']}/hands"
    assert (
        call(port, "POST", hands, {"version": 1, "teams": HAND, "entry_id": "hand-one-1"})[0] == 201
    )

    cluster.stop()
    # a page, in the reader's language
    for lang, words in (("en", "cannot reach its database"), ("de", "erreicht seine Datenbank")):
        status, headers, body = call(port, "GET", f"/games/{game['id']}", lang=lang)
        assert status == 503, body[:300]
        assert headers["retry-after"] == "5" and headers["cache-control"] == "no-store"
        assert words in body.decode()
    # a save through the API: the problem, nothing stored
    status, headers, body = call(
        port, "POST", hands, {"version": 2, "teams": HAND, "entry_id": "hand-two-2"}, lang="pl"
    )
    assert status == 503 and headers["retry-after"] == "5"
    (problem,) = json.loads(body)["problems"]
    assert problem["code"] == "service.unavailable"
    assert "bazą danych" in problem["message"]
    assert call(port, "GET", "/healthz")[0] == 503
    assert served.popen.poll() is None  # the server runs on

    cluster.start()
    back = time.monotonic()
    while True:
        status, _, body = call(port, "GET", f"/api/v1/games/{game['id']}")
        if status == 200:
            break
        assert time.monotonic() - back < BACK_WITHIN, body
        time.sleep(0.2)
    # every kind of request works at once, and nothing was lost
    assert call(port, "GET", f"/games/{game['id']}")[0] == 200
    assert call(port, "GET", "/healthz")[0] == 200
    status, _, body = call(
        port, "POST", hands, {"version": 2, "teams": HAND, "entry_id": "hand-two-2"}
    )
    assert status == 201, body
    sheet = json.loads(call(port, "GET", f"/api/v1/games/{game['id']}")[2])
    assert [hand["number"] for hand in sheet["hands"]] == [1, 2]
    print(f"\nthe database back: every request answered after {time.monotonic() - back:.1f} s")
    log = served.output()
    assert "Traceback" not in log and "the database cannot be reached" in log
