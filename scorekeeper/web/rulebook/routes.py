"""The rules pages: every ruleset explained in the reader's language (``/rules/<ruleset_id>``).

The blueprint only reads the request and renders: the text comes from :mod:`.rule_book`, its
tables from :mod:`.rule_tables`, and house rules given with ``?options=<json>`` are read by
:mod:`.house_rules` (the page marks what they change).
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request, url_for

from ...rules import three_is_fifty
from ...rules.ruleset import PRESETS, RULESET_IDS, get_ruleset
from ..words.names import ruleset_title
from .book import rule_book, three_is_fifty_book
from .house_rules import (
    read_fifty_house_rules,
    read_house_rules,
)

bp = Blueprint("rules_pages", __name__)

#: Every ruleset with a rules page, in the order of the page's ruleset switch.
RULES_PAGES: tuple[str, ...] = (*RULESET_IDS, three_is_fifty.RULESET_ID)


def _ruleset_links() -> list[tuple[str, str, str]]:
    return [
        (rid, ruleset_title(rid, short=True), url_for("rules_pages.show", ruleset_id=rid))
        for rid in RULES_PAGES
    ]


@bp.get("/rules/<ruleset_id>")
def show(ruleset_id: str) -> str:
    """A ruleset's rules, with the house rules of ``?options=`` applied and marked."""
    if ruleset_id == three_is_fifty.RULESET_ID:
        return _show_three_is_fifty()
    if ruleset_id not in PRESETS:
        abort(404)
    base = get_ruleset(ruleset_id)
    house = read_house_rules(base, request.args.get("options"))
    changed = set(house.ruleset.options_against(base))
    return render_template(
        "rules/show.html",
        title=ruleset_title(house.ruleset),
        base_id=base.id,
        house=house,
        sections=rule_book(house.ruleset, None, changed),
        ruleset_links=_ruleset_links(),
        referee=True,
    )


def _show_three_is_fifty() -> str:
    house, joker = read_fifty_house_rules(get_ruleset("german"), request.args.get("options"))
    return render_template(
        "rules/show.html",
        title=ruleset_title(three_is_fifty.RULESET_ID),
        base_id=three_is_fifty.RULESET_ID,
        house=house,
        sections=three_is_fifty_book(joker, joker != three_is_fifty.DEFAULT_JOKER),
        ruleset_links=_ruleset_links(),
        referee=False,
    )
