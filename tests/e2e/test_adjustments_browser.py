"""Adjustments in a real browser (chromium, 390×844): an adjustment with a note entered on the
hand form (folded away until opened), the live preview taking it in, and the history showing
it with its note, printed literally."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.test_games_browser import _api_game, totals

NOTE = "<b>Ala & Ola</b> talked"


def test_an_adjustment_with_a_note(
    live_server: str, page: Page, shot: Callable[..., Path], scroll_width: Callable[[Page], int]
) -> None:
    game_id = _api_game(
        page,
        live_server,
        ruleset="german",
        players=4,
        sides=[
            {"name": "Us", "players": ["Anna", "Ben"]},
            {"name": "Them", "players": ["Cleo", "Dan"]},
        ],
    )
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    page.locator("label.chip", has_text="Us").click()
    # docs/api.md §3's quick side, 415 (plus 100 for going out: 515), and 415 for Them.
    for side in ("t0", "t1"):
        page.fill(f"input[name={side}-mixed_canastas]", "1")
        page.fill(f"#{side}-meld_points", "155")
        page.fill(f"#{side}-hand_points", "40")
    adjust = page.locator("#side-t1 details.adjust")
    expect(adjust.locator("#t1-adj-points-0")).to_be_hidden()
    adjust.locator("summary").click()
    page.fill("#t1-adj-points-0", "-100")
    page.fill("#t1-adj-note-0", NOTE)
    expect(page.locator("#hand-summary")).to_contain_text("+315")
    expect(page.locator("#sc-t1")).to_contain_text("Adjustment")
    shot(page, "adjust-01-form")
    assert scroll_width(page) <= 390
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(f"{live_server}/games/{game_id}")
    assert totals(page) == ["515", "315"]
    hand = page.locator("#hand-1")
    hand.locator("summary").click()
    expect(hand.locator(".adj-note")).to_have_text(f"Adjustment for Them: −100 – {NOTE}")
    expect(hand.locator("table")).to_contain_text("Adjustment")
    shot(page, "adjust-02-history", full_page=True)
    assert scroll_width(page) <= 390
