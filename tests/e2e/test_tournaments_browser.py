"""A club tournament in a real browser (Debian chromium, phone viewport 390×844): the director
makes it on the phone (8 players, tables of 4, 2 hands a round), seats round 1 by lot, swaps two
players by tapping them and confirms; each table's phone enters its hands at its game; the
public page follows by itself; the director fixes a mistyped hand from the director's page and
the standings move; round 2 starts."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e import helpers
from tests.e2e.helpers import PHONE, follow

PLAYERS = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "<b>Hanna&"]
KEY = r"[A-Za-z0-9_-]{16,}"


def _enter_hand(page: Page, number: int, out: int) -> None:
    """A quick hand at a table's game: side ``out`` went out with two natural canastas."""
    follow(page, page.get_by_role("link", name=f"Enter hand {number}"))
    page.locator("label.chip", has=page.locator(f"input[name=out][value='{out}']")).click()
    other = 1 - out
    page.fill(f"input[name=t{out}-natural_canastas]", "2")
    page.fill(f"#t{out}-meld_points", "400")
    page.fill(f"input[name=t{other}-mixed_canastas]", "1")
    page.fill(f"#t{other}-meld_points", "200")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(rf"/games/{KEY}$"))


def _standing_names(page: Page) -> list[str]:
    return [n.strip() for n in page.locator(".t-standings td.who").all_inner_texts()]


def test_a_tournament_is_made_played_corrected_and_goes_on(
    live_server: str,
    page: Page,
    browser: Browser,
    shot: Callable[..., Path],
    scroll_width: Callable[[Page], int],
) -> None:
    # The new form, on the director's phone.
    page.goto(f"{live_server}/?lang=en")
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="New tournament").click()
    page.fill("#t-name", "Spring <cup> & more")
    page.locator("label.chip", has=page.locator("input[name=ruleset][value=german]")).click()
    # German rules: tables of 4 only; the other sizes are not offered
    expect(page.locator("label.size-2")).to_be_hidden()
    expect(page.locator("label.size-6")).to_be_hidden()
    page.locator("label.chip", has=page.locator("input[name=players][value='4']")).click()
    page.fill("#t-hands", "2")
    page.fill("#t-participants", "\n".join(PLAYERS))
    shot(page, "tournament-01-new-form", full_page=True)
    assert scroll_width(page) <= 390
    assert helpers.small_targets(page) == []
    page.get_by_role("button", name="Make the tournament").click()
    page.wait_for_url(re.compile(rf"/tournaments/{KEY}$"))
    director_url = page.url
    expect(page.locator("h1")).to_have_text("Spring <cup> & more")  # escaped, shown as typed

    # Round 1 by lot; two players swapped by tapping them, then confirmed.
    page.get_by_role("button", name="Seat round 1 by lot").click()
    page.wait_for_url(re.compile(rf"/tournaments/{KEY}#round$"))
    seats = page.locator(".t-card button.seat")
    expect(seats).to_have_count(8)
    before = seats.all_inner_texts()
    shot(page, "tournament-02-proposal", full_page=True)
    assert scroll_width(page) <= 390
    assert helpers.small_targets(page, "main select") == []
    seats.first.click()
    expect(seats.first).to_have_attribute("aria-pressed", "true")
    seats.last.click()
    page.wait_for_url(re.compile(rf"/tournaments/{KEY}#round$"))
    after = page.locator(".t-card button.seat").all_inner_texts()
    assert after[0] == before[-1] and after[-1] == before[0]
    assert after[1:-1] == before[1:-1]
    page.get_by_role("button", name="Confirm the seating and start round 1").click()
    page.wait_for_url(re.compile(rf"/tournaments/{KEY}#round$"))
    expect(page.locator("#round")).to_contain_text("0 of 2 tables reported")
    expect(page.locator(".t-standings h2")).to_contain_text("provisional")
    games = [
        a.get_attribute("href") or ""
        for a in page.get_by_role("link", name="Open the game (enter or fix hands)").all()
    ]
    assert len(games) == 2
    public_url = page.locator(".t-share .view-link a").get_attribute("href")
    assert public_url and "/tournaments/view/" in public_url
    shot(page, "tournament-03-director-playing", full_page=True)

    viewer_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    table_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        viewer = viewer_context.new_page()
        viewer.goto(public_url)
        expect(viewer.locator(".t-card")).to_have_count(2)
        expect(viewer.locator(".t-card").first).to_contain_text("0 of 2 hands")
        assert director_url.rsplit("/", 1)[1] not in viewer.content()

        # Each table's phone enters its hands at its game (the table card's QR code).
        table = table_context.new_page()
        for number, game in enumerate(games):
            table.goto(f"{live_server}{game}?lang=en")
            expect(table.locator(".game-tournament")).to_contain_text(
                f"Spring <cup> & more · round 1 · table {number + 1} · 0 of 2 hands"
            )
            for hand in (1, 2):
                _enter_hand(table, hand, out=number)
                if number == 0 and hand == 1:
                    # the public page follows by itself (polling every 5 s)
                    expect(viewer.locator(".t-card").first).to_contain_text(
                        "1 of 2 hands", timeout=12000
                    )
        expect(table.locator(".game-tournament")).to_contain_text("table 2 · 2 of 2 hands")
        shot(table, "tournament-04-table-game")
        expect(viewer.locator(".t-standings h2")).not_to_contain_text("provisional", timeout=12000)
        shot(viewer, "tournament-05-public", full_page=True)
        assert scroll_width(viewer) <= 390
        final = _standing_names(viewer)

        # The director's page followed by itself; the director fixes a mistyped hand of
        # table 1 from it.
        expect(page.locator("#round")).to_contain_text("2 of 2 tables reported", timeout=15000)
        page.goto(director_url + "?lang=en")
        assert _standing_names(page) == final
        page.get_by_role("link", name="Open the game (enter or fix hands)").first.click()
        page.wait_for_url(re.compile(rf"/games/{KEY}$"))
        for summary in page.locator("details.hand > summary").all():
            summary.click()
        page.get_by_role("link", name="Correct hand 2").click()
        page.fill("#t1-meld_points", "4000")  # the other side had melded far more
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(re.compile(rf"/games/{KEY}$"))
        page.goto(director_url + "?lang=en")
        moved = _standing_names(page)
        assert moved != final
        expect(viewer.locator(".t-standings td.who").first).to_have_text(moved[0], timeout=12000)

        # The projector: large type, no controls.
        viewer.goto(public_url + "/projector")
        expect(viewer.locator(".projector-head h1")).to_have_text("Spring <cup> & more")
        expect(viewer.locator("button, form")).to_have_count(0)
        shot(viewer, "tournament-06-projector-phone", full_page=True)
        assert scroll_width(viewer) <= 390
        wall = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            projector = wall.new_page()
            projector.goto(viewer.url)
            shot(projector, "tournament-07-projector-wall")
        finally:
            wall.close()

        # Round 2: seated by lot and confirmed.
        page.get_by_role("button", name="Seat round 2 by lot").click()
        page.wait_for_url(re.compile(rf"/tournaments/{KEY}#round$"))
        expect(page.locator("#round-title")).to_contain_text("Round 2")
        page.get_by_role("button", name="Confirm the seating and start round 2").click()
        page.wait_for_url(re.compile(rf"/tournaments/{KEY}#round$"))
        expect(page.locator("#round")).to_contain_text("0 of 2 tables reported")
        second = [
            a.get_attribute("href")
            for a in page.get_by_role("link", name="Open the game (enter or fix hands)").all()
        ]
        assert len(second) == 2 and not set(second) & set(games)
        shot(page, "tournament-08-round-2", full_page=True)
        assert scroll_width(page) <= 390
        assert helpers.small_targets(page) == []
        viewer.goto(public_url)
        expect(viewer.locator("#round-title")).to_contain_text("Round 2")

        # The same pages in German and Polish: translated, and still no sideways scrolling.
        page.goto(director_url + "?lang=de")
        expect(page.locator("#round")).to_contain_text("0 von 2 Tischen fertig")
        expect(page.locator(".t-standings h2")).to_contain_text("vorläufig")
        shot(page, "tournament-09-director-de", full_page=True)
        assert scroll_width(page) <= 390
        viewer.goto(public_url + "?lang=pl")
        expect(viewer.locator("#round-title")).to_contain_text("Runda 2")
        expect(viewer.locator(".t-card").first).to_contain_text("0 z 2 rozdań")
        shot(viewer, "tournament-10-public-pl", full_page=True)
        assert scroll_width(viewer) <= 390
        page.goto(f"{live_server}/tournaments/new?lang=pl")
        shot(page, "tournament-11-new-form-pl", full_page=True)
        assert scroll_width(page) <= 390
    finally:
        viewer_context.close()
        table_context.close()
