"""axe-core finds no violation on any page, in German, Polish and English, light and dark, on a
390×844 phone and a 1280×800 screen: the start page, both new-game forms, a game, its entry form
with the card pad open, the referee (both games), the rules, a table with its people and
statistics, a tournament (director and public), and the offline page. axe-core comes from npm
for the tests only (package.json; ``npm ci`` in scripts/test)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page

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
        "entry": f"/games/{game['id']}/hands/new",
        "3 ist 50": f"/fifty/{fifty['id']}",
        "3 ist 50 entry": f"/fifty/{fifty['id']}/games/new",
        "referee": "/referee?ruleset=german",
        "referee 3 ist 50": "/fifty/referee",
        "rules": "/rules/german",
        "tables": "/tables",
        "table": f"/tables/{table['id']}",
        "tournaments": "/tournaments",
        "new tournament": "/tournaments/new",
        "director": f"/tournaments/{tournament['id']}",
        "public standings": f"/tournaments/view/{tournament['view_id']}",
        "offline": "/offline",
    }


def violations(page: Page) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3)"
        ".map(n => n.target.join(' ') + ' :: ' + n.failureSummary.slice(0, 300))}))"
    )
    return list(found)


def open_page(page: Page, url: str, name: str) -> None:
    page.goto(url)
    wait_ready(page)
    if name == "entry":  # with the card pad open, as a scorer meets it
        page.locator('input[name="t0-mode"][value="detail"]').check()
        page.locator("#t0-meld-0").click()
        page.wait_for_selector("#pad:not([hidden])")
    if name in ("table",):  # the people and the statistics, opened
        for summary in page.locator("details > summary").all():
            summary.click()


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("scheme", SCHEMES)
def test_no_axe_violations(
    browser: Browser, live_server: str, places: dict[str, str], scheme: str, screen: str
) -> None:
    assert AXE.is_file(), "npm ci installs axe-core (scripts/test)"
    context = browser.new_context(
        viewport=SCREENS[screen],
        color_scheme=scheme,
        bypass_csp=True,  # type: ignore[arg-type]
    )
    found: dict[str, Any] = {}
    try:
        page = context.new_page()
        for lang in LANGS:
            for name, path in places.items():
                sep = "&" if "?" in path else "?"
                open_page(page, f"{live_server}{path}{sep}lang={lang}", name)
                for v in violations(page):
                    found.setdefault(f"{name} [{lang}] {v['id']}", v["nodes"])
    finally:
        context.close()
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
