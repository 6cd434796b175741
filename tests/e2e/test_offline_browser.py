"""When the network drops, the table plays on: Chromium on a 390×844 phone against a real
``scorekeeper serve`` on loopback that is stopped and started again (same port, same
database). The service worker shows the pages the phone opened, with the offline banner;
hands saved offline wait in the outbox (localStorage), survive a reload and a closed tab, and
are saved once each, in order, when the server answers again; an answer lost after the commit
makes no second hand; a conflict with a second phone ends in the 409 view."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import wait_ready
from tests.e2e.helpers import PHONE
from tests.test_serve import SCOREKEEPER, free_port

#: A navigation offline waits for the worker, which a busy machine may have to start first.
SLOW = 15000


class Server:
    """``scorekeeper serve`` on one loopback port; stopped and started again on the same one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "SCOREKEEPER_DATABASE_URL": f"sqlite:///{self.folder / 'offline.sqlite3'}",
            "SCOREKEEPER_SECRET_KEY": "offline-test",
        }
        with (self.folder / "server.log").open("ab") as log:
            self.process = subprocess.Popen(
                [str(SCOREKEEPER), "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=self.folder,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1):
                    return
            except OSError:
                assert self.process.poll() is None, (self.folder / "server.log").read_text()
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    served = Server(tmp_path)
    served.start()
    yield served
    served.stop()


def new_game(server: Server) -> str:
    body = {
        "ruleset": "german",
        "players": 4,
        "sides": [
            {"name": "Us", "players": ["Anna", "Ben"]},
            {"name": "Them", "players": ["Cleo", "Dan"]},
        ],
    }
    return str(server.api("POST", "/api/v1/games", body)["id"])


def controlled(page: Page) -> None:
    """Wait (bounded) until the service worker controls the page and has kept the shell. An
    install that failed (a shell file not fetched on a busy machine) is tried again at the next
    page load, as a phone does: the page is loaded again after 10 s without a worker."""
    for _ in range(3):
        for _ in range(100):
            if page.evaluate("() => !!navigator.serviceWorker.controller"):
                return
            time.sleep(0.1)
        page.reload()
    raise AssertionError("no service worker took control")


def opened_with_worker(context: BrowserContext, url: str) -> tuple[Page, list[str]]:
    """A new page at ``url``, its scripts run and the service worker in control; the list
    collects the page's uncaught JavaScript errors."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    wait_ready(page)
    controlled(page)
    return page, errors


def enter_hand(page: Page, them_meld: int) -> None:
    """A quick hand: Us go out with 2 natural canastas and 400 melded (1,500); Them have a mixed
    canasta and ``them_meld`` melded."""
    page.locator("label.chip", has_text="Us").click()
    page.fill("input[name=t0-natural_canastas]", "2")
    page.fill("#t0-meld_points", "400")
    page.fill("input[name=t1-mixed_canastas]", "1")
    page.fill("#t1-meld_points", str(them_meld))


def hands_of(server: Server, game_id: str) -> list[int]:
    """Them's score of every stored hand, in order."""
    sheet = server.api("GET", f"/api/v1/games/{game_id}")
    return [hand["sides"][1]["score"] for hand in sheet["hands"]]


def outbox(page: Page) -> list[dict[str, Any]]:
    """The hands waiting in the page's outbox. The outbox reloads the page once it has sent
    them (to show them saved): a read that meets that reload waits for the new page."""
    for _ in range(20):
        try:
            return list(
                page.evaluate(
                    "() => JSON.parse(localStorage.getItem('scorekeeper-outbox') || '[]')"
                )
            )
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
    raise AssertionError("the page kept reloading")


def test_three_hands_entered_offline_are_saved_once_each_in_order(
    server: Server, context: BrowserContext, shot: Callable[..., Path]
) -> None:
    game_id = new_game(server)
    game_url = f"{server.url}/games/{game_id}"
    page, errors = opened_with_worker(context, game_url)
    # The phone opens the game and its entry page once while online: both are kept.
    page.goto(f"{game_url}/hands/new")
    wait_ready(page)
    page.goto(game_url)
    wait_ready(page)
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()

    context.set_offline(True)
    page.reload()
    wait_ready(page)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Offline — showing the state of")
    expect(page.locator(".board .total").first).to_have_text("0")

    entered = [200, 205, 210]
    for n, meld in enumerate(entered, start=1):
        # the form kept by the worker opens in the page (static/offline.js), for hand n
        page.get_by_role("link", name=f"Enter hand {n}").click()
        expect(page.locator("[data-in-page] #hand-form")).to_be_visible()
        assert page.url == game_url
        expect(page.locator("[data-offline-note]")).to_be_visible()
        enter_hand(page, meld)
        if n == 1:
            shot(page, "offline-01-entry")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("[data-in-page]")).to_have_count(0)
        expect(page.locator("#outbox .outbox-item")).to_have_count(n)
    expect(page.locator("#outbox")).to_contain_text("Waiting to be saved (3)")
    expect(page.locator("#outbox .outbox-item").first).to_contain_text("Them: mixed 1")
    expect(page.locator("#outbox .outbox-item b")).to_have_text(["Hand 1", "Hand 2", "Hand 3"])
    shot(page, "offline-02-outbox", full_page=True)
    kept = outbox(page)
    assert [item["version"] for item in kept] == [1, 2, 3]  # each builds on the one before
    assert len({item["id"] for item in kept}) == 3
    assert hands_of(server, game_id) == []

    # A reload and a closed tab keep them.
    page.reload()
    wait_ready(page)
    expect(page.locator("#outbox .outbox-item")).to_have_count(3)
    page.close()
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(game_url)
    wait_ready(page)
    expect(page.locator("#outbox .outbox-item")).to_have_count(3)

    # The connection is back but the server is down (the laptop asleep): nothing is lost.
    server.stop()
    context.set_offline(False)
    page.reload()
    wait_ready(page)
    expect(page.locator("#offline-banner")).to_be_visible()
    page.get_by_role("button", name="Send now").click()
    expect(page.locator("#outbox")).to_contain_text("No connection yet")
    expect(page.locator("#outbox .outbox-item")).to_have_count(3)

    # The server is back: "Send now" saves them, once each and in order.
    server.start()
    page.get_by_role("button", name="Send now").click()
    expect(page.locator(".board .total").first).to_have_text("4,500")
    wait_ready(page)
    expect(page.locator("#outbox")).to_have_count(0)
    expect(page.locator("#offline-banner")).to_be_hidden()
    shot(page, "offline-03-saved")
    saved = hands_of(server, game_id)
    # Them: 300 for the mixed canasta plus what they melded.
    assert saved == [300 + meld for meld in entered]
    assert outbox(page) == []
    print(f"\nhands entered offline: 3, saved: {len(saved)}, duplicates: {len(saved) - 3}")
    assert errors == []


def test_a_resend_after_a_lost_answer_makes_no_second_hand(
    server: Server, browser: Browser, shot: Callable[..., Path]
) -> None:
    """The server commits the hand, the answer never reaches the phone (the connection
    drops): the phone keeps the entry and sends it again; the game has one hand."""
    # Without the worker here: Playwright's routes see the page's own requests only.
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block"
    )
    context.set_default_timeout(5000)
    try:
        page = context.new_page()
        game_id = new_game(server)
        game_url = f"{server.url}/games/{game_id}"
        posts: list[str] = []

        def lose_the_answer(route: Route) -> None:
            if route.request.method != "POST":
                route.continue_()
                return
            posts.append(route.request.post_data or "")
            route.fetch()  # the server commits the hand …
            route.abort("connectionreset")  # … and the answer is lost

        page.route(f"{game_url}/hands", lose_the_answer)
        page.goto(f"{game_url}/hands/new")
        wait_ready(page)
        enter_hand(page, 200)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("[data-offline-note]")).to_contain_text("Kept on this phone")
        assert hands_of(server, game_id) == [500]  # it was saved …
        assert len(outbox(page)) == 1  # … but the phone cannot know
        shot(page, "offline-04-lost-answer")
        page.unroute(f"{game_url}/hands")
        sent_again: list[str] = []
        page.on(
            "request",
            lambda r: (
                sent_again.append(r.post_data or "")
                if r.method == "POST" and r.url == f"{game_url}/hands"
                else None
            ),
        )
        page.goto(game_url)  # any page load sends the outbox
        wait_ready(page)
        expect(page.locator(".board .total").first).to_have_text("1,500")
        for _ in range(50):
            if not outbox(page):
                break
            time.sleep(0.1)
        assert outbox(page) == []
        assert len(sent_again) == 1
        entry_id = [p for p in posts[0].split("&") if p.startswith("entry_id=")]
        assert entry_id and entry_id[0] in sent_again[0].split("&")
        assert hands_of(server, game_id) == [500]  # sent twice, stored once
        print("\nhand sent twice after a lost answer: stored 1, duplicates 0")
    finally:
        context.close()


def test_a_queued_hand_meeting_another_phones_hand_ends_in_the_409_view(
    server: Server, browser: Browser, context: BrowserContext, shot: Callable[..., Path]
) -> None:
    game_id = new_game(server)
    game_url = f"{server.url}/games/{game_id}"
    page = context.new_page()
    page.goto(game_url)  # the first page: kept once the worker runs
    wait_ready(page)
    controlled(page)
    page.goto(f"{game_url}/hands/new")
    wait_ready(page)

    context.set_offline(True)
    enter_hand(page, 200)
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(game_url)
    wait_ready(page)
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator(".board")).to_be_visible()  # the game as last seen, not "never opened"
    expect(page.locator("#outbox .outbox-item")).to_have_count(1)

    # Meanwhile a second phone saves hand 1.
    other = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        phone_b = other.new_page()
        phone_b.goto(f"{game_url}/hands/new")
        wait_ready(phone_b)
        phone_b.locator("label.chip", has_text="Them").click()
        phone_b.fill("input[name=t1-natural_canastas]", "1")
        phone_b.fill("#t1-meld_points", "150")
        phone_b.fill("#t0-meld_points", "60")  # both sides entered: no "save anyway?" question
        phone_b.get_by_role("button", name="Save").click()
        phone_b.wait_for_url(game_url)
    finally:
        other.close()
    assert len(hands_of(server, game_id)) == 1

    context.set_offline(False)  # "online": the outbox sends, the server refuses (409)
    item = page.locator("#outbox .outbox-item.conflict")
    expect(item).to_contain_text("Someone else changed this game meanwhile")
    wait_ready(page)  # the page shown from the phone's copy was fetched anew
    expect(page.locator("#offline-banner")).to_be_hidden()
    expect(page.locator(".board .total").nth(1)).to_have_text("750")
    shot(page, "offline-05-conflict-outbox")
    assert len(hands_of(server, game_id)) == 1

    page.get_by_role("button", name="Open the entry").click()
    wait_ready(page)
    expect(page.locator("#hand-form")).to_contain_text("Someone else changed this game")
    expect(page.locator("#t1-meld_points")).to_have_value("200")  # the entry is kept
    shot(page, "offline-06-409-view")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(game_url)
    wait_ready(page)
    for _ in range(50):
        if not outbox(page):
            break
        time.sleep(0.1)
    assert outbox(page) == []  # sent again by the outbox: recognised, not stored twice
    assert len(hands_of(server, game_id)) == 2


def test_a_page_never_opened_says_so_in_the_readers_language(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.set_default_timeout(5000)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        wait_ready(page)
        controlled(page)
        context.set_offline(True)
        page.goto(f"{server.url}/games/never-seen-here")
        wait_ready(page)
        expect(page.locator("[data-offline-page]")).to_contain_text("nie geöffnet")
        expect(page.locator("#offline-banner")).to_contain_text("Offline")
        # The rules page of the menu was kept when the worker came, before it was ever opened.
        page.get_by_role("link", name="Regeln").click()
        page.wait_for_url(re.compile(r"/rules/"), timeout=SLOW)
        wait_ready(page)
        expect(page.locator("[data-offline-page]")).to_have_count(0)
        expect(page.locator("main h1")).to_be_visible()
        expect(page.locator("#offline-banner")).to_be_visible()
    finally:
        context.close()


def test_a_game_of_three_is_fifty_entered_offline_in_german(
    live_server: str, page: Page, context: BrowserContext, shot: Callable[..., Path]
) -> None:
    """The same outbox on the 3 ist 50 pages, in the reader's language."""
    page.goto(f"{live_server}/fifty/new?lang=de")
    page.get_by_role("button", name="Partie starten").click()
    page.wait_for_url(re.compile(r"/fifty/[A-Za-z0-9_-]{22}$"))
    game_url = page.url
    controlled(page)
    page.get_by_role("link", name="Spiel 1 eintragen").click()
    page.wait_for_url(f"{game_url}/games/new")
    page.goto(game_url)

    context.set_offline(True)
    page.get_by_role("link", name="Spiel 1 eintragen").click()
    page.wait_for_url(f"{game_url}/games/new")
    expect(page.locator("[data-offline-note]")).to_contain_text("Keine Verbindung")
    for player, points in (("p0", "20"), ("p1", "12")):
        page.locator(f"#player-{player} .seg label", has_text="Gesamt").click()
        page.fill(f"#{player}-points", points)
    page.get_by_role("button", name="Speichern").click()
    page.wait_for_url(game_url)
    expect(page.locator("#offline-banner")).to_contain_text("Offline — Stand von")
    expect(page.locator("#outbox")).to_contain_text("Wartet aufs Speichern (1)")
    expect(page.locator("#outbox .outbox-item b")).to_have_text(["Spiel 1"])
    shot(page, "offline-07-fifty-de", full_page=True)

    context.set_offline(False)  # "online": sent, and the page shows the game as it is now
    expect(page.locator("#offline-banner")).to_be_hidden()
    expect(page.locator("#outbox")).to_have_count(0)
    assert outbox(page) == []
    expect(page.get_by_role("link", name="Spiel 2 eintragen")).to_be_visible()


def test_a_form_that_leaves_the_page_keeps_the_reader_on_it_without_a_connection(
    server: Server, context: BrowserContext, shot: Callable[..., Path]
) -> None:
    """Deleting a hand is a form that leaves the page (not htmx, not the outbox). Offline it
    used to open the browser's "No internet" page. Now: offline, the page stays as it is with
    the sentence that nothing was sent; with the server down (the phone online), the service
    worker brings the reader back to the kept game page with the same sentence. Once the
    server answers, the same tap deletes the hand."""
    game_id = new_game(server)
    game_url = f"{server.url}/games/{game_id}"
    version = 1
    for meld in (200, 205):
        ours = {"natural_canastas": 2, "meld_points": 400, "melded": True}
        theirs = {"mixed_canastas": 1, "meld_points": meld, "melded": True}
        teams = [{"quick": ours, "went_out": True}, {"quick": theirs}]
        version = server.api(
            "POST", f"/api/v1/games/{game_id}/hands", {"version": version, "teams": teams}
        )["version"]
    page, errors = opened_with_worker(context, game_url)
    page.reload()  # kept by the worker, as the phone opened it
    wait_ready(page)
    notice = page.locator("main [data-notice]")
    delete = page.get_by_role("button", name="Delete hand 2")

    context.set_offline(True)
    page.locator("#hand-2 > summary").click()
    delete.click()
    expect(notice).to_contain_text("No connection to the server. Nothing was sent")
    assert page.url == game_url
    expect(page.locator("details.hand")).to_have_count(2)
    shot(page, "offline-delete-offline")

    context.set_offline(False)
    server.stop()
    delete.click()
    page.wait_for_url(game_url, timeout=SLOW)  # back on the game page, the marker gone
    wait_ready(page)
    expect(notice).to_contain_text("No connection to the server. Nothing was sent")
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("details.hand")).to_have_count(2)
    shot(page, "offline-delete-server-down")

    server.start()
    assert len(hands_of(server, game_id)) == 2  # nothing was sent
    page.locator("#hand-2 > summary").click()
    page.get_by_role("button", name="Delete hand 2").click()
    expect(page.locator("form.undo")).to_contain_text("Hand 2 deleted.")
    assert len(hands_of(server, game_id)) == 1
    assert errors == []
