"""``GET /healthz`` (docs/api.md §5): 200 ``ok`` while the database answers, 503 when it
does not; asked by Caddy under the upstream's name (no host check) and never rate limited."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine

from scorekeeper import create_app


def test_ok_while_the_database_answers(client: FlaskClient) -> None:
    response = client.get("/healthz", headers={"Host": "scorekeeper-app-1:8000"})
    assert response.status_code == 200 and response.data == b"ok\n"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.mimetype == "text/plain"
    # any other page still refuses a host it does not know
    assert client.get("/", headers={"Host": "scorekeeper-app-1:8000"}).status_code == 400


def test_503_when_the_database_does_not_answer(app: Flask, tmp_path: Path) -> None:
    good = app.extensions["scorekeeper.engine"]
    # a database file inside a folder that does not exist: every connection fails
    app.extensions["scorekeeper.engine"] = create_engine(
        f"sqlite:///{tmp_path / 'missing' / 'no.sqlite3'}"
    )
    try:
        response = app.test_client().get("/healthz")
    finally:
        app.extensions["scorekeeper.engine"].dispose()
        app.extensions["scorekeeper.engine"] = good
    assert response.status_code == 503 and response.data == b"unavailable\n"


def test_never_rate_limited(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite3'}",
            "RATELIMIT_ENABLED": True,
            "LIMIT_ANY": "3 per minute",
        }
    )
    try:
        client = app.test_client()
        assert [client.get("/healthz").status_code for _ in range(6)] == [200] * 6
        assert [client.get("/referee").status_code for _ in range(4)][-1] == 429
    finally:
        app.extensions["scorekeeper.engine"].dispose()
