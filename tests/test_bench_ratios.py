"""Smoke test of the ratio benchmark (benchmarks/bench_ratios.py) with tiny sizes: both
servers start, every figure of its table is printed with its baseline and ratio, and
the servers are gone afterwards. The figures themselves are not checked here (machine load)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmark_prints_every_figure_with_its_baseline(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_ratios.py"),
            "--quick",
            "--no-phone",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    figures = {f["name"]: f for f in json.loads(out.read_text())}
    for name in (
        "game page, 60 hands",
        "live preview, 60-hand game",
        "POST /api/v1/score",
        "serve to first 200",
        "API save, 60-hand game",
        "API save, 60-hand game, cold (first request since start)",
        "PDF score sheet, 60 hands",
        "game page, 16 clients (requests/s)",
        "RSS idle",
    ):
        assert name in figures, name
        assert figures[name]["app"] > 0 and figures[name]["base"] > 0
        assert figures[name]["ratio"] > 0
        assert name in run.stdout
