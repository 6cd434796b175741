"""The rules pages: every ruleset explained in the reader's language (``/rules/<ruleset_id>``).

The blueprint only reads the request and renders: the text comes from :mod:`.book`, its
tables of numbers from :mod:`.score_tables`, and house rules given with ``?options=<json>``
are read by :mod:`.house_rules` (the page marks what they change).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, make_response, render_template, request, url_for
from flask_babel import gettext as _

from ...rules import fifty
from ...rules.ruleset import PRESETS, RULESET_IDS, get_ruleset
from ..app import htmx
from ..words.i18n import current_language
from ..words.names import ruleset_title
from .book import rule_book, three_is_fifty_book
from .house_rules import (
    read_fifty_house_rules,
    read_house_rules,
)
from .rule_map import referee_kinds
from .search import PAGE_FOUND, read_question, search_rules
from .sources import answers, source_groups
from .table_rules import settled_items, table_items

bp = Blueprint("rulebook", __name__)

#: Every ruleset with a rules page, in the order of the page's ruleset switch.
RULES_PAGES: tuple[str, ...] = (*RULESET_IDS, fifty.RULESET_ID)


def _ruleset_links() -> list[tuple[str, str, str]]:
    return [
        (rid, ruleset_title(rid, short=True), url_for("rulebook.show", ruleset_id=rid))
        for rid in RULES_PAGES
    ]


@bp.get("/rules/<ruleset_id>")
def show(ruleset_id: str) -> str:
    """A ruleset's rules, with the house rules of ``?options=`` applied and marked."""
    if ruleset_id == fifty.RULESET_ID:
        return _show_three_is_fifty()
    if ruleset_id not in PRESETS:
        abort(404)
    base = get_ruleset(ruleset_id)
    house = read_house_rules(base, request.args.get("options"))
    changed = set(house.ruleset.options_against(base))
    return render_template(
        "rulebook/show.html",
        title=ruleset_title(house.ruleset),
        base_id=base.id,
        house=house,
        sections=rule_book(house.ruleset, None, changed),
        ruleset_links=_ruleset_links(),
        referee=True,
        **_map_parts(base.id),
    )


def _show_three_is_fifty() -> str:
    house, joker = read_fifty_house_rules(get_ruleset("german"), request.args.get("options"))
    return render_template(
        "rulebook/show.html",
        title=ruleset_title(fifty.RULESET_ID),
        base_id=fifty.RULESET_ID,
        house=house,
        sections=three_is_fifty_book(joker, joker != fifty.DEFAULT_JOKER),
        ruleset_links=_ruleset_links(),
        referee=False,
        **_map_parts(fifty.RULESET_ID),
    )


def _map_parts(ruleset_id: str) -> dict[str, object]:
    """What a rules page shows from the rule map: the table procedures, the settled readings
    and where each paragraph of its source lives."""
    return {
        "table": table_items(ruleset_id),
        "settled": settled_items(ruleset_id),
        "sources": source_groups(ruleset_id, current_language()),
        "ask_ruleset": ruleset_id,
    }


@bp.get("/rules/map")
def whole_map() -> str:
    """Every paragraph of every source and where it lives."""
    return render_template(
        "rulebook/map.html",
        sources=source_groups(None, current_language()),
        ruleset_links=_ruleset_links(),
    )


@bp.get("/rules/search")
def search() -> Response:
    """A dispute asked in words: the rule paragraphs that answer it, best first (htmx gets the
    results alone; without JavaScript the whole page)."""
    ruleset = request.args.get("ruleset") or None
    if ruleset not in RULES_PAGES:
        ruleset = None
    asked = read_question(request.args.get("q"))
    lang = current_language()
    problem = None
    results = []
    if asked.problem is not None:
        problem = _search_problem(*asked.problem)
    else:
        kinds = referee_kinds()
        results = answers(search_rules(asked.question, lang, PAGE_FOUND), lang, kinds, ruleset)
    status = 400 if problem and request.args.get("q") is not None else 200
    context = {
        "question": asked.question,
        "problem": problem if request.args.get("q") is not None else None,
        "results": results,
        "ask_ruleset": ruleset,
    }
    if htmx.wants_fragment():
        response = make_response(render_template("rulebook/_ask_results.html", **context), status)
    else:
        response = make_response(
            render_template("rulebook/search.html", ruleset_links=_ruleset_links(), **context),
            status,
        )
    response.vary.add("HX-Request")
    return response


def _search_problem(code: str, params: dict[str, int]) -> str:
    if code == "request.text_too_long":
        return _("Please ask in at most %(maximum)s characters.", maximum=params["maximum"])
    return _("Type a question, for example: “May I take the pile with a black three on top?”")
