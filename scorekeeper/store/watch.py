"""Who watches what, and telling the watchers when it changes (docs/live-updates.md).

A *topic* is what a page shows: ``("game", editing key)``, ``("table", table id)`` or
``("tournament", tournament id)``. Its *stamp* is what proves a page of it current: a game's
version; for a table its own version and its games' count, versions and newest change; for a
tournament the same of its rounds' games (:func:`.stamps.tournament_stamp_query`). Every change
of any of them moves its stamp, whichever process made it.

Each process has one :class:`Watch` (``app.extensions["scorekeeper.watch"]``) and, while
anything is watched, one thread that reads the stamps of every watched topic in one statement
per kind and hands each new stamp to the queues of that topic's watchers. It reads

- at once after a commit of this process that wrote anything (the engine's events below: a
  write statement, then the commit; the pool's check-in comes after the commit);
- on PostgreSQL, at once when another process committed a write: every committing writer
  sends ``NOTIFY scorekeeper_changes`` inside its transaction (delivered on commit, dropped on
  rollback) and a dedicated connection of each process ``LISTEN``\\ s;
- and every :data:`POLL_SECONDS` regardless: on SQLite that is how a second process on the
  same file is seen; on PostgreSQL it only covers a notification lost while the listening
  connection was reconnecting (then it polls at the short interval until it is back).

The database stays the truth: a watcher never learns more than "topic X is now at stamp S";
the stream (web/live) turns that into one event per version it has not sent yet.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, event, func, select
from sqlalchemy.pool import ConnectionPoolEntry

from .models import Game, Table, TableGame, Tournament
from .stamps import tournament_stamp_query

log = logging.getLogger("scorekeeper.watch")

CHANNEL = "scorekeeper_changes"
#: seconds between two reads when nothing woke the thread: SQLite (another process's saves) and
#: PostgreSQL while its listening connection is down
POLL_SECONDS = 0.5
#: PostgreSQL with a listening connection: a read now and then in case a notification was lost
SAFETY_SECONDS = 5.0
#: keys read in one statement
CHUNK = 400

Topic = tuple[str, str]
Stamp = Hashable
KINDS = ("game", "table", "tournament")
_WRITES = ("INSERT", "UPDATE", "DELETE")


class TooMany(Exception):
    """A watcher refused: ``scope`` is ``"client"`` (this address holds its share) or
    ``"all"`` (the process holds as many streams as it serves)."""

    def __init__(self, scope: str) -> None:
        super().__init__(scope)
        self.scope = scope


@dataclass(eq=False)
class Watcher:
    """One open stream: the topic it follows and the stamps the watch thread hands it (the
    newest last; ``None``: the topic is gone)."""

    topic: Topic
    client: str
    stamps: queue.SimpleQueue[Stamp | None] = field(default_factory=queue.SimpleQueue)


class Watch:
    """The watchers of one process and the thread that tells them (see the module)."""

    def __init__(self, engine: Engine, streams: int, per_client: int) -> None:
        self.engine = engine
        self.streams = streams
        self.per_client = per_client
        self._lock = threading.Lock()
        self._watchers: dict[Topic, set[Watcher]] = defaultdict(set)
        self._clients: dict[str, int] = defaultdict(int)
        self._count = 0
        self._last: dict[Topic, Stamp | None] = {}
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._listening = False
        self._failing = False
        self._stopped = threading.Event()
        self.postgres = engine.dialect.name == "postgresql"
        _send_on_commit(engine, self.poke, self.postgres)

    # ---- watchers ------------------------------------------------------------------------------

    @property
    def count(self) -> int:
        return self._count

    def subscribe(self, topic: Topic, client: str) -> Watcher:
        """A new watcher of ``topic`` for the client address ``client``, or :class:`TooMany`."""
        with self._lock:
            if self._count >= self.streams:
                raise TooMany("all")
            if self._clients[client] >= self.per_client:
                raise TooMany("client")
            watcher = Watcher(topic, client)
            self._watchers[topic].add(watcher)
            self._clients[client] += 1
            self._count += 1
            if self._thread is None:
                self._start()
        return watcher

    def unsubscribe(self, watcher: Watcher) -> None:
        with self._lock:
            watchers = self._watchers.get(watcher.topic)
            if watchers is None or watcher not in watchers:
                return
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.topic]
                self._last.pop(watcher.topic, None)
            self._clients[watcher.client] -= 1
            if self._clients[watcher.client] <= 0:
                del self._clients[watcher.client]
            self._count -= 1

    def poke(self) -> None:
        """Read the stamps now (a write was committed)."""
        self._wake.set()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()

    # ---- the thread ----------------------------------------------------------------------------

    def _start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="scorekeeper-watch", daemon=True)
        self._thread.start()
        if self.postgres:
            threading.Thread(target=self._listen, name="scorekeeper-listen", daemon=True).start()

    def _run(self) -> None:
        while not self._stopped.is_set():
            wait = SAFETY_SECONDS if self._listening else POLL_SECONDS
            self._wake.wait(wait if self._count else SAFETY_SECONDS)
            self._wake.clear()
            if self._stopped.is_set():
                return
            with self._lock:
                topics = list(self._watchers)
            if not topics:
                continue
            try:
                now = read_stamps(self.engine, topics)
            except Exception as error:  # the database away: the next round tries again
                if not self._failing:  # one line per outage, not one every half second
                    log.warning("reading the watched pages' stamps failed: %s", error)
                self._failing = True
                time.sleep(POLL_SECONDS)
                continue
            if self._failing:
                log.warning("reading the watched pages' stamps works again")
                self._failing = False
            self._hand_out(now)

    def _hand_out(self, now: dict[Topic, Stamp | None]) -> None:
        with self._lock:
            for topic, stamp in now.items():
                watchers = self._watchers.get(topic)
                if not watchers or self._last.get(topic, ...) == stamp:
                    continue
                self._last[topic] = stamp
                for watcher in watchers:
                    watcher.stamps.put(stamp)

    def _listen(self) -> None:
        """PostgreSQL: wake the thread on every NOTIFY of a committed write (any process);
        reconnect after a pause when the connection is lost."""
        pause = 0.5
        while not self._stopped.is_set():
            try:
                raw = self.engine.raw_connection()
                connection: Any = raw.driver_connection
                raw.detach()  # its own connection for as long as it listens, not the pool's
                try:
                    connection.autocommit = True
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening = True
                    self._wake.set()  # anything missed while it was down
                    pause = 0.5
                    while not self._stopped.is_set():
                        for _notice in connection.notifies(timeout=SAFETY_SECONDS):
                            self._wake.set()
                finally:
                    self._listening = False
                    connection.close()
            except Exception as error:
                if pause == 0.5:  # the first failure of an outage
                    log.warning("listening for changes failed (%s); polling meanwhile", error)
                self._stopped.wait(pause)
                pause = min(pause * 2, 10.0)


# ---- telling the watch: a commit that wrote ------------------------------------------------------


def _send_on_commit(engine: Engine, poke: Any, postgres: bool) -> None:
    """Mark a connection that ran a write statement; when it commits, NOTIFY (PostgreSQL: in
    the same transaction, so only a commit sends it) and, once it is back in the pool (after
    the commit), poke this process's watch."""

    @event.listens_for(engine, "before_cursor_execute")
    def _wrote(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip()[:6].upper() in _WRITES:
            conn.info["sk_wrote"] = True

    @event.listens_for(engine, "commit")
    def _commit(conn: Any) -> None:
        if conn.info.pop("sk_wrote", False):
            conn.info["sk_committed"] = True
            if postgres:
                cursor = conn.connection.cursor()
                try:
                    cursor.execute(f"NOTIFY {CHANNEL}")
                finally:
                    cursor.close()

    @event.listens_for(engine, "rollback")
    def _rollback(conn: Any) -> None:
        conn.info.pop("sk_wrote", None)

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi: Any, record: ConnectionPoolEntry) -> None:
        if record.info.pop("sk_committed", False):
            poke()


# ---- the stamps ----------------------------------------------------------------------------------


def _table_stamps() -> Any:
    return (
        select(
            Table.id,
            Table.version,
            func.count(Game.id),
            func.sum(Game.version),
            func.max(Game.updated_at),
        )
        .select_from(Table)
        .outerjoin(TableGame, TableGame.table_id == Table.id)
        .outerjoin(Game, Game.id == TableGame.game_id)
        .group_by(Table.id, Table.version)
    )


def _chunks(keys: Sequence[str]) -> Iterable[Sequence[str]]:
    for start in range(0, len(keys), CHUNK):
        yield keys[start : start + CHUNK]


def read_stamps(engine: Engine, topics: Iterable[Topic]) -> dict[Topic, Stamp | None]:
    """The stamp of each topic as committed now (``None``: it is gone), in one statement per
    kind and :data:`CHUNK` keys."""
    by_kind: dict[str, list[str]] = defaultdict(list)
    for kind, key in topics:
        by_kind[kind].append(key)
    found: dict[Topic, Stamp | None] = {}
    with engine.connect() as connection:
        for chunk in _chunks(by_kind.get("game", [])):
            rows = connection.execute(select(Game.id, Game.version).where(Game.id.in_(chunk)))
            versions = {str(key): int(version) for key, version in rows}
            found.update({("game", key): versions.get(key) for key in chunk})
        for chunk in _chunks(by_kind.get("table", [])):
            rows = connection.execute(_table_stamps().where(Table.id.in_(chunk)))
            tables = {str(row[0]): _plain(row[1:]) for row in rows}
            found.update({("table", key): tables.get(key) for key in chunk})
        for chunk in _chunks(by_kind.get("tournament", [])):
            statement = tournament_stamp_query().where(Tournament.id.in_(chunk))
            rows = connection.execute(statement)
            standings = {str(row[0]): _plain(row[1:]) for row in rows}
            found.update({("tournament", key): standings.get(key) for key in chunk})
    return found


def _plain(values: Sequence[Any]) -> tuple[Hashable, ...]:
    """A row's values as a comparable tuple (a time as its ISO text: drivers differ)."""
    return tuple(v.isoformat() if hasattr(v, "isoformat") else v for v in values)


def stamp_of(engine: Engine, topic: Topic) -> Stamp | None:
    return read_stamps(engine, [topic]).get(topic)
