"""Failover drill: two ``scorekeeper serve --behind-proxy`` processes behind Caddy
(deploy/Caddyfile, TLS from Caddy's internal CA), CLIENTS phones saving hands through the API,
one process killed with SIGKILL mid-load; then every acknowledged save is looked up.

    python scripts/failover_drill.py --clients 16 --seconds 20 --kill-after 5 [--db URL]

Everything runs on loopback (each phone has its own source address, 127.0.0.10 …) and is
bounded: CLIENTS ≤ 64 threads for SECONDS ≤ 120, each saving at most --max-saves hands. Without
``--db`` the two processes share an SQLite file in a temporary folder; give a PostgreSQL URL
(``postgresql+psycopg://…``) for the deployment's database. The rate limits are off (all the
phones are one machine). Prints the figures as JSON; exit 1 on a lost save.

- *error*: a save answered 5xx or not at all (the phone would show "try again");
- *lost*: a save answered 201 whose hand is not in the game afterwards;
- *unacknowledged*: a hand stored whose answer never arrived (the process died after the
  commit); the phone's next save gets 409 and reloads, so nothing is entered twice.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import loopback_stack as stack  # noqa: E402

SIDES = [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}]
# 50 points a side: a game lasts 100 hands, so a phone keeps one game through the drill.
HAND = [
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
    {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
]
MAX_CLIENTS, MAX_SECONDS = 64, 120


@dataclass
class Phone:
    source: str
    game: str | None = None
    acked: list[int] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    slowest: float = 0.0
    failures: list[str] = field(default_factory=list)


def _phone(caddy: stack.Caddy, phone: Phone, stop_at: float, max_saves: int) -> None:
    connection = stack.https(caddy, phone.source, timeout=15)
    version = 0
    saves = 0
    while time.monotonic() < stop_at and saves < max_saves:
        started = time.monotonic()
        try:
            if phone.game is None:
                status, body, _ = stack.call(
                    connection,
                    "POST",
                    "/api/v1/games",
                    {"ruleset": "german", "players": 4, "sides": SIDES},
                )
                if status == 201:
                    phone.game, version = body["id"], int(body["version"])
                else:
                    phone.answers[f"create {status}"] += 1
                    time.sleep(0.1)
                continue
            saves += 1
            status, body, _ = stack.call(
                connection,
                "POST",
                f"/api/v1/games/{phone.game}/hands",
                {"version": version, "teams": HAND},
            )
        except (OSError, http.client.HTTPException) as error:
            phone.answers["error"] += 1
            phone.failures.append(f"no answer: {error.__class__.__name__}")
            connection.close()
            connection = stack.https(caddy, phone.source, timeout=15)
            continue
        phone.slowest = max(phone.slowest, time.monotonic() - started)
        phone.answers[str(status)] += 1
        if status >= 500:
            phone.failures.append(f"{status} {str(body)[:80]!r}")
        if status == 201:
            phone.acked.append(int(body["hand"]))
            version = int(body["version"])
        elif status == 409 and isinstance(body, dict) and "version" in body:
            version = int(body["version"])
    connection.close()


def stored_hands(caddy: stack.Caddy, game: str) -> int:
    status, body, _ = stack.call(caddy, "GET", f"/api/v1/games/{game}")
    if status != 200:
        raise RuntimeError(f"GET game {game}: {status}")
    return int(body["next_hand"]) - 1


def drill(
    caddy: stack.Caddy,
    victim: stack.Process | None,
    clients: int = 16,
    seconds: float = 20,
    kill_after: float = 5,
    max_saves: int = 2000,
) -> dict[str, Any]:
    """Run the load; SIGKILL ``victim`` after ``kill_after`` s; the figures."""
    clients = max(1, min(clients, MAX_CLIENTS))
    seconds = max(1.0, min(seconds, MAX_SECONDS))
    phones = [Phone(f"127.0.0.{10 + i}") for i in range(clients)]
    stop_at = time.monotonic() + seconds
    threads = [
        threading.Thread(target=_phone, args=(caddy, p, stop_at, max_saves), daemon=True)
        for p in phones
    ]
    for thread in threads:
        thread.start()
    killed_at = None
    if victim is not None:
        time.sleep(min(kill_after, seconds))
        os.kill(victim.popen.pid, signal.SIGKILL)
        victim.popen.wait()
        killed_at = kill_after
    for thread in threads:
        thread.join(timeout=seconds + 60)
    answers: Counter[str] = Counter()
    lost = unacknowledged = 0
    for phone in phones:
        answers.update(phone.answers)
        if phone.game is None:
            continue
        stored = stored_hands(caddy, phone.game)
        lost += sum(1 for hand in phone.acked if hand > stored)
        unacknowledged += max(0, stored - len(set(phone.acked)))
    saves = sum(n for key, n in answers.items() if not key.startswith("create"))
    errors = sum(n for key, n in answers.items() if key in ("error",) or key[:1] == "5")
    return {
        "clients": clients,
        "seconds": seconds,
        "killed_at_s": killed_at,
        "saves_tried": saves,
        "acknowledged": answers["201"],
        "answers": dict(sorted(answers.items())),
        "errors": errors,
        "error_rate": round(errors / saves, 4) if saves else 0.0,
        "lost": lost,
        "unacknowledged_but_stored": unacknowledged,
        "slowest_answer_s": round(max(p.slowest for p in phones), 2),
        "failures": sorted(Counter(f for p in phones for f in p.failures).items())[:8],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--kill-after", type=float, default=5)
    parser.add_argument(
        "--db", default=None, help="database URL (default: a temporary SQLite file)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="failover-drill-") as tmp:
        folder = Path(tmp)
        db = args.db or f"sqlite:///{folder / 'drill.sqlite3'}"
        host = stack.host_of(db.replace("+psycopg", ""))
        if host:
            stack.loopback_only(host)
        env = {
            "SCOREKEEPER_DATABASE_URL": db,
            "SCOREKEEPER_SECRET_KEY": "failover-drill-" + "k" * 32,
            "SCOREKEEPER_RATELIMIT_ENABLED": "0",
        }
        first = stack.start_app(folder / "a", "app", env, "--behind-proxy")
        second = stack.start_app(folder / "b", "app", env, "--behind-proxy")
        caddy = stack.start_caddy(folder / "caddy", [first.port, second.port])
        try:
            figures = drill(caddy, first, args.clients, args.seconds, args.kill_after)
        finally:
            for process in (caddy, first, second):
                process.stop()
    print(json.dumps(figures, indent=1))
    raise SystemExit(1 if figures["lost"] else 0)


if __name__ == "__main__":
    main()
