"""JSON for the API blueprints: responses, the request body, and the engine's typed answers
turned into HTTP (docs/api.md §3).

The JSON shapes of the engine's answers and their statuses are made by the pure
:mod:`scorekeeper.stateless.bodies` (re-exported here), which the phone's engine carries too.
Problems become ``{code, message, where, params}`` in the reader's language on the way out.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from flask import Response, current_app, request
from werkzeug.exceptions import HTTPException

from ...rules.problems import Problem
from ...rules.scoring import Rejected, ScoreAnswer
from ...stateless.bodies import (
    VERDICT_FACTS,
    Body,
    EngineAnswer,
    answer_body,
    score_body,
    side_body,
    status_of,
    verdict_body,
)
from ...store.errors import GameProblems, VersionConflict
from ..app.answers import dumped_response, json_response, problem_response
from ..words.messages import jsonable

__all__ = [
    "VERDICT_FACTS",
    "Body",
    "EngineAnswer",
    "answer_body",
    "answer_response",
    "dumped_response",
    "edge_value",
    "game_problems_response",
    "json_response",
    "problem_response",
    "read_json",
    "read_object",
    "score_body",
    "side_body",
    "status_of",
    "verdict_body",
    "version_conflict_response",
]


# ---- responses ---------------------------------------------------------------------------------


Read = TypeVar("Read")


def edge_value(value: Read | Rejected) -> Read:
    """What the edge read, or its problems raised as the store's (:class:`GameProblems`,
    answered 400 or 422 by :func:`game_problems_response`)."""
    if isinstance(value, Rejected):
        raise GameProblems(list(value.problems))
    return value


def game_problems_response(error: GameProblems) -> Response:
    """A change to a stored game (of either kind) refused for its problems."""
    return json_response({"problems": error.problems}, error.status)


def version_conflict_response(conflict: VersionConflict) -> Response:
    """409: the change was made against an older version of the game; the answer says which
    version is current, so the phone can reload and try again."""
    return json_response(
        {
            "problems": [
                Problem(
                    "game.version_conflict",
                    "version",
                    {"given": conflict.given, "current": conflict.current},
                )
            ],
            "version": conflict.current,
        },
        409,
    )


# ---- the request body ----------------------------------------------------------------------------


def read_json() -> tuple[Any, Response | None]:
    """The request body as JSON, or a 400 answer with a problem."""
    raw = request.get_data(cache=False)
    try:
        return json.loads(raw), None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None, problem_response(400, "request.invalid_json")


def read_object(optional: bool = False) -> tuple[dict[str, Any] | None, Response | None]:
    """The request body as a JSON object (``{}`` for an empty body when ``optional``), or a
    400 answer with a problem."""
    if optional and not request.get_data(cache=True).strip():
        return {}, None
    data, error = read_json()
    if error is not None:
        return None, error
    if not isinstance(data, dict):
        return None, problem_response(400, "request.type", expected="object")
    return data, None


# ---- the engine's answers ----------------------------------------------------------------------
# Made by the pure scorekeeper.stateless.bodies (the phone's engine carries it too).


def answer_response(answer: EngineAnswer, question: str = "", with_rule: bool = False) -> Response:
    """An engine answer as the HTTP response of docs/api.md §3."""
    if isinstance(answer, ScoreAnswer):
        # Sides hold numbers, names and cards only: just the warnings need words (a
        # score answer is not walked value by value for problems it cannot hold).
        body = score_body(answer)
        body["warnings"] = jsonable(body["warnings"], with_rule)
        return dumped_response(body, status_of(answer))
    return json_response(answer_body(answer, question), status_of(answer), with_rule)


def http_error(error: HTTPException) -> Response:
    """An HTTP error of the JSON API as a problem (the ``api`` blueprint's handler)."""
    status = error.code or 500
    code = {404: "request.not_found", 405: "request.method", 413: "request.too_large"}.get(
        status, "request.invalid"
    )
    if status == 413:  # only a body too large has a limit to tell
        return problem_response(400, code, limit=current_app.config.get("MAX_CONTENT_LENGTH"))
    answer = problem_response(status, code)
    if status == 405:  # the methods the address answers to (RFC 9110 §15.5.6)
        answer.headers.update((k, v) for k, v in error.get_headers() if k.lower() == "allow")
    return answer
