"""``GET /healthz`` (docs/api.md §5): 200 ``ok`` when the database answers a trivial
query, 503 otherwise. Caddy's active health checks (deploy/Caddyfile) and the Docker
``HEALTHCHECK`` ask it; it is exempt from the rate limits (``limits``) and from the host
check (``security``: the proxy asks it by the upstream's name), is never cached and shows
no link. The text is for machines, not translated."""

from __future__ import annotations

import logging

from flask import Blueprint, Flask, Response, current_app
from sqlalchemy import text

bp = Blueprint("health", __name__)
log = logging.getLogger(__name__)


def _answer(status: int, text: str) -> Response:
    response = Response(text + "\n", status, mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/healthz")
def healthz() -> Response:
    try:
        with current_app.extensions["scorekeeper.engine"].connect() as connection:
            connection.execute(text("SELECT 1")).scalar_one()
    except Exception as error:  # noqa: BLE001 -- any failure is "not healthy"
        log.warning("health check: the database does not answer: %s", error.__class__.__name__)
        return _answer(503, "unavailable")
    return _answer(200, "ok")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
