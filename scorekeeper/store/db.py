"""The database: one SQLAlchemy engine and session factory per app, and its schema.

SQLite file in the instance folder by default; any SQLAlchemy URL (``postgresql+psycopg://…``)
through ``SCOREKEEPER_DATABASE_URL`` or ``--db``. The schema is made and changed by the Alembic
revisions in ``scorekeeper/migrations`` (``upgrade_schema``), applied when the app starts.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Session, configure_mappers, sessionmaker
from sqlalchemy.pool import StaticPool

from ..first_answer import after_first_answer
from ..migrations import MIGRATIONS

# Seconds a save waits for SQLite's write lock (in this process, then in SQLite) before it is
# answered 503 with Retry-After; ``SQLITE_BUSY_TIMEOUT`` changes it.
BUSY_TIMEOUT = 5


class Base(DeclarativeBase):
    """The models' declarative base."""


class DatabaseBusy(Exception):
    """The database stayed locked longer than the busy timeout: nothing was stored (HTTP 503
    with ``Retry-After``; the page keeps the entry)."""


def default_url(app: Flask) -> str:
    Path(app.instance_path).mkdir(parents=True, exist_ok=True, mode=0o700)
    return "sqlite:///" + str(Path(app.instance_path) / "scorekeeper.sqlite3")


def private_sqlite_file(url: str) -> None:
    """Create an SQLite database file readable by its owner only (0600) before SQLite makes it
    with the umask's mode; its -wal and -shm files take the same mode. Existing files are left
    as they are."""
    try:
        database = make_url(url).database
    except Exception:  # noqa: BLE001 - create_engine reports a bad URL in its own words
        return
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if path.exists() or not path.parent.is_dir():
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:
        return


def make_engine(url: str, busy_timeout: float = BUSY_TIMEOUT) -> Engine:
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        private_sqlite_file(url)
        # timeout: SQLite's busy handler waits this long for another process's lock.
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": busy_timeout}
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
    """The engine and session factory of ``DATABASE_URL``, the schema brought up to date first
    (unless ``SCHEMA_UPGRADE`` is false)."""
    url = app.config.get("DATABASE_URL") or default_url(app)
    app.config["DATABASE_URL"] = url
    busy_timeout = float(app.config.get("SQLITE_BUSY_TIMEOUT") or BUSY_TIMEOUT)
    engine_ = make_engine(url, busy_timeout)
    app.extensions["scorekeeper.write_lock"] = threading.Lock()
    app.extensions["scorekeeper.engine"] = engine_
    app.extensions["scorekeeper.sessions"] = sessionmaker(bind=engine_, expire_on_commit=False)
    if app.config.get("SCHEMA_UPGRADE", True):
        upgrade_schema(engine_)
    # configuring the mappers (their relationships resolved, about 60 M instructions,
    # docs/measurements.md) is left out of the start, as no start page needs it before its
    # first answer. A request that reads the database meanwhile configures them itself or
    # waits for this thread: SQLAlchemy configures under a lock of its own, once.
    after_first_answer(app, "configure-mappers", configure_mappers)


def head_revisions() -> set[str]:
    """The newest revisions in ``migrations/versions``, read from the files' ``revision`` and
    ``down_revision`` lines."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        own = re.search(r'^revision\s*=\s*"([^"]+)"', source, re.M)
        down = re.search(r"^down_revision\s*=\s*(.+)$", source, re.M)
        if own:
            revisions.add(own[1])
        if down:
            parents.update(re.findall(r'"([^"]+)"', down[1]))
    return revisions - parents


def schema_is_current(engine: Engine) -> bool:
    """Whether the database is at the newest revision already (one small query)."""
    heads = head_revisions()
    try:
        with engine.connect() as connection:
            found = set(
                connection.execute(text("SELECT version_num FROM alembic_version")).scalars()
            )
    except DBAPIError:
        return False
    return bool(heads) and found == heads


def upgrade_schema(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (every migration by default); one small query when
    it is there already, the usual start."""
    if revision == "head" and schema_is_current(engine):
        return
    # Alembic (with Mako and Pygments) is loaded only when a database is behind: a server
    # almost never needs it, and it would be a large part of every start.
    from . import schema

    schema.upgrade(engine, revision)


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached (refused, gone, cut off): an
    operational or interface error, as SQLAlchemy wraps it, or as the driver raised it (the
    pool's reconnect after a checked connection failed raises the driver's own)."""
    if isinstance(error, (OperationalError, InterfaceError)):
        return True
    dbapi = current_app.extensions["scorekeeper.engine"].dialect.loaded_dbapi
    kinds = tuple(
        kind
        for kind in (
            getattr(dbapi, "OperationalError", None),
            getattr(dbapi, "InterfaceError", None),
        )
        if isinstance(kind, type)
    )
    return bool(kinds) and isinstance(error, kinds)


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


@contextmanager
def write_scope() -> Iterator[Session]:
    """One transaction that changes data: :func:`session_scope`, and on SQLite also

    - writers of this process take turns (a lock): they queue here instead of in SQLite's busy
      handler, which polls and gives up with "database is locked" under contention;
    - ``BEGIN IMMEDIATE``: the write lock is taken at the start, so a transaction that read
      first never fails to upgrade to a writer halfway through;
    - still busy after ``SQLITE_BUSY_TIMEOUT`` seconds (another process holds the lock):
      :class:`DatabaseBusy`, nothing stored.

    PostgreSQL needs none of this (row locks, see ``store.games``). Build the response after
    the block: the lock is held only for the change itself.
    """
    app = current_app
    engine_: Engine = app.extensions["scorekeeper.engine"]
    if engine_.dialect.name != "sqlite":
        with session_scope() as session:
            yield session
        return
    lock: threading.Lock = app.extensions["scorekeeper.write_lock"]
    timeout = float(app.config.get("SQLITE_BUSY_TIMEOUT") or BUSY_TIMEOUT)
    if not lock.acquire(timeout=timeout):
        raise DatabaseBusy("waited for the other saves of this process")
    try:
        with session_scope() as session:
            try:
                session.connection().exec_driver_sql("BEGIN IMMEDIATE")
            except OperationalError as error:
                raise DatabaseBusy(str(error.orig)) from error
            try:
                yield session
                session.flush()
            except OperationalError as error:
                if _busy(error):
                    raise DatabaseBusy(str(error.orig)) from error
                raise
    except OperationalError as error:  # the commit itself
        if _busy(error):
            raise DatabaseBusy(str(error.orig)) from error
        raise
    finally:
        lock.release()


def copy_sqlite(source: str, target: str) -> int:
    """Copy an SQLite database file with SQLite's online backup: a consistent copy of every
    committed transaction (the write-ahead log included), taken while servers keep writing;
    the number of pages copied."""
    with closing(sqlite3.connect(source, timeout=BUSY_TIMEOUT)) as src:
        private_sqlite_file("sqlite:///" + target)
        with closing(sqlite3.connect(target)) as dst:
            # In one step: a copy in steps starts again after every write of another
            # connection, so it may never end under a busy server; one read transaction
            # does not hold up the writers (write-ahead log).
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            return int(dst.execute("PRAGMA page_count").fetchone()[0])


def _busy(error: OperationalError) -> bool:
    text_ = str(error.orig).lower()
    return "locked" in text_ or "busy" in text_
