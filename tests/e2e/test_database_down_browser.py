"""A hand saved while the database is down stays on the phone and is saved once when it is
back: Chromium on a 390×844 phone against ``scorekeeper serve`` on a PostgreSQL server of the
test's own (tests/store/postgres.py ``Cluster``), stopped while the phone enters a hand and
started again. The server answers 503 ``Retry-After`` all the while; the service worker shows
the kept pages, the outbox keeps the hand and sends it again by itself."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.e2e.conftest import wait_ready
from tests.e2e.test_offline_browser import SLOW, enter_hand, opened_with_worker, outbox
from tests.loopback import require, stack
from tests.store.postgres import Cluster

SIDES = [{"name": "Us", "players": ["Anna", "Ben"]}, {"name": "Them", "players": ["Cleo", "Dan"]}]


@pytest.fixture
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
    env = {"SCOREKEEPER_SECRET_KEY": "database-down-e2e", "SCOREKEEPER_RATELIMIT_ENABLED": "0"}
    process = stack.start_app(tmp_path, "app", env, "--db", cluster.url)
    yield process
    process.stop()


def api(port: int, method: str, path: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_a_hand_saved_while_the_database_is_down_is_saved_once_when_it_is_back(
    cluster: Cluster,
    served: stack.Process,
    context: BrowserContext,
    shot: Callable[..., Path],
) -> None:
    port = served.port
    game = api(port, "POST", "/api/v1/games", {"ruleset": "german", "sides": SIDES})
    game_url = f"http://127.0.0.1:{port}/games/{game['id']}"
    page, errors = opened_with_worker(context, game_url)
    page.goto(f"{game_url}/hands/new")  # the entry page is kept too
    page.goto(game_url)

    cluster.stop()
    page.get_by_role("link", name="Enter hand 1").click()
    # The server answers 503 (no database): the entry form opens in the page, as offline.
    form = page.locator("[data-in-page] #hand-form")
    expect(form).to_be_visible(timeout=SLOW)
    assert page.url == game_url
    enter_hand(page, 200)
    page.get_by_role("button", name="Save").click()
    # The hand waits on the phone, on the game page.
    expect(page.locator("[data-in-page]")).to_have_count(0)
    expect(page.locator("#outbox .outbox-item")).to_have_count(1)
    expect(page.locator("#outbox")).to_contain_text("Waiting to be saved (1)")
    shot(page, "database-down-01-outbox", full_page=True)
    (waiting,) = outbox(page)
    assert waiting["state"] == "waiting"
    # The outbox asks again by itself while the database is down: still waiting, nothing lost.
    page.wait_for_timeout(6000)
    assert [item["id"] for item in outbox(page)] == [waiting["id"]]

    cluster.start()
    started = time.monotonic()
    # No "online" event comes (the phone never lost its connection): the outbox sends by itself.
    deadline = started + 40
    while outbox(page) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert outbox(page) == [], "the waiting hand was not sent"
    took = time.monotonic() - started
    page.wait_for_load_state()
    wait_ready(page)
    expect(page.locator(".board .total").first).to_have_text("1,500", timeout=SLOW)
    expect(page.locator("#offline-banner")).to_be_hidden()
    shot(page, "database-down-02-saved")
    sheet = api(port, "GET", f"/api/v1/games/{game['id']}")
    assert [hand["sides"][1]["score"] for hand in sheet["hands"]] == [500]  # saved once
    print(f"\nthe waiting hand saved {took:.1f} s after the database was back")
    assert errors == []
