"""Helpers of the browser tests of the score pages (Canasta and "3 ist 50"): the phone
viewport, tapping cards on the card pad, and the tap targets too small for a thumb."""

from __future__ import annotations

from playwright.sync_api import Locator, Page

PHONE = {"width": 390, "height": 844}
READY = "html[data-ready='1']"


def wait_ready(page: Page) -> None:
    """Wait until boot.js has run the page's scripts (htmx and the page's own): they start
    after the load event, so that they never hold up the page's first view."""
    if page.url.startswith("http"):
        page.wait_for_selector(READY, state="attached")  # a selector: the CSP forbids eval


def follow(page: Page, link: Locator) -> None:
    """Tap a link to another page and wait for that page's scripts, as a person meets it a
    moment later (a tap on the card field before they ran would open no card pad)."""
    with page.expect_navigation():
        link.click()
    wait_ready(page)


def preview_settled(page: Page) -> None:
    """Wait until the live preview has answered what was typed, as the screen a person taps
    next: its trigger waits 250 ms after the last input, then htmx marks the request in flight
    (``.htmx-request``) until the answer is swapped in."""
    page.wait_for_timeout(300)
    page.wait_for_selector(".htmx-request", state="detached")


#: What a player taps on the score pages; pages add their own (``small_targets``).
TAP_TARGETS = (
    "main button",
    "main a.button",
    "main summary",
    "main label.chip",
    "main .seg label",
    "main input:not([type=hidden]):not([type=radio]):not([type=checkbox])",
    "#pad button",
)

SMALL_TARGETS = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter(e => e.offsetParent !== null)
  .filter(e => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 40; })
  .map(e => e.outerHTML.slice(0, 80))"""


def small_targets(page: Page, *more: str) -> list[str]:
    """Visible tap targets under 44 px (issue: thumb-sized targets, one-handed use), among
    ``TAP_TARGETS`` and the selectors ``more``."""
    return list(page.evaluate(SMALL_TARGETS, ", ".join(TAP_TARGETS + more)))


def tap_cards(page: Page, cards: str) -> None:
    for card in cards.split():
        page.locator(f'#pad button[data-card="{card}"]').click()
