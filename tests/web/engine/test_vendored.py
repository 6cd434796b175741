"""Pyodide is vendored and pinned (docs/engine.md): exactly the core files of the pinned
release sit in ``scorekeeper/static/pyodide/VERSION/``, each with the sha256 of the pin that
``scripts/vendor_pyodide.py`` wrote from ``npm pack``."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PIN = ROOT / "scorekeeper" / "web" / "engine" / "pyodide.json"
STATIC = ROOT / "scorekeeper" / "static" / "pyodide"
CORE = {
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
}


def pin() -> dict[str, object]:
    found: dict[str, object] = json.loads(PIN.read_text("utf-8"))
    return found


def test_the_pinned_version_is_the_one_vendored() -> None:
    version = pin()["version"]
    assert version == "314.0.8"
    assert [p.name for p in STATIC.iterdir()] == [version]
    # the files say so themselves: the loader and the lock file name the release
    assert f'"{version}"' in (STATIC / str(version) / "pyodide.mjs").read_text("utf-8")
    lock = json.loads((STATIC / str(version) / "pyodide-lock.json").read_text("utf-8"))
    assert lock["info"]["python"].startswith("3.")  # the Python the archive must run on


def test_every_vendored_file_has_its_pinned_sha256() -> None:
    files = pin()["files"]
    assert isinstance(files, dict)
    folder = STATIC / str(pin()["version"])
    assert {p.name for p in folder.iterdir()} == set(files) == CORE
    for name, digest in files.items():
        assert re.fullmatch(r"[0-9a-f]{64}", digest)
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name


def test_a_changed_file_would_be_caught(tmp_path: Path) -> None:
    """The check above compares real digests: one byte changed gives another."""
    folder = STATIC / str(pin()["version"])
    data = bytearray((folder / "pyodide.mjs").read_bytes())
    data[100] ^= 1
    files = pin()["files"]
    assert isinstance(files, dict)
    assert hashlib.sha256(bytes(data)).hexdigest() != files["pyodide.mjs"]
