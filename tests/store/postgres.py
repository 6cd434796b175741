"""The PostgreSQL database of the tests: ``SCOREKEEPER_TEST_POSTGRES_URL`` (scripts/test starts a
throwaway cluster and sets it). Tests marked ``postgres`` are skipped without it (conftest.py),
and fail the run in CI (``SCOREKEEPER_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import os

from sqlalchemy import create_engine, text

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL", "").strip()


def empty_postgres() -> str:
    """Empty the test database (every table, the migration record too) and return its URL."""
    engine = create_engine(POSTGRES_URL)
    try:
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()
    return POSTGRES_URL
