"""Error pages (HTML) and JSON problems for /api/ paths; never a bare 500."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import HTTPException, InternalServerError

from ...rules.problems import Problem
from ...store import db
from ..words.messages import message
from . import security
from .answers import problem_response
from .limits import notice_response, wants_notice


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
            # only a body too large has a limit to tell
            limit: dict[str, Any] = {"limit": request.max_content_length} if status == 413 else {}
            answer = problem_response(400 if status == 413 else status, code, "", **limit)
            if status == 405:  # the methods the address answers to (RFC 9110 §15.5.6)
                answer.headers.update(
                    (k, v) for k, v in error.get_headers() if k.lower() == "allow"
                )
            return answer
        return render_template("error.html", status=status), status

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        return render_template("error.html", status=400, csrf=True), 400

    @app.errorhandler(IntegrityError)
    def constraint(error: IntegrityError) -> tuple[str, int] | Response:
        """A database constraint refused a write that raced another (the store checks every
        one first, under the lock of what it changes): 409 in words, never a 500. Nothing
        was stored: the transaction was rolled back."""
        app.logger.warning("a write was refused by a constraint: %s", error.orig)
        if _wants_json():
            return problem_response(409, "request.conflict")
        text = message(Problem("request.conflict", "", {}))
        if wants_notice():  # an htmx form keeps what it holds and shows the sentence
            return notice_response(409, text)
        return render_template("error.html", status=409, message=text), 409

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
