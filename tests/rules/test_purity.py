"""The rules engine and the tournament engine are pure Python: no web, template, database,
translation or PDF library.

docs/architecture.md: ``rules/`` imports nothing from Flask, Babel, SQLAlchemy or reportlab.
Proven two ways: a fresh interpreter imports the engine and lists ``sys.modules``, and every
import statement in the engine's source is read. ``tournaments/`` is held to the same, and imports
nothing of ``scorekeeper.rules`` either (the caller passes the ruleset's numbers).
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "scorekeeper" / "rules"
TOURNAMENT = ROOT / "scorekeeper" / "tournaments"
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
# every module of both engines, at any depth (a sub-package is the engine too)
SOURCES = sorted(RULES.rglob("*.py"))
TOURNAMENT_SOURCES = sorted(TOURNAMENT.rglob("*.py"))
MODULES = sorted(
    "scorekeeper."
    + ".".join(p.relative_to(RULES.parent).with_suffix("").parts).removesuffix(".__init__")
    for p in [*SOURCES, *TOURNAMENT_SOURCES]
)


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


@pytest.mark.parametrize("engine", ["scorekeeper.rules", "scorekeeper.tournaments"])
def test_importing_the_engine_loads_no_web_library(engine: str) -> None:
    """``import scorekeeper.rules`` (or ``.tournaments``) as any user of the engine writes it."""
    assert _loaded_after(f"import {engine}") == []


def test_engine_modules_load_no_web_library_on_their_own() -> None:
    """Every module of ``scorekeeper/rules`` and ``scorekeeper/tournaments`` with the parent
    package's ``__init__`` left out (so only the engines' own imports are seen)."""
    stub = (
        "import sys, types\n"
        "package = types.ModuleType('scorekeeper')\n"
        f"package.__path__ = [{str(ROOT / 'scorekeeper')!r}]\n"
        "sys.modules['scorekeeper'] = package\n" + "".join(f"import {name}\n" for name in MODULES)
    )
    assert _loaded_after(stub) == []


def forbidden_imports(path: Path, rules: Path = RULES) -> list[str]:
    """Every import statement of ``path`` (a file under ``rules``, the engine's folder), also
    the ones inside functions (imports on demand), that reaches outside the engine."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    depth = len(path.relative_to(rules).parts)  # 1 for rules/x.py, 2 for rules/sub/x.py
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # Relative imports must stay inside the engine (no ``from ..web import``).
                if node.level > depth:
                    found.append(f"{path.name}:{node.lineno} leaves scorekeeper.{rules.name}")
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
            own = f"scorekeeper.{rules.name}"
            outside = name.startswith("scorekeeper") and not (
                name == own or name.startswith(own + ".")
            )
            if name.split(".")[0] in FORBIDDEN or outside:
                found.append(f"{path.name}:{node.lineno} {name}")
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(RULES).as_posix())
def test_engine_source_imports_nothing_forbidden(path: Path) -> None:
    assert forbidden_imports(path) == []


@pytest.mark.parametrize(
    "path", TOURNAMENT_SOURCES, ids=lambda p: p.relative_to(TOURNAMENT).as_posix()
)
def test_tournament_source_imports_nothing_forbidden(path: Path) -> None:
    """Also nothing of ``scorekeeper.rules``: the tournament engine is given numbers."""
    assert forbidden_imports(path, TOURNAMENT) == []


def test_the_tournament_engine_may_not_import_the_rules(tmp_path: Path) -> None:
    copy = tmp_path / "tournaments"
    copy.mkdir()
    (copy / "seating.py").write_text(
        "from scorekeeper.rules.ruleset import get_ruleset\nfrom .model import Seating\n"
    )
    assert forbidden_imports(copy / "seating.py", copy) == [
        "seating.py:1 scorekeeper.rules.ruleset"
    ]


def test_a_file_in_a_sub_folder_of_the_engine_is_read_too(tmp_path: Path) -> None:
    """The check walks every folder: a copy of the engine with a sub-package that imports
    Flask, or leaves the engine, is caught."""
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy, ignore=shutil.ignore_patterns("__pycache__"))
    sub = copy / "variants"
    sub.mkdir()
    (sub / "__init__.py").write_text("")
    (sub / "web.py").write_text(
        "from flask import Flask\nfrom ...web import app\nfrom .. import cards\n"
    )
    found = [problem for p in sorted(copy.rglob("*.py")) for problem in forbidden_imports(p, copy)]
    assert found == ["web.py:1 flask", "web.py:2 leaves scorekeeper.rules"]
