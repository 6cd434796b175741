"""Every page in German and Polish, checked in a real browser for English leftovers.

The check reads every visible text node and every label-like attribute of the rendered page
and looks each one up among the English source strings of the catalogue: a text that is an
English msgid whose German/Polish translation differs is a leftover. Text inside an element
with its own ``lang`` (a rule source quoted in its language) is not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]

TEXTS_JS = """
() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName)) continue;
    // words quoted in their own language (a rule source, marked lang="…") are no UI text
    if (el.closest('body [lang]')) continue;
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll('[title],[aria-label],[placeholder],[alt]')) {
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  for (const el of document.querySelectorAll('input[type=submit],button[value]')) {
    if (el.value && el.tagName === 'INPUT') out.push(el.value.trim());
  }
  return out;
}
"""


def english_leftovers_for(locale: str) -> set[str]:
    """English source strings (no placeholders) that the catalogue translates differently."""
    path = ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    found = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in ids:
            if not msgid or "%(" in msgid or "{" in msgid:
                continue
            if msgid not in strings and len(re.sub(r"\W", "", msgid)) >= 3:
                found.add(msgid.strip())
    return found


def _create_game(live_app: Flask) -> tuple[str, str]:
    client = live_app.test_client()
    created = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "sides": [
                {"name": "Nord", "players": ["Ala", "Ola"]},
                {"name": "Süd", "players": ["Jürgen", "Żaneta"]},
            ],
        },
    ).get_json()
    client.post(
        f"/api/v1/games/{created['id']}/hands",
        json={
            "version": created["version"],
            "teams": [
                {
                    "melds": [["K"] * 7, ["5", "5", "5"]],
                    "red_threes": 1,
                    "hands": [[], ["4"]],
                    "went_out": True,
                },
                {"quick": {"mixed_canastas": 1, "meld_points": 120, "hand_points": 35}},
            ],
        },
    )
    return created["id"], created["view_id"]


@pytest.fixture(scope="module")
def pages(live_app: Flask) -> list[str]:
    game_id, view_id = _create_game(live_app)
    return [
        "/",
        "/games/new",
        f"/games/{game_id}",
        f"/games/{game_id}/hands/new",
        f"/games/{game_id}/hands/1/edit",
        f"/view/{view_id}",
        "/referee",
        "/referee?ruleset=polish&players=2",
        "/rules/german",
        "/rules/polish",
        "/rules/classic",
        "/rules/three-is-fifty",
        "/fifty/new",
        "/fifty/referee",
        "/no-such-page",
    ]


@pytest.mark.parametrize("locale", ["de", "pl"])
def test_no_english_leftovers(
    page: Page, live_server: str, pages: list[str], locale: str, scroll_width: Callable[[Page], int]
) -> None:
    leftovers = english_leftovers_for(locale)
    assert len(leftovers) > 100
    found: dict[str, list[str]] = {}
    for path in pages:
        sep = "&" if "?" in path else "?"
        page.goto(f"{live_server}{path}{sep}lang={locale}")
        assert page.locator("html").get_attribute("lang") == locale
        texts = page.evaluate(TEXTS_JS)
        english = sorted({t for t in texts if t in leftovers})
        if english:
            found[path] = english
        assert scroll_width(page) <= 390, path
    assert found == {}


def test_english_pages_are_english(page: Page, live_server: str) -> None:
    """The check above can fail: on the English page the same texts are found."""
    page.goto(f"{live_server}/referee?lang=en")
    texts = set(page.evaluate(TEXTS_JS))
    assert texts & english_leftovers_for("de")
