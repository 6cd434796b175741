"""The referee and the rules pages in a real browser on a phone-sized screen (390×844).

Each question is asked with a yes and a no case, by tapping the card pad as a player would, in
English and German (the German strings stay English until the translator runs, so the German
run checks structure, verdict classes and ``<html lang>``). Screenshots go to /tmp/shots/.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

LANGS = ["en", "de"]

Shot = Callable[..., Path]
Width = Callable[[Page], int]


def _open(page: Page, base: str, lang: str, query: str = "") -> None:
    """The referee page; German rules unless the query names a ruleset (the page's own
    default follows the language, tested in tests/web/test_referee_pages.py)."""
    if "ruleset=" not in query:
        query += "&ruleset=german"
    page.goto(f"{base}/referee?lang={lang}{query}")
    expect(page.locator("html")).to_have_attribute("lang", lang)


def _tap(page: Page, *keys: str) -> None:
    """Tap card pad keys: card tokens (``K``, ``X``, ``3r``) or pad keys (``meld``, ``clear``)."""
    pad = page.locator("[data-cardpad]")
    for key in keys:
        selector = f'[data-card="{key}"]' if len(key) <= 2 else f'[data-pad="{key}"]'
        pad.locator(selector).tap()


def _verdict(page: Page, question: str, state: str) -> None:
    expect(page.locator(f"#answer-{question} .verdict.{state}")).to_be_visible()


def _show(page: Page, selector: str, block: str = "end") -> None:
    """Scroll as a reader would to see an element (its bottom at the bottom of the screen)."""
    page.locator(selector).evaluate(f"e => e.scrollIntoView({{block: '{block}'}})")


def _fits(page: Page, width: Width) -> None:
    assert width(page) <= 390


@pytest.mark.parametrize("lang", LANGS)
def test_meld(page: Page, live_server: str, lang: str, shot: Shot, scroll_width: Width) -> None:
    _open(page, live_server, lang)
    page.locator("#meld-cards").tap()
    pad = page.locator("[data-cardpad]")
    expect(pad).to_be_visible()
    # The pad sits right under the field in use.
    assert page.evaluate(
        "document.querySelector('#meld-cards').closest('.cardfield')"
        ".nextElementSibling.hasAttribute('data-cardpad')"
    )
    _tap(page, "K", "K", "K")
    expect(page.locator("#meld-cards")).to_have_value("K K K ")
    _verdict(page, "meld", "yes")
    expect(pad.locator(".pad-verdict.yes")).to_be_visible()
    if lang == "en":
        expect(page.locator("#answer-meld .answer")).to_contain_text("Yes")
        expect(page.locator("#answer-meld .answer")).to_contain_text("30 points")
        expect(page.locator("#answer-meld")).to_contain_text("Legal meld of kings")
    expect(page.locator("#answer-meld .rule-link")).to_have_attribute("href", "/rules/german#melds")
    _fits(page, scroll_width)
    _show(page, "#q-meld", "start")
    shot(page, f"referee-pad-{lang}")

    _tap(page, "clear", "8", "8", "2", "2", "X")
    expect(page.locator("#meld-cards")).to_have_value("8 8 2 2 X ")
    _verdict(page, "meld", "no")
    others = page.locator("#answer-meld .others")
    expect(others.locator(".other.differs")).to_have_count(1)  # Polish: yes (worth 110)
    if lang == "en":
        expect(page.locator("#answer-meld .answer")).to_have_text("No")
        expect(others).to_contain_text("Under other rules:")
        expect(others).to_contain_text("Polish: Yes (worth 110)")
        expect(others).to_contain_text("Classic: No")
    _show(page, "#answer-meld")
    _fits(page, scroll_width)
    shot(page, f"referee-meld-{lang}")

    # Undo takes back the last card: 8 8 2 2 is legal in every ruleset.
    _tap(page, "undo")
    expect(page.locator("#meld-cards")).to_have_value("8 8 2 2 ")
    _verdict(page, "meld", "yes")


@pytest.mark.parametrize("lang", LANGS)
def test_initial_meld(
    page: Page, live_server: str, lang: str, shot: Shot, scroll_width: Width
) -> None:
    _open(page, live_server, lang, "&score=2000")
    expect(page.locator("#im-score")).to_have_value("2000")
    page.locator("#im-melds").tap()
    expect(page.locator('[data-pad="meld"]')).to_be_visible()
    _tap(page, "K", "K", "K", "2", "meld", "4", "4", "4")
    expect(page.locator("#im-melds")).to_have_value("K K K 2 / 4 4 4 ")
    _verdict(page, "initial-meld", "yes")  # 80 + 15 = 95 ≥ 90 (seed 000's worked example)
    if lang == "en":
        expect(page.locator("#answer-initial-meld")).to_contain_text(
            "The initial meld counts 95 and reaches the 90 needed."
        )
    page.locator("#im-score").fill("3000")
    _verdict(page, "initial-meld", "no")
    if lang == "en":
        expect(page.locator("#answer-initial-meld")).to_contain_text("needs 120")
    _show(page, "#answer-initial-meld")
    _fits(page, scroll_width)
    shot(page, f"referee-initial-meld-{lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_discard_pile(
    page: Page, live_server: str, lang: str, shot: Shot, scroll_width: Width
) -> None:
    _open(page, live_server, lang)
    page.locator("#dp-top").tap()
    expect(page.locator('[data-pad="meld"]')).to_be_hidden()
    _tap(page, "7", "K")  # a single-card field: the second tap replaces the first
    expect(page.locator("#dp-top")).to_have_value("K")
    page.locator("#dp-hand").tap()
    _tap(page, "K", "K", "5")
    _verdict(page, "discard-pile", "yes")
    expect(page.locator("#answer-discard-pile .facts .playing-card")).to_have_count(3)
    if lang == "en":
        expect(page.locator("#answer-discard-pile")).to_contain_text("Show this, then take")
    # Not melded yet, score 0: K K K counts 30, below the 50 needed.
    page.locator('#q-discard-pile input[name="side_has_melded"][value="no"]').check()
    _verdict(page, "discard-pile", "no")
    if lang == "en":
        expect(page.locator("#answer-discard-pile")).to_contain_text("needs 50")
    page.locator("#dp-top").tap()
    _tap(page, "2")
    _verdict(page, "discard-pile", "no")
    expect(page.locator("#answer-discard-pile .rule-link")).to_have_attribute(
        "href", "/rules/german#discard-pile"
    )
    _show(page, "#answer-discard-pile")
    _fits(page, scroll_width)
    shot(page, f"referee-discard-pile-{lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_go_out(page: Page, live_server: str, lang: str, shot: Shot, scroll_width: Width) -> None:
    _open(page, live_server, lang, "&ruleset=polish&players=2")
    expect(page.locator(".settings .segmented a.active")).to_have_text(
        ["Polish", "2"] if lang == "en" else [re.compile("."), "2"]
    )
    page.locator("#go-natural").select_option("1")
    _verdict(page, "go-out", "no")  # two players need two canastas in the Polish rules
    if lang == "en":
        expect(page.locator("#answer-go-out")).to_contain_text("Going out needs 2 canastas")
    page.locator("#go-mixed").select_option("1")
    _verdict(page, "go-out", "yes")
    # Polish rules know wild canastas, so their count is asked too.
    expect(page.locator("#go-wild")).to_be_visible()
    _show(page, "#answer-go-out")
    _fits(page, scroll_width)
    shot(page, f"referee-go-out-{lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_minimum(page: Page, live_server: str, lang: str, shot: Shot, scroll_width: Width) -> None:
    _open(page, live_server, lang)
    answer = page.locator("#answer-minimum")
    expect(answer.locator(".verdict.info .answer")).to_have_text("50")
    page.locator("#min-score").fill("-50")
    expect(answer.locator("tbody tr").first).to_have_class(re.compile("current"))
    expect(answer.locator(".verdict.info .answer")).not_to_have_text("50")
    # At -50 (docs/rulebook.md §3, §6): German none; Polish and Classic 15; American 125.
    expect(answer.locator(".others .other.differs")).to_have_count(3)
    if lang == "en":
        expect(answer.locator(".verdict.info .answer")).to_have_text("No minimum")
        expect(answer.locator("tr.current th")).to_have_text("below 0")
    page.locator("#min-score").fill("3000")
    expect(answer.locator(".verdict.info .answer")).to_have_text("120")
    expect(answer.locator("tbody tr").last).to_have_class(re.compile("current"))
    _show(page, "#answer-minimum")
    _fits(page, scroll_width)
    shot(page, f"referee-minimum-{lang}")


def test_german_pad_letters(page: Page, live_server: str) -> None:
    _open(page, live_server, "de")
    page.locator("#meld-cards").tap()
    _tap(page, "D", "D", "D")  # Dame
    _verdict(page, "meld", "yes")
    expect(page.locator("#answer-meld .facts .playing-card").first).to_have_text("D")
    _tap(page, "clear", "B", "B", "B")  # Bube
    _verdict(page, "meld", "yes")
    expect(page.locator("#answer-meld .facts .playing-card").first).to_have_text("B")


def test_whole_page_fits_a_phone(
    page: Page, live_server: str, shot: Shot, scroll_width: Width
) -> None:
    _open(page, live_server, "en", "&ruleset=classic&players=6&options=%7B%22two_value%22%3A50%7D")
    expect(page.locator(".house-rules")).to_contain_text("Value of a two")
    page.locator("#meld-cards").tap()
    _fits(page, scroll_width)
    shot(page, "referee-full-en", full_page=True)
    small = page.evaluate("""() => [...document.querySelectorAll(
        'main button, main .segmented a, main .jump a, main select, main input[type=text],'
        + ' main input[type=number], main .segmented label')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height,
                   e.getBoundingClientRect().width])
        .filter(([, h, w]) => h < 44 || w < 44)""")
    assert small == []


def test_without_javascript(
    browser: Browser, live_server: str, shot: Shot, scroll_width: Width
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/referee?lang=en&ruleset=polish&players=4")
        expect(page.locator("[data-cardpad]")).to_be_hidden()
        page.locator("#meld-cards").fill("8 8 2 2 X")
        page.locator("#q-meld button[type=submit]").click()
        page.wait_for_url("**/referee/meld#q-meld")
        _verdict(page, "meld", "yes")  # CSRF token sent by the plain form
        expect(page.locator("#meld-cards")).to_have_value("8 8 2 2 X")
        expect(page.locator("#answer-meld .others")).to_contain_text("German: No")
        page.locator("#dp-top").fill("2")
        page.locator("#q-discard-pile button[type=submit]").click()
        page.wait_for_url("**/referee/discard-pile#q-discard-pile")
        _verdict(page, "discard-pile", "no")
        expect(page.locator('input[name="players"]').first).to_have_value("4")
        assert scroll_width(page) <= 390
        shot(page, "referee-nojs-en")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["de", "pl", "en"])
def test_rules_page(
    page: Page, live_server: str, lang: str, shot: Shot, scroll_width: Width
) -> None:
    page.goto(f"{live_server}/rules/polish?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    for anchor in (
        "overview",
        "cards",
        "melds",
        "initial-meld",
        "discard-pile",
        "going-out",
        "red-threes",
        "scoring",
    ):
        expect(page.locator(f"section#{anchor} h2")).to_be_visible()
    _fits(page, scroll_width)
    shot(page, f"rules-polish-{lang}")


def test_quoted_rule_links_to_its_section(
    page: Page, live_server: str, scroll_width: Width, shot: Shot
) -> None:
    _open(page, live_server, "en")
    page.locator("#meld-cards").tap()
    _tap(page, "8", "8", "2", "2", "X")
    _verdict(page, "meld", "no")
    page.locator("#answer-meld .rule-link").click()
    page.wait_for_url("**/rules/german#melds")
    section = page.locator("section#melds")
    expect(section).to_be_in_viewport()
    expect(section).to_contain_text("at least as many natural cards as wild cards")
    _fits(page, scroll_width)
    shot(page, "rules-german-melds-en")


def test_rules_page_of_three_is_fifty(
    page: Page, live_server: str, scroll_width: Width, shot: Shot
) -> None:
    page.goto(f"{live_server}/rules/three-is-fifty?lang=en")
    expect(page.locator("section#moves")).to_contain_text("left neighbour")
    _fits(page, scroll_width)
    shot(page, "rules-three-is-fifty-en")


def test_unknown_ruleset_page(page: Page, live_server: str) -> None:
    response = page.goto(f"{live_server}/rules/nope?lang=de")
    assert response is not None and response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "de")


# ---- "What may I do?" on a phone, in German and Polish ---------------------------------------


def test_the_pad_keys_stay_put_when_the_first_answer_comes(page: Page, live_server: str) -> None:
    """The answer's line at the top of the pad appears with the first answer: it must not push
    the keys down under a thumb tapping its second card (a tap would land on the line, and the
    card be lost)."""
    _open(page, live_server, "en")
    page.locator("#meld-cards").tap()
    pad = page.locator("[data-cardpad]")
    key = pad.locator('[data-card="K"]')
    expect(key).to_be_visible()
    before = key.bounding_box()
    _tap(page, "K")
    expect(pad.locator(".pad-verdict")).to_be_visible()  # the first answer is in
    assert key.bounding_box() == before
    _tap(page, "K", "K")
    expect(page.locator("#meld-cards")).to_have_value("K K K ")
    assert key.bounding_box() == before


OPTIONS_CASES = {
    # seed 003: a Polish side that has not melded takes an unfrozen pile (K-K-Joker = 70).
    "pl": {
        "query": "&ruleset=polish&players=4",
        "hand": ["K", "X", "D", "D", "D"],
        "take": "Weź stos kart odkrytych",
        "out": "Wyjdź",
    },
    # seed 000: the German pile is frozen for a side that has not melded: a natural pair.
    "de": {
        "query": "&ruleset=german",
        "hand": ["K", "K", "D", "D", "D", "X"],
        "take": "Den Abwurfstapel nehmen",
        "out": "Ausmachen",
    },
}


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_what_may_i_do(
    page: Page, live_server: str, lang: str, shot: Shot, scroll_width: Width
) -> None:
    case = OPTIONS_CASES[lang]
    _open(page, live_server, lang, case["query"])
    # The question comes first: the one players reach for.
    expect(page.locator(".jump a").first).to_have_attribute("href", "#q-options")
    page.locator("#q-options input[name=side_has_melded][value=no]").check()
    page.locator("#op-hand").tap()
    _tap(page, *case["hand"])
    expect(page.locator("#op-hand")).to_have_value(" ".join(case["hand"]) + " ")
    # Live: the moves appear as the cards are tapped, before any top card.
    expect(page.locator("#answer-options [data-move=initial_meld]").first).to_be_visible()
    page.locator("#op-top").tap()
    _tap(page, "K")
    take = page.locator("#answer-options [data-move=take_pile]")
    expect(take).to_be_visible()
    expect(take).to_contain_text(case["take"])
    expect(take.locator(".rule-link")).to_have_attribute(
        "href", re.compile(r"/rules/(polish|german)#discard-pile")
    )
    _fits(page, scroll_width)
    _show(page, "#answer-options", "start")
    shot(page, f"referee-options-{lang}")

    # After the draw: seven cards of a rank and the side's canasta-to-be: going out.
    page.locator("#op-top").fill("")
    page.locator("#q-options input[name=side_has_melded][value=yes]").check()
    page.locator("#op-drawn").check()
    page.locator("#op-hand").tap()
    _tap(page, "clear", "7", "7", "9")
    page.locator("#op-melds").tap()
    _tap(page, "7", "7", "7", "7", "7", "2", "2")
    out = page.locator("#answer-options [data-move=go_out]")
    expect(out).to_be_visible()
    expect(out).to_contain_text(case["out"])
    # docs/rulebook.md §1: twos 50 in German, 20 in Polish; 7 sevens (35) + two twos + 300 + 100.
    expect(out).to_contain_text("535" if lang == "de" else "475")
    _fits(page, scroll_width)
    _show(page, "#answer-options", "start")
    shot(page, f"referee-options-out-{lang}")


def test_black_threes_on_the_german_pad(page: Page, live_server: str) -> None:
    """The pad writes 3♠, never "3b" (B is the jack in German), and the answer
    speaks of black threes."""
    _open(page, live_server, "de")
    page.locator("#meld-cards").tap()
    _tap(page, "3\u2660", "3\u2660", "3\u2660")
    expect(page.locator("#meld-cards")).to_have_value("3\u2660 3\u2660 3\u2660 ")
    page.locator("#meld-going-out").check()
    _verdict(page, "meld", "yes")
    expect(page.locator("#answer-meld")).to_contain_text("schwarze Dreien")
    expect(page.locator("#answer-meld .rule-quote")).to_contain_text("Schwarze Dreien")
