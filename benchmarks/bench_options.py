""" "What may I do?" (``rules.turns.turn_options``): how long does one answer take?

Figures, each the median of many runs of the rules engine alone (reading the request
included, as ``edge.reading.referee_options`` does):

* a 15-card hand (classic, 2 players, after the draw) with the side's melds on the table, the
  discard pile's top card, going out tried openly: target < 50 ms;
* a 15-card hand of a side that has not melded, before the draw, with the top card: < 50 ms;
* a 30-card hand (the bound the search is made for): < 250 ms.

Run: ``.venv/bin/python benchmarks/bench_options.py [--check]`` (``--check`` exits 1 when a
figure misses its target).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.edge import stateless as edge_stateless  # noqa: E402
from scorekeeper.rules.turns import TurnOptions  # noqa: E402

MELDED: dict[str, Any] = {
    "ruleset": "classic",
    "players": 2,
    "drawn": True,
    "player_melded_before": True,
    "hand": "K K Q Q Q 2 X 4 4 5 6 7 A A J",
    "top_card": "9",
    "side_melds": [["J", "J", "J"], ["9", "9", "9", "9", "2"], ["8"] * 7],
}
NOT_MELDED: dict[str, Any] = {
    "ruleset": "german",
    "players": 4,
    "drawn": False,
    "side_has_melded": False,
    "cumulative_score": 1500,
    "hand": "K K Q Q Q 2 X 4 4 5 6 7 A A 2",
    "top_card": "K",
}
BIG: dict[str, Any] = {
    "ruleset": "polish",
    "players": 2,
    "drawn": True,
    "side_has_melded": False,
    "hand": "K K K Q Q Q J J J 10 10 10 9 9 9 8 8 8 7 7 7 6 6 6 2 2 X X A A",
}


def median_ms(request: dict[str, Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = edge_stateless.referee_options(request)
        times.append((time.perf_counter() - start) * 1000)
        assert isinstance(answer, TurnOptions), answer
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    rows = [
        ("15 cards, side melded, after the draw", MELDED, 50.0, 200),
        ("15 cards, side not melded, before the draw", NOT_MELDED, 50.0, 200),
        ("30 cards, side not melded, after the draw", BIG, 250.0, 30),
    ]
    failed = False
    for label, request, target, runs in rows:
        figure = median_ms(request, runs)
        ok = figure < target
        failed |= not ok
        mark = "" if ok else "  MISSED"
        print(f"{label}: {figure:.2f} ms median (target < {target:.0f} ms){mark}")
    return 1 if (args.check and failed) else 0


if __name__ == "__main__":
    raise SystemExit(main())
