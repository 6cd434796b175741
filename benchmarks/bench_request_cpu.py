"""CPU time of one request inside the app, with no server and no network: the score API, the
live preview in a 60-hand game and that game's page, each the median over many requests of
the time this thread spent running (``time.thread_time``), which load on a shared machine
moves far less than the wall clock. The app is made as served (rate limits on, counts raised
as in bench_ratios.py) and called as a WSGI app with prepared requests; the bare Flask app of
benchmarks/baseline_app.py answers the same kind of request for comparison.

Variants given as JSON config objects are measured in turn on each request (interleaved), e.g.
``'{}' '{"RATELIMIT_ENABLED": false}' '{"WTF_CSRF_ENABLED": false}'`` tells what the limiter
and the CSRF check cost.

Run: ``.venv/bin/python benchmarks/bench_request_cpu.py [--requests N] [CONFIG ...]``.
To compare two checkouts, run each one's copy from its own folder.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import baseline_app  # noqa: E402
import bench_ratios as br  # noqa: E402

Request = tuple[dict[str, Any], bytes]


def prepared(
    method: str,
    path: str,
    body: bytes = b"",
    content_type: str = "",
    cookies: str = "",
    headers: dict[str, str] | None = None,
) -> Request:
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "5000",
        "HTTP_HOST": "127.0.0.1:5000",
        "REMOTE_ADDR": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if content_type:
        environ["CONTENT_TYPE"] = content_type
    if cookies:
        environ["HTTP_COOKIE"] = cookies
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ, body


def call(app: Any, request: Request) -> tuple[str, list[tuple[str, str]], bytes]:
    environ, body = request
    environ = {**environ, "wsgi.input": io.BytesIO(body)}
    said: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc: Any = None) -> None:
        said.update(status=status, headers=headers)

    data = b"".join(app(environ, start_response))
    return said["status"], said["headers"], data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1500)
    parser.add_argument("configs", nargs="*", default=["{}"])
    args = parser.parse_args()
    rng = random.Random(3)

    from scorekeeper import create_app

    folder = tempfile.mkdtemp()
    url = f"sqlite:///{folder}/cpu.sqlite3"
    games = br.build(url, {60: 2}, 0, 0)
    raised = {key.removeprefix("SCOREKEEPER_"): value for key, value in br.RAISED_LIMITS.items()}
    apps = [
        create_app(
            {
                "DATABASE_URL": url,
                "SECRET_KEY": "cpu",
                "RATELIMIT_ENABLED": True,
                **raised,
                **json.loads(config),
            }
        )
        for config in args.configs
    ]
    g = games.by_size[60][0][0]
    _, headers, html = call(apps[0], prepared("GET", f"/games/{g}/hands/new"))
    cookies = "; ".join(v.split(";")[0] for k, v in headers if k == "Set-Cookie")
    token = br.csrf_token(html)
    version = int(re.search(rb'name="version" value="(\d+)"', html)[1])  # type: ignore[index]
    form = {"X-CSRFToken": token, "HX-Request": "true"}
    kinds: dict[str, tuple[Callable[[], Request], Callable[[], Request]]] = {
        "POST /api/v1/score": (
            lambda: prepared(
                "POST",
                "/api/v1/score",
                json.dumps(
                    {"ruleset": "classic", "players": 4, "teams": br.varied_hand(rng)}
                ).encode(),
                "application/json",
                cookies,
            ),
            lambda: prepared("POST", "/echo/300", b'{"x": 1}', "application/json"),
        ),
        "live preview, 60-hand game": (
            lambda: prepared(
                "POST",
                f"/games/{g}/preview",
                br.form_body(br.preview_form(rng, version)),
                "application/x-www-form-urlencoded",
                cookies,
                form,
            ),
            lambda: prepared("POST", "/echo/400", b"x=1", "application/x-www-form-urlencoded"),
        ),
        "game page, 60 hands": (
            lambda: prepared("GET", f"/games/{g}", cookies=cookies),
            lambda: prepared("GET", "/bytes/30000"),
        ),
    }
    print(f"{'what':28} " + " ".join(f"{c[:22]:>22}" for c in args.configs) + "  bare Flask")
    for name, (make, bare) in kinds.items():
        samples: list[list[float]] = [[] for _ in [*apps, None]]
        for i in range(args.requests + 100):
            request, plain = make(), bare()
            for j, app in enumerate([*apps, baseline_app.app]):
                begin = time.thread_time()
                status, _, data = call(app, plain if app is baseline_app.app else request)
                if i >= 100:  # the first hundred warm up
                    samples[j].append(time.thread_time() - begin)
                assert status.startswith("200"), (status, data[:300])
        print(
            f"{name:28} "
            + " ".join(f"{statistics.median(s) * 1e6:19.0f} us" for s in samples[:-1])
            + f"  {statistics.median(samples[-1]) * 1e6:7.0f} us"
        )
    for app in apps:
        app.extensions["scorekeeper.engine"].dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
