"""A refused or lost htmx request is told where the form shows its messages, and the form stays
as it was (static/notices.js): 429 from the rate limits (with the wait), 503 from a busy
database, and no answer at all (htmx:sendError)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from tests.e2e.helpers import PHONE

SIDES = [
    {"name": "Wir", "players": ["Anna", "Ben"]},
    {"name": "Ihr", "players": ["Cleo", "Dan"]},
]


@contextmanager
def serving(tmp_path: Path, **config: Any) -> Iterator[tuple[str, Flask]]:
    """An app of its own (its own limits and counts) served from a thread on loopback."""
    app = create_app(
        {
            "SECRET_KEY": "e2e-notices",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'notices.sqlite3'}",
            "RATELIMIT_ENABLED": True,
            **config,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="notices-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", app
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        app.extensions["scorekeeper.engine"].dispose()


@contextmanager
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(5000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert errors == []


def open_ready(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("html[data-ready='1']", state="attached")


def api_game(page: Page, base: str) -> str:
    created = page.request.post(
        f"{base}/api/v1/games", data={"ruleset": "german", "players": 4, "sides": SIDES}
    )
    assert created.status == 201
    return str(created.json()["id"])


def fill_hand(page: Page) -> None:
    page.locator("label.chip", has_text="Wir").click()
    page.fill("input[name=t0-natural_canastas]", "1")
    page.fill("#t0-meld_points", "120")
    page.fill("#t1-meld_points", "60")


def test_a_rate_limited_save_says_how_long_to_wait_and_keeps_the_hand(
    tmp_path: Path, browser: Browser, shot: Callable[..., Path]
) -> None:
    with serving(tmp_path, LIMIT_WRITE="1 per minute") as (base, _app), phone(browser) as page:
        game_id = api_game(page, base)
        open_ready(page, f"{base}/games/{game_id}/hands/new?lang=de")
        fill_hand(page)
        page.get_by_role("button", name="Speichern").click()
        page.wait_for_url(re.compile(rf"/games/{game_id}(\?|$)"))

        open_ready(page, f"{base}/games/{game_id}/hands/new?lang=de")
        fill_hand(page)
        expect(page.locator("#hand-summary")).to_contain_text("+720")  # the preview still works
        # The tap on "Save" ends the typing, so a live preview leaves with the save; held back
        # here, its answer comes after the save's refusal and must not take the notice away.
        page.fill("#t1-meld_points", "65")
        page.route("**/preview", lambda route: (time.sleep(0.5), route.continue_()))
        with page.expect_response(lambda r: r.request.method == "POST" and "/hands" in r.url) as r:
            page.get_by_role("button", name="Speichern").click()
        assert r.value.status == 429
        notice = page.locator(".savebar [data-notice]")
        expect(notice).to_be_visible()
        expect(page.locator("#hand-summary")).to_contain_text("+65")  # the late preview came
        expect(notice).to_be_visible()
        expect(notice).to_have_text(
            re.compile(
                r"^Zu viele Anfragen: Warte \d+ Sekunden? und versuche es dann noch einmal\.$"
            )
        )
        assert notice.get_attribute("role") == "alert"
        # Nothing swapped in or lost: the same form, the same entry, on the same address.
        assert page.url.endswith(f"/games/{game_id}/hands/new?lang=de")
        expect(page.locator("h1")).to_contain_text("Spiel 2")
        expect(page.locator("#t0-meld_points")).to_have_value("120")
        expect(page.locator("#hand-summary")).to_contain_text("+65")
        assert page.locator("header.topbar").count() == 1  # no page inside the page
        shot(page, "notice-429-save-de")


def test_a_rate_limited_live_preview_says_so_in_polish(
    tmp_path: Path, browser: Browser, shot: Callable[..., Path]
) -> None:
    with serving(tmp_path, LIMIT_ANY="8 per minute") as (base, _app), phone(browser) as page:
        game_id = api_game(page, base)
        open_ready(page, f"{base}/games/{game_id}/hands/new?lang=pl")
        statuses = []
        for points in range(100, 300, 5):  # type until the limit answers
            with page.expect_response(lambda r: r.url.endswith("/preview")) as answer:
                page.fill("#t0-meld_points", str(points))
            statuses.append(answer.value.status)
            if statuses[-1] == 429:
                break
        assert statuses[-1] == 429 and 200 in statuses
        notice = page.locator(".savebar [data-notice]")
        expect(notice).to_have_text(
            re.compile(r"^Zbyt wiele żądań: odczekaj \d+ sekund[ya]? i spróbuj ponownie\.$")
        )
        expect(page.locator("#t0-meld_points")).to_have_value(str(points))
        expect(page.locator("#t0-meld_points")).to_be_focused()  # typing goes on undisturbed
        shot(page, "notice-429-preview-pl")


def test_no_connection_is_told_and_the_next_answer_clears_it(
    live_server: str, page: Page, shot: Callable[..., Path]
) -> None:
    game_id = api_game(page, live_server)
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=de")
    page.route("**/preview", lambda route: route.abort("internetdisconnected"))
    page.fill("#t0-meld_points", "120")
    notice = page.locator(".savebar [data-notice]")
    expect(notice).to_have_text(
        "Keine Verbindung zum Server. Es wurde nichts gesendet: "
        "Prüfe das Netz und versuche es noch einmal."
    )
    expect(page.locator("#t0-meld_points")).to_have_value("120")
    shot(page, "notice-offline-de")
    page.unroute("**/preview")
    page.fill("#t0-meld_points", "125")
    expect(page.locator("#side-t0 .side-score")).to_contain_text("125")
    expect(notice).to_be_hidden()


def test_a_busy_database_keeps_the_new_game_form(
    tmp_path: Path, browser: Browser, shot: Callable[..., Path]
) -> None:
    with serving(tmp_path, SQLITE_BUSY_TIMEOUT=1) as (base, app), phone(browser) as page:
        open_ready(page, f"{base}/games/new?lang=de&ruleset=german")
        for field, name in zip(
            ("0-0", "0-1", "1-0", "1-1"), ("Anna", "Ben", "Cleo", "Dan"), strict=True
        ):
            page.fill(f"#player-{field}", name)
        lock: threading.Lock = app.extensions["scorekeeper.write_lock"]
        assert lock.acquire(timeout=5)
        try:
            with page.expect_response(lambda r: r.request.method == "POST") as answer:
                page.get_by_role("button", name="Partie starten").click()
            assert answer.value.status == 503
            notice = page.locator("#new-game [data-notice]")
            expect(notice).to_have_text(
                "Der Spielbericht ist gerade beschäftigt. Noch wurde nichts gespeichert: "
                "Versuche es gleich noch einmal."
            )
            expect(notice).to_be_in_viewport()
            expect(page.locator("#player-1-1")).to_have_value("Dan")
            assert page.locator("header.topbar").count() == 1
            shot(page, "notice-503-new-game-de")
        finally:
            lock.release()
        page.get_by_role("button", name="Partie starten").click()  # and now it works
        page.wait_for_url(lambda url: "/games/new" not in url)
        expect(page.locator("#new-game")).to_have_count(0)  # the game page
