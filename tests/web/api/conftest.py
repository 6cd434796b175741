"""Fixtures the API tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.store.test_store import BACKENDS, backend_app


@pytest.fixture(params=BACKENDS)
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FlaskClient]:
    """A client on SQLite, and on PostgreSQL when SCOREKEEPER_TEST_POSTGRES_URL is set."""
    with backend_app(request.param, tmp_path) as app:
        yield app.test_client()
