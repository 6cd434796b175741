"""The schema's migrations (Alembic, revisions in ``scorekeeper/migrations``): upgrading a
database, and what a developer needs to write a new revision. Imported only when a database is
behind (``db.upgrade_schema``) or by the ``scorekeeper db`` commands.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Engine, inspect, text

from ..migrations import FIRST_REVISION, MIGRATIONS

# pg_advisory_lock key that serialises schema upgrades of processes starting at once
# (the bytes of "scorekpr").
UPGRADE_LOCK_KEY = 0x73636F72656B7072


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """Alembic's configuration in code (no alembic.ini, so it works from an installed wheel)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (every migration by default); cheap when it is there.

    A database made by ``create_all`` before migrations existed (tables, no ``alembic_version``)
    is stamped at the first revision, then upgraded. On PostgreSQL the whole upgrade runs under
    a session advisory lock on the same connection, so two processes starting at once take
    turns: the second finds the schema at head and does nothing.
    """
    with engine.connect() as connection:
        postgres = connection.dialect.name == "postgresql"
        sqlite = connection.dialect.name == "sqlite"
        if postgres:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": UPGRADE_LOCK_KEY})
            connection.commit()
        if sqlite:
            # SQLite alters a table by copying it and dropping the old one; with foreign keys on,
            # that drop would cascade and delete every hand of every game.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            config = alembic_config(connection)
            with connection.begin():
                tables = set(inspect(connection).get_table_names())
                if "alembic_version" not in tables and "games" in tables:
                    command.stamp(config, FIRST_REVISION)
                command.upgrade(config, revision)
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()
            if postgres:
                connection.execute(
                    text("SELECT pg_advisory_unlock(:key)"), {"key": UPGRADE_LOCK_KEY}
                )
                connection.commit()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: not migrated yet)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def write_revision(engine: Engine, message: str) -> list[str]:
    """Write a new revision from the difference between the models and the database (at
    head); the paths of the files written."""
    head = current_revision(engine)
    with engine.connect() as connection:
        script = command.revision(
            alembic_config(connection),
            message=message,
            autogenerate=True,
            rev_id=f"{int(head or 0) + 1:04d}",
        )
    scripts = script if isinstance(script, list) else [script]
    return [one.path for one in scripts if one is not None]
