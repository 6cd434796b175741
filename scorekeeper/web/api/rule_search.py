"""``GET /api/v1/rules/search?q=…&lang=de|pl|en``: the rule paragraphs that answer a dispute
typed in words, best first, each with the referee question that decides it (docs/rules.md)."""

from __future__ import annotations

from flask import Blueprint, Response, request

from ..rulebook.rule_map import live_referee
from ..rulebook.search import LANGS, read_question, search_rules
from ..words.i18n import current_language
from .answers import json_response, problem_response

#: its own blueprint (a read, no body): importing it loads nothing of the scoring API
bp = Blueprint("rulebook_api", __name__, url_prefix="/api/v1")


@bp.get("/rules/search")
def rules_search() -> Response:
    lang = request.args.get("lang") or current_language()
    if lang not in LANGS:
        return problem_response(400, "request.value", "lang")
    asked = read_question(request.args.get("q"))
    if asked.problem is not None:
        code, params = asked.problem
        return problem_response(400, code, "q", **params)
    results = [
        {
            "seed": p.seed,
            "line": p.line,
            "text": p.text,
            "referee": live_referee(p),
            "ruleset": p.ruleset,
            "summary": " ".join(t.summary_in(lang) for t in p.topics),
        }
        for p in search_rules(asked.question, lang)
    ]
    return json_response({"results": results})
