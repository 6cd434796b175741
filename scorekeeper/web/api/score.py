"""The JSON API of CONTRACT.md §3 (stateless scoring and referee questions)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request
from werkzeug.exceptions import HTTPException

from ... import stateless
from ...extensions import csrf
from ...rules import ruleset as rulesets
from ...rules import three_is_fifty as fifty
from ..words.i18n import select_locale
from .answers import dumped_response, json_response, problem_response

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


def _answer(question: str) -> Response:
    """The stateless ``question`` answered by :func:`scorekeeper.stateless.answer`, the one
    function the phone's engine calls too (docs/engine.md), in the reader's language."""
    status, body = stateless.answer(question, request.get_data(cache=False), select_locale())
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
    """ "What may I do?": every legal move of the turn, each with its rule (CONTRACT.md §3)."""
    return _answer("referee/options")


@bp.post("/referee/three-is-fifty")
def referee_three_is_fifty() -> Response:
    return _answer("referee/three-is-fifty")


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
    players = request.args.get("players", type=int) or rs.default_players
    return json_response(rs.as_dict(players))


def _fifty_detail() -> Response:
    """3 ist 50's numbers (RULES.md §7); ``?players=`` from 2 to 6 sizes the deck."""
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


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException) -> Response:
    status = error.code or 500
    code = {404: "request.not_found", 405: "request.method", 413: "request.too_large"}.get(
        status, "request.invalid"
    )
    if status == 413:
        status = 400
    return problem_response(status, code, limit=current_app.config.get("MAX_CONTENT_LENGTH"))
