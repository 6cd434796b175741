"""Median time to render the score sheet of a 60-hand game between two sides (target < 300 ms).

Run: ``.venv/bin/python benchmarks/bench_sheet.py [runs]``
"""

from __future__ import annotations

import statistics
import sys
import time

from scorekeeper.sheets.demo import sample_sheet
from scorekeeper.sheets.pdf import render_score_sheet

TARGET_MS = 300.0


def main(runs: int = 20) -> float:
    sheet = sample_sheet(60)
    render_score_sheet(sheet)  # first call: registers the fonts, once per process
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        data = render_score_sheet(sheet)
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    print(
        f"score sheet, 60 hands, 2 sides: median {median:.1f} ms over {runs} runs "
        f"(min {min(times):.1f}, max {max(times):.1f}; {len(data) // 1024} KiB; "
        f"target < {TARGET_MS:.0f} ms)"
    )
    return median


if __name__ == "__main__":
    median = main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
    sys.exit(0 if median < TARGET_MS else 1)
