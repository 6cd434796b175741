"""The event streams the pages watch (server-sent events, docs/live-updates.md).

- ``GET /api/v1/games/<key>/events``: ``key`` any key that reads the game (editing, view,
  and whatever else :data:`GAME_KEYS` resolves). An event ``change`` with data
  ``{"version": N}`` and id ``N`` for each version the game reached, none merged: a hand
  saved, corrected, deleted or brought back, anything that moves the version on.
- ``GET /api/v1/tables/<key>/events`` and ``GET /api/v1/tournaments/<key>/events`` (editing or
  view key): an event ``change`` with data ``{"stamp": "…"}`` each time what the table's page
  or the tournament's standings show changed (a hand of one of their games, a round closed,
  a person renamed).

``?since=`` (or the ``Last-Event-ID`` the browser sends on reconnecting) is the version or
stamp the page shows: what happened since is sent at once. A stream ends by itself after
``STREAM_SECONDS`` (the browser's ``EventSource`` reconnects after the ``retry`` it was given),
with a comment every ``STREAM_HEARTBEAT`` seconds in between so that no proxy times it out and
a phone that left is noticed. An unknown key: 404. Over the client's share of streams
(``STREAMS_PER_CLIENT``): 429; the process full (``STREAMS``): 503; both with
``Retry-After`` and the problem in the reader's language.

``scorekeeper serve`` runs these in threads of their own (scorekeeper/serving.py): a stream
never takes a thread a save or a page needs.
"""

from __future__ import annotations

import hashlib
import json
import queue
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ...store.db import engine, session_scope
from ...store.games import KEY
from ...store.models import Game, GameSide, Table, Tournament
from ...store.watch import Stamp, TooMany, Topic, Watch, Watcher, stamp_of
from ..app.answers import problem_response

bp = Blueprint("live", __name__, url_prefix="/api/v1")

#: the paths these streams are served at (scorekeeper/serving.py gives them their own threads)
STREAM_PATH = r"^/api/v1/(games|tables|tournaments)/[A-Za-z0-9_-]{1,64}/events/?$"

DEFAULTS = {
    "STREAMS": 256,  # open streams one process serves
    "STREAMS_PER_CLIENT": 16,  # of them, one client address
    "STREAM_SECONDS": 300,  # a stream's life; the browser reconnects
    # seconds between two comments; a closed page's stream is found (and its place freed) at
    # the first or second comment after it closed: found by a trial reloading pages, 15 s held
    # a client's 16 places long enough to refuse its next pages (429)
    "STREAM_HEARTBEAT": 5,
}
#: what the browser waits before reconnecting (ms), and how long a refused client waits (s)
RETRY_MS = 1500
RETRY_AFTER = {"client": 30, "all": 10}
#: at most this many events of missed versions are sent on connecting (then the page reloads
#: its part once anyway)
BACKLOG = 50


def init_app(app: Flask) -> None:
    """Bind the process's :class:`~scorekeeper.store.watch.Watch` (after the database)."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.extensions["scorekeeper.watch"] = Watch(
        app.extensions["scorekeeper.engine"],
        streams=int(app.config["STREAMS"]),
        per_client=int(app.config["STREAMS_PER_CLIENT"]),
    )


def watch() -> Watch:
    return current_app.extensions["scorekeeper.watch"]  # type: ignore[no-any-return]


# ---- which game, table, tournament ---------------------------------------------------------------


def _game_by_key(session: Session, key: str) -> str | None:
    found = session.scalar(select(Game.id).where(or_(Game.id == key, Game.view_id == key)))
    return None if found is None else str(found)


def _game_by_side(session: Session, key: str) -> str | None:
    """A side's key: its page follows the game as the view does."""
    found = session.scalar(select(GameSide.game_id).where(GameSide.key == key))
    return None if found is None else str(found)


#: every kind of key that reads a game, tried in turn
GAME_KEYS: tuple[Callable[[Session, str], str | None], ...] = (_game_by_key, _game_by_side)


def _game(session: Session, key: str) -> str | None:
    for resolve in GAME_KEYS:
        found = resolve(session, key)
        if found is not None:
            return found
    return None


def _table(session: Session, key: str) -> str | None:
    found = session.scalar(select(Table.id).where(or_(Table.id == key, Table.view_id == key)))
    return None if found is None else str(found)


def _tournament(session: Session, key: str) -> str | None:
    query = select(Tournament.id).where(or_(Tournament.id == key, Tournament.view_id == key))
    found = session.scalar(query)
    return None if found is None else str(found)


# ---- the routes ----------------------------------------------------------------------------------


@bp.get("/games/<key>/events")
def game_events(key: str) -> Response:
    return _events("game", key, _game)


@bp.get("/tables/<key>/events")
def table_events(key: str) -> Response:
    return _events("table", key, _table)


@bp.get("/tournaments/<key>/events")
def tournament_events(key: str) -> Response:
    return _events("tournament", key, _tournament)


def _events(kind: str, key: str, resolve: Callable[[Session, str], str | None]) -> Response:
    found = None
    if KEY.match(key):
        with session_scope() as session:
            found = resolve(session, key)
    if found is None:
        return problem_response(404, f"{kind}.not_found")
    topic: Topic = (kind, found)
    hub = watch()
    try:
        watcher = hub.subscribe(topic, request.remote_addr or "")
    except TooMany as refused:
        code = "stream.too_many" if refused.scope == "client" else "stream.busy"
        response = problem_response(429 if refused.scope == "client" else 503, code)
        response.headers["Retry-After"] = str(RETRY_AFTER[refused.scope])
        response.headers["Cache-Control"] = "no-store"
        return response
    try:
        current = stamp_of(engine(), topic)  # after subscribing: no change falls in between
    except BaseException:
        hub.unsubscribe(watcher)
        raise
    since = request.headers.get("Last-Event-ID") or request.args.get("since")
    config = current_app.config
    lifetime = float(config["STREAM_SECONDS"])
    stream = _stream(
        hub,
        watcher,
        kind,
        since,
        current,
        # streams opened together do not all end (and reconnect) together
        lifetime * random.uniform(0.8, 1.0),
        float(config["STREAM_HEARTBEAT"]),
    )
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx, if one is in front
    return response


def _stream(
    hub: Watch,
    watcher: Watcher,
    kind: str,
    since: str | None,
    current: Stamp | None,
    lifetime: float,
    heartbeat: float,
) -> Iterator[str]:
    ends = time.monotonic() + lifetime
    try:
        yield f"retry: {RETRY_MS}\n: watching\n\n"
        seen: Stamp | None = _since(kind, since, current)
        if current is None:
            yield "event: gone\ndata: {}\n\n"
            return
        yield from _changes(kind, seen, current)
        seen = current
        while True:
            left = ends - time.monotonic()
            if left <= 0:
                return
            try:
                stamp = watcher.stamps.get(timeout=min(heartbeat, left))
            except queue.Empty:
                yield ": keep-alive\n\n"  # also finds a phone that has gone (the write fails)
                continue
            while True:  # the newest of what came meanwhile
                try:
                    stamp = watcher.stamps.get_nowait()
                except queue.Empty:
                    break
            if stamp is None:
                yield "event: gone\ndata: {}\n\n"
                return
            yield from _changes(kind, seen, stamp)
            seen = stamp
    finally:
        hub.unsubscribe(watcher)


def _since(kind: str, since: str | None, current: Stamp | None) -> Stamp | None:
    """What the page shows, as the stamp it is compared with: a version for a game, else the
    stamp whose :func:`_label` it sent; nothing usable: the current one (no event)."""
    if since is None:
        return current
    text = since.strip()[:40]
    if kind == "game":
        return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else current
    return current if text == _label(current) else ("other", text)


def _changes(kind: str, seen: Stamp | None, now: Stamp) -> Iterator[str]:
    if seen == now:
        return
    if kind == "game" and isinstance(seen, int) and isinstance(now, int) and now > seen:
        # one event per version, none merged: each change the page missed
        for version in range(max(seen + 1, now - BACKLOG + 1), now + 1):
            yield _event(str(version), {"version": version})
        return
    if kind == "game":
        yield _event(str(now), {"version": now})
        return
    label = _label(now)
    yield _event(label, {"stamp": label})


def _event(ident: str, data: dict[str, Any]) -> str:
    return f"id: {ident}\nevent: change\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _label(stamp: Stamp | None) -> str:
    """A table's or tournament's stamp as short text (an event's id and data)."""
    return hashlib.sha1(repr(stamp).encode(), usedforsecurity=False).hexdigest()[:16]
