"""Where a request's time goes, as served: the live preview, ``POST /api/v1/score`` and the game
page at 60 hands, profiled inside waitress with the rate limits on.

The app is built as ``scorekeeper serve`` builds it (``create_app``, ``serving.make_server``,
the same waitress options), with the limits on and their counts raised so that one client's
thousands of requests are never refused (the limiter does all its work: it only never says no).
Its WSGI callable is wrapped in a profiler (``cProfile``, enabled in the worker thread for each
request), and each request is timed three ways: the round trip seen by the client, the time
inside the app's WSGI callable without the profiler, and the profile itself.

The report groups the profile by what the time is spent on (the request's reading, the limiter,
the session and CSRF, templates, translations, the store, ...), each group the cumulative time of
its entry points, so nested groups overlap (the view's reading runs inside the view).

Run: ``.venv/bin/python benchmarks/profile_requests.py [--rounds N] [--top N] [--only KIND]``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_ratios  # noqa: E402

#: what each group's time is: (group, file part, function name); a function matches when its
#: file's path contains the part and its name equals the name ("" for any name)
GROUPS: list[tuple[str, str, str]] = [
    ("waitress (in the app's thread)", "waitress/task.py", "execute"),
    ("the whole app (Flask.wsgi_app)", "flask/app.py", "wsgi_app"),
    ("request context push (session open)", "flask/ctx.py", "push"),
    ("session open", "flask/sessions.py", "open_session"),
    ("session save", "flask/sessions.py", "save_session"),
    ("routing (match)", "flask/ctx.py", "match_request"),
    ("before-request hooks", "flask/app.py", "preprocess_request"),
    ("host and cross-site check", "web/app/security.py", "check_request"),
    ("limiter (before)", "flask_limiter/extension.py", "_check_request_limit"),
    ("limiter (after: headers)", "flask_limiter/extension.py", "_inject_headers"),
    ("limiter storage hits", "limits/strategies.py", "hit"),
    ("CSRF check", "flask_wtf/csrf.py", "protect"),
    ("CSRF token made", "flask_wtf/csrf.py", "generate_csrf"),
    ("the view", "flask/app.py", "dispatch_request"),
    ("form read (werkzeug)", "werkzeug/wrappers/request.py", "_load_form_data"),
    ("JSON read (werkzeug)", "werkzeug/wrappers/request.py", "get_json"),
    ("rules.api reader", "rules/api.py", ""),
    ("store", "scorekeeper/store/", ""),
    ("SQLAlchemy execute", "sqlalchemy/orm/session.py", "execute"),
    ("templates render", "flask/templating.py", "render_template"),
    ("gettext", "flask_babel/__init__.py", "gettext"),
    ("get_translations", "flask_babel/__init__.py", "get_translations"),
    ("get_locale", "flask_babel/__init__.py", "get_locale"),
    ("url_for", "flask/helpers.py", "url_for"),
    ("JSON answer (jsonify/dumps)", "flask/json/provider.py", "response"),
    ("after-request hooks", "flask/app.py", "process_response"),
    ("security headers", "web/app/security.py", "secure_response"),
    ("compress (after)", "flask_compress/flask_compress.py", "after_request"),
    ("htmx-flask", "htmx_flask/", ""),
    ("teardown (appcontext)", "flask/app.py", "do_teardown_appcontext"),
    ("teardown (request)", "flask/app.py", "do_teardown_request"),
    ("logging", "logging/__init__.py", ""),
]


class Profiled:
    """The app's WSGI callable, profiled (``profile`` set) or only timed."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.profile: cProfile.Profile | None = None
        self.times: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        with self.lock:  # one request at a time: the client sends one after the other
            begin = time.perf_counter()
            if self.profile is not None:
                self.profile.enable()
                try:
                    body = list(self.app(environ, start_response))
                finally:
                    self.profile.disable()
            else:
                body = list(self.app(environ, start_response))
            self.times.append(time.perf_counter() - begin)
            return body


def grouped(stats: pstats.Stats, requests: int) -> list[tuple[str, float, int]]:
    """(group, ms per request, calls per request) of each group, from the profile."""
    out = []
    table = stats.stats  # type: ignore[attr-defined]
    for name, part, function in GROUPS:
        total = 0.0
        calls = 0
        for (file, _line, func), (_cc, nc, _tt, ct, callers) in table.items():
            if part in file.replace("\\", "/") and (not function or func == function):
                if not function:
                    # a module's functions: only the calls that come from outside it
                    outside = [c for c in callers if part not in c[0]]
                    if not outside:
                        continue
                    ct = sum(callers[c][3] for c in outside)
                    nc = sum(callers[c][1] for c in outside)
                total += ct
                calls += nc
        out.append((name, total * 1000 / requests, round(calls / requests)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--only", choices=["page", "preview", "score"])
    parser.add_argument("--dump", help="write each kind's profile to DUMP-KIND.prof")
    args = parser.parse_args()
    rng = random.Random(37)

    from scorekeeper import create_app, serving

    with tempfile.TemporaryDirectory() as folder:
        db_url = f"sqlite:///{folder}/profile.sqlite3"
        games = bench_ratios.build(db_url, {1: 1, 60: 4}, 0, 0)
        app = create_app(
            {
                "DATABASE_URL": db_url,
                "SECRET_KEY": "profile",
                "RATELIMIT_ENABLED": True,
                # on, as served, with counts one client never reaches
                "LIMIT_ANY": "1000000 per minute",
                "LIMIT_WRITE": "1000000 per minute",
                "LIMIT_CREATE": "1000000 per minute",
            }
        )
        profiled = Profiled(app.wsgi_app)
        app.wsgi_app = profiled  # type: ignore[method-assign]
        port = bench_ratios.free_port()
        options = serving.waitress_options(
            listen=f"127.0.0.1:{port}",
            threads=8,
            connection_limit=500,
            channel_timeout=30,
            max_request_body_size=512 * 1024,
        )
        server = serving.make_server(app, options)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        client = bench_ratios.Client(port)
        sixty = [g for g, _ in games.by_size[60]]
        g = sixty[0]
        status, html, _ = client.call("GET", f"/games/{g}/hands/new")
        assert status == 200, status
        token = bench_ratios.csrf_token(html)
        version = int(re.search(rb'name="version" value="(\d+)"', html)[1])  # type: ignore[index]
        head = {**bench_ratios.FORM, "X-CSRFToken": token, "HX-Request": "true"}

        kinds: dict[str, Callable[[], tuple[int, bytes, float]]] = {
            "page": lambda: client.call("GET", f"/games/{rng.choice(sixty)}"),
            "preview": lambda: client.call(
                "POST",
                f"/games/{g}/preview",
                bench_ratios.form_body(bench_ratios.preview_form(rng, version)),
                head,
            ),
            "score": lambda: client.call(
                "POST",
                "/api/v1/score",
                json.dumps(
                    {"ruleset": "classic", "players": 4, "teams": bench_ratios.varied_hand(rng)}
                ).encode(),
                bench_ratios.JSON,
            ),
        }
        try:
            for kind, call in kinds.items():
                if args.only and kind != args.only:
                    continue
                report(kind, call, profiled, args.rounds, args.top, args.dump)
        finally:
            server.close()
            app.extensions["scorekeeper.engine"].dispose()
    return 0


def report(
    kind: str,
    call: Callable[[], tuple[int, bytes, float]],
    profiled: Profiled,
    rounds: int,
    top: int,
    dump: str | None,
) -> None:
    for _ in range(50):  # warm
        status, body, _ = call()
        assert status == 200, (status, body[:300])
    profiled.times = []
    trips = [call()[2] for _ in range(rounds)]
    inside = list(profiled.times)
    profiled.profile = cProfile.Profile()
    for _ in range(rounds):
        call()
    profile, profiled.profile = profiled.profile, None
    stats = pstats.Stats(profile)
    print(f"\n=== {kind}: {rounds} requests")
    print(
        f"round trip median {statistics.median(trips) * 1000:.3f} ms; inside the app (WSGI "
        f"callable, unprofiled) median {statistics.median(inside) * 1000:.3f} ms"
    )
    print("profiled, cumulative ms per request (groups overlap: nested entry points):")
    for name, ms, calls in grouped(stats, rounds):
        if ms >= 0.0005:
            print(f"  {name:42} {ms:7.3f} ms  ({calls} calls)")
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(top)
    print(tail(out.getvalue().splitlines(), "ncalls"))
    if dump:
        profile.dump_stats(f"{dump}-{kind}.prof")


def tail(lines: Iterable[str], start: str) -> str:
    lines = list(lines)
    for i, line in enumerate(lines):
        if line.strip().startswith(start):
            return "\n".join(lines[i:])
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
