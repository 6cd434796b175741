"""Both sides' parts posted through the browser's form at the same moment (docs/parts.md), each
side's phone on its own ``scorekeeper serve`` process of one database, on SQLite and on
PostgreSQL: the hand is saved exactly once, by whichever part comes second, with the score of
both parts; never both parts stored and the hand left unsaved.

Each round opens a new game, loads each side's page (its CSRF token and cookie, the form's
version and hand, as the phone has them), then releases both form posts together through a
``threading.Barrier`` once both connections are open.
"""

from __future__ import annotations

import http.client
import re
import threading
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from tests.loopback import stack
from tests.store.postgres import empty_postgres
from tests.test_concurrency import Servers, two_servers

pytestmark = pytest.mark.stack

ROUNDS = 10

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@pytest.fixture(scope="module", params=BACKENDS)
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Servers]:
    yield from two_servers(request, tmp_path_factory, "parts")


@dataclass
class Phone:
    """One side's phone: its process, cookie and the form as its page gave it."""

    port: int
    key: str
    cookie: str
    fields: dict[str, str]


def _hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found is not None, (name, html[:2000])
    return found.group(1)


def open_phone(port: int, key: str) -> Phone:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", f"/games/{key}?lang=en")
        response = connection.getresponse()
        html = response.read().decode()
        assert response.status == 200, html[:2000]
        cookie = "; ".join(
            value.split(";", 1)[0]
            for name, value in response.getheaders()
            if name.lower() == "set-cookie"
        )
    finally:
        connection.close()
    fields = {name: _hidden(html, name) for name in ("csrf_token", "version", "hand", "entry_id")}
    return Phone(port, key, cookie, fields)


def post_form(phone: Phone, side: int, values: dict[str, str], barrier: threading.Barrier) -> int:
    body = urllib.parse.urlencode(
        {**phone.fields, f"t{side}-mode": "quick", **values, "action": "save"}
    )
    connection = http.client.HTTPConnection("127.0.0.1", phone.port, timeout=60)
    connection.connect()
    try:
        barrier.wait()
        connection.request(
            "POST",
            f"/games/{phone.key}/part",
            body=body,
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": phone.cookie,
                "Origin": f"http://127.0.0.1:{phone.port}",
                "Referer": f"http://127.0.0.1:{phone.port}/games/{phone.key}",
            },
        )
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


A_PART = {"t0-natural_canastas": "1", "t0-meld_points": "200", "t0-hand_points": "0", "out": "0"}
B_PART = {"t1-mixed_canastas": "1", "t1-meld_points": "150", "t1-hand_points": "40"}


def test_both_parts_posted_by_form_at_once_save_the_hand_once(servers: Servers) -> None:
    for n in range(ROUNDS):
        status, game = servers.call(
            0,
            "POST",
            "/api/v1/games",
            {
                "ruleset": "classic",
                "players": 4,
                "sides": [
                    {"name": "Wir", "players": ["Anna", "Ben"]},
                    {"name": "Ihr", "players": ["Cleo", "Dan"]},
                ],
            },
        )
        assert status == 201, game
        keys = game["side_ids"]
        # the phones' pages, read the moment before: mostly each on its own process, every
        # third round both on one (its threads racing for its write lock)
        a = open_phone(servers.ports[n % 2], keys[0])
        b = open_phone(servers.ports[n % 2 if n % 3 == 0 else 1 - n % 2], keys[1])
        barrier = threading.Barrier(2, timeout=30)
        with ThreadPoolExecutor(2) as pool:
            one = pool.submit(post_form, a, 0, A_PART, barrier)
            two = pool.submit(post_form, b, 1, B_PART, barrier)
            answers = [one.result(), two.result()]
        assert answers == [303, 303], (n, answers)
        status, sheet = servers.call(0, "GET", f"/api/v1/games/{game['id']}")
        assert status == 200, sheet
        # saved once, with both parts: 200 + 500 + 100 out; 150 + 300 - 40 (rulebook classic)
        assert len(sheet["hands"]) == 1, (n, sheet["version"], sheet["hands"])
        assert [s["total"] for s in sheet["sides"]] == [800, 410], (n, sheet["sides"])
        status, shown = servers.call(1, "GET", f"/api/v1/games/{game['view_id']}/parts")
        assert shown["hand"] == 2 and all(p["part"] is None for p in shown["parts"]), shown


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_part_survives_a_restart_of_the_server(
    backend: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A part posted through the side's page is stored when it is answered: the server
    stopped and started again (on the same database) shows it on the side's page, ready to be
    corrected, and the other side's part then saves the hand with it."""
    folder = tmp_path_factory.mktemp(f"restart-{backend}")
    url = empty_postgres() if backend == "postgres" else f"sqlite:///{folder / 'r.sqlite3'}"
    env = {
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "restarts",
        "SCOREKEEPER_RATELIMIT_ENABLED": "false",
    }
    first = stack.start_app(folder, "before", env)
    try:
        status, game = Servers((first.port, first.port)).call(
            0,
            "POST",
            "/api/v1/games",
            {
                "ruleset": "classic",
                "players": 4,
                "sides": [
                    {"name": "Wir", "players": ["Anna", "Ben"]},
                    {"name": "Ihr", "players": ["Cleo", "Dan"]},
                ],
            },
        )
        assert status == 201, game
        a = open_phone(first.port, game["side_ids"][0])
        assert post_form(a, 0, A_PART, threading.Barrier(1)) == 303
    finally:
        first.stop()
    second = stack.start_app(folder, "after", env)
    try:
        servers = Servers((second.port, second.port))
        connection = http.client.HTTPConnection("127.0.0.1", second.port, timeout=30)
        try:
            connection.request("GET", f"/games/{game['side_ids'][0]}?lang=en")
            page = connection.getresponse().read().decode()
        finally:
            connection.close()
        assert "Your part is in" in page
        assert re.search(r'name="t0-meld_points"[^>]*value="200"', page), page[:3000]
        b = open_phone(second.port, game["side_ids"][1])
        assert post_form(b, 1, B_PART, threading.Barrier(1)) == 303
        status, sheet = servers.call(0, "GET", f"/api/v1/games/{game['id']}")
        assert len(sheet["hands"]) == 1 and [s["total"] for s in sheet["sides"]] == [800, 410]
    finally:
        second.stop()
        for process in (first, second):
            assert "Traceback" not in process.output(), process.output()
    if backend == "postgres":
        empty_postgres()
