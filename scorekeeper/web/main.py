"""The start page: a new game, and this browser's recent games to resume."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, make_response, render_template
from werkzeug.wrappers import Response

from ..store import games as store
from ..store.db import session_scope

bp = Blueprint("main", __name__)


@dataclass(frozen=True)
class RecentGame:
    game_id: str
    ruleset: str
    state: store.GameState


@bp.get("/")
def index() -> Response:
    from .games import recent_ids, ruleset_title

    recent: list[RecentGame] = []
    ids = recent_ids()
    if ids:
        with session_scope() as session:
            for game in store.recent_games(session, limit=len(ids), ids=ids):
                recent.append(RecentGame(game.id, ruleset_title(game.ruleset),
                                         store.game_state(game)))
    response = make_response(render_template("main/index.html", recent=recent))
    # The list comes from this browser's cookie: never cache it for anyone else.
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response
