"""JSON for the API blueprints: responses, the request body, and the engine's typed answers
turned into HTTP (CONTRACT.md §3).

The rules engine answers with dataclasses (:class:`~..rules.scoring.Rejected`,
:class:`~..rules.scoring.ScoreAnswer`, :class:`~..rules.referee.Verdict`, the 3 ist 50
answers); only here do they become a status and a JSON shape: 400 for a request that cannot
be read (``request.*`` codes), 422 for one that breaks rules, 200 for an answer. Problems
become ``{code, message, where, params}`` in the reader's language on the way out.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response, request

from ...rules.problems import Problem
from ...rules.referee import Verdict
from ...rules.scoring import Rejected, ScoreAnswer, SideScore
from ...rules.three_is_fifty import FiftyMoves, FiftyScore
from ...store.errors import GameProblems, VersionConflict
from ..words.messages import jsonable

Body = dict[str, Any]

#: The facts each referee question adds to ``allowed`` and ``reasons``, in the order they
#: are sent (a fact that is ``None`` is left out).
VERDICT_FACTS: dict[str, tuple[str, ...]] = {
    "meld": ("points", "bonus", "total", "kind", "naturals", "wilds"),
    "initial-meld": ("required", "counted", "melds"),
    "discard-pile": ("melds", "required", "counted", "how"),
    "go-out": ("needed", "canastas", "bonus", "points"),
}

EngineAnswer = ScoreAnswer | FiftyScore | FiftyMoves | Verdict | Rejected


# ---- responses ---------------------------------------------------------------------------------


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


def status_of(answer: EngineAnswer) -> int:
    """200 for an answer; 400 when the request was unreadable; 422 when it broke rules."""
    if isinstance(answer, Rejected):
        return 400 if answer.unreadable else 422
    return 200


def side_body(side: SideScore) -> Body:
    """One side of a score answer (CONTRACT.md §3 ``teams[i]``)."""
    out: Body = {
        "score": side.score,
        "items": dict(side.items),
        "canastas": dict(side.canastas),
        "melded": side.melded,
    }
    if side.player_scores is not None:
        out["players"] = [{"score": s} for s in side.player_scores]
    if side.melds:
        out["melds"] = [
            {
                "cards": [c.rank for c in m.cards],
                "points": m.points,
                "bonus": m.bonus,
                "kind": m.kind,
            }
            for m in side.melds
        ]
    if side.details:
        out["details"] = dict(side.details)
    return out


def score_body(answer: ScoreAnswer) -> Body:
    return {"teams": [side_body(s) for s in answer.sides], "warnings": list(answer.warnings)}


def verdict_body(verdict: Verdict, question: str) -> Body:
    """A referee verdict: ``allowed``, ``reasons`` and the facts of ``question``."""
    body: Body = {"allowed": verdict.allowed, "reasons": list(verdict.reasons)}
    for name in VERDICT_FACTS[question]:
        value = getattr(verdict, name)
        if value is not None:
            body[name] = [list(m) for m in value] if name == "melds" else value
    return body


def answer_body(answer: EngineAnswer, question: str = "") -> Body:
    """The JSON body of an engine answer, problems still :class:`Problem` objects
    (``question``: the referee question a :class:`Verdict` answers)."""
    if isinstance(answer, Rejected):
        body: Body = {"problems": list(answer.problems)}
        if answer.scored is not None:
            body.update(score_body(answer.scored))
        return body
    if isinstance(answer, ScoreAnswer):
        return score_body(answer)
    if isinstance(answer, FiftyScore):
        return {
            "players": [{"points": p.points, "cards": p.cards} for p in answer.players],
            "options": answer.options.as_dict(),
            "winners": list(answer.winners),
        }
    if isinstance(answer, FiftyMoves):
        return {
            "allowed": answer.allowed,
            "reasons": list(answer.reasons),
            "moves": [m.as_dict() for m in answer.moves],
            "left_neighbour": answer.left_neighbour,
        }
    return verdict_body(answer, question)


def answer_response(answer: EngineAnswer, question: str = "", with_rule: bool = False) -> Response:
    """An engine answer as the HTTP response of CONTRACT.md §3."""
    if isinstance(answer, ScoreAnswer):
        # Sides hold numbers, names and cards only: just the warnings need words (a
        # score answer is not walked value by value for problems it cannot hold).
        body = score_body(answer)
        body["warnings"] = jsonable(body["warnings"], with_rule)
        return dumped_response(body, status_of(answer))
    return json_response(answer_body(answer, question), status_of(answer), with_rule)
