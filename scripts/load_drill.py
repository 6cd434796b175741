"""Saves-only load drill: CLIENTS threads save hands into their games for SECONDS
against a running ``scorekeeper serve`` on loopback, and count the answers.

    python scripts/load_drill.py http://127.0.0.1:5000 --clients 50 --seconds 30

Each client creates a game, then saves hands with the version it last saw (a 409 re-reads and
goes on; a finished game is replaced by a new one). An error is any 5xx or a connection that
failed. The drill refuses any address that is not loopback (127.0.0.0/8, ::1): point it at your
own machine only, and start the server with ``SCOREKEEPER_RATELIMIT_ENABLED=0`` (one address
sending this much is exactly what the rate limits are for).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from urllib.parse import urlsplit

SIDES = [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}]
HAND = [
    {"quick": {"natural_canastas": 1, "meld_points": 120}, "red_threes": 0, "went_out": True},
    {"quick": {"meld_points": 60, "hand_points": 15}, "red_threes": 0},
]


def loopback_only(base: str) -> None:
    host = urlsplit(base).hostname or ""
    if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
        raise SystemExit(f"refusing {host}: the drill talks to loopback only")


def call(base: str, method: str, path: str, body: object | None = None) -> tuple[int, object]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.load(error)
        except ValueError:
            return error.code, None


def drill(base: str, clients: int, seconds: float) -> Counter[str]:
    """Run the drill; the answers counted by status (``"error"``: no answer at all)."""
    loopback_only(base)
    counts: Counter[str] = Counter()
    guard = threading.Lock()
    stop_at = time.monotonic() + seconds

    def count(key: str) -> None:
        with guard:
            counts[key] += 1

    def client() -> None:
        game: dict[str, object] | None = None
        version = 1
        while time.monotonic() < stop_at:
            try:
                if game is None:
                    status, body = call(
                        base,
                        "POST",
                        "/api/v1/games",
                        {"ruleset": "german", "players": 4, "sides": SIDES},
                    )
                    count(str(status))
                    if status != 201 or not isinstance(body, dict):
                        continue
                    game, version = body, int(body["version"])
                status, body = call(
                    base,
                    "POST",
                    f"/api/v1/games/{game['id']}/hands",
                    {"version": version, "teams": HAND},
                )
                count(str(status))
                if status == 201 and isinstance(body, dict):
                    version = int(body["version"])
                    if body.get("finished"):
                        game = None
                elif status == 409 and isinstance(body, dict):
                    version = int(body["version"])
                elif status == 422:
                    game = None
            except OSError:
                count("error")

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return counts


def errors(counts: Counter[str]) -> int:
    return sum(n for key, n in counts.items() if key == "error" or key.startswith("5"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="e.g. http://127.0.0.1:5000")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    counts = drill(args.base.rstrip("/"), args.clients, args.seconds)
    print(json.dumps(dict(sorted(counts.items())), indent=1))
    print(f"saves: {counts['201']}  errors: {errors(counts)}")
    raise SystemExit(1 if errors(counts) else 0)


if __name__ == "__main__":
    main()
