"""A dispute asked in words (``web.rulebook.search``): what does the index cost, and one question?

Figures, each the median of several runs:

* building the in-memory FTS5 trigram index of every rule paragraph (done once per process, at
  the first question): target < 500 ms;
* one question (the 27 of tests/web/rulebook/test_rule_search.py, each asked in turn), the
  24 best paragraphs a page reads: target < 20 ms;
* ``GET /api/v1/rules/search`` through the Flask test client, index built: target < 50 ms.

Run: ``.venv/bin/python benchmarks/bench_rule_search.py [--check]`` (``--check`` exits 1 when a
figure misses its target).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.web.rulebook.rule_map import rule_map  # noqa: E402
from scorekeeper.web.rulebook.search import PAGE_FOUND, RuleIndex, rule_index  # noqa: E402
from tests.web.rulebook.test_rule_search import QUESTIONS  # noqa: E402

TARGETS_MS = {"build": 500.0, "question": 20.0, "api": 50.0}


def _median_ms(runs: list[float]) -> float:
    return statistics.median(runs) * 1000


def measure() -> dict[str, float]:
    rules = rule_map()
    builds = []
    for _ in range(5):
        start = time.perf_counter()
        RuleIndex(rules)
        builds.append(time.perf_counter() - start)
    index = rule_index()
    asked = []
    for _ in range(5):
        for lang, question, _seed, _line in QUESTIONS:
            start = time.perf_counter()
            index.search(question, lang, PAGE_FOUND)
            asked.append(time.perf_counter() - start)
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": "sqlite://"})
    client = app.test_client()
    api = []
    for lang, question, _seed, _line in QUESTIONS * 3:
        start = time.perf_counter()
        response = client.get("/api/v1/rules/search", query_string={"q": question, "lang": lang})
        api.append(time.perf_counter() - start)
        assert response.status_code == 200
    return {"build": _median_ms(builds), "question": _median_ms(asked), "api": _median_ms(api)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    figures = measure()
    missed = False
    for name, value in figures.items():
        target = TARGETS_MS[name]
        print(f"{name:9} {value:8.2f} ms   (target < {target:.0f} ms)")
        missed = missed or value >= target
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
