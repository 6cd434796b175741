"""``window.scorekeeperEngine`` on the pages (docs/engine.md): it never holds up the page, it
waits for a tap on a slow or data-saving link (its size known), and it works on the pages of
play."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page, Request

READY = "html[data-engine='ready']"
LOAD_TIMEOUT = 90_000

SLOW_LINK = """Object.defineProperty(Navigator.prototype, "connection", {
  configurable: true, get() { return {saveData: false, effectiveType: "3g"}; }
});"""


def engine_requests(page: Page) -> list[str]:
    seen: list[str] = []

    def note(request: Request) -> None:
        if "/engine/" in request.url:
            seen.append(request.url)

    page.on("request", note)
    return seen


def test_on_a_slow_link_the_engine_waits_for_start(
    context: BrowserContext, page: Page, live_server: str
) -> None:
    context.add_init_script(SLOW_LINK)
    seen = engine_requests(page)
    page.goto(f"{live_server}/referee?lang=en")
    page.wait_for_selector("html[data-engine='waiting']", state="attached")
    page.wait_for_timeout(1500)
    assert seen == []  # nothing of the 6 MB fetched without a tap
    facts = page.evaluate(
        "({automatic: scorekeeperEngine.automatic, size: scorekeeperEngine.size,"
        " state: scorekeeperEngine.state})"
    )
    assert facts["automatic"] is False and facts["state"] == "waiting"
    assert 5_000_000 < facts["size"] <= 8_000_000
    page.evaluate("scorekeeperEngine.start(), null")
    page.wait_for_selector(READY, state="attached", timeout=LOAD_TIMEOUT)
    assert any(url.endswith("pyodide.asm.wasm") for url in seen)
    body = page.evaluate(
        "scorekeeperEngine.referee('initial-meld', {ruleset: 'german', cumulative_score: 1600,"
        " melds: [['K', 'K', 'K', '2']]})"
    )
    assert body["allowed"] is False and body["required"] == 90


def test_the_engine_starts_after_the_page_is_complete(page: Page, live_server: str) -> None:
    """The worker is started only after the load event, and the page's first view and its
    scripts never wait for it."""
    seen = engine_requests(page)
    page.goto(f"{live_server}/rules/polish?lang=pl")
    page.wait_for_selector(READY, state="attached", timeout=LOAD_TIMEOUT)
    first = page.evaluate(
        "performance.getEntriesByType('resource')"
        ".filter(e => e.name.includes('/engine/worker.js'))[0].startTime"
    )
    loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
    assert first >= loaded
    assert seen and all(url.startswith(live_server) for url in seen)  # only this origin
    body = page.evaluate(
        "scorekeeperEngine.score({ruleset: 'three-is-fifty', piles: [['X', '3h'], ['A']]})"
    )
    # seed 001 'Werte der Karten je Karte': 3 - 50, Asse - 11; the joker 10 by default
    assert [p["points"] for p in body["players"]] == [60, 11]


def test_the_network_going_while_the_engine_loads_breaks_nothing(
    context: BrowserContext, page: Page, live_server: str
) -> None:
    """Offline in the middle of the engine's download: no error on the page (the page fixture
    fails on any), and once the network is back the engine is ready and answers."""
    page.goto(f"{live_server}/rules/german?lang=de")
    page.wait_for_selector("html[data-engine='loading']", state="attached")
    context.set_offline(True)
    page.wait_for_timeout(3000)
    assert page.evaluate("scorekeeperEngine.state") in ("loading", "failed", "ready")
    context.set_offline(False)
    page.wait_for_selector(READY, state="attached", timeout=LOAD_TIMEOUT)
    body = page.evaluate("scorekeeperEngine.referee('meld', {ruleset: 'german', cards: 'K K'})")
    assert body["allowed"] is False
