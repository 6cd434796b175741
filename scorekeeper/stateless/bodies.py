"""The engine's typed answers as the JSON bodies of docs/api.md §3, problems still
:class:`~..rules.problems.Problem` objects (:func:`.messages.jsonable` words them).

The rules engine answers with dataclasses (:class:`~..rules.scoring.Rejected`,
:class:`~..rules.scoring.ScoreAnswer`, :class:`~..rules.referee.Verdict`, the 3 ist 50
answers); here they become a status and a JSON shape: 400 for a request that cannot be read
(``request.*`` codes), 422 for one that breaks rules, 200 for an answer.
"""

from __future__ import annotations

from typing import Any

from ..rules.fifty import FiftyMoves, FiftyScore
from ..rules.referee import Verdict
from ..rules.scoring import Rejected, ScoreAnswer, SideScore
from ..rules.turns import TurnOptions

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


def status_of(answer: EngineAnswer) -> int:
    """200 for an answer; 400 when the request was unreadable; 422 when it broke rules."""
    if isinstance(answer, Rejected):
        return 400 if answer.unreadable else 422
    return 200


def side_body(side: SideScore) -> Body:
    """One side of a score answer (docs/api.md §3 ``teams[i]``)."""
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


def options_body(answer: TurnOptions) -> Body:
    """ "What may I do?": every legal move of the turn, each with its rule."""
    return {
        "moves": [m.as_dict() for m in answer.moves],
        "notes": list(answer.notes),
        "required": answer.required,
        "needed": answer.needed,
    }
