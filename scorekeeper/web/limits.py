"""Rate limits per client address (Flask-Limiter), generous for a real table (issue 12).

- creating a game (API, the new-game forms, "same players again"): ``LIMIT_CREATE``, default
  ``10 per minute;60 per hour`` -- an evening at one table creates a handful;
- changing hands (add, correct, delete, undo; API and forms): ``LIMIT_WRITE``, default
  ``60 per minute;600 per hour`` -- a hand takes minutes to play;
- every request but static files: ``LIMIT_ANY``, default ``600 per minute`` (a phone polling
  the view asks 12 times a minute; typing with the live preview a few times a second).

Only what was done counts for creation and writes (a 2xx or 303 answer): a form re-rendered
with problems or a 409 costs nothing. A client over a limit gets 429 with ``Retry-After`` and a
message in its language. The counts live in memory (one process) unless
``RATELIMIT_STORAGE_URI`` names a shared store (``redis://…``, needs ``pip install redis``).
Behind a reverse proxy the client address comes from ``X-Forwarded-For`` only with
``--behind-proxy`` (otherwise every client would look like the proxy).

Off under ``TESTING`` unless ``RATELIMIT_ENABLED`` is set; when off, Flask-Limiter is not even
imported (it and its ``limits`` package take ~40 ms of CPU at start, issue 16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, Response, render_template, request
from werkzeug.exceptions import TooManyRequests

from ..rules.problems import Problem

if TYPE_CHECKING:
    from flask_limiter import Limiter

DEFAULTS = {
    "LIMIT_CREATE": "10 per minute;60 per hour",
    "LIMIT_WRITE": "60 per minute;600 per hour",
    "LIMIT_ANY": "600 per minute",
}

#: endpoints that create a game
CREATE_ENDPOINTS = (
    "games_api.create",
    "games_api.import_games",
    "games.new_game",
    "games.play_again",
    "fifty.new_game",
    "fifty.play_again",
)
#: endpoints that change a game's hands (the entry routes of web.entry, the API, undo)
WRITE_ENDPOINTS = (
    "games_api.add_hand",
    "games_api.replace_hand",
    "games_api.delete_hand",
    "games.add_hand",
    "games.replace_hand",
    "games.delete_hand",
    "games.undo_delete",
    "fifty.add_entry",
    "fifty.replace_entry",
    "fifty.delete_entry",
)


def _done(response: Response) -> bool:
    """A change that happened: 2xx (htmx gets 200 with HX-Redirect) or a 303 redirect."""
    return response.status_code == 303 or (
        200 <= response.status_code < 300
        and (request.path.startswith("/api/") or "HX-Redirect" in response.headers)
    )


def _static() -> bool:
    return request.endpoint == "static"


def init_app(app: Flask) -> Limiter | None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.register_error_handler(429, too_many)
    if not app.config["RATELIMIT_ENABLED"]:
        return None  # a disabled Flask-Limiter would only pass every request through
    from flask_limiter import Limiter
    from flask_limiter.util import get_remote_address

    # One limiter per app (tests make many apps; each has its own counts).
    limiter = Limiter(
        get_remote_address,
        app=app,
        application_limits=[app.config["LIMIT_ANY"]],
        application_limits_exempt_when=_static,
        key_prefix="scorekeeper",
    )
    app.extensions["scorekeeper.limiter"] = limiter
    for endpoints, scope, value in (
        (CREATE_ENDPOINTS, "create", app.config["LIMIT_CREATE"]),
        (WRITE_ENDPOINTS, "write", app.config["LIMIT_WRITE"]),
    ):
        decorate = limiter.shared_limit(
            value, scope, methods=["POST", "PUT", "DELETE"], deduct_when=_done
        )
        for endpoint in endpoints:
            view = app.view_functions.get(endpoint)
            if view is not None:
                app.view_functions[endpoint] = decorate(view)
    return limiter


def too_many(error: TooManyRequests) -> Response:
    """429 in the reader's language; Flask-Limiter adds ``Retry-After``."""
    from .jsonapi import problem_response
    from .messages import message

    if request.path.startswith("/api/"):
        return problem_response(429, "request.rate_limited")
    html = render_template(
        "error.html", status=429, message=message(Problem("request.rate_limited", "", {}))
    )
    response = Response(html, 429, mimetype="text/html")
    if not response.headers.get("Retry-After"):
        response.headers["Retry-After"] = "60"
    return response
