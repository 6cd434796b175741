"""The database: one SQLAlchemy engine and session factory per app, and its schema.

SQLite file in the instance folder by default; any SQLAlchemy URL (``postgresql+psycopg://…``)
through ``SCOREKEEPER_DATABASE_URL`` or ``--db``. The schema is made and changed by the Alembic
revisions in ``scorekeeper/migrations`` (``upgrade_schema``), applied when the app starts.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, current_app

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy import Connection, Engine
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

    class Base(DeclarativeBase):
        pass


# SQLAlchemy is imported when the database is first used, not when this module is: a start on
# a SQLite database at the newest revision checks it with the standard library's sqlite3 and
# builds the engine at the first request that reads or writes (issue 16: start-up time).

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
# pg_advisory_lock key that serialises schema upgrades of processes starting at once
# (the bytes of "scorekpr").
UPGRADE_LOCK_KEY = 0x73636F72656B7072

_base_lock = threading.Lock()


def __getattr__(name: str) -> Any:
    """``Base``, the models' declarative base, made on first import of it (PEP 562)."""
    if name != "Base":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _base_lock:
        made = globals().get("Base")
        if made is None:
            from sqlalchemy.orm import DeclarativeBase

            made = type("Base", (DeclarativeBase,), {"__module__": __name__})
            globals()["Base"] = made
        return made


# Seconds a save waits for SQLite's write lock (in this process, then in SQLite) before it is
# answered 503 with Retry-After; ``SQLITE_BUSY_TIMEOUT`` changes it.
BUSY_TIMEOUT = 5
# Seconds ``serve`` waits for its first response before it warms the database layer anyway.
WARM_UP_IDLE = 1.0


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
    from sqlalchemy import make_url

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
    from sqlalchemy import create_engine, event
    from sqlalchemy.pool import StaticPool

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
    """The engine and session factory of ``DATABASE_URL``, the schema brought up to date first.

    A SQLite file already at the newest revision (the usual start) is checked without
    SQLAlchemy; its engine is then built at the first use of ``app.extensions[
    "scorekeeper.engine"]`` or ``["scorekeeper.sessions"]`` (``ScorekeeperApp``'s extensions
    build deferred entries on first access). Any other database, or one that needs a
    migration, gets its engine and upgrade here, before any request.
    """
    url = app.config.get("DATABASE_URL") or default_url(app)
    app.config["DATABASE_URL"] = url
    busy_timeout = float(app.config.get("SQLITE_BUSY_TIMEOUT") or BUSY_TIMEOUT)
    app.extensions["scorekeeper.write_lock"] = threading.Lock()

    def build() -> dict[str, Any]:
        from . import load

        load()  # SQLAlchemy and the models (the tables), under the store's import lock
        from sqlalchemy.orm import sessionmaker

        engine = make_engine(url, busy_timeout)
        return {
            "scorekeeper.engine": engine,
            "scorekeeper.sessions": sessionmaker(bind=engine, expire_on_commit=False),
        }

    upgrade = bool(app.config.get("SCHEMA_UPGRADE", True))
    defer: Callable[[tuple[str, ...], Callable[[], dict[str, Any]]], None] | None = getattr(
        app.extensions, "defer", None
    )
    if defer is not None and not (upgrade and not sqlite_schema_is_current(url, busy_timeout)):
        defer(("scorekeeper.engine", "scorekeeper.sessions"), build)
        return
    app.extensions.update(build())
    if upgrade:
        upgrade_schema(app.extensions["scorekeeper.engine"])


def warm_up(app: Flask, idle: float = WARM_UP_IDLE) -> None:
    """For ``scorekeeper serve``: a background thread imports SQLAlchemy and the store modules
    and builds the engine once the first response has been sent, or after ``idle`` seconds
    without one, so the first page that reads a game does not pay for them (issue 16); the
    start and its first page stay without them. A request that needs them meanwhile waits
    for the same import and the same build (both under a lock); a failure here is left to
    that request to report."""
    answered = threading.Event()

    def warm() -> None:
        answered.wait(idle)
        try:  # the engine's build imports the store (store.load) first
            app.extensions["scorekeeper.engine"]  # noqa: B018 - built on first access
        except Exception:  # noqa: BLE001
            app.logger.debug("warming the database layer failed", exc_info=True)

    @app.after_request
    def after_first(response: Response) -> Response:
        if not answered.is_set():
            response.call_on_close(answered.set)  # when it has been sent
        return response

    threading.Thread(target=warm, name="scorekeeper-warm-up", daemon=True).start()


def sqlite_file(url: str) -> str | None:
    """The file of a plain SQLite URL (``sqlite:///relative`` or ``sqlite:////absolute``) as
    SQLAlchemy reads it; None for anything else (memory, ``file:`` URIs, query options,
    escapes, other databases), which is left to SQLAlchemy."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            path = url[len(prefix) :]
            break
    else:
        return None
    if not path or path == ":memory:" or path.startswith("file:") or any(c in path for c in "?#%"):
        return None
    return path


def sqlite_schema_is_current(url: str, busy_timeout: float = BUSY_TIMEOUT) -> bool:
    """Whether ``url`` is an existing SQLite file at the newest revision, read with the
    standard library (one query, no SQLAlchemy, nothing created). False whenever that cannot
    be told: then the engine is built and ``upgrade_schema`` decides."""
    import sqlite3
    from urllib.parse import quote

    path = sqlite_file(url)
    heads = head_revisions()
    if path is None or not heads:
        return False
    # mode=rw: a missing file is an error, not a new empty database.
    uri = "file:" + quote(os.path.abspath(path), safe="/") + "?mode=rw"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=busy_timeout)
        try:
            found = {
                row[0] for row in connection.execute("SELECT version_num FROM alembic_version")
            }
        finally:
            connection.close()
    except sqlite3.Error:
        return False
    return found == heads


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """Alembic's configuration in code (no alembic.ini, so it works from an installed wheel)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def head_revisions() -> set[str]:
    """The newest revisions in ``migrations/versions``, read from the files' ``revision`` and
    ``down_revision`` lines (without importing Alembic)."""
    import re

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
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

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
    """Bring the database to ``revision`` (every migration by default); cheap when it is there.

    A database made by ``create_all`` before migrations existed (tables, no ``alembic_version``)
    is stamped at the first revision, then upgraded. On PostgreSQL the whole upgrade runs under
    a session advisory lock on the same connection, so two processes starting at once take
    turns: the second finds the schema at head and does nothing.
    """
    if revision == "head" and schema_is_current(engine):
        return  # the usual start: no need to import Alembic (issue 16: start-up time)
    from alembic import command
    from sqlalchemy import inspect, text

    from ..migrations import FIRST_REVISION

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
    from sqlalchemy.exc import OperationalError

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


def _busy(error: OperationalError) -> bool:
    text_ = str(error.orig).lower()
    return "locked" in text_ or "busy" in text_
