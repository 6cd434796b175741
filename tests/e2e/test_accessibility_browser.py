"""axe-core finds no violation on any page, in German, Polish and English, light and dark, on a
390×844 phone and a 1280×800 screen: the start page, both new-game forms, a game, its view and
a side's own page (docs/parts.md), its entry form with the card pad open and the entry form
opened in the page without a connection (docs/offline.md), the referee (both games) with a
dispute ruled, the rules and the rules map, a table with its people and statistics and its
public view, a tournament (director, public and projector), the offline page, and the served
docs (English only: the docs are not translated). axe-core comes from npm for the tests only
(package.json; ``npm ci`` in scripts/test).

One browser context per screen size; each page is loaded once per language and checked in
light and in dark (the colour scheme switched in place), so the whole run stays short."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, Response

from scorekeeper import ROOT
from tests.e2e.helpers import wait_ready

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LANGS = ("de", "pl", "en")
SCHEMES = ("light", "dark")
SCREENS = {"phone": {"width": 390, "height": 844}, "desk": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def places(live_app: Flask) -> dict[str, str]:
    """One of everything the pages show, made through the API: a German game with hands, a
    3 ist 50 evening, a table with games, and a tournament in its first round."""
    client = live_app.test_client()
    sides = [
        {"name": "Anna & Ben", "players": ["Anna", "Ben"]},
        {"name": "Cleo & Dan", "players": ["Cleo", "Dan"]},
    ]
    table = client.post(
        "/api/v1/tables", json={"name": "Club", "players": ["Anna", "Ben", "Cleo", "Dan"]}
    ).json
    assert table is not None
    game = client.post(
        "/api/v1/games",
        json={"ruleset": "german", "players": 4, "sides": sides, "table": table["id"]},
    ).json
    assert game is not None
    version = game["version"]
    for teams in (
        [{"total": 630, "went_out": True}, {"total": 215}],
        [{"total": -40}, {"total": 905, "went_out": True}],
    ):
        saved = client.post(
            f"/api/v1/games/{game['id']}/hands", json={"version": version, "teams": teams}
        ).json
        assert saved is not None
        version = saved["version"]
    fifty = client.post(
        "/api/v1/games", json={"ruleset": "three-is-fifty", "players": ["Anna", "Ben", "Cleo"]}
    ).json
    assert fifty is not None
    tournament = client.post(
        "/api/v1/tournaments",
        json={
            "name": "Herbstturnier",
            "ruleset": "german",
            "players": 4,
            "format": "individual",
            "scoring": "match_points",
            "round_end": {"hands": 2},
            "participants": ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gerd", "Hana"],
        },
    ).json
    assert tournament is not None
    assert client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={}).status_code == 201
    return {
        "start": "/",
        "new game": "/games/new",
        "new 3 ist 50": "/fifty/new",
        "game": f"/games/{game['id']}",
        "game view": f"/view/{game['view_id']}",
        "side": f"/games/{game['side_ids'][1]}",
        "entry": f"/games/{game['id']}/hands/new",
        "offline entry": f"/games/{game['id']}",
        "3 ist 50": f"/fifty/{fifty['id']}",
        "3 ist 50 entry": f"/fifty/{fifty['id']}/games/new",
        "referee": "/referee?ruleset=german",
        "dispute": "/referee?ruleset=german&q=partner-permission&case=no",
        "dispute 2 players": "/referee?ruleset=classic&players=2&q=two-player-draw&case=one_left",
        "referee 3 ist 50": "/fifty/referee",
        "rules": "/rules/german",
        "rules map": "/rules/map",
        "tables": "/tables",
        "table": f"/tables/{table['id']}",
        "table view": f"/tables/view/{table['view_id']}",
        "tournaments": "/tournaments",
        "new tournament": "/tournaments/new",
        "director": f"/tournaments/{tournament['id']}",
        "public standings": f"/tournaments/view/{tournament['view_id']}",
        "projector": f"/tournaments/view/{tournament['view_id']}/projector",
        "offline": "/offline",
        "docs": "/docs/",
        "api reference": "/api-reference",
    }


#: Pages in one language only: the docs site (mkdocs-material) is written in English.
ENGLISH_ONLY = frozenset({"docs"})
#: a few pages by name, comma-separated (``api reference,docs``), to try a change to them
#: quickly; the whole run takes every page
ONLY = {n for n in os.environ.get("SCOREKEEPER_AXE_PAGES", "").split(",") if n}


def violations(page: Page) -> list[dict[str, Any]]:
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3)"
        ".map(n => n.target.join(' ') + ' :: ' + n.failureSummary.slice(0, 300))}))"
    )
    return list(found)


def _entry_fetched(response: Response) -> bool:
    """The game page's fetch of its entry form, kept for a lost connection (static/offline.js)."""
    request = response.request
    return request.resource_type == "fetch" and request.url.split("?")[0].endswith("/hands/new")


def open_page(page: Page, context: BrowserContext, url: str, name: str) -> None:
    if name == "offline entry":
        with page.expect_response(_entry_fetched, timeout=30000):
            page.goto(url)
    else:
        page.goto(url)
    if name == "docs":  # mkdocs-material's page, without the app's scripts
        page.wait_for_load_state("load")
        return
    wait_ready(page)
    if name == "entry":  # with the card pad open, as a scorer meets it
        page.locator('input[name="t0-mode"][value="detail"]').check()
        page.locator("#t0-meld-0").click()
        page.wait_for_selector("#pad:not([hidden])")
    if name == "offline entry":  # the connection lost: "Enter hand 3" opens the form in the page
        page.wait_for_timeout(200)  # the fetched form's text kept (docs/offline.md)
        context.set_offline(True)
        page.locator(".cta a").first.click()
        page.wait_for_selector("[data-in-page] #hand-form")
    if name == "api reference":  # every example and list of problem codes, opened
        page.evaluate("() => document.querySelectorAll('main details').forEach(d => d.open = true)")
    if name in ("table", "side"):  # the people and the statistics, opened
        for summary in page.locator("main details > summary").all():
            if summary.is_visible():
                summary.click()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_axe_violations(
    browser: Browser, live_server: str, places: dict[str, str], screen: str
) -> None:
    assert AXE.is_file(), "npm ci installs axe-core (scripts/test)"
    context = browser.new_context(
        viewport=SCREENS[screen],
        bypass_csp=True,  # type: ignore[arg-type]
    )
    if ONLY:
        assert set(places) >= ONLY, sorted(ONLY - set(places))
        places = {name: path for name, path in places.items() if name in ONLY}
    found: dict[str, Any] = {}
    checked = 0
    try:
        page = context.new_page()
        for lang in LANGS:
            for name, path in places.items():
                if name in ENGLISH_ONLY and lang != "en":
                    continue
                sep = "&" if "?" in path else "?"
                open_page(page, context, f"{live_server}{path}{sep}lang={lang}", name)
                for scheme in SCHEMES:
                    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
                    if name == "docs" and scheme != SCHEMES[0]:
                        # the theme picks its palette as the page loads, and keeps it
                        page.evaluate("() => localStorage.clear()")
                        page.reload()
                        page.wait_for_load_state("load")
                        assert page.evaluate("() => document.body.dataset.mdColorScheme") == (
                            "slate"
                        )
                    for v in violations(page):
                        found.setdefault(f"{name} [{lang}, {scheme}] {v['id']}", v["nodes"])
                    checked += 1
                context.set_offline(False)
    finally:
        context.close()
    english_only = len(ENGLISH_ONLY & set(places))
    assert checked == 2 * (len(LANGS) * len(places) - (len(LANGS) - 1) * english_only)
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)[:6000]


def test_axe_finds_a_violation(browser: Browser, live_server: str) -> None:
    """The check can fail: a page with an unlabelled field and low contrast is reported."""
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/offline")
        page.evaluate(
            "() => { const i = document.createElement('input'); document.body.append(i);"
            " const p = document.createElement('p'); p.textContent = 'faint';"
            " p.style.color = '#eee'; p.style.background = '#fff'; document.body.append(p); }"
        )
        ids = {v["id"] for v in violations(page)}
        assert {"label", "color-contrast"} <= ids, ids
    finally:
        context.close()
