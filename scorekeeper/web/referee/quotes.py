"""The rule a dispute's ruling rests on, quoted from the rules page in the reader's language
(the JSON API and the referee page quote the same items, so both say what the page says)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flask import url_for

from ...rules import fifty
from ...rules.disputes import Ruling
from ...rules.explain import rule_item, section_of
from ...rules.problems import Problem
from ...rules.ruleset import RuleSet
from ..rulebook.book import RuleItem, rule_items, section_titles, three_is_fifty_book

FIFTY = fifty.RULESET_ID


@dataclass
class RuleQuote:
    """One rules-page item: its key, section title, text and where it is."""

    item: str
    title: str
    text: str
    url: str
    changed: bool = False

    def as_dict(self) -> dict[str, str]:
        return {"item": self.item, "section": self.title, "text": self.text, "url": self.url}


def _fifty_items() -> dict[str, RuleItem]:
    return {
        item.key: item
        for section in three_is_fifty_book(fifty.DEFAULT_JOKER)
        for item in section.items
    }


def quotes_for(
    reasons: Iterable[Problem],
    rs: RuleSet | None,
    players: int,
    *,
    changed: set[str] | None = None,
    house: str | None = None,
    limit: int = 3,
) -> list[RuleQuote]:
    """The rules-page items the reasons rest on, each once (``rs`` None: "3 ist 50")."""
    items = _fifty_items() if rs is None else rule_items(rs, players, changed or set())
    ruleset_id = FIFTY if rs is None else rs.id
    titles = section_titles()
    out: list[RuleQuote] = []
    seen: set[str] = set()
    for reason in reasons:
        key = rule_item(reason.code, reason.params)
        if key in seen or key not in items:
            continue
        seen.add(key)
        anchor = section_of(key)
        url = url_for("rulebook.show", ruleset_id=ruleset_id, options=house, _anchor=anchor)
        item = items[key]
        out.append(RuleQuote(key, titles.get(anchor, anchor), item.text, url, item.changed))
        if len(out) == limit:
            break
    return out


def ruling_quotes(ruling: Ruling, rs: RuleSet | None, players: int) -> list[RuleQuote]:
    return quotes_for(ruling.reasons, rs, players)
