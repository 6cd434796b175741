"""A 4-player Modern American Canasta game in a real browser at 390×844 (docs/rulebook.md §6): the
new
game, a hand entered quickly with the special canastas, a side entered card by card where a
seven with a wild card is flagged as typed, and the totals and minimums after saving."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.helpers import follow


def totals(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".board .total").all_inner_texts()]


def minimums(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".board .minimum b").all_inner_texts()]


def test_an_american_game_on_the_hand_page(
    live_server: str,
    page: Page,
    shot: Callable[[Page, str], Path],
    scroll_width: Callable[[Page], int],
) -> None:
    page.goto(f"{live_server}/games/new?lang=en")
    page.locator("label.chip", has_text="Modern American Canasta").click()
    expect(page.locator("input[name=ruleset][value=american]")).to_be_checked()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    assert minimums(page) == ["125", "125"]  # docs/rulebook.md §6: below 3,000 125

    follow(page, page.get_by_role("link", name=re.compile("Enter hand")).first)
    # Side 1, quick: a canasta of sevens (2,500) and a natural one (500), 105 melded, two red
    # threes with two canastas (+300), went out (+100): 3,505.
    page.locator("input[name=out][value='0']").check()
    page.fill("input[name=t0-sevens_canastas]", "1")
    page.fill("input[name=t0-natural_canastas]", "1")
    page.fill("#t0-meld_points", "105")
    page.fill("input[name=t0-red]", "2")
    # Side 2, card by card: sevens with a two are refused as typed (docs/rulebook.md §6).
    page.locator("input[name=t1-mode][value=detail]").check()
    page.fill("#t1-meld-0", "7 7 7 2")
    expect(page.locator("#n-t1-m0")).to_contain_text("Sevens are never mixed")
    shot(page, "american-01-sevens-flagged")
    # Four sevens left unfinished (-2,500), their 20 melded points minus with no canasta
    # (docs/rulebook.md §6: melded cards are added only with a completed canasta) and one black
    # three
    # laid out with no canasta (-100): -2,620.
    page.fill("#t1-meld-0", "7 7 7 7")
    page.fill("#t1-black", "1")
    expect(page.locator("#n-t1-m0")).not_to_contain_text("Sevens are never mixed")
    assert scroll_width(page) <= 390
    shot(page, "american-02-hand")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    assert totals(page) == ["3,505", "\u22122,620"]
    assert minimums(page) == ["155", "125"]  # docs/rulebook.md §6: 3,000–4,995 155
    shot(page, "american-03-board")
