"""Error pages (HTML) and JSON problems for /api/ paths; never a bare 500."""

from __future__ import annotations

from flask import Flask, Response, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from ...store import db
from ..api.answers import problem_response
from . import security


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def init_app(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int] | Response:
        status = error.code or 500
        if _wants_json():
            code = {404: "request.not_found", 405: "request.method", 413: "request.too_large"}.get(
                status, "request.invalid"
            )
            return problem_response(
                400 if status == 413 else status, code, limit=request.max_content_length
            )
        return render_template("error.html", status=status), status

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        return render_template("error.html", status=400, csrf=True), 400

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[str, int] | Response:
        if isinstance(error, HTTPException):
            return http_error(error)
        if db.unreachable(error):  # the driver's own error, as a reconnect raises it
            return security.unreachable(error)
        app.logger.exception("unexpected error", exc_info=error)
        if _wants_json():
            return problem_response(500, "request.invalid")
        return render_template("error.html", status=500), 500

    _ = InternalServerError  # 500 handled above
