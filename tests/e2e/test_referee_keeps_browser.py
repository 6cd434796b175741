"""The referee keeps what was entered on a 390×844 phone, in German and
Polish: switching the rules or the player count loads the page for the new settings with every
field as it was typed (and asks again); the game page puts each side's rule question beside its
total, within the first screen. Screenshots: /tmp/shots/referee-kept-*.png."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import small_targets

Shot = Callable[..., Path]

#: Field id → what a player typed (a German or Polish reader types K for the king in both).
TYPED = {
    "#op-hand": "K K K 5 5",
    "#op-top": "7",
    "#meld-cards": "9 9 9 2",
    "#im-melds": "K K K 2 / 4 4 4",
    "#dp-top": "9",
    "#dp-hand": "9 9 5",
    "#go-melds": "5 5 5",
    "#min-score": "1600",
}
CHECKED = ("#dp-wild", "#go-concealed", "#op-drawn")


def _enter(page: Page) -> None:
    for selector, text in TYPED.items():
        page.locator(selector).fill(text)
    for selector in CHECKED:
        page.locator(selector).check()
    page.locator("#go-natural").select_option("1")
    page.locator('#q-options input[name="side_has_melded"][value="no"]').check()
    expect(page.locator("#answer-meld .verdict")).to_be_visible()


def _kept(page: Page) -> None:
    for selector, text in TYPED.items():
        expect(page.locator(selector)).to_have_value(text)
    for selector in CHECKED:
        expect(page.locator(selector)).to_be_checked()
    expect(page.locator("#go-natural")).to_have_value("1")
    expect(page.locator('#q-options input[name="side_has_melded"][value="no"]')).to_be_checked()


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_switching_rules_and_players_keeps_the_entries(
    page: Page, live_server: str, lang: str, shot: Shot
) -> None:
    page.goto(f"{live_server}/referee?lang={lang}&ruleset=german")
    _enter(page)
    shot(page, f"referee-kept-{lang}-typed")

    # The rules: German → Polish (a page load for the new rules).
    page.locator('.rulesets a[href*="ruleset=polish"]').click()
    page.wait_for_url("**ruleset=polish**")
    expect(page.locator('.rulesets a[aria-current="page"][href*="ruleset=polish"]')).to_be_visible()
    assert page.locator('input[name="ruleset"]').first.input_value() == "polish"
    _kept(page)
    # Asked again under the new rules: the meld 9 9 9 2 gets its verdict without a tap.
    expect(page.locator("#answer-meld .verdict")).to_be_visible()

    # The player count: Polish is played by 2 or 4.
    page.locator('#label-players ~ nav a[href*="players=2"]').click()
    page.wait_for_url("**players=2**")
    assert page.locator('input[name="players"]').first.input_value() == "2"
    _kept(page)
    expect(page.locator("#answer-meld .verdict")).to_be_visible()
    shot(page, f"referee-kept-{lang}-switched", full_page=True)

    # A plain reload afterwards is a fresh page: the carried entries were used once.
    page.goto(f"{live_server}/referee?lang={lang}&ruleset=german")
    expect(page.locator("#meld-cards")).to_have_value("")


def test_the_game_page_asks_beside_each_total(page: Page, live_server: str, shot: Shot) -> None:
    body = {
        "ruleset": "german",
        "players": 4,
        "options": {"target": 6000},
        "sides": [
            {"name": "Wir", "players": ["Anna", "Bert"]},
            {"name": "Ihr", "players": ["Cleo", "Dirk"]},
        ],
    }
    game = page.request.post(f"{live_server}/api/v1/games", data=body).json()
    page.goto(f"{live_server}/games/{game['id']}?lang=pl")
    asks = page.locator(".board .ask-referee")
    expect(asks).to_have_count(2)
    for i in range(2):
        box = asks.nth(i).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844  # on the first screen
    assert small_targets(page, ".board .ask-referee") == []
    shot(page, "referee-kept-game-board")
    asks.nth(1).click()
    page.wait_for_url("**/referee?**")
    # The side's score, the game's rules and house rules, and the way back.
    assert page.locator("#min-score").input_value() == "0"
    expect(page.locator(".house-rules")).to_be_visible()
    expect(page.locator(f'a.button[href*="{game["id"]}"]')).to_be_visible()
