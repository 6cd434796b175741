"""Server time of a hand entered by its sides (docs/parts.md), against the whole hand entered
at once as the baseline, in a stored game that already has 60 hands.

Flask test client on a file SQLite database (WAL), detailed sides (cards). Measured:
``PUT /api/v1/games/<side key>/parts/0`` (the first side's part: stored, the version moved on),
``PUT …/parts/1`` (the last part: the hand checked and saved), the two together, and
``POST /api/v1/games/<id>/hands`` with the same hand (the baseline). The saved hand is deleted
again untimed, so every measurement meets 60 hands. Target: each part under twice the whole
entry and under 20 ms (each part is a write of its own: two sides' parts cost about two saves).

    .venv/bin/python benchmarks/bench_parts.py [--rounds 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import HAND, SIDES  # noqa: E402 - the same hand as the store benchmark

TARGET_MS = 20.0


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def run(rounds: int) -> dict[str, float]:
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
        we, you = game["side_ids"]
        version = game["version"]
        for _ in range(60):
            response = client.post(f"{url}/hands", json={"version": version, "teams": HAND})
            version = response.get_json()["version"]
        first, last, whole = [], [], []
        for _ in range(rounds):
            start = time.perf_counter()
            one = client.put(f"/api/v1/games/{we}/parts/0", json={"part": HAND[0], "hand": 61})
            first.append(time.perf_counter() - start)
            assert one.status_code == 200, one.get_json()
            start = time.perf_counter()
            two = client.put(f"/api/v1/games/{you}/parts/1", json={"part": HAND[1], "hand": 61})
            last.append(time.perf_counter() - start)
            assert two.status_code == 201, two.get_json()
            version = two.get_json()["version"]
            version = client.delete(f"{url}/hands/61", json={"version": version}).get_json()[
                "version"
            ]
            start = time.perf_counter()
            saved = client.post(f"{url}/hands", json={"version": version, "teams": HAND})
            whole.append(time.perf_counter() - start)
            assert saved.status_code == 201
            version = client.delete(
                f"{url}/hands/61", json={"version": saved.get_json()["version"]}
            ).get_json()["version"]
        app.extensions["scorekeeper.engine"].dispose()
    both = [a + b for a, b in zip(first, last, strict=True)]
    return {
        "first_part_ms": _median_ms(first),
        "last_part_ms": _median_ms(last),
        "both_parts_ms": _median_ms(both),
        "whole_hand_ms": _median_ms(whole),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    f = run(args.rounds)
    ratio = f["both_parts_ms"] / f["whole_hand_ms"]
    each = max(f["first_part_ms"], f["last_part_ms"]) / f["whole_hand_ms"]
    print(f"into a 60-hand game, median of {args.rounds}:")
    print(f"  first part (stored):        {f['first_part_ms']:.1f} ms")
    print(f"  last part (hand saved):     {f['last_part_ms']:.1f} ms")
    print(f"  both parts:                 {f['both_parts_ms']:.1f} ms")
    print(f"  whole hand (baseline):      {f['whole_hand_ms']:.1f} ms")
    print(f"  slower part / whole hand:   {each:.2f}   both parts / whole hand: {ratio:.2f}")
    ok = each < 2 and max(f["first_part_ms"], f["last_part_ms"]) < TARGET_MS
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
