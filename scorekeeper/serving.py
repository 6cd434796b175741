"""How ``scorekeeper serve`` runs waitress.

- **Behind a proxy** (``--behind-proxy``, ``SCOREKEEPER_BEHIND_PROXY=N``): waitress itself reads
  ``X-Forwarded-For``, ``-Proto`` and ``-Host`` from the proxy it trusts (``--trusted-proxy``,
  default ``127.0.0.1``; ``*`` when the app's port is reachable from the proxy only, as in
  deploy/compose.yaml) and sets ``REMOTE_ADDR``, ``wsgi.url_scheme`` and the host before the app
  runs. Waitress 3 removes those headers from anyone else (``clear_untrusted_proxy_headers``), so
  Werkzeug's ProxyFix would never see them: the app has none. Rate limits then count per real
  client, and HSTS and ``Secure`` cookies follow the scheme the phone used.
- **Exposed directly** (``--lan``, ``docker run -p``): :func:`per_address_cap` keeps each peer
  address to ``--connections-per-address`` open connections (default 32; a browser opens six),
  so one client's hundreds of slow or idle sockets never reach waitress's ``connection_limit``
  and the phones keep getting in. Over the cap, the address's quietest connection (idle, or
  still sending headers) is closed for the new one.
  The trusted proxy is exempt (every visitor arrives through it). On the internet the app
  belongs behind the proxy all the same: waitress is no match for a determined flood.
- **Event streams** (``GET /api/v1/…/events``, scorekeeper/web/live): each open stream holds
  a thread for as long as a phone watches, so they get threads of their own
  (:func:`stream_threads`): ``--streams`` of them and a few more, which answer a stream over the
  bound with 429/503 at once. Waitress's own ``--threads`` serve everything else, so no number
  of watching phones ever makes a save or a page wait for a thread. A stream's small writes
  are sent as they are written (waitress otherwise holds a running response's output until
  ``send_bytes`` have gathered). docs/live-updates.md has the measurements behind this.
- **Logging**: waitress's own lines, and one line each when the rate-limit store (Redis) stops
  or starts answering (Flask-Limiter's messages, without their tracebacks).
"""

from __future__ import annotations

import copy
import logging
import re
import socket
from collections.abc import Callable
from typing import Any

from flask import Flask
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ThreadedTaskDispatcher

from .web.live.routes import STREAM_PATH

#: the proxy headers waitress is told to trust (Caddy and nginx send these three)
PROXY_HEADERS = frozenset({"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"})
#: default for --connections-per-address
PER_ADDRESS = 32
#: threads for streams beyond the bound: they answer the streams over it (429/503) at once
STREAM_SPARE = 8


def waitress_options(
    *,
    listen: str,
    threads: int,
    connection_limit: int,
    channel_timeout: int,
    max_request_body_size: int,
    proxies: int = 0,
    trusted_proxy: str = "127.0.0.1",
) -> dict[str, Any]:
    """The keyword arguments of ``waitress.create_server`` for ``scorekeeper serve``."""
    options: dict[str, Any] = {
        "listen": listen,
        "threads": threads,
        "ident": "scorekeeper",
        # a body larger than the app reads is answered 413 before it is read, and
        # idle connections are closed after channel_timeout seconds.
        "max_request_body_size": max_request_body_size,
        "connection_limit": connection_limit,
        "channel_timeout": channel_timeout,
        "asyncore_use_poll": True,
        "cleanup_interval": max(1, min(30, channel_timeout // 2)),
    }
    if proxies > 0:
        options.update(
            trusted_proxy=trusted_proxy,
            trusted_proxy_count=proxies,
            trusted_proxy_headers=set(PROXY_HEADERS),
        )
    return options


def per_address_cap(
    channel_class: type[Any], cap: int, exempt: Callable[[str], bool]
) -> Callable[..., Any]:
    """A stand-in for a waitress server's ``channel_class``: the server calls it, in its main
    loop, with each accepted socket and its peer's address. When that address already holds
    ``cap`` open channels (``server.active_channels``, a few hundred at most), its longest
    quiet one that is not being answered (idle, or still sending its headers) is closed to make
    room: so a client's new request is served, and a flood from one address only ever replaces
    its own sockets. If every one of them is busy with a request, the new socket is closed."""

    def channel(server: Any, sock: socket.socket, addr: Any, adj: Any, map: Any = None) -> Any:
        host = addr[0] if isinstance(addr, tuple) and addr else ""
        if host and not exempt(host):
            mine = [
                other
                for other in list(server.active_channels.values())
                if isinstance(other.addr, tuple) and other.addr and other.addr[0] == host
            ]
            if len(mine) >= cap:
                quiet = [
                    other for other in mine if not other.requests and not other.total_outbufs_len
                ]
                if not quiet:
                    sock.close()  # no channel, no buffer, nothing to time out
                    return None
                for other in sorted(quiet, key=lambda c: c.last_activity)[: len(mine) - cap + 1]:
                    other.handle_close()
        return channel_class(server, sock, addr, adj, map=map)

    return channel


class GrowingPool(ThreadedTaskDispatcher):
    """Waitress's pool of threads, started as they are first needed: a task that finds no idle
    thread starts one more, up to ``most``; a thread, once started, stays (as waitress's own).
    So the streams' pool is at once as large as its bound allows, without starting
    ``--streams`` threads (256 by default, most of them never used) before the server listens:
    they were a sixth of what a start cost (docs/measurements.md)."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def add_task(self, task: Any) -> None:
        with self.lock:
            idle = len(self.threads) - self.stop_count - self.active_count
            if len(self.queue) >= idle and len(self.threads) < self.most:
                number = max(self.threads, default=-1) + 1
                self.threads.add(number)
                self.active_count += 1  # as set_thread_count counts a thread it starts
                self.start_new_thread(self.handler_thread, number)
                idle += 1  # it takes the task once it runs
            self.queue.append(task)
            self.queue_cv.notify()
            if len(self.queue) > idle:
                self.queue_logger.warning("Task queue depth is %d", len(self.queue) - idle)


def stream_threads(server: Any, streams: int, path: str = STREAM_PATH) -> ThreadedTaskDispatcher:
    """Serve the requests for ``path`` (a regular expression) in a pool of their own with up to
    ``streams`` + :data:`STREAM_SPARE` threads (:class:`GrowingPool`), and send what they write
    at once; every other request goes to waitress's own pool as before. Waitress hands each
    channel with a new request to ``server.add_task`` in its main loop (again for each
    pipelined request), so the choice is made there, by the request's path, before any thread
    is taken."""
    pattern = re.compile(path)
    pool = GrowingPool(streams + STREAM_SPARE)
    dispatchers = (
        [server] if isinstance(server, BaseWSGIServer) else list((server.map or {}).values())
    )
    listeners = [d for d in dispatchers if isinstance(d, BaseWSGIServer)]
    if not listeners:  # pragma: no cover - waitress always makes one
        return pool
    # each small event goes out as it is written, not once 18 kB (``send_bytes``) gathered
    eager = copy.copy(listeners[0].adj)
    eager.send_bytes = 1
    for listener in listeners:
        ordinary = listener.add_task

        def add_task(channel: Any, ordinary: Callable[[Any], None] = ordinary) -> None:
            request = channel.requests[0] if channel.requests else None
            if request is not None and pattern.match(request.path or ""):
                channel.adj = eager
                pool.add_task(channel)
            else:
                ordinary(channel)

        listener.add_task = add_task  # type: ignore[method-assign,assignment]
    return pool


def make_server(
    app: Flask, options: dict[str, Any], per_address: int = PER_ADDRESS, streams: int = 0
) -> Any:
    """The waitress server (not started) with the per-address cap on every listening socket
    and, with ``streams``, the event streams' own threads."""
    server = create_server(app, **options)
    if streams > 0:
        stream_threads(server, streams)
    trusted = options.get("trusted_proxy")
    if per_address > 0 and trusted != "*":

        def exempt(host: str) -> bool:
            return trusted is not None and host == trusted

        # several addresses: a MultiSocketServer, whose map holds one server per address
        dispatchers: list[object] = (
            [server] if isinstance(server, BaseWSGIServer) else list((server.map or {}).values())
        )
        listeners = [d for d in dispatchers if isinstance(d, BaseWSGIServer)]
        for listener in listeners:
            # a factory in the class's place: waitress only ever calls it
            listener.channel_class = per_address_cap(  # type: ignore[assignment]
                listener.channel_class, per_address, exempt
            )
    return server


class _OneLine(logging.Filter):
    """Flask-Limiter's warnings as one line each (the traceback of a storage error, Redis gone,
    says nothing the message does not), and of its info lines only the store's recovery (not
    a line per refused request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return record.getMessage().startswith("Rate limit storage")
        record.exc_info = None
        record.exc_text = None
        return True


def configure_logging() -> None:
    """Waitress's lines (its ``serve`` did this) and the rate-limit store's state changes."""
    logging.basicConfig()
    limiter_log = logging.getLogger("flask-limiter")
    limiter_log.setLevel(logging.INFO)  # "Rate limit storage recovered" is an info line
    limiter_log.addFilter(_OneLine())


def run(server: Any) -> None:
    """Serve with a server of :func:`make_server` until interrupted (as ``waitress.serve``
    does)."""
    configure_logging()
    server.print_listen("Serving on http://{}:{}")
    server.run()  # returns on Ctrl-C (waitress stops its threads)
