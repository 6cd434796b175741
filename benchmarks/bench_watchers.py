"""200 watching phones (issue "every phone sees it at once", docs/live-updates.md).

The deployment of deploy/ on loopback (scripts/loopback_stack.py): Caddy 2.11.4 running
deploy/Caddyfile with TLS in front of two ``scorekeeper serve --behind-proxy`` processes on
PostgreSQL. Nothing listens on or talks to an address outside 127.0.0.0/8.

1. **Without watchers** (``--baseline`` seconds): one phone saves a hand every ``--every``
   seconds through Caddy; its save latency is the baseline.
2. **With watchers** (``--seconds``, 60): ``--watchers`` (200) phones, each from a loopback
   address of its own (127.0.1.x) and on its own TLS connection, hold the game's event stream
   open through Caddy (``GET /api/v1/games/<view_id>/events``) while the same phone saves a hand
   every ``--every`` seconds. For each save: the time from its answer (and from its sending)
   to the moment the *last* of the watchers read its event.

Prints (and ``--json`` writes) the delivery to the 200th watcher p50/p95, save latency p50/p95
with and without watchers and their ratio, errors (a stream refused or ended, a save not 201,
an event missing), and the resident memory (RSS) of both app processes and Caddy without and
with the watchers, per watcher. Goals: p95 delivery <= 2 s, save latency <= 1.5x, 0 errors.
The client (asyncio, one thread) shares the machine's cores with the servers.

``--lan``: the phones at a table instead: one ``scorekeeper serve`` on its SQLite file, reached
directly over plain HTTP (each phone from its own loopback address), no Caddy.

Run: ``SCOREKEEPER_TEST_POSTGRES_URL=postgresql+psycopg://… .venv/bin/python
benchmarks/bench_watchers.py``; exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import ssl
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import loopback_stack as stack  # noqa: E402

GAME = {
    "ruleset": "german",
    "players": 4,
    "sides": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
}
HAND = [
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
]
EVENT = re.compile(rb'data: \{"version":(\d+)\}')


@dataclass
class Front:
    """Where the phones connect: Caddy over TLS, or (``--lan``) the one app process itself,
    as the phones at a table reach ``scorekeeper serve --lan``."""

    port: int
    context: ssl.SSLContext | None
    caddy: stack.Caddy | None

    def call(self, method: str, path: str, body: object = None) -> tuple[int, Any, Any]:
        if self.caddy is not None:
            return stack.call(self.caddy, method, path, body)
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            return stack.call(connection, method, path, body)
        finally:
            connection.close()

    async def open(self, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection(
            "127.0.0.1", self.port, ssl=self.context, local_addr=(source, 0),
            server_hostname="127.0.0.1" if self.context else None,
        )  # fmt: skip


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


class Poller:
    """The alternative measured against the streams (``--mode poll``): one phone polling the
    view's part as htmx does (``?since=N``, 204 while current) every ``every`` seconds on one
    keep-alive TLS connection: the moment it first saw each version."""

    def __init__(self, source: str, every: float) -> None:
        self.source = source
        self.every = every
        self.seen: dict[int, float] = {}
        self.status = 0
        self.ended = False
        self.version = 1

    async def run(self, front: Front, path: str) -> None:
        reader, writer = await front.open(self.source)
        await asyncio.sleep(self.every * (hash(self.source) % 1000) / 1000)  # spread out
        try:
            while True:
                writer.write(
                    f"GET {path}?since={self.version} HTTP/1.1\r\nHost: 127.0.0.1:{front.port}"
                    "\r\nHX-Request: true\r\n\r\n".encode()
                )
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                self.status = self.status or status
                length = re.search(rb"(?i)content-length: *(\d+)", head)
                body = b""
                if length:
                    body = await reader.readexactly(int(length.group(1)))
                elif b"chunked" in head.lower():
                    while True:
                        size = int((await reader.readline()).strip() or b"0", 16)
                        chunk = await reader.readexactly(size + 2)
                        if size == 0:
                            break
                        body += chunk[:-2]
                if status == 200:
                    found = re.search(rb"since=(\d+)", body)
                    if found:
                        self.version = int(found.group(1))
                        self.seen.setdefault(self.version, time.monotonic())
                elif status != 204:
                    self.status = status
                await asyncio.sleep(self.every)
        finally:
            self.ended = True
            writer.close()


class Watcher:
    """One phone's event stream, raw over TLS: the moment each version's event arrived."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.seen: dict[int, float] = {}
        self.status = 0
        self.ended = False

    async def run(self, front: Front, path: str) -> None:
        reader, writer = await front.open(self.source)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{front.port}\r\n"
            "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n".encode()
        )
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        buffer = b""
        try:
            while True:
                data = await reader.read(4096)
                if not data:
                    break
                now = time.monotonic()
                buffer += data
                for match in EVENT.finditer(buffer):
                    self.seen.setdefault(int(match.group(1)), now)
                buffer = buffer[-64:]
        finally:
            self.ended = True
            writer.close()


async def save_loop(
    front: Front, game: dict[str, Any], seconds: float, every: float, version: int
) -> tuple[list[tuple[int, float, float]], int, int]:
    """Save a hand every ``every`` s for ``seconds``: [(new version, sent, answered)], the
    next version, errors."""
    loop = asyncio.get_running_loop()
    saves: list[tuple[int, float, float]] = []
    errors = 0
    ends = time.monotonic() + seconds
    path = f"/api/v1/games/{game['id']}/hands"
    while time.monotonic() < ends:
        started = time.monotonic()
        body_sent = {"version": version, "teams": HAND}
        status, body, _ = await loop.run_in_executor(None, front.call, "POST", path, body_sent)
        answered = time.monotonic()
        if status == 201:
            version = int(body["version"])
            saves.append((version, started, answered))
        else:
            errors += 1
            print("save:", status, body, file=sys.stderr)
        await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))
    return saves, version, errors


def memory(apps: list[stack.Process], front: Front) -> dict[str, int]:
    return {
        "apps_kb": sum(rss_kb(app.popen.pid) for app in apps),
        "caddy_kb": rss_kb(front.caddy.popen.pid) if front.caddy else 0,
    }


async def measure(args: argparse.Namespace, front: Front, apps: list[stack.Process]) -> Any:
    status, game, _ = front.call("POST", "/api/v1/games", GAME)
    assert status == 201, game
    # warm both processes up (templates, statements, connections), then the baseline
    baseline, version, base_errors = await save_loop(front, game, 3, 0.2, 1)
    baseline, version, base_errors = await save_loop(
        front, game, args.baseline, args.every, version
    )
    idle = memory(apps, front)

    watchers: list[Watcher | Poller]
    sources = [f"127.0.1.{i % 250 + 1}" for i in range(args.watchers)]
    if args.mode == "poll":
        path = f"/view/{game['view_id']}"
        watchers = [Poller(source, args.poll_every) for source in sources]
    else:
        path = f"/api/v1/games/{game['view_id']}/events"
        watchers = [Watcher(source) for source in sources]
    tasks = [asyncio.create_task(w.run(front, path)) for w in watchers]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and sum(1 for w in watchers if w.status) < len(watchers):
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)  # every stream subscribed
    refused = sum(1 for w in watchers if w.status not in (200, 204))
    watching = memory(apps, front)
    saves, version, save_errors = await save_loop(front, game, args.seconds, args.every, version)
    await asyncio.sleep(2.5)  # the last save's events
    ended = sum(1 for w in watchers if w.ended)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    from_answer, from_sending, missing = [], [], 0
    listening = [w for w in watchers if w.status in (200, 204)]
    for new_version, sent, answered in saves:
        # when each phone first showed this version or a later one (a poller may skip one)
        arrived = [
            min((t for v, t in w.seen.items() if v >= new_version), default=None) for w in listening
        ]
        if args.mode == "stream":  # a stream sends every version: a gap is an error
            missing += sum(1 for w in listening if new_version not in w.seen)
        if not arrived or any(a is None for a in arrived):
            missing += 0 if args.mode == "stream" else 1
            continue
        last = max(a for a in arrived if a is not None)
        from_answer.append(last - answered)
        from_sending.append(last - sent)
    latency_base = [answered - sent for _, sent, answered in baseline]
    latency_watched = [answered - sent for _, sent, answered in saves]
    per_watcher = (
        watching["apps_kb"] + watching["caddy_kb"] - idle["apps_kb"] - idle["caddy_kb"]
    ) / max(1, args.watchers)
    return {
        "mode": args.mode,
        "front": "one process, plain HTTP (--lan)" if args.lan else "Caddy (TLS), two processes",
        "watchers": args.watchers,
        "seconds": args.seconds,
        "saves": len(saves),
        "delivery_to_last_from_answer_s": {
            "p50": percentile(from_answer, 0.5),
            "p95": percentile(from_answer, 0.95),
            "max": max(from_answer, default=float("nan")),
        },
        "delivery_to_last_from_sending_s": {
            "p50": percentile(from_sending, 0.5),
            "p95": percentile(from_sending, 0.95),
        },
        "save_latency_without_s": {
            "p50": statistics.median(latency_base),
            "p95": percentile(latency_base, 0.95),
        },
        "save_latency_with_s": {
            "p50": statistics.median(latency_watched),
            "p95": percentile(latency_watched, 0.95),
        },
        "save_latency_ratio_p50": statistics.median(latency_watched)
        / statistics.median(latency_base),
        "save_latency_ratio_p95": percentile(latency_watched, 0.95)
        / percentile(latency_base, 0.95),
        "errors": {
            "streams_refused": refused,
            "streams_ended_early": ended,
            "saves_failed": base_errors + save_errors,
            "events_missing": missing,
        },
        "rss_kb": {"idle": idle, "watching": watching, "per_watcher": round(per_watcher, 1)},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--baseline", type=float, default=20)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between two saves")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--mode", choices=("stream", "poll"), default="stream",
        help="stream: event streams (what the app does); poll: short polls instead",
    )  # fmt: skip
    parser.add_argument("--poll-every", type=float, default=2.0, help="poll mode: seconds")
    parser.add_argument(
        "--lan", action="store_true",
        help="the phones reach one process directly (scorekeeper serve --lan), no Caddy",
    )  # fmt: skip
    args = parser.parse_args()
    url = os.environ.get("SCOREKEEPER_BENCH_POSTGRES_URL") or os.environ.get(
        "SCOREKEEPER_TEST_POSTGRES_URL"
    )
    if not url and not args.lan:
        print("set SCOREKEEPER_TEST_POSTGRES_URL (a throwaway PostgreSQL database)")
        return 2
    folder = Path(tempfile.mkdtemp(prefix="bench-watchers-"))
    env = {
        "SCOREKEEPER_DATABASE_URL": url or "",
        "SCOREKEEPER_SECRET_KEY": "bench-watchers-" + "k" * 32,
        # one phone saves often, 200 phones connect at once: only the stream bounds apply
        "SCOREKEEPER_LIMIT_WRITE": "100000 per minute",
        "SCOREKEEPER_LIMIT_ANY": "100000 per minute",
    }
    processes: list[stack.Process]
    if args.lan:  # as at a table: one process on its SQLite file
        env["SCOREKEEPER_DATABASE_URL"] = f"sqlite:///{folder / 'lan.sqlite3'}"
        apps = [stack.start_app(folder / "a", "app", env)]
        front = Front(apps[0].port, None, None)
        processes = list(apps)
    else:
        apps = [stack.start_app(folder / name, "app", env, "--behind-proxy") for name in "ab"]
        caddy = stack.start_caddy(folder / "caddy", [app.port for app in apps])
        context = ssl.create_default_context(cafile=str(caddy.root_certificate))
        front = Front(caddy.port, context, caddy)
        processes = [caddy, *apps]
    try:
        figures = asyncio.run(measure(args, front, apps))
    finally:
        for process in processes:
            process.stop()
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    errors = sum(figures["errors"].values())
    met = (
        figures["delivery_to_last_from_answer_s"]["p95"] <= 2.0
        and figures["save_latency_ratio_p50"] <= 1.5
        and errors == 0
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
