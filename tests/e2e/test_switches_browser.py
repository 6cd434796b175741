"""The ruleset switches and the two-way switches fit a phone in every language: no switch
label on two lines, no word cut in two, no sideways scrolling, thumb-sized parts (polish task
2: "Amerikanisch" wrapped onto two lines on the referee page at 390 px)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

SIZES = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 740}}
LANGS = ("de", "pl", "en")

#: Switch labels: on one line each. Chips (the new-game rulesets) may wrap between words.
SWITCHES = ".segmented > a, .segmented > label, .seg label"
LABELS = SWITCHES + ", label.chip"

MEASURE = """([switches, labels]) => {
  const lines = (el) => {  // the lines its text takes (a hidden radio button is no line)
    const bottoms = new Set();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(walker.currentNode);
      for (const r of range.getClientRects()) if (r.width > 1) bottoms.add(Math.round(r.bottom));
    }
    return bottoms.size;
  };
  const shown = (sel) => Array.from(document.querySelectorAll(sel))
    .filter(e => e.offsetParent !== null);
  const text = (e) => e.textContent.replace(/\\s+/g, ' ').trim();
  const wrapped = shown(switches).filter(e => lines(e) > 1).map(text);
  const small = shown(switches).filter(e => {
    const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 40;
  }).map(text);
  // A word cut in two: one word whose own box spans two lines.
  const broken = [];
  for (const el of shown(labels)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const re = /\\S+/g;
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 1)
          .map(r => Math.round(r.bottom)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return {scroll: document.documentElement.scrollWidth, count: shown(switches).length,
          wrapped, small, broken};
}"""


def api_game(page: Page, live_server: str) -> str:
    created = page.request.post(
        f"{live_server}/api/v1/games",
        data={
            "ruleset": "german",
            "players": 4,
            "sides": [
                {"name": "Us", "players": ["Anna", "Ben"]},
                {"name": "Them", "players": ["Cleo", "Dan"]},
            ],
        },
    )
    assert created.status == 201
    return str(created.json()["id"])


@pytest.mark.parametrize("size", SIZES)
def test_switches_fit_the_phone_in_every_language(
    size: str, live_server: str, browser: Browser, shot: Callable[..., Path]
) -> None:
    viewport = SIZES[size]
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
    context.set_default_timeout(5000)
    try:
        page = context.new_page()
        game_id = api_game(page, live_server)
        pages = {
            "referee": "/referee",
            "new-game": "/games/new",
            "rules": "/rules/german",
            "hand": f"/games/{game_id}/hands/new",
        }
        found = {}
        for lang in LANGS:
            for name, path in pages.items():
                page.goto(f"{live_server}{path}?lang={lang}")
                page.wait_for_selector("html[data-ready='1']", state="attached")
                measured = page.evaluate(MEASURE, [SWITCHES, LABELS])
                assert measured["count"] > 0 or name == "new-game", name
                problems = {
                    key: measured[key] for key in ("wrapped", "small", "broken") if measured[key]
                }
                if measured["scroll"] > viewport["width"]:
                    problems["scroll"] = measured["scroll"]
                if problems:
                    found[f"{lang} {name}"] = problems
            shot(page, f"switches-{size}-{lang}-hand")
        page.goto(f"{live_server}/referee?lang=de")
        shot(page, f"switches-{size}-de-referee")
        assert found == {}
    finally:
        context.close()
