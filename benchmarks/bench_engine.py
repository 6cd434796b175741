"""How fast is one 4-player hand scored in detail?

Two figures, each the median of many runs:

* the rules engine alone: reading the cards, checking every meld and the hand as a whole
  (deck counts, going out, red threes) and scoring both sides (target < 1 ms);
* the API round trip ``POST /api/v1/score`` through the Flask test client: JSON in,
  problems turned into messages, JSON out (target < 5 ms).

Run: ``.venv/bin/python benchmarks/bench_engine.py [--check]`` (``--check`` exits 1 when a
figure misses its target).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.edge import stateless as edge_stateless  # noqa: E402
from scorekeeper.rules.scoring import ScoreAnswer  # noqa: E402

# A full hand of a 4-player German game entered card by card: both sides with several melds,
# canastas, red threes, both partners' hands, one side going out.
HAND = {
    "ruleset": "german",
    "players": 4,
    "options": {},
    "teams": [
        {
            "melds": [
                ["K", "K", "K", "K", "K", "K", "K"],
                ["7", "7", "7", "7", "7", "2", "2"],
                ["A", "A", "A", "X"],
                ["9", "9", "9"],
                ["4", "4", "4", "4"],
                ["3s", "3s", "3c"],
            ],
            "hands": [[], ["5", "Q", "J", "8", "6"]],
            "red_threes": 2,
            "went_out": True,
            "concealed": False,
        },
        {
            "melds": [
                ["Q", "Q", "Q", "Q", "Q", "2", "X"],
                ["10", "10", "10", "10"],
                ["J", "J", "2"],
                ["6", "6", "6", "6", "6", "6", "6"],
            ],
            "hands": [["A", "9", "8", "3s", "5", "5"], ["X", "2", "4", "K", "10"]],
            "red_threes": 1,
            "went_out": False,
            "concealed": False,
        },
    ],
}
ENGINE_TARGET_MS = 1.0
API_TARGET_MS = 5.0


def median_ms(run: Callable[[], object], repeat: int, warmup: int = 50) -> float:
    for _ in range(warmup):
        run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def engine_once() -> ScoreAnswer:
    answer = edge_stateless.score(HAND)
    assert isinstance(answer, ScoreAnswer), answer
    return answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()

    engine_ms = median_ms(engine_once, args.repeat)

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "DATABASE_URL": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
            }
        )
        client = app.test_client()
        payload = json.dumps(HAND)

        def api_once() -> object:
            response = client.post(
                "/api/v1/score",
                data=payload,
                content_type="application/json",
                headers={"Accept-Language": "de"},
            )
            assert response.status_code == 200, response.get_data(as_text=True)
            return response

        api_ms = median_ms(api_once, max(args.repeat // 4, 100))
        engine = app.extensions.get("scorekeeper.engine")
        if engine is not None:
            engine.dispose()

    scores = [side.score for side in engine_once().sides]
    print(f"hand scored: {scores}")
    engine_ok = "ok" if engine_ms < ENGINE_TARGET_MS else "SLOW"
    api_ok = "ok" if api_ms < API_TARGET_MS else "SLOW"
    print(
        f"engine (score + full validation, 4-player detail hand): median {engine_ms:.3f} ms"
        f"  (target < {ENGINE_TARGET_MS:g} ms) {engine_ok}"
    )
    print(
        f"API round trip POST /api/v1/score (Flask test client):  median {api_ms:.3f} ms"
        f"  (target < {API_TARGET_MS:g} ms) {api_ok}"
    )
    missed = engine_ms >= ENGINE_TARGET_MS or api_ms >= API_TARGET_MS
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
