"""Fixtures the API tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.store.test_store import BACKENDS, backend_app
from tests.web.api.described import check_answer


@pytest.fixture(params=BACKENDS)
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FlaskClient]:
    """A client on SQLite, and on PostgreSQL when SCOREKEEPER_TEST_POSTGRES_URL is set."""
    with backend_app(request.param, tmp_path) as app:
        yield app.test_client()


@pytest.fixture(autouse=True)
def answers_as_described(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every answer an API test gets is checked against the OpenAPI description."""
    sent = FlaskClient.open

    def open_and_check(self: FlaskClient, *args: Any, **kwargs: Any) -> TestResponse:
        response = sent(self, *args, **kwargs)
        check_answer(self.application, response)
        return response

    monkeypatch.setattr(FlaskClient, "open", open_and_check)
