"""Keeping the score in a real browser (Debian chromium, phone viewport 390×844): a new game,
three hands (quick, card by card with the card pad, one with a problem that is corrected),
a correction, and the read-only view on a second phone updating by itself."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e import helpers
from tests.e2e.helpers import PHONE, follow, tap_cards


def totals(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".board .total").all_inner_texts()]


def minimums(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".board .minimum b").all_inner_texts()]


def small_targets(page: Page) -> list[str]:
    return helpers.small_targets(page, "main label.check")


def test_keep_the_score_of_a_game(
    live_server: str,
    page: Page,
    browser: Browser,
    shot: Callable[[Page, str], Path],
    scroll_width: Callable[[Page], int],
) -> None:
    page.goto(f"{live_server}/?lang=en")
    page.get_by_role("link", name="New game").click()
    # An English reader is offered the Classic rules first; this table plays German rules.
    expect(page.locator("input[name=ruleset][value=classic]")).to_be_checked()
    page.locator("label.chip", has_text="German rules").click()
    expect(page.locator("input[name=ruleset][value=german]")).to_be_checked()
    expect(page.locator("[name=opt-two_value]")).to_have_value("50")  # the form followed
    page.fill("#player-0-0", "Anna")
    page.fill("#player-0-1", "<b>Ala & Ola</b>")
    page.fill("#player-1-0", "Ben")
    page.fill("#player-1-1", "Cleo")
    shot(page, "games-01-new-game")
    assert scroll_width(page) <= 390
    assert small_targets(page) == []
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    game_url = page.url
    assert totals(page) == ["0", "0"]
    assert minimums(page) == ["50", "50"]
    expect(page.locator(".col p").first).to_contain_text("<b>Ala & Ola</b>")

    # The read-only view on a second phone.
    page.get_by_text("Show the score on other phones").click()
    view_url = page.locator("a.view-link[href*='/view/']").get_attribute("href")
    assert view_url and "/view/" in view_url
    other = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    try:
        viewer = other.new_page()
        viewer.goto(view_url)
        expect(viewer.locator(".board .total").first).to_have_text("0")

        # Hand 1, quick: the way players count at the table.
        follow(page, page.get_by_role("link", name="Enter hand 1"))
        page.locator("label.chip", has_text="Us").click()
        page.fill("input[name=t0-natural_canastas]", "2")
        page.fill("#t0-meld_points", "400")
        page.fill("input[name=t1-mixed_canastas]", "1")
        page.fill("#t1-meld_points", "200")
        # the per-value counter: six 5s left in hand = 30
        page.locator("#side-t1 details.counter").nth(1).locator("summary").click()
        page.fill("input[name=t1-hc-5]", "6")
        expect(page.locator("#t1-hand_points")).to_have_value("30")
        expect(page.locator("#hand-summary")).to_contain_text("+1,500")
        expect(page.locator("#hand-summary")).to_contain_text("+470")
        shot(page, "games-02-quick-hand")
        assert scroll_width(page) <= 390
        assert small_targets(page) == []
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["1,500", "470"]
        assert minimums(page) == ["90", "50"]
        # the view follows by itself (polling every 5 s)
        expect(viewer.locator(".board .total").first).to_have_text("1,500", timeout=12000)

        # Hand 2, card by card with the card pad.
        follow(page, page.get_by_role("link", name="Enter hand 2"))
        page.locator("label.chip", has_text="Them").click()
        page.locator("#side-t0 .seg label", has_text="Card by card").click()
        page.locator("#t0-meld-0").click()
        expect(page.locator("#pad")).to_be_visible()
        tap_cards(page, "K K K 2")
        page.locator('#pad button[data-pad="next"]').click()
        tap_cards(page, "7 7 7 7 7 2 2")
        expect(page.locator('#pad button[data-card="7"] .cnt')).to_have_text("5")
        page.locator('#pad button[data-pad="undo"]').click()
        tap_cards(page, "X")
        expect(page.locator("#t0-meld-1")).to_have_value("7 7 7 7 7 2 X")
        expect(page.locator("#n-t0-m1")).to_contain_text("mixed canasta", timeout=4000)
        page.locator("#t0-hand-1").click()
        tap_cards(page, "5 Q")
        shot(page, "games-03-card-pad")
        assert small_targets(page) == []
        page.locator('#pad button[data-pad="done"]').click()
        expect(page.locator("#pad")).to_be_hidden()
        page.locator("#side-t1 .seg label", has_text="Quick").click()
        page.fill("input[name=t1-natural_canastas]", "1")
        page.fill("#t1-meld_points", "120")
        # Us: 80 + 125 + 300 - 15 = 490; Them: 120 + 500 + 100 = 720
        expect(page.locator("#sc-t0")).to_contain_text("+490")
        expect(page.locator("#hand-summary")).to_contain_text("+720")
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["1,990", "1,190"]

        # Hand 3: a problem, shown next to its field, then corrected.
        follow(page, page.get_by_role("link", name="Enter hand 3"))
        page.locator("label.chip", has_text="Us").click()
        page.locator("#side-t0 .seg label", has_text="Card by card").click()
        page.locator("#t0-meld-0").click()
        tap_cards(page, "A A")
        page.locator('#pad button[data-pad="next"]').click()
        tap_cards(page, "9 9 9 9 9 9 9")
        page.locator('#pad button[data-pad="done"]').click()
        expect(page.locator("#n-t0-m0")).to_contain_text("at least 3 cards")
        shot(page, "games-04-problem")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#n-t0-m0")).to_contain_text("at least 3 cards")
        assert "/hands" in page.url or page.url.endswith("/hands/new")
        page.locator("#t0-meld-0").click()
        tap_cards(page, "A")
        expect(page.locator("#n-t0-m0")).to_contain_text("3 cards · 60 points")
        expect(page.locator("#n-out")).to_be_empty()
        page.locator('#pad button[data-pad="done"]').click()
        page.get_by_role("button", name="Save").click()
        # Them is left empty on purpose: asked, then saved as 0
        page.get_by_role("button", name="Save anyway").click()
        page.wait_for_url(game_url)
        # Us: 60 + 70 + 500 + 100 = 730
        assert totals(page) == ["2,720", "1,190"]
        assert minimums(page) == ["90", "50"]

        # Correct hand 1: Them had two red threes.
        page.locator("details.hand").first.locator("summary").click()
        page.get_by_role("link", name="Correct hand 1").click()
        page.fill("#t1-red-0", "2")
        expect(page.locator("#hand-summary")).to_contain_text("+670")
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["2,720", "1,390"]
        assert minimums(page) == ["90", "50"]
        shot(page, "games-05-game")
        assert scroll_width(page) <= 390
        assert small_targets(page) == []

        expect(viewer.locator(".board .total").nth(1)).to_have_text("1,390", timeout=12000)
        expect(viewer.locator("details.hand")).to_have_count(3)
        shot(viewer, "games-06-view")
        assert scroll_width(viewer) <= 390

        # The score sheet buttons: one PDF per language, each a real PDF naming the sides.
        for label in ("PDF (Deutsch)", "PDF (polski)", "PDF (English)"):
            href = page.get_by_role("link", name=label).get_attribute("href")
            assert href is not None
            pdf = page.request.get(live_server + href)
            assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
            assert pdf.body().startswith(b"%PDF-")
    finally:
        other.close()


def test_pages_work_without_javascript(
    live_server: str, browser: Browser, shot: Callable[[Page, str], Path]
) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/games/new?lang=en&ruleset=german")
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
        game_url = page.url
        page.get_by_role("link", name="Enter hand 1").click()  # no scripts here to wait for
        page.locator("label.chip", has_text="Them").click()
        page.locator("#side-t1 .seg label", has_text="Card by card").click()
        page.fill("#t1-meld-0", "Q Q Q Q Q Q Q")
        page.get_by_role("button", name="Check").click()
        expect(page.locator("#n-t1-m0")).to_contain_text("natural canasta")
        expect(page.locator("#hand-summary")).to_contain_text("+670")
        shot(page, "games-07-no-js-check")
        page.get_by_role("button", name="Save").click()
        # Us is left empty: without JavaScript too the form asks first
        page.get_by_role("button", name="Save anyway").click()
        page.wait_for_url(game_url)
        assert totals(page) == ["0", "670"]
    finally:
        context.close()


def _api_game(page: Page, live_server: str, **body: object) -> str:
    created = page.request.post(f"{live_server}/api/v1/games", data=body)
    assert created.status == 201
    return str(created.json()["id"])


def _us_and_them(page: Page, live_server: str) -> str:
    """A German game of four: Us (Anna, Ben) against Them (Cleo, Dan)."""
    return _api_game(
        page,
        live_server,
        ruleset="german",
        players=4,
        sides=[
            {"name": "Us", "players": ["Anna", "Ben"]},
            {"name": "Them", "players": ["Cleo", "Dan"]},
        ],
    )


def test_a_reload_keeps_what_was_typed(
    live_server: str, page: Page, shot: Callable[[Page, str], Path]
) -> None:
    """A phone that drops or reloads the page mid-entry keeps the entry (in this tab)."""
    game_id = _us_and_them(page, live_server)
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    page.locator("label.chip", has_text="Us").click()
    page.locator("#side-t0 .seg label", has_text="Card by card").click()
    page.locator("#t0-meld-0").fill("K K K K K K K")
    page.locator("#t0-meld-1").fill("5 5 5 2")
    page.fill("#t1-meld_points", "155")
    page.fill("#t1-hand_points", "40")
    expect(page.locator("#hand-summary")).to_contain_text("+735")  # 570 + 65 + 100
    note = page.locator("[data-draft-note]")
    expect(note).to_be_hidden()

    page.reload()
    expect(note).to_be_visible()
    expect(page.locator("#t0-meld-0")).to_have_value("K K K K K K K")
    expect(page.locator("#t0-meld-1")).to_have_value("5 5 5 2")
    expect(page.locator("#t1-hand_points")).to_have_value("40")
    expect(page.locator("input[name=out][value='0']")).to_be_checked()
    expect(page.locator("#side-t0 input[value=detail]")).to_be_checked()
    expect(page.locator("#hand-summary")).to_contain_text("+735")
    expect(page.locator("#hand-summary")).to_contain_text("+115")  # 155 - 40
    shot(page, "games-08-draft-back")
    assert small_targets(page) == []

    page.get_by_role("button", name="Start over").click()
    expect(page.locator("#t0-meld-0")).to_have_value("")
    expect(note).to_be_hidden()

    # Saved hands never come back as drafts: the game's version moved on.
    page.locator("label.chip", has_text="Them").click()
    page.fill("[name=t1-mixed_canastas]", "1")
    page.fill("#t1-meld_points", "200")
    page.fill("#t0-meld_points", "90")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(f"{live_server}/games/{game_id}")
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    expect(note).to_be_hidden()
    expect(page.locator("#t1-meld_points")).to_have_value("")


def test_a_reload_keeps_the_lone_player_of_a_cutthroat_hand(live_server: str, page: Page) -> None:
    game_id = _api_game(
        page,
        live_server,
        ruleset="classic",
        players=3,
        sides=[{"name": n, "players": [n]} for n in ("Ann", "Bob", "Cid")],
    )
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    page.locator("fieldset.lone label.chip", has_text="Bob").click()
    expect(page.locator("#side-t1 h2")).to_have_text("Ann & Cid")
    page.fill("#t0-meld_points", "120")
    page.fill("#t1-hand_points", "35")
    page.reload()
    expect(page.locator("fieldset.lone input[value='1']")).to_be_checked()
    expect(page.locator("#side-t1 h2")).to_have_text("Ann & Cid")
    expect(page.locator("#t0-meld_points")).to_have_value("120")
    expect(page.locator("#t1-hand_points")).to_have_value("35")
    expect(page.locator("[data-draft-note]")).to_be_visible()


def test_a_note_goes_when_its_problem_is_mended(live_server: str, page: Page) -> None:
    """The live preview brings only the notes there are; a note whose problem was
    mended leaves its field, and the others stay where they belong."""
    game_id = _us_and_them(page, live_server)
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    page.locator("#side-t0 .seg label", has_text="Card by card").click()
    page.locator("#t0-meld-0").fill("A A")
    page.locator("#t0-meld-1").fill("5 5 5")
    expect(page.locator("#n-t0-m0")).to_contain_text("at least 3 cards")
    expect(page.locator("#n-t0-m1")).to_contain_text("3 cards")
    expect(page.locator("#hand-summary [data-first-problem]")).to_have_count(1)
    page.locator("#t0-meld-0").fill("")
    expect(page.locator("#n-t0-m0")).to_be_empty()
    expect(page.locator("#n-t0-m1")).to_contain_text("3 cards · 15 points")
    expect(page.locator("#hand-summary [data-first-problem]")).to_have_count(0)
    page.fill("#t1-meld_points", "7")  # not a multiple of 5
    expect(page.locator("#n-t1-q-meld_points")).not_to_be_empty()
    page.fill("#t1-meld_points", "70")
    expect(page.locator("#n-t1-q-meld_points")).not_to_contain_text("5")


def test_the_note_under_a_card_field_shows_above_the_pad(live_server: str, page: Page) -> None:
    """With the card pad open, the field being filled and the note the preview writes under it
    stay in sight: not under the save bar lifted onto the pad."""
    game_id = _us_and_them(page, live_server)
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    page.locator("#side-t1 .seg label", has_text="Card by card").click()
    field = page.locator("#t1-meld-0")
    field.scroll_into_view_if_needed()
    # the field just above where the save bar will sit once the pad is open
    page.evaluate(
        """() => { const r = document.querySelector('#t1-meld-0').getBoundingClientRect();
        window.scrollBy(0, r.bottom - (window.innerHeight - 300)); }"""
    )
    field.click()
    expect(page.locator("#pad")).to_be_visible()
    tap_cards(page, "K K")
    note = page.locator("#n-t1-m0 .note")
    expect(note).to_contain_text("at least 3 cards")
    seen = page.evaluate(
        """() => { const n = document.querySelector('#n-t1-m0 .note').getBoundingClientRect();
        const hit = document.elementFromPoint(n.left + 8, n.top + n.height / 2);
        return !!hit && !!hit.closest('#n-t1-m0'); }"""
    )
    assert seen, "the note is covered"
