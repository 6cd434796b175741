"""Schema migrations (scorekeeper/migrations): an empty database migrated to head has exactly
the tables of the models (Alembic's autogenerate comparison finds nothing), on SQLite and
PostgreSQL; a database made by ``create_all`` before migrations is adopted; upgrades started at
once by several processes on PostgreSQL all succeed (advisory lock).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Column, Engine, Integer, MetaData, Table, inspect, text

from scorekeeper.store import models  # noqa: F401  (registers the tables)
from scorekeeper.store.db import Base, make_engine, upgrade_schema
from scorekeeper.store.schema import alembic_config
from tests.store.postgres import empty_postgres

# The first revision's id, as written in scorekeeper/migrations/versions/0001_games_and_hands.py.
FIRST = "0001"
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@pytest.fixture(params=BACKENDS)
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "postgres":
        yield empty_postgres()
        empty_postgres()
    else:
        yield f"sqlite:///{tmp_path / 'migrated.sqlite3'}"


@pytest.fixture
def engine(empty_url: str) -> Iterator[Engine]:
    engine = make_engine(empty_url)
    yield engine
    engine.dispose()


def differences(engine: Engine, metadata: MetaData = Base.metadata) -> list[Any]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))


def revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_empty_database_migrates_to_exactly_the_models(engine: Engine) -> None:
    assert inspect(engine).get_table_names() == []
    upgrade_schema(engine)
    assert {"games", "hands", "alembic_version"} <= set(inspect(engine).get_table_names())
    assert differences(engine) == []
    assert revision(engine) == head()


def test_the_comparison_sees_a_difference(engine: Engine) -> None:
    """The check above can fail: a model with one more column is not what the migrations make."""
    upgrade_schema(engine)
    changed = MetaData()
    for table in Base.metadata.tables.values():
        table.to_metadata(changed)
    Table("games", changed, Column("colour", Integer), extend_existing=True)
    found = differences(engine, changed)
    assert [(d[0], d[3].name) for d in found] == [("add_column", "colour")]


def test_upgrade_again_changes_nothing(engine: Engine) -> None:
    upgrade_schema(engine)
    upgrade_schema(engine)
    assert differences(engine) == []
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1


def made_before_migrations(engine: Engine) -> None:
    """A database as ``create_all`` made it before migrations existed: the tables of the first
    revision (the models of that time) and no ``alembic_version``."""
    upgrade_schema(engine, FIRST)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE alembic_version"))
    assert "alembic_version" not in inspect(engine).get_table_names()


def test_database_made_by_create_all_is_adopted(engine: Engine) -> None:
    made_before_migrations(engine)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO games (id, view_id, ruleset, players, options, sides, target, version,"
                " created_at, updated_at) VALUES ('g1', 'v1', 'german', 4, '{}', '[]', 5000, 1,"
                " '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO hands (game_id, number, teams, stock_out, created_at, updated_at)"
                " VALUES ('g1', 1, '[]', false, '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
            )
        )
    upgrade_schema(engine)
    assert revision(engine) == head()
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
        assert [row[0] for row in rows] == [head()]
        assert connection.execute(text("SELECT id FROM games")).scalars().all() == ["g1"]
        # later revisions alter "games"; the hands of the game survive them
        hands = connection.execute(text("SELECT game_id, number FROM hands")).all()
        assert [tuple(row) for row in hands] == [("g1", 1)]
    assert differences(engine) == []


def test_adopted_database_is_stamped_at_the_first_revision(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    try:
        made_before_migrations(engine)
        upgrade_schema(engine, FIRST)
        assert revision(engine) == FIRST
    finally:
        engine.dispose()


def _start_server(url: str, barrier: Any, results: Any) -> None:
    """One server process starting: wait for the others, then upgrade (as ``serve`` does)."""
    engine = make_engine(url)
    try:
        barrier.wait(timeout=60)
        upgrade_schema(engine)
        results.put("ok")
    except BaseException as error:
        results.put(f"{type(error).__name__}: {error}")
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_two_processes_upgrading_at_once_on_postgres() -> None:
    """Servers starting at once (processes, as in production): every upgrade succeeds and the
    schema is made once."""
    url = empty_postgres()
    starters = 3
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(starters)
    results = spawn.Queue()
    processes = [
        spawn.Process(target=_start_server, args=(url, barrier, results)) for _ in range(starters)
    ]
    for process in processes:
        process.start()
    try:
        outcomes = [results.get(timeout=120) for _ in processes]
    finally:
        for process in processes:
            process.join(timeout=30)
    assert outcomes == ["ok"] * starters
    engine = make_engine(url)
    try:
        assert differences(engine) == []
        with engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
        assert [row[0] for row in versions] == [head()]
    finally:
        engine.dispose()
        empty_postgres()
