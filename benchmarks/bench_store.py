"""Server time of saving a hand into a stored game that already has 60 hands.

Flask test client on a file SQLite database (WAL), detailed hands (cards, not quick counts).
Each measured save is ``POST /api/v1/games/<id>/hands`` (the 61st hand); the hand is deleted
again untimed so every save meets 60 hands. Target: median < 20 ms.

    .venv/bin/python benchmarks/bench_store.py [--saves 50]

"cold" clears the memo of scored hands and the state cache before each save: the first request
after a restart. (Each save here stores the same hand; ``bench_ratios.py`` saves varied hands
into distinct games, with a baseline.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper import create_app
from scorekeeper import store as games
from scorekeeper.store import cache

TARGET_MS = 20.0
SIDES = [{"name": "Wir", "players": ["Anna", "Ben"]}, {"name": "Ihr", "players": ["Cleo", "Dan"]}]
HAND = [
    {
        "melds": [["K", "K", "K", "2"], ["7", "7", "7", "7", "7", "2", "2"], ["A", "A", "A", "X"]],
        "red_threes": 1,
        "hands": [[], ["5", "Q"]],
        "went_out": True,
    },
    {
        "melds": [["9", "9", "9", "9", "9", "9", "2"], ["Q", "Q", "Q"]],
        "hands": [["4", "4", "J"], ["6", "3s"]],
        "red_threes": 0,
    },
]


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def run(saves: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "DATABASE_URL": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
            }
        )
        client = app.test_client()
        game = client.post(
            "/api/v1/games",
            json={"ruleset": "german", "players": 4, "sides": SIDES, "target": 1_000_000},
        ).get_json()
        url = f"/api/v1/games/{game['id']}"
        version = game["version"]
        for _ in range(60):
            response = client.post(f"{url}/hands", json={"version": version, "teams": HAND})
            assert response.status_code == 201, response.get_json()
            version = response.get_json()["version"]

        def save(before: Callable[[], Any] | None = None) -> list[float]:
            nonlocal version
            samples = []
            for _ in range(saves):
                if before:
                    before()
                start = time.perf_counter()
                response = client.post(f"{url}/hands", json={"version": version, "teams": HAND})
                samples.append(time.perf_counter() - start)
                assert response.status_code == 201, response.get_json()
                # the answer carries what changed: the new hand
                assert [h["number"] for h in response.get_json()["hands"]] == [61]
                version = response.get_json()["version"]
                gone = client.delete(f"{url}/hands/61", json={"version": version})
                version = gone.get_json()["version"]
            return samples

        warm = save()

        def forget() -> None:
            cache.forget(app)

        cold = save(forget)
        reads = []
        for _ in range(saves):
            start = time.perf_counter()
            client.get(url)
            reads.append(time.perf_counter() - start)
        states = []
        with app.app_context():
            from scorekeeper.store.db import session_scope

            with session_scope() as session:
                stored = games.get_game(session, game["id"])
                assert stored is not None and len(stored.hands) == 60
                for _ in range(saves):
                    cache.forget(app)
                    start = time.perf_counter()
                    games.game_state(stored)
                    states.append(time.perf_counter() - start)
        app.extensions["scorekeeper.engine"].dispose()
    return {
        "save_warm_ms": _median_ms(warm),
        "save_cold_ms": _median_ms(cold),
        "get_ms": _median_ms(reads),
        "rescore_60_cold_ms": _median_ms(states),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=50)
    args = parser.parse_args()
    figures = run(args.saves)
    print(
        f"save a hand into a 60-hand game (median of {args.saves}): "
        f"{figures['save_warm_ms']:.1f} ms warm, {figures['save_cold_ms']:.1f} ms cold "
        f"(target < {TARGET_MS:.0f} ms)"
    )
    print(
        f"GET the 60-hand sheet: {figures['get_ms']:.1f} ms; "
        f"re-score 60 hands from scratch: {figures['rescore_60_cold_ms']:.1f} ms"
    )
    return 0 if figures["save_cold_ms"] < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
