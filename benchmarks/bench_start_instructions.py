"""What a server's start costs, counted in CPU instructions, against a bare Flask app.

``bench_ratios.py --only serve`` times the start on the wall clock, which moves by ±15 % from
run to run on a shared machine: more than a change of a few per cent. Valgrind's callgrind counts
the instructions a process runs instead, the same count every time for the same code. Each row
below is one process that imports what it names (the last one also builds the app, as ``serve``
does before it listens); the ratio is to the bare Flask app of ``baseline_app.py``, loaded as
its process loads it.

Run: ``.venv/bin/python benchmarks/bench_start_instructions.py`` (needs ``valgrind``; each row
takes 5–30 s under it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARIES = "flask_babel, flask_limiter, flask_wtf, flask_compress, htmx_flask, click, segno"

ROWS = [
    (
        "the bare Flask app",
        "import runpy, waitress.server; runpy.run_path('benchmarks/baseline_app.py')",
    ),
    ("Flask + waitress", "import flask, waitress.server"),
    ("+ SQLAlchemy's ORM", "import flask, waitress.server, sqlalchemy.orm"),
    ("+ the other libraries", f"import flask, waitress.server, sqlalchemy.orm, {LIBRARIES}"),
    (
        "+ the app's modules",
        f"import flask, waitress.server, sqlalchemy.orm, {LIBRARIES}; import scorekeeper.cli",
    ),
    (
        "the app built (as serve does)",
        "import scorekeeper.cli; from scorekeeper import create_app; "
        "create_app({'DATABASE_URL': 'sqlite:///%s', 'SECRET_KEY': 'bench'})",
    ),
]


def instructions(code: str) -> int:
    """The instructions one Python process running ``code`` executes, start to exit."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={folder}/out",
                sys.executable,
                "-c",
                code,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(done.stderr[-2000:])
    return int(found[1])


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed (Debian: apt install valgrind)")
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "db.sqlite3"
        # a database at the newest schema, as a server usually finds it
        instructions(ROWS[-1][1] % database)
        counts = []
        for name, code in ROWS:
            counts.append((name, instructions(code % database if "%s" in code else code)))
    bare = counts[0][1]
    print(f"{'what is loaded':<34}{'instructions':>16}{'x bare Flask':>14}")
    for name, count in counts:
        print(f"{name:<34}{count / 1e6:>14,.0f} M{count / bare:>13.2f}x")
    print(f"3x bare Flask would be {3 * bare / 1e6:,.0f} M instructions.")


if __name__ == "__main__":
    main()
