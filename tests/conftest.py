"""Shared fixtures: an app on a fresh SQLite file, its client and CLI runner.

Also the PostgreSQL tests' reporting: without ``SCOREKEEPER_TEST_POSTGRES_URL`` every test marked
``postgres`` is reported as skipped (never silently left out), and with
``SCOREKEEPER_REQUIRE_POSTGRES=1`` (scripts/test sets it in CI) any such skip fails the run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import create_app

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL", "").strip()
REQUIRE_POSTGRES = os.environ.get("SCOREKEEPER_REQUIRE_POSTGRES") == "1"
_skipped_postgres: list[str] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if POSTGRES_URL:
        return
    skip = pytest.mark.skip(reason="PostgreSQL: SCOREKEEPER_TEST_POSTGRES_URL is not set")
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(skip)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and "postgres" in report.keywords:
        _skipped_postgres.append(report.nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if REQUIRE_POSTGRES and _skipped_postgres and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if REQUIRE_POSTGRES and _skipped_postgres:
        terminalreporter.write_line(
            f"FAILED: {len(_skipped_postgres)} PostgreSQL tests were skipped, but "
            "SCOREKEEPER_REQUIRE_POSTGRES=1 requires them to run (first: "
            f"{_skipped_postgres[0]})",
            red=True,
            bold=True,
        )


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app
    app.extensions["scorekeeper.engine"].dispose()


@pytest.fixture
def other_process(app: Flask) -> Iterator[Flask]:
    """A second app on the same database file, as a second server process would be (its own
    engine and connections; only the database is shared with ``app``)."""
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": app.config["DATABASE_URL"],
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield other
    other.extensions["scorekeeper.engine"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
