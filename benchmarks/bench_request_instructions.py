"""CPU instructions of one request inside the app, counted by valgrind's callgrind: the score
API, the live preview in a 60-hand game and that game's page, and the bare Flask app of
benchmarks/baseline_app.py answering the same kind of request. A count moves by well under
1 % between runs, where times on a shared machine move by a third: it tells whether a cut
saved anything.

The app is made as served (rate limits on, counts raised as in bench_ratios.py) and called as
a WSGI app with the prepared requests of bench_request_cpu.py. Each kind's requests run inside
one ``functools.reduce`` call, which callgrind is told to count (``--toggle-collect``) and to
write out when it returns (``--dump-after``): the set-up and the warm-up are not counted.

Run: ``.venv/bin/python benchmarks/bench_request_instructions.py [--requests N] [KIND ...]``
(kinds: score, preview, page; each with ``bare-`` for the baseline). It takes minutes: the
whole process runs under valgrind. To compare two checkouts, run each one's copy from its own
folder.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import baseline_app  # noqa: E402
import bench_ratios as br  # noqa: E402
import bench_request_cpu as brc  # noqa: E402

KINDS = ("score", "preview", "page", "bare-score", "bare-preview", "bare-page")
WARM = 30


def inside(requests: int, kinds: list[str]) -> None:
    """Make the app and run each kind's requests in one ``functools.reduce`` (counted)."""
    from scorekeeper import create_app

    rng = random.Random(3)
    folder = tempfile.mkdtemp()
    url = f"sqlite:///{folder}/instructions.sqlite3"
    games = br.build(url, {60: 1}, 0, 0)
    raised = {key.removeprefix("SCOREKEEPER_"): value for key, value in br.RAISED_LIMITS.items()}
    app = create_app(
        {"DATABASE_URL": url, "SECRET_KEY": "cpu", "RATELIMIT_ENABLED": True, **raised}
    )
    g = games.by_size[60][0][0]
    _, headers, html = brc.call(app, brc.prepared("GET", f"/games/{g}/hands/new"))
    cookies = "; ".join(v.split(";")[0] for k, v in headers if k == "Set-Cookie")
    token = br.csrf_token(html)
    version = int(re.search(rb'name="version" value="(\d+)"', html)[1])  # type: ignore[index]
    form = {"X-CSRFToken": token, "HX-Request": "true"}
    make: dict[str, Callable[[], brc.Request]] = {
        "score": lambda: brc.prepared(
            "POST",
            "/api/v1/score",
            json.dumps({"ruleset": "classic", "players": 4, "teams": br.varied_hand(rng)}).encode(),
            "application/json",
            cookies,
        ),
        "preview": lambda: brc.prepared(
            "POST",
            f"/games/{g}/preview",
            br.form_body(br.preview_form(rng, version)),
            "application/x-www-form-urlencoded",
            cookies,
            form,
        ),
        "page": lambda: brc.prepared("GET", f"/games/{g}", cookies=cookies),
        "bare-score": lambda: brc.prepared("POST", "/echo/300", b'{"x": 1}', "application/json"),
        "bare-preview": lambda: brc.prepared(
            "POST", "/echo/400", b"x=1", "application/x-www-form-urlencoded"
        ),
        "bare-page": lambda: brc.prepared("GET", "/bytes/30000"),
    }
    for kind in kinds:
        target: Any = baseline_app.app if kind.startswith("bare") else app
        prepared = [make[kind]() for _ in range(requests + WARM)]
        for request in prepared[:WARM]:
            assert brc.call(target, request)[0].startswith("200")

        def one(_: None, request: brc.Request, target: Any = target) -> None:
            status = brc.call(target, request)[0]
            assert status.startswith("200"), status

        functools.reduce(one, prepared[WARM:], None)
        print("counted", kind, flush=True)
    app.extensions["scorekeeper.engine"].dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("kinds", nargs="*", choices=[[], *KINDS], default=[])
    args = parser.parse_args()
    kinds = list(args.kinds) or list(KINDS)
    if args.inside:
        inside(args.requests, kinds)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=functools_reduce",
                "--dump-after=functools_reduce",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--inside",
                "--requests",
                str(args.requests),
                *kinds,
            ],
            check=True,
            stderr=subprocess.DEVNULL,
        )
        counts = []
        for dump in sorted(Path(folder).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:])):
            found = re.search(r"^summary:\s*(\d+)", dump.read_text(errors="replace"), re.M)
            if found and int(found[1]) > 100_000 * args.requests:
                counts.append(int(found[1]))  # the other dumps: reduce calls of the set-up
    assert len(counts) == len(kinds), (counts, kinds)
    print(f"{'what':14} instructions per request")
    for kind, count in zip(kinds, counts, strict=True):
        print(f"{kind:14} {count / args.requests / 1e6:8.2f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
