"""3 ist 50 in a real browser (Debian chromium, phone viewport 390×844): a whole evening
(new game, two games entered with the card pad and as a total, a problem shown live and fixed,
the winner with the lowest total, the view on a second phone), and the referee question "What
may I play?" answered live in English and German."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e import helpers
from tests.e2e.helpers import PHONE, follow, tap_cards


def small_targets(page: Page) -> list[str]:
    return helpers.small_targets(page, "main table.games a", "main a.case", "main a.rule-link")


def totals(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".standings .total").all_inner_texts()]


def test_a_whole_evening(
    live_server: str,
    page: Page,
    browser: Browser,
    shot: Callable[..., Path],
    scroll_width: Callable[[Page], int],
) -> None:
    page.goto(f"{live_server}/fifty/new?lang=en")
    page.locator("label.chip", has_text="3").first.click()
    expect(page.locator("#name-3")).to_be_hidden()
    page.fill("#name-0", "Anna")
    page.fill("#name-1", "<b>Ala & Ola</b>")
    page.fill("#name-2", "Cleo")
    page.get_by_text("House rules and end").click()
    page.fill("#stop_after", "2")
    shot(page, "fifty-01-new", full_page=True)
    assert scroll_width(page) <= 390
    assert small_targets(page) == []
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/fifty/[A-Za-z0-9_-]{22}$"))
    game_url = page.url
    assert totals(page) == ["0", "0", "0"]
    expect(page.locator(".standings .who").nth(1)).to_contain_text("<b>Ala & Ola</b>")

    # The view on a second phone.
    page.get_by_text("Show the score on other phones").click()
    view_url = page.locator("a.view-link").get_attribute("href")
    assert view_url and "/fifty/view/" in view_url
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        viewer = other.new_page()
        viewer.goto(view_url)
        expect(viewer.locator(".standings .total").first).to_have_text("0")

        # Game 1: Anna's pile with the card pad, Ala & Ola's as a counted total.
        follow(page, page.get_by_role("link", name="Enter game 1"))
        page.locator("#p0-cards").click()
        expect(page.locator("#pad")).to_be_visible()
        tap_cards(page, "3 A K 7")
        expect(page.locator("#pts-p0 b")).to_have_text("78")
        expect(page.locator('#pad button[data-card="K"] .cnt')).to_have_text("1")
        shot(page, "fifty-02-pad")
        assert small_targets(page) == []
        page.locator('#pad button[data-pad="done"]').click()
        page.locator("#player-p1 .seg label", has_text="Total").click()
        page.fill("#p1-points", "12")
        expect(page.locator("#pts-p1 b")).to_have_text("12")
        # A problem shows live next to its field: nine aces are more than the deck holds.
        page.locator("#p2-cards").click()
        tap_cards(page, "A A A A A A A A A")
        expect(page.locator("#n-p2")).to_contain_text("10 cards of aces")
        shot(page, "fifty-03-problem", full_page=True)
        page.locator('#pad button[data-pad="kbd"]').click()
        page.fill("#p2-cards", "")
        expect(page.locator("#n-p2")).to_be_empty()
        assert scroll_width(page) <= 390
        page.locator('#pad button[data-pad="done"]').click()
        expect(page.locator("#entry-summary")).to_contain_text("78")
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["78", "12", "0"]
        expect(page.locator(".standing.lead")).to_contain_text("Cleo")
        expect(page.locator(".meta")).to_contain_text("deals next.")
        expect(viewer.locator(".standings .total").first).to_have_text("78", timeout=8000)

        # Game 2, typed with the keyboard (German letters work too: D = queen).
        follow(page, page.get_by_role("link", name="Enter game 2"))
        page.fill("#p1-cards", "3 3")
        page.fill("#p2-cards", "D D 2")
        expect(page.locator("#pts-p2 b")).to_have_text("22")
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["78", "112", "22"]
        expect(page.locator(".winner")).to_contain_text("Won: Cleo with 22 points.")
        expect(page.get_by_role("link", name="Enter game 3")).to_have_count(0)
        shot(page, "fifty-04-winner", full_page=True)
        assert scroll_width(page) <= 390
        assert small_targets(page) == []
        expect(viewer.locator(".winner")).to_contain_text("Cleo", timeout=8000)
        shot(viewer, "fifty-05-view", full_page=True)

        # A correction: game 1 in Anna's column becomes a counted total.
        page.get_by_role("link", name="Correct game 1").click()
        page.locator("#player-p0 .seg label", has_text="Total").click()
        page.fill("#p0-points", "10")
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["10", "112", "22"]
        expect(page.locator(".winner")).to_contain_text("Won: Anna with 10 points.")
        # The corrected game is marked and its earlier entry shown on request.
        expect(page.locator("table.games tbody tr").first.locator(".fix")).to_have_text("corr.")
        page.get_by_text("Corrected once: show the earlier entry").click()
        expect(page.locator(".earlier li").first).to_contain_text("Anna 78")
        shot(page, "fifty-06-corrected", full_page=True)
        assert scroll_width(page) <= 390

        # Deleting the last game offers Undo, also after a reload.
        page.get_by_role("button", name="Delete game 2").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["10", "12", "0"]
        page.reload()
        expect(page.locator("form.undo")).to_contain_text("Game 2 deleted.")
        shot(page, "fifty-07-undo")
        page.locator("form.undo").get_by_role("button", name="Undo").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["10", "112", "22"]
        expect(page.locator("form.undo")).to_have_count(0)
    finally:
        other.close()


def verdicts(page: Page) -> dict[str, str]:
    out = {}
    for box in page.locator(".card-answer[data-card]").all():
        out[box.get_attribute("data-card") or ""] = box.get_attribute("data-verdict") or ""
    return out


def test_referee_what_may_i_play(
    live_server: str, page: Page, shot: Callable[..., Path], scroll_width: Callable[[Page], int]
) -> None:
    page.goto(f"{live_server}/fifty/referee?lang=en")
    page.locator(".count label.chip", has_text="2").click()
    expect(page.locator("#f-pile-2")).to_be_hidden()
    # seed 001: my pile is 4 4 7 7 7 and I hold a 7 and a 4
    page.locator("#f-pile-0").click()
    tap_cards(page, "4 4 7 7 7")
    page.locator("#f-hand").click()
    tap_cards(page, "7 4")
    page.locator('#pad button[data-pad="done"]').click()
    expect(page.locator('.card-answer[data-card="7"]')).to_have_attribute("data-verdict", "yes")
    assert verdicts(page) == {"7": "yes", "4": "no"}
    answer = page.locator("#answer")
    expect(answer).to_contain_text("Case 2: your own minus pile")
    expect(answer).to_contain_text("Case 3: any minus pile")
    expect(answer.locator('.card-answer[data-card="4"]')).to_contain_text("Not now")
    shot(page, "fifty-06-referee-en", full_page=True)
    assert scroll_width(page) <= 390
    assert small_targets(page) == []
    # The case links to the short rules on the same page.
    page.locator('#answer a.case[href="#rule-own_pile"]').first.click()
    expect(page.locator("#rule-own_pile")).to_be_in_viewport()

    # German: letters B and D, Ja and Nein; a middle jack (B) takes my jack.
    page.goto(f"{live_server}/fifty/referee?lang=de&players=3")
    page.fill("#f-middle", "B 9")
    page.fill("#f-hand", "B D")
    expect(page.locator('.card-answer[data-card="J"]')).to_have_attribute("data-verdict", "yes")
    assert verdicts(page) == {"J": "yes", "Q": "no"}
    expect(page.locator('.card-answer[data-card="J"] .yn')).to_have_text("Ja")
    expect(page.locator('.card-answer[data-card="Q"] .yn')).to_have_text("Nein")
    expect(page.locator('.card-answer[data-card="J"] .playing-card')).to_have_text("B")
    expect(page.locator('#pad button[data-card="B"]')).to_have_count(1)
    # Nothing matches any more: every card may go onto the discard pile (case 4).
    page.fill("#f-middle", "9")
    expect(page.locator('.card-answer[data-card="Q"]')).to_have_attribute("data-verdict", "yes")
    assert verdicts(page) == {"J": "yes", "Q": "yes"}
    expect(page.locator('#answer li[data-kind="discard"]')).to_have_count(2)
    # A problem next to its field: a fifth hand card.
    page.fill("#f-hand", "B D 4 5 6")
    expect(page.locator("#n-hand")).not_to_be_empty()
    expect(page.locator("#answer .verdict")).to_have_attribute("data-verdict", "check-input")
    shot(page, "fifty-07-referee-de", full_page=True)
    assert scroll_width(page) <= 390


def test_a_reload_keeps_the_entry(live_server: str, page: Page) -> None:
    """What was typed into a game's entry survives a reload of the page (in this tab)."""
    page.goto(f"{live_server}/fifty/new?lang=de")
    page.get_by_role("button", name="Partie starten").click()
    page.wait_for_url(re.compile(r"/fifty/[A-Za-z0-9_-]{22}$"))
    page.get_by_role("link", name="Spiel 1 eintragen").click()
    page.locator("#p0-cards").click()
    tap_cards(page, "3 A K 7")
    page.locator('#pad button[data-pad="done"]').click()
    page.locator("#player-p1 .seg label", has_text="Gesamt").click()
    page.fill("#p1-points", "12")
    expect(page.locator("#pts-p1 b")).to_have_text("12")
    page.reload()
    note = page.locator("[data-draft-note]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("wieder da")
    expect(page.locator("#p0-cards")).to_have_value("3 A K 7")
    expect(page.locator("#p1-points")).to_have_value("12")
    expect(page.locator("#pts-p0 b")).to_have_text("78")
    page.get_by_role("button", name="Neu beginnen").click()
    expect(page.locator("#p0-cards")).to_have_value("")
    expect(note).to_be_hidden()
