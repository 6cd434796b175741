"""The start page: a new game, and this browser's recent games to resume or forget."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    make_response,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import store
from ...store.db import session_scope
from ..fifty import recent as fifty
from ..fifty.recent import recent_games as recent_fifty
from ..play import pages
from ..words.i18n import current_language
from ..words.names import ruleset_title

bp = Blueprint("home", __name__)


@dataclass(frozen=True)
class RecentGame:
    """A game in the start page's list: its key, its ruleset and its state."""

    game_id: str
    ruleset: str
    state: store.GameState


def _cookies() -> dict[str, str]:
    """The cookie that lists this browser's games of each kind."""

    return {"canasta": pages.CANASTA_COOKIE, "fifty": pages.FIFTY_COOKIE}


#: games per page of each list on the start page
PAGE_SIZE = 10


@dataclass(frozen=True)
class Paging:
    """Which page of a list is shown: ``page`` of ``pages`` (1-based), the query parameter."""

    page: int
    pages: int
    arg: str


def _paging(arg: str, count: int) -> Paging:
    pages_ = max(1, math.ceil(count / PAGE_SIZE))
    asked = request.args.get(arg, 1, type=int) or 1
    return Paging(min(max(1, asked), pages_), pages_, arg)


@bp.get("/")
def index() -> Response:
    """The start page: every game this phone holds, newest first, a page of each kind."""

    recent: list[RecentGame] = []
    ids = pages.recent_ids(pages.CANASTA_COOKIE)
    paging = _paging("page", 0)
    if ids:
        with session_scope() as session:
            count = store.recent_count(session, ids)
            paging = _paging("page", count)
            start = (paging.page - 1) * PAGE_SIZE
            for game in store.recent_games(session, limit=PAGE_SIZE, ids=ids, offset=start):
                recent.append(
                    RecentGame(game.id, ruleset_title(game.ruleset), store.game_state(game))
                )
    fifty_ids = fifty.recent_ids()
    fifty_paging = _paging("fifty_page", len(fifty_ids))
    start = (fifty_paging.page - 1) * PAGE_SIZE
    response = make_response(
        render_template(
            "home/index.html",
            recent=recent,
            recent_fifty=recent_fifty(fifty_ids[start : start + PAGE_SIZE]),
            paging=paging,
            fifty_paging=fifty_paging,
            has_games=bool(ids or fifty_ids),
        )
    )
    # The list comes from this browser's cookie: never cache it for anyone else.
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


@bp.post("/recent/forget")
def forget() -> Response:
    """Take a game off this browser's list of recent games. The game itself is kept: the
    list only holds this browser's keys, and whoever has the game's link can still open it."""
    cookie = _cookies().get(request.form.get("kind", ""))
    if cookie is None:
        abort(400)
    response = pages.see_other(url_for("home.index"))
    return pages.forget(response, cookie, request.form.get("game_id", ""))


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, in the reader's language: "add to home screen" then opens the
    scorekeeper like an app (own window, the app's colour and icon)."""

    body = {
        "name": _("Canasta scorekeeper"),
        "short_name": _("Canasta"),
        "description": _("Keep the score at the table, settle rule questions, print score sheets."),
        "lang": current_language(),
        "start_url": url_for("home.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f4f1ea",
        "theme_color": "#b3261e",
        "icons": [
            {
                "src": url_for("static", filename="icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": url_for("static", filename="icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": url_for("static", filename="icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
        "id": "/",
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (static/sw.js), served from ``/`` so that it may keep every page of
    the app for the phone's offline use; ``no-cache``: a phone asks for it again on each visit
    and so notices a new release (its address carries the release, see static/notices.js)."""
    folder = current_app.static_folder
    if folder is None:  # pragma: no cover - the app always has its static folder
        abort(404)
    response = make_response(Path(folder, "sw.js").read_bytes())
    response.mimetype = "text/javascript"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline() -> Response:
    """What the service worker shows, offline, for a page this phone never opened."""
    response = make_response(render_template("home/offline.html"))
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response
