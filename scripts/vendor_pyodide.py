"""Vendor a release of Pyodide (the npm package ``pyodide``) into the package's static files.

    .venv/bin/python scripts/vendor_pyodide.py 314.0.8

runs ``npm pack pyodide@VERSION`` in a temporary folder (npm checks the tarball against the
registry's integrity hash), copies the core files the phone's engine needs into
``scorekeeper/static/pyodide/VERSION/``, removes any other vendored version, and writes the
pin (the version, each file's sha256 and its size as the app sends it) to
``scorekeeper/web/engine/pyodide.json``, which ``tests/web/engine/test_vendored.py`` holds the
files against. Nothing else of the package is
kept: the phone loads no package beyond the standard library.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "scorekeeper" / "static" / "pyodide"
PIN = ROOT / "scorekeeper" / "web" / "engine" / "pyodide.json"
#: What the runtime fetches from its ``indexURL`` to start, and nothing more.
CORE = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def sent_as(name: str, data: bytes) -> bytes:
    """A file as the app sends it (scorekeeper/web/engine: gzipped once, a zip as it is)."""
    return data if name.endswith(".zip") else gzip.compress(data, compresslevel=6, mtime=0)


def vendor(version: str) -> dict[str, object]:
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise SystemExit(f"not a release version: {version!r}")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        subprocess.run(
            ["npm", "pack", "--silent", f"pyodide@{version}"],
            cwd=folder,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        (tarball,) = folder.glob("pyodide-*.tgz")
        with tarfile.open(tarball) as archive:
            archive.extractall(folder, filter="data")
        package = folder / "package"
        found = json.loads((package / "package.json").read_text("utf-8"))["version"]
        if found != version:
            raise SystemExit(f"npm gave pyodide {found}, not {version}")
        target = STATIC / version
        if STATIC.exists():
            shutil.rmtree(STATIC)
        target.mkdir(parents=True)
        files = {}
        sent = {}
        for name in CORE:
            data = (package / name).read_bytes()
            (target / name).write_bytes(data)
            files[name] = hashlib.sha256(data).hexdigest()
            sent[name] = len(sent_as(name, data))
    pin = {"version": version, "files": files, "sent_bytes": sent}
    PIN.write_text(json.dumps(pin, indent=2) + "\n", "utf-8")
    return pin


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(json.dumps(vendor(sys.argv[1]), indent=2))
