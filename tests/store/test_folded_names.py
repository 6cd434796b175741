"""Migration 0009: names that differ only in case at one table (two renames raced before
the store locked the table) are told apart by a number before the unique constraint on the
casefolded name is made; afterwards the database refuses such a pair itself, on SQLite and
on PostgreSQL, and the migration goes down and up again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from scorekeeper.store.db import make_engine, upgrade_schema
from scorekeeper.store.schema import alembic_config
from tests.store.postgres import empty_postgres
from tests.store.test_migrations import differences

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    url = empty_postgres() if request.param == "postgres" else f"sqlite:///{tmp_path / 'f.db'}"
    db = make_engine(url)
    try:
        yield db
    finally:
        db.dispose()
        if request.param == "postgres":
            empty_postgres()


PERSON = text(
    "INSERT INTO table_players (table_id, name, position) VALUES (:table, :name, :position)"
)


def test_names_differing_in_case_are_told_apart_then_refused(engine: Engine) -> None:
    upgrade_schema(engine, "0008")
    with engine.begin() as connection:
        for key in ("t" * 22, "u" * 22):
            connection.execute(
                text(
                    "INSERT INTO tables (id, view_id, name, version, created_at, updated_at) "
                    "VALUES (:id, :view, 'Club', 1, '2026-12-01', '2026-12-01')"
                ),
                {"id": key, "view": key.upper()},
            )
        for position, name in enumerate(["Quinn", "quinn", "QUINN", "Quinn (2)"]):
            connection.execute(PERSON, {"table": "t" * 22, "name": name, "position": position})
        connection.execute(PERSON, {"table": "u" * 22, "name": "quinn", "position": 0})
    upgrade_schema(engine)
    assert differences(engine) == []
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT table_id, name, folded FROM table_players ORDER BY id")
        ).all()
    assert [(r.name, r.folded) for r in rows] == [
        ("Quinn", "quinn"),
        ("quinn (3)", "quinn (3)"),  # "Quinn (2)" was taken already
        ("QUINN (4)", "quinn (4)"),
        ("Quinn (2)", "quinn (2)"),
        ("quinn", "quinn"),  # another table: left as it was
    ]
    with pytest.raises(IntegrityError), engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO table_players (table_id, name, position, folded) "
                "VALUES (:t, 'QuInN', 9, 'quinn')"
            ),
            {"t": "t" * 22},
        )
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0008")
    upgrade_schema(engine)
    assert differences(engine) == []
