"""A refused save swaps the form back in, and the card pad works on it again, without one
breach of the page's Content-Security-Policy (no inline style): htmx settles only class,
width and height across a swap (``attributesToSettle`` in the pages' htmx-config), never a
style attribute that a script set, which the policy would refuse."""

from __future__ import annotations

from playwright.sync_api import Browser, ConsoleMessage

from tests.e2e.helpers import PHONE, preview_settled, tap_cards, wait_ready

SIDES = [{"name": "We", "players": ["Ann", "Bo"]}, {"name": "They", "players": ["Cy", "Di"]}]


def test_a_refused_save_swaps_in_without_policy_errors(live_server: str, browser: Browser) -> None:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    refused: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    try:
        page = context.new_page()
        page.on("console", heard)
        made = page.request.post(
            f"{live_server}/api/v1/games", data={"ruleset": "german", "players": 4, "sides": SIDES}
        )
        assert made.status == 201, made.text()
        game = made.json()
        page.goto(f"{live_server}/games/{game['id']}/hands/new?lang=en")
        wait_ready(page)
        # card by card, a meld of two kings: the rules refuse it (422), and the form comes back
        # with its note; then the pad is used again on the swapped-in form
        page.locator("input[name=t0-mode][value=detail]").check()
        page.locator("#t0-meld-0").click()
        tap_cards(page, "K K")
        page.locator('#pad [data-pad="done"]').click()
        preview_settled(page)
        page.get_by_role("button", name="Save", exact=True).click()
        page.locator(".note.problem").first.wait_for()
        page.locator("#t0-meld-0").click()
        tap_cards(page, "K")
        page.locator('#pad [data-pad="done"]').click()
        preview_settled(page)
        assert refused == [], refused
    finally:
        context.close()
