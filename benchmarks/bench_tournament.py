"""How fast and how good is the seating of a club tournament?

For each case, several tournaments with distinct seeds are seated round after round, each in a
fresh Python process (cold: no earlier call has warmed anything). Printed per tournament: the
seconds of every round's ``propose`` and the repeats the rounds leave (pairs of participants
that were partners, or opponents, more than once over the whole tournament, and how many
pairs were opponents how often); then the worst round of the case.

* 160 players, tables of four, 6 rounds (the issue's scale: a round in under 1 s);
* 12 players, tables of four, 3 and 4 rounds (nobody partners twice);
* 16 pairs, tables of two pairs, 3 rounds (no pair meets another twice);
* 8 players, 7 rounds (the classic schedule where everybody partners everybody once and
  opposes everybody twice: 28 pairs x 2).

Run: ``.venv/bin/python benchmarks/bench_tournament.py [--check]`` (``--check`` exits 1 when a
round takes 1 s or more, or a case that allows no repeat has one).
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.tournaments.model import Format, Seating, SeatingRules  # noqa: E402
from scorekeeper.tournaments.seating import propose  # noqa: E402

CLASSIC = (2, 3, 4, 6)
SEEDS = (11, 22, 33, 44, 55)
# name: (format, participants, rounds, no repeated partners required, no repeated opponents)
CASES = {
    "160 players x 6 rounds": (Format.INDIVIDUAL, 160, 6, True, True),
    "12 players x 3 rounds": (Format.INDIVIDUAL, 12, 3, True, True),
    "12 players x 4 rounds": (Format.INDIVIDUAL, 12, 4, True, False),
    "16 pairs x 3 rounds": (Format.PAIRS, 16, 3, True, True),
    "8 players x 7 rounds": (Format.INDIVIDUAL, 8, 7, False, False),
}
LIMIT = 1.0


def meetings(history: list[Seating]) -> tuple[Counter[int], Counter[int]]:
    """How many pairs of participants were partners (opponents) once, twice, …"""
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for seating in history:
        for table in seating.tables:
            for side in table.sides:
                partners.update(frozenset(p) for p in itertools.combinations(side, 2))
            for x, y in itertools.combinations(table.sides, 2):
                opponents.update(frozenset((a, b)) for a in x for b in y)
    return Counter(partners.values()), Counter(opponents.values())


def one(case: str, seed: int) -> dict[str, object]:
    """One tournament of ``case``, in this process."""
    format, count, rounds, _, _ = CASES[case]
    rules = SeatingRules(format, 4, CLASSIC)
    history: list[Seating] = []
    seconds = []
    for number in range(rounds):
        start = time.perf_counter()
        seating = propose(rules, list(range(count)), history, seed=seed * 100 + number)
        seconds.append(time.perf_counter() - start)
        history.append(seating)
    partners, opponents = meetings(history)
    return {
        "seconds": seconds,
        "partners": sum(c for times, c in partners.items() if times > 1),
        "opponents": sum(c for times, c in opponents.items() if times > 1),
        "as_opponents": " ".join(f"{c}x{times}" for times, c in sorted(opponents.items())),
    }


def cold(case: str, seed: int) -> dict[str, object]:
    """One tournament in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, __file__, "--one", case, str(seed)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--one", nargs=2, metavar=("CASE", "SEED"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]))))
        return 0
    failed = False
    for case, (_, _, _, no_partners, no_opponents) in CASES.items():
        print(case)
        worst = 0.0
        for seed in SEEDS:
            found = cold(case, seed)
            seconds = [float(s) for s in found["seconds"]]  # type: ignore[attr-defined]
            worst = max(worst, *seconds)
            rounds = " ".join(f"{s:.3f}" for s in seconds)
            print(
                f"  seed {seed:>2}: {rounds} s; repeated partners {found['partners']}, "
                f"repeated opponents {found['opponents']} (pairs x times opposed: "
                f"{found['as_opponents']})"
            )
            failed |= bool(no_partners and found["partners"])
            failed |= bool(no_opponents and found["opponents"])
        print(f"  worst round: {worst:.3f} s")
        failed |= worst >= LIMIT
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
