"""The rules engine is pure Python: no web, template, database, translation or PDF library.

STYLE.md: ``rules/`` "Imports nothing from Flask, Babel, SQLAlchemy or reportlab (a test proves
it)". Proven two ways: a fresh interpreter imports the engine and lists ``sys.modules``, and every
import statement in the engine's source is read.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "scorekeeper" / "rules"
FORBIDDEN = (
    "flask",
    "flask_babel",
    "flask_wtf",
    "babel",
    "sqlalchemy",
    "reportlab",
    "werkzeug",
    "jinja2",
    "htmx_flask",
    "waitress",
)
MODULES = sorted(f"scorekeeper.rules.{p.stem}" for p in RULES.glob("*.py") if p.stem != "__init__")


def _loaded_after(code: str) -> list[str]:
    """Top-level packages of ``FORBIDDEN`` in ``sys.modules`` after ``code`` in a fresh Python."""
    probe = code + (
        "\nimport json, sys\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r}))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    loaded: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


def test_importing_the_engine_loads_no_web_library() -> None:
    """``import scorekeeper.rules`` as any user of the engine writes it."""
    assert _loaded_after("import scorekeeper.rules") == []


def test_engine_modules_load_no_web_library_on_their_own() -> None:
    """Every module of ``scorekeeper/rules`` with the parent package's ``__init__`` left out
    (so only the engine's own imports are seen)."""
    stub = (
        "import sys, types\n"
        "package = types.ModuleType('scorekeeper')\n"
        f"package.__path__ = [{str(ROOT / 'scorekeeper')!r}]\n"
        "sys.modules['scorekeeper'] = package\n"
        + "".join(f"import {name}\n" for name in ["scorekeeper.rules", *MODULES])
    )
    assert _loaded_after(stub) == []


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_engine_source_imports_nothing_forbidden(path: Path) -> None:
    """Every import statement, also the ones inside functions (imports on demand)."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # Relative imports must stay inside the engine (no ``from ..web import``).
                assert node.level == 1, f"{path.name}:{node.lineno} leaves scorekeeper.rules"
                continue
            names = [node.module or ""]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names = [str(node.args[0].value)]
        for name in names:
            outside = name.startswith("scorekeeper") and not name.startswith("scorekeeper.rules")
            if name.split(".")[0] in FORBIDDEN or outside:
                found.append(f"{path.name}:{node.lineno} {name}")
    assert found == []
