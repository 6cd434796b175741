"""The stateless questions of the JSON API (docs/api.md §3: ``POST /api/v1/score`` and
``POST /api/v1/referee/…``) answered in pure Python: one function, :func:`answer`, that the
server's endpoints and the phone's engine (Pyodide in a Web Worker, docs/engine.md) both call
(the worker :func:`answer_json`).

    >>> status, body = answer("referee/meld", '{"ruleset": "german", "cards": "K K K"}', "en")
    >>> status, body["allowed"], body["reasons"][0]["message"]
    (200, True, 'Legal meld of kings: 3 natural, 0 wild, worth 30.')

It takes the request's JSON text as sent and the reader's language, reads the request into the
engine's values at the edge (:mod:`..edge.stateless`), asks the engine, and answers with the HTTP
status and the JSON body, every problem worded in that language (:mod:`.messages`, through the
project's catalogues read by the standard library, :mod:`.words`). Nothing here imports Flask,
Babel or SQLAlchemy, and nothing raises on any input.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..edge import stateless as edge_stateless
from ..edge.reading import MAX_CARDS
from ..rules.problems import Problem
from ..rules.scoring import Rejected, ScoreAnswer
from .bodies import Body, EngineAnswer, answer_body, options_body, score_body, status_of
from .messages import jsonable
from .words import language

#: Each question by its path after ``/api/v1/`` (the referee's after ``referee/`` as its
#: ``kind``): the reader of the request, and the name its verdict's facts are listed under.
QUESTIONS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "score": (edge_stateless.score, ""),
    "referee/meld": (edge_stateless.referee_meld, "meld"),
    "referee/initial-meld": (edge_stateless.referee_initial_meld, "initial-meld"),
    "referee/discard-pile": (edge_stateless.referee_discard_pile, "discard-pile"),
    "referee/go-out": (edge_stateless.referee_go_out, "go-out"),
    "referee/options": (edge_stateless.referee_options, "options"),
    "referee/three-is-fifty": (edge_stateless.referee_three_is_fifty, "three-is-fifty"),
}


def problem(status: int, code: str, where: str = "", **params: Any) -> tuple[int, Body]:
    """One problem as the whole answer, worded in the current language."""
    return status, jsonable({"problems": [Problem(code, where, params)]})


def answer(question: str, raw: str | bytes, lang: str) -> tuple[int, Body]:
    """The status and JSON body the API answers to ``raw`` (the request body) for
    ``question`` (a key of :data:`QUESTIONS`), with messages in ``lang``."""
    with language(lang):
        found = QUESTIONS.get(question)
        if found is None:
            return problem(404, "request.not_found")
        ask, kind = found
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return problem(400, "request.invalid_json")
        try:
            result = ask(data)
        except RecursionError:
            return problem(400, "request.too_large", limit=MAX_CARDS)
        return _body(result, kind)


def _body(result: Any, kind: str) -> tuple[int, Body]:
    if kind == "options" and not isinstance(result, Rejected):
        return 200, jsonable(options_body(result), with_rule=True)
    engine_answer: EngineAnswer = result
    status = status_of(engine_answer)
    if isinstance(engine_answer, ScoreAnswer):
        # Sides hold numbers, names and cards only: just the warnings need words (a score
        # answer is not walked value by value for problems it cannot hold).
        body = score_body(engine_answer)
        body["warnings"] = jsonable(body["warnings"])
        return status, body
    # A referee question's reasons name the rule each rests on ("options": not when refused).
    with_rule = kind not in ("", "options")
    return status, jsonable(answer_body(engine_answer, kind), with_rule)


def answer_json(question: str, raw: str, lang: str) -> str:
    """:func:`answer` as one JSON text ``[status, body]``: what the phone's worker hands back
    to the page."""
    status, body = answer(question, raw, lang)
    return json.dumps([status, body], ensure_ascii=False, separators=(",", ":"))
