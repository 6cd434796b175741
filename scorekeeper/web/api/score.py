"""The JSON API of docs/api.md §3 (stateless scoring and referee questions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, request
from werkzeug.exceptions import HTTPException

from ...edge import stateless as edge_stateless
from ...extensions import csrf
from ...rules import disputes, fifty
from ...rules import ruleset as rulesets
from ...rules.scoring import Rejected
from ...stateless import questions
from ..referee.quotes import ruling_quotes
from ..words.i18n import select_locale
from .answers import (
    answer_response,
    dumped_response,
    http_error,
    json_response,
    problem_response,
    read_json,
)

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
# the API's HTTP errors as problems (a module of its own: registered with the routes kept)
bp.register_error_handler(HTTPException, http_error)


def _answer(question: str) -> Response:
    """The stateless ``question`` answered by :func:`scorekeeper.stateless.questions.answer`,
    the one function the phone's engine calls too (docs/engine.md), in the reader's language."""
    status, body = questions.answer(question, request.get_data(cache=False), select_locale())
    return dumped_response(body, status)


@bp.post("/score")
def score() -> Response:
    return _answer("score")


@bp.post("/referee/meld")
def referee_meld() -> Response:
    return _answer("referee/meld")


@bp.post("/referee/initial-meld")
def referee_initial_meld() -> Response:
    return _answer("referee/initial-meld")


@bp.post("/referee/discard-pile")
def referee_discard_pile() -> Response:
    return _answer("referee/discard-pile")


@bp.post("/referee/go-out")
def referee_go_out() -> Response:
    return _answer("referee/go-out")


@bp.post("/referee/options")
def referee_options() -> Response:
    """ "What may I do?": every legal move of the turn, each with its rule (docs/api.md §3)."""
    return _answer("referee/options")


@bp.post("/referee/three-is-fifty")
def referee_three_is_fifty() -> Response:
    return _answer("referee/three-is-fifty")


#: The disputes of :mod:`scorekeeper.rules.disputes`, by the path after ``/referee/``.
DISPUTES: dict[str, Callable[[Any], disputes.Ruling | Rejected]] = {
    "partner-permission": edge_stateless.referee_partner_permission,
    "end-of-stock": edge_stateless.referee_end_of_stock,
    "black-three-block": edge_stateless.referee_black_three_block,
    "red-three-from-pile": edge_stateless.referee_red_three_from_pile,
    "three-is-fifty-deal": edge_stateless.referee_three_is_fifty_deal,
    "two-player-draw": edge_stateless.referee_two_player_draw,
}
assert tuple(DISPUTES) == disputes.KINDS


def _dispute(kind: str) -> Response:
    """A dispute's ruling, each reason with its rule, and the rules quoted from the ruleset's
    page in the reader's language (``quotes``). Answered here, not by :mod:`.stateless`: the
    quotes are the rules pages' own text, which the phone's engine does not carry."""
    data, error = read_json()
    if error is not None:
        return error
    answer = DISPUTES[kind](data)
    if isinstance(answer, Rejected):
        return answer_response(answer)
    body = answer.body()
    if kind == "three-is-fifty-deal":
        rs, players = None, 0
    else:
        rs, players, _problems = rulesets.resolve_ruleset(
            data.get("ruleset"),
            data.get("players", 2 if kind == "two-player-draw" else None),
            data.get("options"),
        )
        if rs is None:  # a two-player question of a ruleset without two players
            rs = rulesets.PRESETS.get(str(data.get("ruleset")))
            players = rs.default_players if rs else 0
    body["quotes"] = [q.as_dict() for q in ruling_quotes(answer, rs, players)]
    return json_response(body, with_rule=True)


@bp.post("/referee/partner-permission")
def referee_partner_permission() -> Response:
    """ "Darf ich ausmachen?": what the partner's yes or no binds (seed 000:125)."""
    return _dispute("partner-permission")


@bp.post("/referee/end-of-stock")
def referee_end_of_stock() -> Response:
    """The last cards of the stock and the pile once it is empty (seed 000:133-134)."""
    return _dispute("end-of-stock")


@bp.post("/referee/black-three-block")
def referee_black_three_block() -> Response:
    """A black three stops the pile for the next player only (seed 000:114)."""
    return _dispute("black-three-block")


@bp.post("/referee/red-three-from-pile")
def referee_red_three_from_pile() -> Response:
    """A red three taken with the pile gets no replacement (seed 003:80)."""
    return _dispute("red-three-from-pile")


@bp.post("/referee/three-is-fifty-deal")
def referee_three_is_fifty_deal() -> Response:
    """3 ist 50: the deal, the middle, the dealer and the turn (seed 001:24-30, 001:65)."""
    return _dispute("three-is-fifty-deal")


@bp.post("/referee/two-player-draw")
def referee_two_player_draw() -> Response:
    """Two-player draws and the last cards of the stock (seed 002:129-133)."""
    return _dispute("two-player-draw")


@bp.get("/rulesets")
def ruleset_list() -> Response:
    return json_response(
        {
            "rulesets": [
                {"id": rs.id, "name": rs.name, "players": list(rs.players_allowed)}
                for rs in rulesets.PRESETS.values()
            ]
            + [
                {
                    "id": fifty.RULESET_ID,
                    "name": fifty.RULESET_NAME,
                    "players": list(fifty.PLAYERS_ALLOWED),
                }
            ]
        }
    )


@bp.get("/rulesets/<ruleset_id>")
def ruleset_detail(ruleset_id: str) -> Response:
    if ruleset_id == fifty.RULESET_ID:
        return _fifty_detail()
    rs = rulesets.PRESETS.get(ruleset_id)
    if rs is None:
        return problem_response(404, "ruleset.unknown", "ruleset", ruleset=ruleset_id[:40])
    raw = request.args.get("players")
    if raw is None:
        return json_response(rs.as_dict(rs.default_players))
    players = request.args.get("players", type=int)
    if players not in rs.players_allowed:  # a deck for a table this ruleset is not played at
        return problem_response(
            422,
            "players.not_allowed",
            "players",
            players=raw[:12],
            allowed=list(rs.players_allowed),
        )
    return json_response(rs.as_dict(players))


def _fifty_detail() -> Response:
    """3 ist 50's numbers (docs/rulebook.md §7); ``?players=`` from 2 to 6 sizes the deck."""
    raw = request.args.get("players")
    if raw is None:
        return json_response(fifty.ruleset_dict())
    players = request.args.get("players", type=int)
    if players not in fifty.PLAYERS_ALLOWED:
        return problem_response(
            422,
            "players.not_allowed",
            "players",
            players=raw[:12],
            allowed=list(fifty.PLAYERS_ALLOWED),
        )
    return json_response(fifty.ruleset_dict(players))
