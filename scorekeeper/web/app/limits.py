"""Rate limits per client address (Flask-Limiter), generous for a real table.

- creating a game (API, the new-game forms, "same players again"): ``LIMIT_CREATE``, default
  ``10 per minute;60 per hour`` -- an evening at one table creates a handful;
- changing hands (add, correct, delete, undo, a side's part; API and forms): ``LIMIT_WRITE``,
  default ``60 per minute;600 per hour`` -- a hand takes minutes to play;
- every request but static files (the phone's engine's among them): ``LIMIT_ANY``, default
  ``600 per minute`` (a phone polling the view asks 12 times a minute; typing with the live
  preview a few times a second).

An import (API or start page) counts each game it stores as one creation (a game already
here costs nothing): a client with room for one more creation may import a file (at most
100 games), and after a large one it waits as after as many new games.
Only what was done counts for creation and writes (a 2xx or 303 answer): a form re-rendered
with problems or a 409 costs nothing. A client over a limit gets 429 with ``Retry-After`` and a
message in its language that says how long to wait; an htmx request gets that message alone
(``notice_response``), which static/notices.js shows in the form's message area, the form left
as it was. The counts live in memory (one process) unless
``RATELIMIT_STORAGE_URI`` names a shared store (``redis://…``, needs ``pip install redis``).
Behind a reverse proxy the client address comes from ``X-Forwarded-For`` only with
``--behind-proxy`` (waitress sets it, scorekeeper/serving.py; otherwise every client would
look like the proxy).

In memory (one process), the counts are Flask-Limiter's ``MemoryStorage`` with one change
(:class:`MemoryCounts`): the counts that have run out are swept inline, at most once a second,
instead of by a new timer thread that the storage starts on any count 10 ms after its last
sweep (on a busy server, a thread started for every other request, then fighting the requests
for the interpreter's lock). A count read after its window still reads as gone, as before.

The limits are a guard, never a dependency: when the store does not answer (Redis
stopped, or hung) each process counts in memory until it answers again (Flask-Limiter's
in-memory fallback, its store checked again after 1, 2, 4 … 32 s), errors are swallowed, and
Redis gets short socket timeouts (``REDIS_OPTIONS``), so a request is never held for long.
``GET /healthz`` is never limited.

Off under ``TESTING`` unless ``RATELIMIT_ENABLED`` is set; when off, no limiter is made (it
would only pass every request through).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import cast

from flask import Flask, Request, Response, current_app, g, render_template, request
from flask.typing import RouteCallable
from flask_babel import ngettext
from flask_limiter import Limiter, RateLimitExceeded, RequestLimit
from flask_limiter._limits import RuntimeLimit
from flask_limiter.constants import HeaderNames
from flask_limiter.util import get_remote_address
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from ...rules.problems import Problem
from ..words.i18n import number
from ..words.messages import message
from .answers import problem_response

DEFAULTS = {
    "LIMIT_CREATE": "10 per minute;60 per hour",
    "LIMIT_WRITE": "60 per minute;600 per hour",
    "LIMIT_ANY": "600 per minute",
}

#: Redis connections give up quickly: a hung Redis costs a request ~0.3 s once, then the
#: process counts in memory (redis-py's own retries are off for a URL: no backoff).
REDIS_OPTIONS = {"socket_timeout": 0.3, "socket_connect_timeout": 0.3}

#: endpoints that create a game
CREATE_ENDPOINTS = (
    "games_api.create",
    "games.new_game",
    "games.play_again",
    "fifty.new_game",
    "fifty.play_again",
    "tournaments_api.create",
    "tournaments_api.start_round",
    "tournaments_api.confirm_round",
    "tournaments.new",
    "tournaments.confirm",
    # a table restored from its file: one creation, whatever it holds (its games are the
    # table's own, counted against the table's limit, store/tables.py MAX_GAMES)
    "tables_api.import_table",
    "tables.import_file",
)
#: endpoints that import games: each game a file brings in counts as one creation
IMPORT_ENDPOINTS = ("games_api.import_games", "games.import_file")
#: endpoints that change a game's hands (the entry routes of web.entry, the API, undo), and a
#: tournament director's changes
WRITE_ENDPOINTS = (
    "games_api.add_hand",
    "games_api.replace_hand",
    "games_api.delete_hand",
    "games.add_hand",
    "games.replace_hand",
    "games.delete_hand",
    "games.undo_delete",
    "parts_api.put",
    "parts_api.delete",
    "games.save_part",
    "games.withdraw_part",
    "fifty.add_entry",
    "fifty.replace_entry",
    "fifty.delete_entry",
    "tournaments_api.propose_round",
    "tournaments_api.set_seating",
    "tournaments_api.swap",
    "tournaments_api.call_time",
    "tournaments_api.close_round",
    "tournaments_api.set_absent",
    "tournaments.next_round",
    "tournaments.swap",
    "tournaments.call_time",
    "tournaments.close",
    "tournaments.absent",
)


def count_imported(added: int) -> None:
    """An import tells each game it stored (0 as it begins): what :func:`import_cost` charges."""
    g.imported_games = int(g.get("imported_games", 0)) + added


#: the counts of the in-memory store (the default ``memory://``): :class:`MemoryCounts`
MEMORY_URI = "scorekeeper+memory://"
#: seconds between two sweeps of the counts whose window has ended
SWEEP_EVERY = 1.0


class MemoryCounts(MemoryStorage):
    """Flask-Limiter's in-memory counts, the ones that ran out swept inline now and then.

    ``MemoryStorage`` schedules a sweep on every count it takes: a ``threading.Timer`` of
    10 ms, started anew whenever the last one has finished. On a server that answers a request
    every few milliseconds that is a new thread for most requests, whose start and whose grab
    of the interpreter lock the request waits for. Here the sweep runs in the request that
    counts, at most every :data:`SWEEP_EVERY` seconds, and in one request at a time. Reading a
    count whose window has ended gives 0 all the same (``MemoryStorage.get`` checks its expiry),
    so the sweep only frees the memory of clients that stopped asking."""

    STORAGE_SCHEME = ["scorekeeper+memory"]  # noqa: RUF012 -- limits' own declaration

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.next_sweep = time.monotonic() + SWEEP_EVERY
        self.sweeping = threading.Lock()

    # MemoryStorage's "private" step, which every count calls before it counts (limits 5)
    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802
        now = time.monotonic()
        if now < self.next_sweep or not self.sweeping.acquire(blocking=False):
            return
        try:
            self.next_sweep = now + SWEEP_EVERY
            self.sweep()
        finally:
            self.sweeping.release()

    def sweep(self) -> None:
        """Drop the counts (and moving-window entries) whose time has run out."""
        self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


def import_cost() -> int:
    """What an import costs of the creation limit: each game it stored (told by the import to
    :func:`count_imported`; one already here is free). Before it runs, one: a client with room for
    one more creation may import a file, and after a large one it waits until its counts allow
    creations again."""
    return int(g.imported_games) if "imported_games" in g else 1


def _done(response: Response) -> bool:
    """A change that happened: 2xx (htmx gets 200 with HX-Redirect) or a 303 redirect."""
    return response.status_code == 303 or (
        200 <= response.status_code < 300
        and (request.path.startswith("/api/") or "HX-Redirect" in response.headers)
    )


#: Endpoints no limit counts: static files, the health check, and the files of the phone's
#: engine (static too: the runtime, the archive and the worker, see web/engine).
UNLIMITED = frozenset(
    {"static", "health.healthz", "engine.pyodide_file", "engine.engine_archive", "engine.worker"}
)


def _static() -> bool:
    return request.endpoint in UNLIMITED


def init_app(app: Flask) -> Limiter | None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    if str(app.config["RATELIMIT_STORAGE_URI"]).startswith(("redis://", "rediss://")):
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", dict(REDIS_OPTIONS))
    app.register_error_handler(429, too_many)
    if not app.config["RATELIMIT_ENABLED"]:
        return None  # a disabled Flask-Limiter would only pass every request through

    # One limiter per app (tests make many apps; each has its own counts).
    in_memory = app.config["RATELIMIT_STORAGE_URI"] == "memory://"
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=MEMORY_URI if in_memory else None,
        application_limits=[app.config["LIMIT_ANY"]],
        application_limits_exempt_when=_static,
        key_prefix="scorekeeper",
    )
    app.extensions["scorekeeper.limiter"] = limiter
    if in_memory:
        count_every_request(app, limiter)
    for endpoints, scope, value, cost in (
        (CREATE_ENDPOINTS, "create", app.config["LIMIT_CREATE"], 1),
        (IMPORT_ENDPOINTS, "create", app.config["LIMIT_CREATE"], import_cost),
        (WRITE_ENDPOINTS, "write", app.config["LIMIT_WRITE"], 1),
    ):
        decorate = limiter.shared_limit(
            value, scope, methods=["POST", "PUT", "DELETE"], deduct_when=_done, cost=cost
        )
        for endpoint in endpoints:
            view = app.view_functions.get(endpoint)
            if view is not None:
                # a view of ours is synchronous: so is the view the limiter wraps it in
                app.view_functions[endpoint] = cast(RouteCallable, decorate(view))
    return limiter


def count_every_request(app: Flask, limiter: Limiter) -> None:
    """With the counts in memory, ``LIMIT_ANY`` is counted by a small hook of ours in the place
    of Flask-Limiter's before-request check, which does the same through its general
    machinery (every kind of limit, exemption and fallback looked up again for each request:
    about 0.15 ms, the most of anything around a request). Counted alike: same limit, same
    count per client address, the same requests exempt, the same 429 (Flask-Limiter's
    ``RateLimitExceeded``, answered by :func:`too_many`), the same ``X-RateLimit-*`` headers and
    ``Retry-After``; the creation and write limits stay Flask-Limiter's, checked by its
    decorators on their views as before (which never counted ``LIMIT_ANY`` again). Counts in a
    shared store (Redis) keep Flask-Limiter's own check, with its fall-back to memory while
    the store does not answer."""
    every = limiter.limit_manager.application_limits  # parsed once, not per request
    check = limiter._check_request_limit
    hooks = app.before_request_funcs[None]
    hooks[hooks.index(check)] = _counter(limiter, every)
    after = app.after_request_funcs[None]
    for i, hook in enumerate(after):
        if isinstance(hook, partial) and hook.args == (limiter,):  # Limiter.__inject_headers
            after[i] = _headers(limiter, hook)


#: the headers of a count (Flask-Limiter's names: ``RATELIMIT_HEADER_*`` are not set here)
HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def _headers(
    limiter: Limiter, inject: Callable[[Response], Response]
) -> Callable[[Response], Response]:
    """Flask-Limiter's ``X-RateLimit-*`` headers of an answer counted by :func:`_counter` alone
    (no limit of its view, not a 429 or 503): the same three headers of the same count, without
    what its general hook does first for any answer (the deductions of limits that count only
    what was done, looked up through its request context, and a ``Retry-After`` that
    :func:`~.security.secure_response` takes off again for any other status). Any other answer
    (a view with limits of its own, a refusal) and a count that cannot be read go to
    Flask-Limiter's own hook (with its fall-back and logging), as before."""
    mapping = limiter._header_mapping
    named = tuple(mapping.get(name) for name in HeaderNames)
    plain = limiter._headers_enabled and named == tuple(name.value for name in HeaderNames)
    window = limiter.limiter.get_window_stats

    def add(response: Response) -> Response:
        if not plain or response.status_code in (429, 503):
            return inject(response)
        context = limiter.context
        current: RequestLimit | None = getattr(context, "counted_here", None)
        if (
            current is None
            or context.conditional_deductions
            or context.view_rate_limit is not current  # a view's own limit
        ):
            return inject(response)
        counted: tuple[float, int] | None = getattr(context, "counted_window", None)
        try:
            reset_at, remaining = counted or window(current.limit, *current.request_args)
        except Exception:  # noqa: BLE001 -- its hook falls back to memory and logs
            return inject(response)
        headers = response.headers
        headers.add(HEADERS[0], str(current.limit.amount))
        headers.add(HEADERS[1], str(remaining))
        headers.add(HEADERS[2], str(int(reset_at + 1)))
        return response

    return add


def _counter(limiter: Limiter, every: list[RuntimeLimit]) -> Callable[[], None]:
    # Flask-Limiter's default strategy on our counts: a hit is the storage's ``incr`` of the
    # limit's key (limits' ``FixedWindowRateLimiter.hit``), whose result also gives the
    # window's stats for the headers without reading the count again
    strategy = limiter.limiter
    fixed = (
        strategy.storage
        if type(strategy) is FixedWindowRateLimiter and isinstance(strategy.storage, MemoryCounts)
        else None
    )

    def count() -> None:
        asked: Request = request._get_current_object()  # type: ignore[attr-defined]
        endpoint = asked.endpoint
        if not endpoint or endpoint.rsplit(".", 1)[-1] == "static" or endpoint in UNLIMITED:
            return  # as Flask-Limiter: no route (404/405), static files, and ours exempt
        counted: list[RequestLimit] = []
        context = limiter.context
        window: tuple[float, int] | None = None
        try:
            address = get_remote_address()
            for lim in every:
                args = ["scorekeeper", address, lim.scope_for(endpoint, asked.method)]
                if fixed is not None:
                    # the fixed window's hit, its count kept for the headers (its window stats)
                    item = lim.limit
                    key = item.key_for(*args)
                    used = fixed.incr(key, item.get_expiry(), amount=lim.deduction_amount)
                    taken = used <= item.amount
                    if not counted:
                        window = (fixed.get_expiry(key), max(0, item.amount - used))
                else:
                    taken = limiter.limiter.hit(lim.limit, *args, cost=lim.deduction_amount)
                counted.append(RequestLimit(limiter, lim.limit, args, not taken, lim.shared))
                if not taken:
                    context.view_rate_limit = counted[-1]
                    context.view_rate_limits = counted
                    raise RateLimitExceeded(lim)
        except RateLimitExceeded:
            raise
        except Exception:  # noqa: BLE001 -- a guard never takes the app down
            current_app.logger.exception("Failed to rate limit. Swallowing error")
            return
        context.view_rate_limit = counted[0] if counted else None
        context.view_rate_limits = counted
        context.counted_here = counted[0] if counted else None  # type: ignore[attr-defined]
        context.counted_window = window  # type: ignore[attr-defined]

    return count


def wants_notice() -> bool:
    """An htmx request (not a history restore): it is answered with the message alone."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def notice_response(status: int, text: str) -> Response:
    """The message alone for htmx: ``HX-Reswap: none`` keeps the form as it was, even
    without static/notices.js (which shows the message where the form shows its own)."""
    html = render_template("_notice.html", text=text)
    response = Response(html, status, mimetype="text/html")
    response.headers["HX-Reswap"] = "none"
    response.vary.add("HX-Request")
    return response


def retry_seconds() -> int | None:
    """Seconds until the breached limit's window ends, if the limiter can tell."""
    limiter = current_app.extensions.get("scorekeeper.limiter")
    current = limiter.current_limit if limiter is not None else None
    if current is None:
        return None
    try:
        reset_at: float = current.reset_at
        return max(1, math.ceil(reset_at - time.time()))
    except Exception:  # noqa: BLE001 -- a storage that cannot answer: say "a minute"
        return None


def wait_text(seconds: int | None) -> str:
    """What to tell a client over a limit, with the wait when it is known."""

    if seconds is None:
        return message(Problem("request.rate_limited", "", {}))
    if seconds <= 90:
        return ngettext(
            "Too many requests: wait %(seconds)s second and try again.",
            "Too many requests: wait %(seconds)s seconds and try again.",
            seconds,
            seconds=number(seconds),
        )
    minutes = math.ceil(seconds / 60)
    return ngettext(
        "Too many requests: wait %(minutes)s minute and try again.",
        "Too many requests: wait %(minutes)s minutes and try again.",
        minutes,
        minutes=number(minutes),
    )


def too_many(error: TooManyRequests) -> Response:
    """429 in the reader's language, with the wait; ``Retry-After`` says the same."""

    if request.path.startswith("/api/"):
        return problem_response(429, "request.rate_limited")
    seconds = retry_seconds()
    text = wait_text(seconds)
    if wants_notice():
        response = notice_response(429, text)
    else:
        html = render_template("error.html", status=429, message=text)
        response = Response(html, 429, mimetype="text/html")
    # Flask-Limiter keeps the later of this and its own reset time.
    response.headers["Retry-After"] = str(seconds or 60)
    return response
