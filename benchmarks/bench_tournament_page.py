"""The public standings of a big tournament while the phones of a hall poll them (issue "Club
tournament": the standings page costs at most 2x a game page while 40 phones poll it).

A tournament of 160 players (40 tables of 4) over 6 rounds, 2 hands entered at every table of
every round, in a fresh SQLite file; then ``scorekeeper serve`` (waitress, 8 threads, loopback)
and 40 clients at once, each on its own keep-alive connection:

* the standings fragment as htmx polls it with a stamp it no longer shows (the whole fragment
  made: standings of 160 and the round's 40 tables),
* the same poll while nothing changed (204, one light read),
* a game page of the tournament (``/games/<id>``, 2 hands), the figure to compare with.

Every client asks for compressed answers as a phone's browser does (``--identity``: not).

Prints mean and 95th percentile per request and the ratio of the fragment to the game page.

Run: ``.venv/bin/python benchmarks/bench_tournament_page.py [--requests 25]``; exits 1 when the
fragment costs more than twice the game page.
"""

from __future__ import annotations

import argparse
import http.client
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app, store  # noqa: E402
from scorekeeper.edge.games import read_hand  # noqa: E402
from scorekeeper.edge.tournaments import read_new_tournament  # noqa: E402
from scorekeeper.rules.scoring import Rejected  # noqa: E402
from scorekeeper.store import tournaments  # noqa: E402
from scorekeeper.store.db import write_scope  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_ratios import Server  # noqa: E402

PLAYERS = 160
ROUNDS = 6
HANDS = 2
CLIENTS = 40
GOAL = 2.0
#: what a phone's browser sends: the answers come compressed, as the app compresses them
PHONE = {"Accept-Encoding": "br, gzip"}
HTMX = {"HX-Request": "true", **PHONE}


def quick(winner: int, i: int) -> list[dict[str, Any]]:
    """A hand counted the quick way; ``i`` varies the points so the standings spread."""
    return [
        {
            "quick": {
                "natural_canastas": 1 if side == winner else 0,
                "mixed_canastas": 1,
                "wild_canastas": 0,
                "meld_points": 150 + 5 * ((i + side) % 40),
                "hand_points": 0 if side == winner else 20 + 5 * (i % 9),
                "black_threes_in_hand": 0,
                "melded": True,
            },
            "red_threes": (i + side) % 2,
            "went_out": side == winner,
            "concealed": False,
        }
        for side in range(2)
    ]


def build(db_url: str) -> tuple[str, str]:
    """The tournament, played: its view key and the editing key of one of its games."""
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": db_url})
    try:
        with app.app_context():
            with write_scope() as session:
                setup = read_new_tournament(
                    {
                        "name": "Bench cup",
                        "ruleset": "german",
                        "players": 4,
                        "format": "individual",
                        "scoring": "match_points",
                        "round_end": {"hands": HANDS},
                        "participants": [f"Player {n:03d}" for n in range(PLAYERS)],
                    }
                )
                assert not isinstance(setup, Rejected)
                t = tournaments.create_tournament(session, setup)
                key, view_id = t.id, t.view_id
            count = 0
            game_id = ""
            for _round in range(ROUNDS):
                with write_scope() as session:
                    found = tournaments.get_tournament(session, key)
                    assert found is not None
                    tournaments.start_round(session, found)
                    view = tournaments.view(session, found, editing=True)
                    games = [t.game_id for t in view.rounds[-1].tables if t.game_id]
                for game_key in games:
                    with write_scope() as session:
                        game = store.get_game(session, game_key)
                        assert game is not None
                        for hand in range(HANDS):
                            count += 1
                            store.add_hand(
                                session, game, game.version, read_hand(quick(hand % 2, count))
                            )
                game_id = games[0]
    finally:
        app.extensions["scorekeeper.engine"].dispose()
    return view_id, game_id


def serve(db_url: str) -> Server:
    """``scorekeeper serve`` on loopback as it runs by default (waitress, 8 threads), started
    as bench_ratios starts it; every client here comes from one address (a hall's phones come
    from many), and 40 clients from one address would meet the rate limit."""
    return Server(
        "app", db_url, limits=False, serve_args=("--connections-per-address", str(CLIENTS + 8))
    )


def get(conn: http.client.HTTPConnection, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def hammer(
    port: int, path: Callable[[int], str], headers: dict[str, str], each: int, want: int
) -> list[float]:
    """``CLIENTS`` clients at once, ``each`` requests each; the seconds of every request."""
    times: list[float] = []
    lock = threading.Lock()
    failures: list[str] = []
    start = threading.Barrier(CLIENTS)

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        get(conn, path(i), headers)  # connected and warm
        start.wait()
        mine = []
        for _ in range(each):
            began = time.perf_counter()
            status, _body = get(conn, path(i), headers)
            mine.append(time.perf_counter() - began)
            if status != want:
                failures.append(f"{path(i)}: {status}")
        conn.close()
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise RuntimeError(f"{len(failures)} unexpected answers, first: {failures[0]}")
    return times


def line(label: str, times: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(times) * 1000
    p95 = statistics.quantiles(times, n=20)[-1] * 1000
    print(f"{label:52} {mean:>8.1f} ms {p95:>8.1f} ms {len(times):>6}")
    return mean, p95


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=25, help="requests per client")
    parser.add_argument(
        "--identity", action="store_true", help="ask for uncompressed answers (no br, gzip)"
    )
    args = parser.parse_args()
    if args.identity:
        PHONE.clear()
        del HTMX["Accept-Encoding"]
    with tempfile.TemporaryDirectory() as folder:
        db_url = f"sqlite:///{folder}/bench.sqlite3"
        began = time.perf_counter()
        view_id, game_id = build(db_url)
        print(
            f"tournament of {PLAYERS} players, {PLAYERS // 4} tables x {ROUNDS} rounds, "
            f"{HANDS} hands a table: made in {time.perf_counter() - began:.1f} s"
        )
        server = serve(db_url)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
            status, body = get(conn, f"/tournaments/view/{view_id}", {})
            assert status == 200, status
            found = re.search(rb"since=([0-9a-f]+)", body)
            assert found is not None
            stamp = found[1].decode()
            conn.close()
            public = f"/tournaments/view/{view_id}"
            print(f"\n{CLIENTS} clients at once{'':27} {'mean':>11} {'p95':>11} {'reqs':>6}")
            game, _ = line(
                "game page (/games/<id>)",
                hammer(server.port, lambda i: f"/games/{game_id}", PHONE, args.requests, 200),
            )
            fragment, _ = line(
                "standings fragment (stamp stale: sent whole)",
                hammer(server.port, lambda i: f"{public}?since=0", HTMX, args.requests, 200),
            )
            line(
                "standings poll, nothing changed (204)",
                hammer(server.port, lambda i: f"{public}?since={stamp}", HTMX, args.requests, 204),
            )
        finally:
            server.stop()
    ratio = fragment / game
    print(f"\nstandings fragment / game page: {ratio:.2f}x (goal <= {GOAL:.0f}x)")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
