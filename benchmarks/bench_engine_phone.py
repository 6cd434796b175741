"""The rules engine on the phone (docs/engine.md), measured in headless chromium on this machine:

- **download**: what a phone fetches for the engine (the runtime, the archive, the worker and
  engine.js), bytes on the wire as chromium counts them; budget 8 MB;
- **ready from cache**: once a phone has fetched the engine, the time from a later page's load
  event to ``scorekeeperEngine.ready`` (the files from the browser's cache, in a profile on
  disk as a phone has: chromium keeps compiled WebAssembly there, not in an incognito
  context), with the worker's steps (fetch, runtime started, engine imported); budget 2 s;
- **first visit**: DOMContentLoaded of a first visit (an empty cache) to the game page, with
  the engine and without it (``PHONE_ENGINE`` off: the page as before), alternating; budget
  within 10 % of the page without it;
- **keystroke to preview** on the hand-entry page at 390x844: a digit typed into a side's melded
  points until the preview is drawn, once by the live preview as it is (htmx, the server
  answering from this machine: its 250 ms pause after typing, then the round trip), once by
  the phone's engine (``scorekeeperEngine.score`` of the same hand, its total written into the
  page, then the next frame). The round trip alone (request to drawn) is shown too.

Run: ``.venv/bin/python benchmarks/bench_engine_phone.py [--rounds 10]``; exits 1 when a
budget is broken.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Playwright, sync_playwright
from waitress.server import create_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
READY = "html[data-engine='ready']"
DOWNLOAD_BUDGET = 8_000_000
READY_BUDGET_MS = 2000
DCL_BUDGET = 1.10
KEY_MEDIAN_MS = 16
KEY_P95_MS = 50

GAME = {
    "ruleset": "german",
    "players": 4,
    "sides": [
        {"name": "Wir", "players": ["Anna", "Bartek"]},
        {"name": "Ihr", "players": ["Cleo", "Dora"]},
    ],
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def new_page(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(20_000)
    return context.new_page()


def navigation(page: Page) -> dict[str, float]:
    found: dict[str, float] = page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0];"
        " return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; })()"
    )
    return found


def download(browser: Browser, base: str, game: str) -> int:
    page = new_page(browser)
    sizes: list[int] = []
    requests: list[Any] = []
    page.on("requestfinished", lambda r: requests.append(r))
    page.goto(f"{base}/games/{game}?lang=de")
    page.wait_for_selector(READY, state="attached", timeout=300_000)
    for request in requests:
        if "/engine/" in request.url or "engine.js" in request.url:
            sizes.append(request.sizes()["responseBodySize"])
    page.context.close()
    return sum(sizes)


def ready_from_cache(
    playwright: Playwright, base: str, game: str, rounds: int, profile: str
) -> list[dict[str, Any]]:
    """In a browser profile on disk, as a phone has (an incognito context keeps no compiled
    code): the first visit fetches the engine, each later page finds it in the cache."""
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, headless=True, viewport=PHONE, is_mobile=True
    )
    page = context.new_page()
    page.goto(f"{base}/games/{game}?lang=de")
    page.wait_for_selector(READY, state="attached", timeout=300_000)
    times = []
    for i in range(rounds * 2):
        # Every other round the phone's kept snapshot is dropped first: the start as it was
        # (Python started afresh), the baseline in the same run.
        fresh = i % 2 == 1
        if fresh:
            page.evaluate(DROP_SNAPSHOT)
        else:
            page.wait_for_selector("html[data-engine-kept]", state="attached", timeout=60_000)
        url = (
            f"{base}/games/{game}/hands/new?lang=de"
            if i % 4 > 1
            else f"{base}/games/{game}?lang=de"
        )
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=60_000)
        mark = page.evaluate(
            "performance.getEntriesByName('scorekeeper-engine-ready')[0].startTime"
        )
        steps = page.evaluate("scorekeeperEngine.steps")
        assert steps["snapshot"] is not fresh, steps
        times.append({"after_load": mark - navigation(page)["load"], "fresh": fresh, **steps})
    context.close()
    return times


DROP_SNAPSHOT = """() => new Promise((resolve) => {
  const gone = indexedDB.deleteDatabase("scorekeeper-engine");
  gone.onsuccess = gone.onerror = gone.onblocked = () => resolve(true);
})"""


def first_visits(
    browser: Browser, base: str, game: str, app: Any, rounds: int
) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"with": [], "without": []}
    for i in range(rounds * 2):
        which = "with" if i % 2 else "without"
        app.config["PHONE_ENGINE"] = which == "with"
        page = new_page(browser)
        page.goto(f"{base}/games/{game}?lang=de")
        page.wait_for_selector("html[data-ready='1']", state="attached")
        out[which].append(navigation(page)["dcl"])
        page.context.close()
        # a page with the engine leaves its worker compiling for a moment after it closes:
        # the next visit does not share the machine with it
        time.sleep(3)
    app.config["PHONE_ENGINE"] = True
    return out


SERVER_PREVIEW = """(field) => new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error("no preview within 10 s")), 10000);
  const input = document.querySelector(field);
  let typed = 0, sent = 0;
  input.addEventListener("keydown", () => { typed = performance.now(); }, {once: true});
  document.body.addEventListener("htmx:beforeRequest", () => { sent = performance.now(); },
    {once: true});
  document.body.addEventListener("htmx:afterSettle", function settled(event) {
    if (!event.detail.elt || event.detail.elt.id !== "hand-summary") return;
    document.body.removeEventListener("htmx:afterSettle", settled);
    requestAnimationFrame(() => {
      const drawn = performance.now();
      resolve({total: drawn - typed, trip: drawn - sent});
    });
  });
})"""

PHONE_PREVIEW = """(field) => new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error("no preview within 10 s")), 10000);
  const input = document.querySelector(field);
  const form = document.getElementById("hand-form");
  let typed = 0;
  input.addEventListener("keydown", () => { typed = performance.now(); }, {once: true});
  form.addEventListener("scorekeeper:preview", () => {
    requestAnimationFrame(() => resolve({
      total: performance.now() - typed,
      drawn: document.querySelector("#hand-summary .sum b").textContent,
    }));
  }, {once: true});
})"""

HAND = {
    "ruleset": "german",
    "players": 4,
    "teams": [
        {"quick": {"natural_canastas": 1, "meld_points": 0, "hand_points": 0}, "went_out": True},
        {"quick": {"mixed_canastas": 1, "meld_points": 120, "hand_points": 35}},
    ],
}


def entry_page(browser: Browser, base: str, game: str) -> tuple[Page, Any]:
    page = new_page(browser)
    page.goto(f"{base}/games/{game}/hands/new?lang=de")
    page.wait_for_selector("html[data-ready='1']", state="attached")
    quick = page.locator("input[type=radio][value=quick]").first
    if quick.count() and not quick.is_checked():
        quick.check()
        page.wait_for_timeout(500)
    return page, page.locator(FIELD).first


FIELD = "input[name$='-meld_points']"


def keystrokes(
    browser: Browser, base: str, game: str, app: Any, rounds: int
) -> dict[str, list[float]]:
    """The entry page's own preview, typed into: once as the page was (no engine: the
    server's preview only), once as it is (the phone draws at once, the server's follows)."""
    out: dict[str, list[float]] = {"server": [], "trip": [], "phone": []}
    app.config["PHONE_ENGINE"] = False
    page, first = entry_page(browser, base, game)
    for i in range(rounds):
        first.fill("")
        page.wait_for_timeout(400)
        waiting = page.evaluate_handle(f"(arg) => ({{p: ({SERVER_PREVIEW})(arg)}})", FIELD)
        first.press(str(i % 9 + 1))
        found = page.evaluate("(h) => h.p", waiting)
        out["server"].append(found["total"])
        out["trip"].append(found["trip"])
    page.context.close()
    app.config["PHONE_ENGINE"] = True
    page, first = entry_page(browser, base, game)
    page.wait_for_selector(READY, state="attached", timeout=300_000)
    for i in range(rounds):
        first.fill("")
        page.wait_for_timeout(400)
        waiting = page.evaluate_handle(f"(arg) => ({{p: ({PHONE_PREVIEW})(arg)}})", FIELD)
        first.press(str(i % 9 + 1))
        found = page.evaluate("(h) => h.p", waiting)
        out["phone"].append(found["total"])
        # the server's preview, when it follows, draws the same score
        page.wait_for_timeout(600)
        server = page.locator("#hand-summary .sum b").first.text_content()
        assert server == found["drawn"], (server, found["drawn"])
    page.context.close()
    return out


def summary(keys: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {
        name: {"median": statistics.median(v), "p95": percentile(v, 0.95)}
        for name, v in keys.items()
    }


def serve(app: Any) -> tuple[Any, str]:
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    return server, f"http://127.0.0.1:{server.effective_port}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument(
        "--keys-only", action="store_true", help="measure the keystroke to preview alone"
    )
    parser.add_argument("--visits-only", action="store_true", help="measure the first visits alone")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]  # the machine is shared: say how busy it was
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
                "RATELIMIT_ENABLED": False,
            }
        )
        game = app.test_client().post("/api/v1/games", json=GAME).get_json()["id"]
        server, base = serve(app)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
                if args.visits_only:
                    visits = first_visits(browser, base, game, app, args.rounds)
                    print(json.dumps(visits, indent=2))
                    with_, without = (statistics.median(visits[k]) for k in ("with", "without"))
                    print(json.dumps({"with": with_, "without": without, "ratio": with_ / without}))
                    return 0
                if args.keys_only:
                    keys = keystrokes(browser, base, game, app, args.rounds * 3)
                    print(json.dumps(summary(keys), indent=2))
                    return 0
                sent = download(browser, base, game)
                print("download measured", file=sys.stderr)
                ready_steps = ready_from_cache(p, base, game, args.rounds, f"{folder}/profile")
                ready = [r["after_load"] for r in ready_steps if not r["fresh"]]
                fresh = [r["after_load"] for r in ready_steps if r["fresh"]]
                print("ready from cache measured", file=sys.stderr)
                visits = first_visits(browser, base, game, app, args.rounds)
                print("first visits measured", file=sys.stderr)
                keys = keystrokes(browser, base, game, app, args.rounds * 3)
                browser.close()
        finally:
            server.close()
    dcl_with = statistics.median(visits["with"])
    dcl_without = statistics.median(visits["without"])
    rows = {
        "download_bytes": sent,
        "ready_from_cache_ms": {
            "median": statistics.median(ready),
            "max": max(ready),
            "steps_median": {
                k: statistics.median(r[k] for r in ready_steps if not r["fresh"])
                for k in ("fetch", "runtime", "engine")
            },
        },
        "ready_from_cache_without_snapshot_ms": {
            "median": statistics.median(fresh),
            "max": max(fresh),
            "steps_median": {
                k: statistics.median(r[k] for r in ready_steps if r["fresh"])
                for k in ("fetch", "runtime", "engine")
            },
        },
        "first_visit_dcl_ms": {
            "with_engine": dcl_with,
            "without_engine": dcl_without,
            "ratio": dcl_with / dcl_without,
        },
        "keystroke_to_preview_ms": summary(keys),
    }
    rows["load_average_after"] = os.getloadavg()[0]
    rows["load_average_before"] = load_before
    print(json.dumps(rows, indent=2))
    broken = []
    if sent > DOWNLOAD_BUDGET:
        broken.append("download")
    if statistics.median(ready) > READY_BUDGET_MS:
        broken.append("ready from cache")
    if dcl_with > DCL_BUDGET * dcl_without:
        broken.append("first visit")
    phone = keys["phone"]
    if statistics.median(phone) > KEY_MEDIAN_MS or percentile(phone, 0.95) > KEY_P95_MS:
        broken.append("keystroke to preview")
    if broken:
        print("over budget: " + ", ".join(broken))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
