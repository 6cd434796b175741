"""Alembic's environment: run the revisions on the connection scorekeeper passes in.

``scorekeeper.store.db.upgrade_schema`` opens the connection (and on PostgreSQL holds an
advisory lock on it); this file only binds Alembic to it. Offline mode (``--sql``) writes the
statements for the URL in the configuration instead.
"""

from __future__ import annotations

from alembic import context

from scorekeeper.store import models  # noqa: F401  (registers the tables)
from scorekeeper.store.db import Base

config = context.config


def run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        literal_binds=True,
        target_metadata=Base.metadata,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes["connection"]
    # SQLite alters a table by copying it: later revisions get batch operations there.
    context.configure(
        connection=connection,
        render_as_batch=connection.dialect.name == "sqlite",
        target_metadata=Base.metadata,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
