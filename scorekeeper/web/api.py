"""The JSON API of CONTRACT.md §3 (stateless scoring and referee questions)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, request
from werkzeug.exceptions import HTTPException

from ..extensions import csrf
from ..rules import api as rules_api
from ..rules import ruleset as rulesets
from ..rules.problems import Problem
from .messages import jsonable

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


def json_response(body: Any, status: int = 200, with_rule: bool = False) -> Response:
    data = jsonable(body, with_rule)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate echoed back from the request
        text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    response = Response(text, status=status, mimetype="application/json")
    response.vary.add("Accept-Language")
    return response


def problem_response(status: int, code: str, where: str = "", **params: Any) -> Response:
    return json_response({"problems": [Problem(code, where, params)]}, status)


def read_json() -> tuple[Any, Response | None]:
    """The request body as JSON, or a 400 answer with a problem."""
    raw = request.get_data(cache=False)
    try:
        return json.loads(raw), None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None, problem_response(400, "request.invalid_json")


def _answer(handler: Callable[[Any], tuple[int, dict[str, Any]]],
            with_rule: bool = False) -> Response:
    data, error = read_json()
    if error is not None:
        return error
    try:
        status, body = handler(data)
    except RecursionError:
        return problem_response(400, "request.too_large", limit=rules_api.MAX_CARDS)
    return json_response(body, status, with_rule)


@bp.post("/score")
def score() -> Response:
    return _answer(rules_api.score)


@bp.post("/referee/meld")
def referee_meld() -> Response:
    return _answer(rules_api.referee_meld, with_rule=True)


@bp.post("/referee/initial-meld")
def referee_initial_meld() -> Response:
    return _answer(rules_api.referee_initial_meld, with_rule=True)


@bp.post("/referee/discard-pile")
def referee_discard_pile() -> Response:
    return _answer(rules_api.referee_discard_pile, with_rule=True)


@bp.post("/referee/go-out")
def referee_go_out() -> Response:
    return _answer(rules_api.referee_go_out, with_rule=True)


@bp.post("/referee/three-is-fifty")
def referee_three_is_fifty() -> Response:
    return _answer(rules_api.referee_three_is_fifty, with_rule=True)


@bp.get("/rulesets")
def ruleset_list() -> Response:
    return json_response({"rulesets": [
        {"id": rs.id, "name": rs.name, "players": list(rs.players_allowed)}
        for rs in rulesets.PRESETS.values()
    ]})


@bp.get("/rulesets/<ruleset_id>")
def ruleset_detail(ruleset_id: str) -> Response:
    rs = rulesets.PRESETS.get(ruleset_id)
    if rs is None:
        return problem_response(404, "ruleset.unknown", "ruleset", ruleset=ruleset_id[:40])
    players = request.args.get("players", type=int) or rs.default_players
    return json_response(rs.as_dict(players))


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException) -> Response:
    status = error.code or 500
    code = {404: "request.not_found", 405: "request.method", 413: "request.too_large"}.get(
        status, "request.invalid")
    if status == 413:
        status = 400
    return problem_response(status, code, limit=current_app.config.get("MAX_CONTENT_LENGTH"))
