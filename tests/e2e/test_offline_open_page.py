"""A game page loaded online keeps the table playing while it stays open, with or without a
service worker (docs/offline.md): Chromium on a 390×844 phone against a real
``scorekeeper serve`` on loopback, both at 127.0.0.1 (a secure context, with a service worker)
and under a LAN-like name that is not one (``table.test``, mapped to loopback by
``--host-resolver-rules``: no service worker, as on a phone at the table).

The phone enters hand 1 online, then loses the server (the browser offline, or the server
stopped while the phone is online) before hand 2 starts. Hand 2 opens in the page with the
right number, dealer and minimum, its preview from the phone's rules engine; the referee
answers in a panel of the page; the hand waits in the outbox and counts in the board, marked
waiting; back online it is saved exactly once, without a conflict with the phone's own hand 1.
No request goes to another origin.

The rules engine on the phone (``window.scorekeeperEngine``, static/engine.js) is built
apart; here it is stood in for by answers the server's own API gave for the same requests
before the phone went offline (a request the stand-in was not given answers "unknown"), so
what the page shows is what the engine answers, and nothing else.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.e2e.conftest import CHROMIUM
from tests.e2e.helpers import PHONE, wait_ready
from tests.e2e.test_offline_browser import Server, controlled, hands_of, new_game, outbox

LAN = "table.test"

#: The stand-in engine: answers looked up by the request, read the same way on both sides
#: (zeros, false and empty values left out, keys sorted).
STAND_IN = """
(() => {
  const table = %s;
  function plain(v) {
    if (Array.isArray(v)) return v.map(plain);
    if (v && typeof v === "object") {
      const out = {};
      Object.keys(v).sort().forEach((k) => {
        const x = plain(v[k]);
        if (x === 0 || x === false || x === "" || x === null ||
            (Array.isArray(x) && !x.length) ||
            (x && typeof x === "object" && !Array.isArray(x) && !Object.keys(x).length)) return;
        out[k] = x;
      });
      return out;
    }
    return v;
  }
  function answer(kind, request) {
    const key = kind + " " + JSON.stringify(plain(request));
    (window.__engineAsked = window.__engineAsked || []).push(key);
    const found = table[key];
    return Promise.resolve(found ? JSON.parse(JSON.stringify(found)) :
      { status: 422, problems: [{ code: "test.unknown", message: "unknown", where: "" }] });
  }
  window.scorekeeperEngine = {
    ready: Promise.resolve(),
    score: (request) => answer("score", request),
    referee: (kind, request) => answer(kind, request),
  };
})();
"""


def plain(value: Any) -> Any:
    """What the stand-in's ``plain`` does, in Python."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for key in sorted(value):
            x = plain(value[key])
            if x in (0, False, "", None) and not isinstance(x, (list, dict)) or x in ([], {}):
                continue
            out[key] = x
        return out
    return value


def key(kind: str, request: dict[str, Any]) -> str:
    return kind + " " + json.dumps(plain(request), separators=(",", ":"), ensure_ascii=False)


RULES = {"ruleset": "german", "players": 4}


def quick(natural: int, mixed: int, meld: int, went_out: bool) -> dict[str, Any]:
    return {
        "quick": {"natural_canastas": natural, "mixed_canastas": mixed, "meld_points": meld},
        "went_out": went_out,
    }


#: Hand 2 as the phone enters it: Us go out with 2 natural canastas and 400 melded; Them have
#: a mixed canasta and 250 melded.
HAND_2 = [quick(2, 0, 400, True), quick(0, 1, 250, False)]


def recorded(server: Server) -> dict[str, Any]:
    """The server's answers to what the phone's engine will be asked."""
    table = {}
    score = {**RULES, "teams": HAND_2}
    table[key("score", score)] = server.api("POST", "/api/v1/score", score)
    # the minimums after hand 1 (Us 1,500, Them 500) and after the waiting hand 2
    for total in (1500, 500, 3000, 1050):
        ask = {**RULES, "cumulative_score": total, "melds": []}
        table[key("initial-meld", ask)] = server.api("POST", "/api/v1/referee/initial-meld", ask)
    meld = {**RULES, "cards": "K K 2 2"}
    table[key("meld", meld)] = server.api("POST", "/api/v1/referee/meld", meld)
    return table


@pytest.fixture(scope="module")
def lan_browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[f"--host-resolver-rules=MAP {LAN} 127.0.0.1"],
    )
    yield browser
    browser.close()


@pytest.fixture
def lan_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", LAN)
    served = Server(tmp_path)
    served.start()
    yield served
    served.stop()


def fill_hand(page: Page, us_meld: int, them_meld: int) -> None:
    page.locator("#hand-form label.chip", has_text="Us").click()
    page.fill("input[name=t0-natural_canastas]", "2")
    page.fill("#t0-meld_points", str(us_meld))
    page.fill("input[name=t1-mixed_canastas]", "1")
    page.fill("#t1-meld_points", str(them_meld))


def settle(page: Page, check: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # a page reloading meanwhile
            pass
        time.sleep(0.1)
    raise AssertionError("not settled")


@pytest.mark.parametrize(
    ("host", "lost", "engine"),
    [
        ("127.0.0.1", "offline", "real"),
        ("127.0.0.1", "server-down", "real"),
        (LAN, "offline", "real"),
        (LAN, "server-down", "real"),
        (LAN, "offline", "stand-in"),
        ("127.0.0.1", "server-down", "stand-in"),
    ],
)
def test_a_hand_entered_without_the_server_is_previewed_refereed_and_saved_once(
    lan_server: Server,
    lan_browser: Browser,
    host: str,
    lost: str,
    engine: str,
    shot: Callable[..., Path],
) -> None:
    server = lan_server
    game_id = new_game(server)
    origin = f"http://{host}:{server.port}"
    game_url = f"{origin}/games/{game_id}"
    table = recorded(server)
    context = lan_browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(8000)
    if engine == "stand-in":
        context.add_init_script(STAND_IN % json.dumps(table))
    elsewhere: list[str] = []

    def watch(request: Any) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https") and f"{parts.scheme}://{parts.netloc}" != origin:
            elsewhere.append(request.url)

    context.on("request", watch)
    errors: list[str] = []
    name = f"open-{host.replace('.', '-')}-{lost}-{engine}"
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(game_url)
        wait_ready(page)
        secure = page.evaluate("() => window.isSecureContext")
        assert secure is (host == "127.0.0.1")
        if host == LAN:  # as on a phone at the table: nothing of this rests on a worker
            assert page.evaluate("() => 'serviceWorker' in navigator") is False

        # Hand 1 online, through the form as always.
        page.get_by_role("link", name="Enter hand 1").click()
        page.wait_for_url(f"{game_url}/hands/new")
        wait_ready(page)
        fill_hand(page, 400, 200)
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        wait_ready(page)
        expect(page.locator(".board .total").first).to_have_text("1,500")
        # the engine loads when the phone is idle after the page
        if engine == "real":
            expect(page.locator("html[data-engine=ready]")).to_have_count(1, timeout=60000)
        status = page.locator("#offline-status")
        expect(status).to_be_visible()
        if host == LAN:
            expect(status).to_contain_text("Offline works while this page stays open.")
        expect(status).to_contain_text("this phone scores and referees by itself")
        time.sleep(0.5)  # the form of hand 2 is fetched ahead

        # The server is gone before hand 2 starts.
        if lost == "offline":
            context.set_offline(True)
        else:
            server.stop()
        page.get_by_role("link", name="Enter hand 2").click()
        form = page.locator("[data-in-page] #hand-form")
        expect(form).to_be_visible()
        assert page.url == game_url  # opened in the page, no navigation
        heading = form.locator("h1")
        expect(heading).to_contain_text("Hand 2")
        expect(heading).to_contain_text("Cleo deals")
        expect(form.locator("#side-t0 .need b")).to_have_text("90")  # Us at 1,500
        expect(form.locator("#side-t1 .need b")).to_have_text("50")  # Them at 500
        expect(form.locator("input[name=version]")).to_have_value("2")
        expect(page.locator("[data-draft-note]")).to_be_hidden()

        fill_hand(page, 400, 250)
        summary = form.locator("#sc-t0")
        expect(summary.locator(".hand-score")).to_contain_text("+1,500")
        expect(summary.locator(".after")).to_have_text("total 3,000")
        expect(summary.locator("dl.items")).to_have_text(
            "Melded cards+400Canastas+1,000Going out+100"
        )
        expect(form.locator("#sc-t1 .hand-score")).to_contain_text("+550")
        expect(form.locator("[data-offline-note]")).to_contain_text("this phone checks and scores")
        shot(page, f"{name}-1-entry", full_page=True)
        page.get_by_role("button", name="Save").click()

        expect(page.locator("[data-in-page]")).to_have_count(0)
        expect(page.locator("#outbox .outbox-item")).to_have_count(1)
        expect(page.locator("#outbox .outbox-item b")).to_have_text("Hand 2")
        waiting = page.locator(".board .waiting-total")
        expect(waiting.first).to_have_text("+1,500 waiting → 3,000")
        expect(waiting.nth(1)).to_have_text("+550 waiting → 1,050")
        expect(page.locator(".board .minimum b").first).to_have_text("120")
        expect(page.locator(".cta a").first).to_have_text("Enter hand 3")
        kept = outbox(page)
        assert [item["version"] for item in kept] == [2]  # on top of this phone's hand 1
        shot(page, f"{name}-2-waiting", full_page=True)

        # A referee question, answered in a panel of the page.
        page.locator(".board .ask-referee").first.click()
        panel = page.locator("[data-in-page=referee]")
        expect(panel).to_be_visible()
        panel.locator("#referee-cards").fill("K K 2 2")
        expect(panel.locator(".verdict .answer")).to_have_text("Yes")
        expect(panel.locator(".verdict .why")).to_contain_text("Legal meld of kings")
        shot(page, f"{name}-3-referee")
        panel.locator("[data-close-panel]").click()
        if lost == "offline":
            assert len(hands_of(server, game_id)) == 1  # nothing sent yet

        # Back: saved once, without a conflict.
        if lost == "offline":
            context.set_offline(False)
        else:
            server.start()
            page.get_by_role("button", name="Send now").click()
        settle(page, lambda: outbox(page) == [] and len(hands_of(server, game_id)) == 2, 20)
        wait_ready(page)
        assert [h["sides"][1]["score"] for h in hands_of_full(server, game_id)] == [500, 550]
        expect(page.locator(".board .total").first).to_have_text("3,000")
        expect(page.locator(".board .waiting-total")).to_have_count(0)
        shot(page, f"{name}-4-saved")
        assert elsewhere == []
        assert errors == []
    finally:
        context.close()


def hands_of_full(server: Server, game_id: str) -> list[dict[str, Any]]:
    return list(server.api("GET", f"/api/v1/games/{game_id}")["hands"])


def test_hand_2_entered_offline_after_this_phones_own_hand_1_is_no_conflict(
    lan_server: Server, lan_browser: Browser, shot: Callable[..., Path]
) -> None:
    """Across a reload, with the service worker (127.0.0.1): the phone saves hand 1 online,
    loses the network and opens the entry page again. The page it is shown is hand 2's (number,
    dealer, minimums, the game's version after hand 1), with nothing of hand 1 brought back as
    "what you typed before"; saved back online, it is hand 2, without a conflict."""
    server = lan_server
    game_id = new_game(server)
    game_url = f"{server.url}/games/{game_id}"
    context = lan_browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(8000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(game_url)
        wait_ready(page)
        controlled(page)
        page.goto(f"{game_url}/hands/new")  # the worker keeps hand 1's form
        wait_ready(page)
        fill_hand(page, 400, 200)
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        wait_ready(page)
        expect(page.locator(".board .total").first).to_have_text("1,500")
        time.sleep(1)  # the game page has the worker keep hand 2's form

        context.set_offline(True)
        page.goto(f"{game_url}/hands/new")
        wait_ready(page)
        expect(page.locator("#offline-banner")).to_be_visible()
        form = page.locator("#hand-form")
        expect(form.locator("h1")).to_contain_text("Hand 2")
        expect(form.locator("h1")).to_contain_text("Cleo deals")
        expect(form.locator("#side-t0 .need b")).to_have_text("90")
        expect(form.locator("input[name=version]")).to_have_value("2")
        expect(page.locator("[data-draft-note]")).to_be_hidden()
        expect(page.locator("#t0-meld_points")).to_have_value("")
        shot(page, "open-sw-stale-base-entry")
        fill_hand(page, 400, 250)
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        wait_ready(page)
        assert [item["version"] for item in outbox(page)] == [2]

        context.set_offline(False)
        settle(page, lambda: outbox(page) == [] and len(hands_of(server, game_id)) == 2, 20)
        assert hands_of(server, game_id) == [500, 550]
        wait_ready(page)
        expect(page.locator("#outbox")).to_have_count(0)  # no conflict left waiting
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("choice", ["both", "mine", "theirs"])
def test_a_waiting_hand_meeting_another_phones_hand_shows_both_and_the_scorer_chooses(
    lan_server: Server, lan_browser: Browser, choice: str, shot: Callable[..., Path]
) -> None:
    """Under the LAN-like name (no service worker): the phone enters hand 2 offline while a
    second phone saves its own hand 2. Back online the server refuses the waiting hand (409):
    both are shown side by side, and nothing happens until the scorer taps one of three
    choices."""
    server = lan_server
    game_id = new_game(server)
    game_url = f"http://{LAN}:{server.port}/games/{game_id}"
    context = lan_browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(8000)
    context.add_init_script(STAND_IN % json.dumps(recorded(server)))
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        hand_1 = [quick(2, 0, 400, True), quick(0, 1, 200, False)]
        server.api("POST", f"/api/v1/games/{game_id}/hands", {"teams": hand_1, "version": 1})
        page.goto(game_url)
        wait_ready(page)
        time.sleep(0.5)  # the entry form is fetched ahead
        context.set_offline(True)
        page.get_by_role("link", name="Enter hand 2").click()
        expect(page.locator("[data-in-page] #hand-form")).to_be_visible()
        fill_hand(page, 400, 250)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#outbox .outbox-item")).to_have_count(1)

        # Meanwhile another phone saves hand 2: Them go out.
        theirs = [quick(0, 0, 120, False), quick(1, 0, 300, True)]
        server.api("POST", f"/api/v1/games/{game_id}/hands", {"teams": theirs, "version": 2})
        context.set_offline(False)
        item = page.locator("#outbox .outbox-item.conflict")
        expect(item).to_be_visible(timeout=15000)
        both = item.locator("[data-both]")
        expect(both.locator(".theirs")).to_contain_text("Hand 2: Us +120 · Them +900")
        expect(both.locator(".mine")).to_contain_text("Hand 2: Us +1,500 · Them +550")
        shot(page, f"open-conflict-{choice}", full_page=True)
        time.sleep(1)
        assert len(hands_of(server, game_id)) == 2  # nothing done before a tap
        assert len(outbox(page)) == 1

        item.locator(f"[data-choose={choice}]").click()
        want = {"both": [500, 900, 550], "mine": [500, 550], "theirs": [500, 900]}[choice]
        settle(page, lambda: outbox(page) == [] and hands_of(server, game_id) == want, 20)
        wait_ready(page)
        expect(page.locator("#outbox")).to_have_count(0)
        assert errors == []
    finally:
        context.close()


def test_with_a_service_worker_the_game_and_its_engine_are_ready_offline_across_a_reload(
    lan_server: Server, lan_browser: Browser, shot: Callable[..., Path]
) -> None:
    """On 127.0.0.1 (a secure context) the worker keeps the game page, its entry form and every
    file of the rules engine: the page says "Ready to play offline", and after a reload without
    a network the engine starts from the worker's cache and previews hand 1 in the page."""
    server = lan_server
    game_id = new_game(server)
    game_url = f"{server.url}/games/{game_id}"
    context = lan_browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(8000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(game_url)
        wait_ready(page)
        controlled(page)
        page.reload()  # now under the worker
        wait_ready(page)
        expect(page.locator("html[data-engine=ready]")).to_have_count(1, timeout=60000)
        status = page.locator("#offline-status [data-holds]")
        expect(status).to_have_text("Ready to play offline.", timeout=60000)
        shot(page, "open-sw-ready")

        context.set_offline(True)
        page.reload()
        wait_ready(page)
        expect(page.locator("#offline-banner")).to_be_visible()
        expect(page.locator("html[data-engine=ready]")).to_have_count(1, timeout=60000)
        page.get_by_role("link", name="Enter hand 1").click()
        form = page.locator("[data-in-page] #hand-form")
        expect(form).to_be_visible()
        fill_hand(page, 400, 250)
        expect(form.locator("#sc-t0 .hand-score")).to_contain_text("+1,500")
        expect(form.locator("#sc-t1 .hand-score")).to_contain_text("+550")
        shot(page, "open-sw-reloaded-entry")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#outbox .outbox-item")).to_have_count(1)
        context.set_offline(False)
        settle(page, lambda: outbox(page) == [] and hands_of(server, game_id) == [550], 20)
        assert errors == []
    finally:
        context.close()


def test_the_referee_page_answers_without_the_server(
    lan_server: Server, lan_browser: Browser, shot: Callable[..., Path]
) -> None:
    """The referee page, open under the LAN-like name (no service worker), goes offline: the
    meld check, the initial meld, the discard pile and going out are answered by the phone's
    engine, as the API answers."""
    server = lan_server
    context = lan_browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(8000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"http://{LAN}:{server.port}/referee?ruleset=german&players=4")
        wait_ready(page)
        expect(page.locator("html[data-engine=ready]")).to_have_count(1, timeout=60000)
        context.set_offline(True)
        page.fill("#meld-cards", "K K 2 2")
        answer = page.locator("#answer-meld .verdict")
        expect(answer).to_have_attribute("data-verdict", "yes")
        expect(answer).to_contain_text("Legal meld of kings: 2 natural, 2 wild, worth 120.")
        page.fill("#im-melds", "K K K")
        page.fill("#im-score", "1500")
        im = page.locator("#answer-initial-meld .verdict")
        expect(im).to_have_attribute("data-verdict", "no")
        expect(im).to_contain_text("The initial meld counts 30, but the side needs 90.")

        # May I take the pile, may I go out: as the API answers the same fields.
        base = {"ruleset": "german", "players": 4}
        page.fill("#dp-hand", "K K")
        page.fill("#dp-top", "K")
        pile = {**base, "top_card": "K", "hand": "K K", "side_melds": [], "cumulative_score": 0}
        want = server.api("POST", "/api/v1/referee/discard-pile", pile)
        dp = page.locator("#answer-discard-pile .verdict")
        expect(dp).to_have_attribute("data-verdict", "yes" if want["allowed"] else "no")
        expect(dp).to_have_attribute("data-by-phone", "")
        expect(dp.locator(".why")).to_have_text([r["message"] for r in want["reasons"]])
        page.select_option("#go-natural", "1")
        page.fill("#go-melds", "5 5 5")
        out = {
            **base,
            "side_canastas": {"natural": 1, "mixed": 0, "wild": 0},
            "melds": ["5 5 5"],
        }
        want = server.api("POST", "/api/v1/referee/go-out", out)
        go = page.locator("#answer-go-out .verdict")
        expect(go).to_have_attribute("data-verdict", "yes" if want["allowed"] else "no")
        expect(go).to_have_attribute("data-by-phone", "")
        expect(go.locator(".why")).to_have_text([r["message"] for r in want["reasons"]])
        shot(page, "open-referee-page-offline")
        assert errors == []
    finally:
        context.close()


#: "What may I do?" situations (docs/rulebook.md §3 the initial meld, §5 the discard pile,
#: §4 going out): field id -> value typed; ``melded``: the side has melded.
OPTIONS_CASES: list[dict[str, Any]] = [
    {
        "melded": False,
        "#op-hand": "K K 2 Q Q Q 5 5 5 A",
        "#op-top": "K",
        "#op-score": "1500",
        "moves": True,
    },
    {
        "melded": True,
        "#op-hand": "K 9 9 9 7 4",
        "#op-melds": "K K K / 4 4 4 2",
        "#op-top": "9",
        "#op-score": "3.000",
        "moves": True,
    },
    {"melded": True, "#op-hand": "J", "#op-melds": "J J J J J J J / 8 8 8 8 8 8 2"},
    {"melded": True, "#op-hand": "K Q Z", "problems": True},
]


def options_text(page: Page) -> str:
    return " ".join(page.locator("#answer-options").inner_text().split())


def fill_options(page: Page, case: dict[str, Any]) -> None:
    page.check(f"#q-options input[name=side_has_melded][value={'yes' if case['melded'] else 'no'}]")
    for field in ("#op-melds", "#op-top", "#op-score", "#op-hand"):
        if field != "#op-melds" or case["melded"]:  # hidden while the side has not melded
            page.fill(field, case.get(field, ""))


@pytest.mark.parametrize("locale", ["en-GB", "pl-PL", "de-DE"])
def test_the_referee_page_answers_what_may_i_do_without_the_server(
    lan_server: Server, lan_browser: Browser, shot: Callable[..., Path], locale: str
) -> None:
    """ "What may I do?" offline: the phone's engine answers, drawn as the server draws the
    same question online (the same words, moves, card chips and rule quotes with their links),
    in each of the app's languages (Polish: three plural forms)."""
    server = lan_server
    context = lan_browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True, locale=locale
    )
    context.set_default_timeout(8000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"http://{LAN}:{server.port}/referee?ruleset=german&players=4")
        wait_ready(page)
        expect(page.locator("html[data-engine=ready]")).to_have_count(1, timeout=60000)
        slot = page.locator("#answer-options")
        online: list[tuple[str, str]] = []
        for case in OPTIONS_CASES:
            fill_options(page, case)
            expect(slot.locator(".verdict:not([data-by-phone])")).to_have_count(1)
            page.wait_for_load_state("networkidle")
            online.append((options_text(page), slot.inner_html()))
            page.fill("#op-hand", "")
            expect(slot.locator(".verdict")).to_have_count(0)
        context.set_offline(True)
        for case, (text, html) in zip(OPTIONS_CASES, online, strict=True):
            fill_options(page, case)
            expect(slot.locator(".verdict[data-by-phone]")).to_have_count(1)
            assert options_text(page) == text, case
            if case.get("moves"):  # moves, each with its rule quoted and linked
                assert slot.locator(".option-move").count() >= 2
                assert slot.locator(".option-move .rule-quote").count() >= 2
                assert slot.locator(".option-move .facts .playing-card").count() >= 3
            verdict = "check-input" if case.get("problems") else "info"
            expect(slot.locator(".verdict")).to_have_attribute("data-verdict", verdict)
            links = slot.locator("a.rule-link")
            for i in range(links.count()):
                assert f'href="{links.nth(i).get_attribute("href")}"'.replace("&", "&amp;") in html
            page.fill("#op-hand", "")
        fill_options(page, OPTIONS_CASES[1])
        expect(slot.locator(".option-move").first).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", locale[:2])
        shot(page, f"open-referee-options-offline-{locale}")
        assert errors == []
    finally:
        context.close()


#: 3 ist 50 "What may I play?" situations (seed 001 "Ausspielen von Karten", its four cases):
#: field id -> value typed.
FIFTY_CASES: list[dict[str, str]] = [
    {"#f-middle": "5 9 5 K", "#f-top": "9", "#f-pile-1": "4 4 7 7", "#f-hand": "5 7 K 4"},
    {"#f-middle": "Q", "#f-pile-0": "6 8 8 8", "#f-pile-2": "J", "#f-hand": "8 J 3 X"},
    {"#f-middle": "A", "#f-top": "2", "#f-pile-0": "10", "#f-hand": "6 3 6"},
]


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_three_is_fifty_referee_answers_without_the_server(
    lan_server: Server, lan_browser: Browser, shot: Callable[..., Path], locale: str
) -> None:
    """3 ist 50's "What may I play?" offline: the phone's engine answers, drawn as the server
    draws the same question online (every hand card, its moves with the players' names, the
    cases' rules quoted)."""
    server = lan_server
    context = lan_browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True, locale=locale
    )
    context.set_default_timeout(8000)
    errors: list[str] = []
    fields = ("#f-middle", "#f-top", "#f-pile-0", "#f-pile-1", "#f-pile-2", "#f-hand")
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        url = (
            f"http://{LAN}:{server.port}/fifty/referee?players=3&name=Anna&name=Bartek&name=Celina"
        )
        page.goto(url)
        wait_ready(page)
        expect(page.locator("html[data-engine=ready]")).to_have_count(1, timeout=60000)
        page.check("#referee-form input[name=player][value='1']")
        answer = page.locator("#answer")

        def clear() -> None:
            for field in fields:
                page.fill(field, "")
            expect(answer.locator(".answer-hint")).to_have_count(1)

        def ask(case: dict[str, str]) -> str:
            clear()
            for field in fields:
                if field in case:
                    page.fill(field, case[field])
            hand = len(set(case["#f-hand"].split()))
            expect(answer.locator(".card-answer[data-card]")).to_have_count(hand)
            page.wait_for_load_state("networkidle")
            return " ".join(answer.inner_text().split())

        online = [ask(case) for case in FIFTY_CASES]
        expect(answer).not_to_have_attribute("data-by-phone", "")
        context.set_offline(True)
        for case, text in zip(FIFTY_CASES, online, strict=True):
            assert ask(case) == text, case
            expect(answer).to_have_attribute("data-by-phone", "")
            assert answer.locator(".rule-quote").count() >= 1
        expect(answer.locator(".card-answer")).to_have_count(2)  # the two sixes are one card
        shot(page, f"open-fifty-referee-offline-{locale}")
        assert errors == []
    finally:
        context.close()


#: Each frame of a page (before it is drawn): how its first total looks and what it says
#: beside it, and whether the engine runs yet.
BOARD_FRAMES = """
window.__board = [];
(function sample() {
  const total = document.querySelector(".board .total");
  if (total) {
    const line = document.querySelector(".board .waiting-total");
    window.__board.push({
      opacity: getComputedStyle(total).opacity,
      total: total.textContent.trim(),
      waiting: line ? line.textContent.trim() : null,
      engine: document.documentElement.getAttribute("data-engine"),
    });
  }
  requestAnimationFrame(sample);
})();
"""


def test_a_page_reloaded_offline_never_shows_totals_without_the_waiting_hands(
    lan_server: Server, lan_browser: Browser, shot: Callable[..., Path]
) -> None:
    """With the service worker (127.0.0.1): hand 1 waits on the phone, and the game page is
    loaded again without a network. The worker's copy of the page knows nothing of hand 1: its
    totals are drawn dimmed until static/offline.js has counted the waiting hand, which it does
    from the phone's last count before the rules engine has started. No frame shows a total
    at full strength without the waiting hand beside it."""
    server = lan_server
    game_id = new_game(server)
    game_url = f"{server.url}/games/{game_id}"
    context = lan_browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(8000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(game_url)
        wait_ready(page)
        controlled(page)
        page.reload()  # now under the worker
        wait_ready(page)
        expect(page.locator("#offline-status [data-holds]")).to_have_text(
            "Ready to play offline.", timeout=60000
        )
        context.set_offline(True)
        page.get_by_role("link", name="Enter hand 1").click()
        expect(page.locator("[data-in-page] #hand-form")).to_be_visible()
        fill_hand(page, 400, 250)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#outbox .outbox-item")).to_have_count(1)
        right = "+1,500 waiting → 1,500"
        expect(page.locator(".board .waiting-total").first).to_have_text(right)

        context.add_init_script(BOARD_FRAMES)
        page.reload()
        wait_ready(page)
        expect(page.locator("#offline-banner")).to_be_visible()
        expect(page.locator("html[data-engine=ready]")).to_have_count(1, timeout=60000)
        expect(page.locator(".board .waiting-total").first).to_have_text(right)
        shot(page, "open-sw-reloaded-waiting")
        frames = page.evaluate("window.__board")
        assert frames and frames[0]["opacity"] == "0.35"  # the first frame: not counted yet
        shown = [f for f in frames if f["opacity"] == "1"]
        assert shown, frames[-3:]
        assert all(f["waiting"] == right for f in shown), [
            f for f in shown if f["waiting"] != right
        ]
        # counted from the phone's last count, before the engine had started
        assert shown[0]["engine"] != "ready"
        assert errors == []
    finally:
        context.close()
