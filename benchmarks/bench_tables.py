"""A table's page stays flat in cost: the page of a table of 1,000 games of 12 hands each costs
at most 1.5 times the page of a table of 10 games (issue "Our table").

In process, with Flask's test client, the two tables side by side on one database: the games
are stored through the store's own functions (as the API stores them), each table page is
opened once (the statistics are derived then and kept, :mod:`scorekeeper.store.cache`), then
both pages are timed in interleaved rounds; medians. Also timed: the table's page right after a
save into one of its games (one game's facts derived again, the rest kept), and the API's
answer of both tables.

Run: ``.venv/bin/python benchmarks/bench_tables.py [--games 1000] [--rounds 200]``; exits 1
when the ratio is over 1.5.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import create_app, store  # noqa: E402
from scorekeeper.edge.games import read_hand  # noqa: E402
from scorekeeper.edge.requests import NewTable  # noqa: E402
from scorekeeper.store import tables  # noqa: E402
from scorekeeper.store.db import write_scope  # noqa: E402

GOAL = 1.5
PEOPLE = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]


def hand(i: int) -> list[dict[str, Any]]:
    goer = i % 2
    return [
        {
            "quick": {
                "natural_canastas": 1 if c == goer else 0,
                "mixed_canastas": 1,
                "meld_points": 220 + 10 * (i % 5) if c == goer else 120,
                "hand_points": 0 if c == goer else 35,
                "melded": True,
            },
            "red_threes": (i + c) % 2,
            "went_out": c == goer,
        }
        for c in range(2)
    ]


def fill(app: Flask, games: int, hands: int) -> str:
    """A table with ``games`` games of ``hands`` hands each; its editing key."""
    with app.app_context():
        with write_scope() as session:
            key = tables.create_table(session, NewTable(f"Table of {games}", list(PEOPLE))).id
        for g in range(games):
            a, b, c, d = (PEOPLE[(g + k) % 6] for k in (0, 1, 2, 3))
            with write_scope() as session:
                table = tables.get_table(session, key)
                assert table is not None
                sides = [{"name": f"{a} & {c}", "players": [a, c]}]
                sides.append({"name": f"{b} & {d}", "players": [b, d]})
                game = store.create_game(session, "german", 4, sides, target=100_000)
                tables.attach(session, table, game)
                for n in range(hands):
                    store.add_hand(session, game, game.version, read_hand(hand(g + n)))
    return key


def timed(client: FlaskClient, url: str) -> float:
    start = time.perf_counter()
    answer = client.get(url)
    took = time.perf_counter() - start
    assert answer.status_code == 200, (url, answer.status_code)
    return took


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
            "RATELIMIT_ENABLED": False,
        }
    )
    start = time.perf_counter()
    small = fill(app, 10, args.hands)
    large = fill(app, args.games, args.hands)
    print(f"stored {10 + args.games} games in {time.perf_counter() - start:.1f} s")
    client = app.test_client()
    urls = {
        "small page": f"/tables/{small}",
        "large page": f"/tables/{large}",
        "small API": f"/api/v1/tables/{small}",
        "large API": f"/api/v1/tables/{large}",
    }
    for name, url in urls.items():
        print(f"first view, {name}: {timed(client, url) * 1000:.1f} ms")
    times: dict[str, list[float]] = {name: [] for name in urls}
    for _ in range(args.rounds):
        for name, url in urls.items():
            times[name].append(timed(client, url))
    median = {name: statistics.median(values) * 1000 for name, values in times.items()}
    for name, value in median.items():
        print(f"{name}: {value:.2f} ms (median of {args.rounds})")
    # A save into one game of the large table, then its page: one game's facts derived anew.
    with app.app_context(), write_scope() as session:
        table = tables.get_table(session, large)
        assert table is not None
        _link, game = tables.linked_games(session, table)[-1]
        store.add_hand(session, game, game.version, read_hand(hand(7)))
    after = timed(client, urls["large page"]) * 1000
    print(f"large page after a save into one of its games: {after:.1f} ms")
    ratio = median["large page"] / median["small page"]
    api_ratio = median["large API"] / median["small API"]
    print(f"page ratio {args.games} / 10 games: {ratio:.2f}x (goal <= {GOAL}x)")
    print(f"API ratio {args.games} / 10 games: {api_ratio:.2f}x (no goal: it lists every game)")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
