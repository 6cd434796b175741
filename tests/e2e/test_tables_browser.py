"""A table in a real browser (Debian chromium, phone viewport 390×844): made in two taps, a
short game started from it and played, its statistics seen on the table's page; a second phone
joins by the table's link (what its QR code holds); the German page has no English left."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e import helpers
from tests.e2e.helpers import PHONE, follow


def test_a_table_plays_a_game_and_shows_its_statistics(
    live_server: str,
    page: Page,
    browser: Browser,
    shot: Callable[..., Path],
    scroll_width: Callable[[Page], int],
) -> None:
    page.goto(f"{live_server}/?lang=en")
    page.get_by_role("link", name="Our tables").click()
    page.fill("#table-name", "Thursday <club>")
    page.fill("#table-players", "Anna\nBen\nCleo\nDan\nEva")
    shot(page, "tables-01-new")
    assert scroll_width(page) <= 390
    page.get_by_role("button", name="Make the table").click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]{22}$"))
    table_url = page.url
    expect(page.locator("h1")).to_have_text("Thursday <club>")  # escaped, shown as typed
    assert scroll_width(page) <= 390
    assert helpers.small_targets(page, "main select") == []
    shot(page, "tables-02-table", full_page=True)

    # A game of the table: German rules, the first four in their seats.
    expect(page.locator("#seat1")).to_have_value("Anna")
    expect(page.locator("#seat4")).to_have_value("Dan")
    page.select_option("#seat4", "Eva")
    page.fill("#table-target", "1000")  # a short game: one hand decides it
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    follow(page, page.get_by_role("link", name="Enter hand 1"))
    page.locator("label.chip", has_text="Anna & Cleo").click()
    page.fill("input[name=t0-natural_canastas]", "2")
    page.fill("#t0-meld_points", "400")
    page.fill("input[name=t1-mixed_canastas]", "1")
    page.fill("#t1-meld_points", "200")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    expect(page.locator("main")).to_contain_text("Anna & Cleo")

    # The statistics on the table's page.
    page.goto(table_url)
    expect(page.locator(".table-game-list li")).to_have_count(1)
    expect(page.locator(".table-game-list li").first).to_contain_text("Anna & Cleo")
    expect(page.locator("#player-title")).to_have_text("Anna")
    details = page.locator(".player-figures table")
    expect(details.locator("tr", has_text="Hands")).to_contain_text("1")
    expect(details.locator("tr", has_text="Natural canastas")).to_contain_text("2")
    expect(page.locator(".table-stats")).to_contain_text("Anna & Cleo")  # the partnership
    expect(page.locator(".form-chart svg path")).to_have_count(1)
    page.locator(".players-table a", has_text="Ben").click()
    expect(page.locator("#player-title")).to_have_text("Ben")
    expect(details.locator("tr", has_text="Average per hand")).to_contain_text("+500")
    shot(page, "tables-03-statistics", full_page=True)
    assert scroll_width(page) <= 390
    assert helpers.small_targets(page, "main select", ".table-game-list a", ".player-link") == []

    # The read-only link: the statistics, no key and no form.
    view = page.locator(".table-share a.view-link").last.get_attribute("href")
    assert view and "/tables/view/" in view
    page.goto(view)
    expect(page.locator(".table-stats")).to_contain_text("Anna & Cleo")
    expect(page.locator("form")).to_have_count(0)
    assert table_url.rsplit("/", 1)[1] not in page.content()
    page.goto(table_url)

    # A second phone joins by the link of the QR code, and remembers the table.
    join = page.locator(".table-share .view-link a").first.get_attribute("href")
    assert join == table_url
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        phone = other.new_page()
        phone.goto(f"{join}?lang=de")
        expect(phone.locator("h2#stats-title")).to_have_text("Statistik")
        phone.goto(f"{live_server}/tables")
        expect(phone.locator(".tables-list")).to_contain_text("Thursday <club>")
        phone.goto(f"{join}?lang=de")
        shot(phone, "tables-04-german", full_page=True)
        main = phone.locator("main").inner_text()
        for english in ("Statistics", "New game at this table", "Share this table", "Games"):
            assert english not in main
    finally:
        other.close()
