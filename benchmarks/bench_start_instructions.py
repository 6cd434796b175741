"""``scorekeeper serve`` to its first 200, counted in CPU instructions, against its floor.

``bench_ratios.py --only serve`` times the start on the wall clock, which moves by ±15 % from
run to run on a shared machine: more than a change of a few per cent. Valgrind's callgrind
counts the instructions a process runs instead, nearly the same count every time for the same
code. Each row is one process, started under callgrind, that ends the moment its first
``GET /`` has been answered 200 (``benchmarks/first_200.py`` runs both sides alike):

* **the bare Flask app** of ``baseline_app.py``, served by waitress with ``serve``'s settings;
* **the floor**: the same bare app in a process that first imports every module of a
  third-party library (anything from site-packages) that ``serve``'s own process had loaded
  by its first 200, in the order it loaded them. The list is taken from a run of ``serve`` in
  the same invocation (without callgrind), so the floor follows the app: a library the app
  stops loading before its first 200 leaves the floor too, and one it starts loading joins
  it. The standard library is not in the floor (what the app's own modules import from it is
  the app's cost), nor anything the app does with a library (mapping its models, registering
  its routes, rendering its page): that is what the goal measures;
* **``scorekeeper serve``**: its command line, everything it does before it listens (the
  schema check, the app built), then waitress answering ``GET /`` (the start page, as a
  phone asks for it: German, compressed), with the rate limits on, as a server starts.

The goal (issue 39): ``serve`` within 1.2x the floor.

As an installed app starts: the app's modules are compiled first (pip compiles a wheel's at
install; this machine sets ``PYTHONDONTWRITEBYTECODE``, so a checkout would otherwise compile
every module of the app at every start, while the libraries in site-packages are compiled), on
a database already at the newest schema (the first, uncounted run makes it), with the compiled
templates and catalogues the first run left in the instance folder and the compiled methods of
the app's dataclasses it left beside the app's modules (``scorekeeper/dataclass_code.py``).

Every counted process runs with the same hash seed (``PYTHONHASHSEED=0``): with Python's random
one, the layout of every dict and set differs from run to run, and so did the count of the same
code, by several million instructions (6.5 M between five counts). With it fixed, two counts of
the same code agree within about 0.1 M, unless the thread that configures the mappers once the
first answer is out races it (then a count is some 20 M higher; the lowest of ``--runs`` leaves
that out). A change of a few million instructions can be seen in one run.

Run: ``.venv/bin/python benchmarks/bench_start_instructions.py`` (needs ``valgrind``; each
row takes 10-60 s under it). ``--runs N`` counts each row N times and shows the lowest.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = str(ROOT / "benchmarks" / "first_200.py")
GOAL = 1.2


def instructions(args: list[str]) -> int:
    """The instructions one Python process running ``first_200.py args`` executes."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={folder}/out",
                sys.executable,
                PROBE,
                *args,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(done.stderr[-2000:])
    return int(found[1])


def third_party(names: list[str]) -> list[str]:
    """Of the modules ``names``, those of a library installed in site-packages, in order."""
    site = {
        str(Path(p).resolve())
        for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])
    }
    found = []
    for name in names:
        try:
            module = sys.modules.get(name) or importlib.import_module(name)
        except Exception:  # noqa: BLE001, S112 - made at run time, not importable by name
            continue
        where = getattr(module, "__file__", None) or next(iter(getattr(module, "__path__", [])), "")
        if where and any(str(Path(where).resolve()).startswith(s) for s in site):
            found.append(name)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="count each row this many times")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed (Debian: apt install valgrind)")
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "scorekeeper"), PROBE],
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'db.sqlite3'}"
        listed = Path(folder) / "loaded.txt"
        # the database at the newest schema, the templates and catalogues compiled, and the
        # modules the first 200 loaded
        for _ in range(2):
            subprocess.run(
                [sys.executable, PROBE, "app", db, "--modules", str(listed)],
                check=True,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
            )
        libraries = third_party(listed.read_text().split())
        floor_list = Path(folder) / "floor.txt"
        floor_list.write_text("\n".join(libraries) + "\n")
        rows = [
            ("the bare Flask app", ["bare"]),
            ("the floor (bare app + libraries)", ["floor", str(floor_list)]),
            ("scorekeeper serve", ["app", db]),
        ]
        counts: dict[str, list[int]] = {name: [] for name, _ in rows}
        for _ in range(args.runs):
            for name, probe_args in rows:
                counts[name].append(instructions(probe_args))
    tops = sorted({name.split(".")[0] for name in libraries})
    print(f"the floor imports {len(libraries)} modules of {len(tops)} libraries: {', '.join(tops)}")
    bare = min(counts[rows[0][0]])
    floor = min(counts[rows[1][0]])
    print(f"{'to the first 200':<36}{'instructions':>16}{'x bare':>9}{'x floor':>9}")
    for name, _ in rows:
        count = min(counts[name])
        spread = (max(counts[name]) - count) / count
        note = f"  (runs within {spread:.1%})" if len(counts[name]) > 1 else ""
        print(f"{name:<36}{count / 1e6:>14,.1f} M{count / bare:>8.2f}x{count / floor:>8.2f}x{note}")
    app = min(counts[rows[2][0]])
    verdict = "met" if app <= GOAL * floor else "missed"
    print(f"goal: serve <= {GOAL}x the floor ({GOAL * floor / 1e6:,.0f} M): {verdict}")


if __name__ == "__main__":
    main()
