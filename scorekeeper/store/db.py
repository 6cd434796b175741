"""The database: one SQLAlchemy engine and session factory per app.

SQLite file in the instance folder by default; any SQLAlchemy URL (``postgresql+psycopg://…``)
through ``SCOREKEEPER_DATABASE_URL`` or ``--db``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.pool import StaticPool


class Base(DeclarativeBase):
    pass


def default_url(app: Flask) -> str:
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    return "sqlite:///" + str(Path(app.instance_path) / "scorekeeper.sqlite3")


def make_engine(url: str) -> Engine:
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False}
        if url in ("sqlite://", "sqlite:///:memory:"):
            kwargs["poolclass"] = StaticPool
    else:
        kwargs["pool_pre_ping"] = True
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            # WAL keeps readers going during a save; foreign keys keep hands with their game.
            cursor.execute("PRAGMA foreign_keys=ON")
            if "memory" not in url and url != "sqlite://":
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()
    return engine


def init_app(app: Flask) -> None:
    url = app.config.get("DATABASE_URL") or default_url(app)
    app.config["DATABASE_URL"] = url
    engine = make_engine(url)
    factory = sessionmaker(bind=engine, expire_on_commit=False)
    app.extensions["scorekeeper.engine"] = engine
    app.extensions["scorekeeper.sessions"] = factory
    from . import models  # noqa: F401  (registers the tables)

    Base.metadata.create_all(engine)


def engine() -> Engine:
    return current_app.extensions["scorekeeper.engine"]  # type: ignore[no-any-return]


@contextmanager
def session_scope() -> Iterator[Session]:
    """One transaction: committed when the block ends, rolled back on any error."""
    factory: sessionmaker[Session] = current_app.extensions["scorekeeper.sessions"]
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
