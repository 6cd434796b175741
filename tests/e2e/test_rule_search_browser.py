"""A dispute typed in words on the referee page of a phone (390×844), in German and Polish:
the answers come in place (htmx), best first, and the first one's button opens the referee
question that decides it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.helpers import wait_ready


def _ask(page: Page, base: str, ruleset: str, lang: str, question: str) -> None:
    page.goto(f"{base}/referee?ruleset={ruleset}&lang={lang}")
    wait_ready(page)
    box = page.locator("#words-results-q")
    box.fill(question)
    box.press("Enter")
    expect(page.locator("#words-results .ask-answer").first).to_be_visible()


def test_german_question_opens_the_discard_pile_question(
    page: Page,
    live_server: str,
    shot: Callable[..., Path],
    scroll_width: Callable[[Page], int],
) -> None:
    _ask(
        page, live_server, "german", "de", "ist der Stapel eingefroren, wenn ein Joker drauf liegt?"
    )
    first = page.locator("#words-results .ask-answer").first
    expect(first.locator(".ask-summary")).to_contain_text("Joker")
    assert page.url.endswith("lang=de")  # answered in place, no page change
    assert scroll_width(page) <= 390
    shot(page, "rule-search-referee-de")
    shot(page, "rule-search-referee-de-full", full_page=True)
    button = first.get_by_role("link", name="Schiedsrichter fragen: Abwurfstapel")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44  # a comfortable tap target
    button.click()
    wait_ready(page)
    assert page.url.endswith("#q-discard-pile")
    expect(page.locator("#q-discard-pile")).to_be_in_viewport()


def test_polish_question_finds_going_out_without_a_canasta(
    page: Page,
    live_server: str,
    shot: Callable[..., Path],
    scroll_width: Callable[[Page], int],
) -> None:
    _ask(page, live_server, "polish", "pl", "czy mogę wyjść bez kanasty?")
    answers = page.locator("#words-results .ask-answer")
    expect(answers.first.locator(".ask-summary")).to_contain_text("kanast")
    expect(answers.first.get_by_role("link", name="Zapytaj sędziego: Wyjście")).to_be_visible()
    assert scroll_width(page) <= 390
    shot(page, "rule-search-referee-pl")
    answers.first.locator("summary").click()
    quotes = answers.first.locator("blockquote")
    expect(quotes.first).to_be_visible()
    # the rule is named once; its other paragraph (003:23, two canastas 1 v 1) is beside it
    expect(answers.first).to_contain_text("By zakończyć grę")
    assert 2 <= quotes.count() <= 4
    shot(page, "rule-search-referee-pl-source")


def test_rules_page_lists_where_each_paragraph_lives_collapsed(
    page: Page, live_server: str, shot: Callable[..., Path], scroll_width: Callable[[Page], int]
) -> None:
    page.goto(f"{live_server}/rules/german?lang=de#sources")
    wait_ready(page)
    group = page.locator("#source-000")
    expect(group).to_be_visible()
    assert group.get_attribute("open") is None  # collapsed by default
    group.locator("> summary").click()
    rule = page.locator("#seed-000-125")
    expect(rule).to_be_visible()
    rule.locator("summary").click()
    expect(rule.locator("blockquote")).to_contain_text("Darf ich ausmachen?")
    assert scroll_width(page) <= 390
    shot(page, "rule-map-german-page")
