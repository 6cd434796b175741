"""JSON answers as HTTP responses: the writers every JSON answer of the app goes through (the
API's blueprints, and the app's own guards and error handlers for ``/api/`` paths). Here, in
the app's bottom layer, so that a guard needs nothing of the API above it (docs/api.md §3:
problems as ``{code, message, where, params}`` in the reader's language)."""

from __future__ import annotations

import json
from typing import Any

from flask import Response

from ...rules.problems import Problem
from ..words.messages import jsonable

__all__ = ["dumped_response", "json_response", "problem_response"]


def dumped_response(body: Any, status: int = 200) -> Response:
    """``body`` (plain JSON values only) as a JSON response, safe for any echoed text."""
    try:
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:
        # A lone surrogate from the request echoed in a problem: \u escapes are valid JSON.
        data = json.dumps(body, separators=(",", ":")).encode()
    response = Response(data, status=status, mimetype="application/json")
    response.headers["Vary"] = "Accept-Language"  # a new response: the only Vary so far
    return response


def json_response(body: Any, status: int = 200, with_rule: bool = False) -> Response:
    """``body`` as JSON, every :class:`Problem` in it turned into a translated message
    (``with_rule``: with the rules-page anchor it rests on, as the referee answers have)."""
    return dumped_response(jsonable(body, with_rule), status)


def problem_response(status: int, code: str, where: str = "", **params: Any) -> Response:
    """One problem as the whole answer."""
    return json_response({"problems": [Problem(code, where, params)]}, status)
