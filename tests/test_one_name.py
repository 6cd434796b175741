"""One name per idea, in every layer (docs/architecture.md, "One name per idea").

An area of the web layer (``scorekeeper/web/<area>/``) has its blueprint named after it, its
templates in ``templates/<area>/`` and its tests in ``tests/web/<area>/``; the other layers call
the idea by the same name (``store/games.py``, ``api/games.py``, ``rules/games.py``). The names
an idea wore before (``canasta`` for games, ``three_is_fifty`` for fifty, ``tournament``,
``main`` for home, ``rules`` for the rulebook's pages, ``tables`` for the rulebook's tables of
numbers) must not come back: a new folder, module or blueprint under one of them fails here,
and so does an endpoint in a template or ``url_for`` that no blueprint has.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from flask import Flask

ROOT = Path(__file__).resolve().parents[1]

#: the name of an idea -> the names it must not wear again (anywhere: folder, module, blueprint)
RETIRED: dict[str, frozenset[str]] = {
    "games": frozenset({"canasta", "game"}),
    "fifty": frozenset({"three_is_fifty", "threeisfifty", "three_fifty"}),
    "tournaments": frozenset({"tournament"}),
    "home": frozenset({"main"}),
    "rulebook": frozenset({"rules_pages", "rules_api", "rule_book"}),
}

#: "rules" is the engine (scorekeeper/rules, tests/rules) and nothing of the web layer
RULES_ONLY_IN = ("scorekeeper/rules", "tests/rules")

#: "tables" is a group of players at one place; only its own files carry the name
TABLES_ONLY_IN = (
    "scorekeeper/web/tables",
    "scorekeeper/store/tables.py",
    "scorekeeper/edge/tables.py",
    "tests/edge/test_tables.py",
    "scorekeeper/web/api/tables.py",
    "templates/tables",
    "tests/web/tables",
    "tests/e2e/test_tables_browser.py",
)

#: packages of the web layer that are shared by the areas and have no blueprint of their own
SHARED = frozenset({"app", "play", "words", "api"})


def _name(path: Path) -> str:
    """What a folder or module is called, without ``test_`` / ``_browser``."""
    stem = path.name if path.is_dir() else path.stem
    return stem.removeprefix("test_").removesuffix("_browser")


def _walk(root: Path) -> Iterator[Path]:
    """Every folder and Python module of the code, the templates and the tests."""
    for top in ("scorekeeper", "templates", "tests"):
        base = root / top
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(root)
            if any(p in {"__pycache__", "static", "migrations", "data"} for p in rel.parts):
                continue
            if path.is_dir() or path.suffix in {".py", ".html"}:
                yield path


def retired_names(root: Path) -> list[str]:
    """Each folder or module that is called by a name its idea no longer has."""
    found = []
    for path in _walk(root):
        rel = path.relative_to(root).as_posix()
        name = _name(path)
        for idea, old in RETIRED.items():
            if name in old:
                found.append(f"{rel}: {idea}")
        if name == "rules" and not rel.startswith(RULES_ONLY_IN):
            found.append(f"{rel}: rulebook (or the engine, scorekeeper/rules)")
        if name == "tables" and not rel.startswith(TABLES_ONLY_IN):
            found.append(
                f"{rel}: tables is a group of players; a table of numbers is a score table"
            )
    return found


def _areas(root: Path) -> set[str]:
    web = root / "scorekeeper" / "web"
    return {p.name for p in web.iterdir() if (p / "__init__.py").is_file()}


def layers_that_disagree(root: Path) -> list[str]:
    """An area whose templates or tests folder has another name (or none of its own)."""
    areas = _areas(root)
    found = []
    for folder in sorted((root / "templates").iterdir()):
        if folder.is_dir() and folder.name not in areas:
            found.append(f"templates/{folder.name}: no scorekeeper/web/{folder.name}")
    tests = {p.name for p in (root / "tests" / "web").iterdir() if (p / "__init__.py").is_file()}
    found += [f"tests/web/{name}: no scorekeeper/web/{name}" for name in sorted(tests - areas)]
    found += [f"scorekeeper/web/{name}: no tests/web/{name}" for name in sorted(areas - tests)]
    return found


def blueprints(root: Path) -> Iterator[tuple[str, str]]:
    """(module path, blueprint name) of every ``Blueprint("name", ...)`` in the web layer."""
    for path in sorted((root / "scorekeeper" / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Blueprint"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                yield path.relative_to(root).as_posix(), str(node.args[0].value)


def blueprints_named_otherwise(root: Path) -> list[str]:
    """A blueprint is named after its area (``games``); in api/ after its area or module with
    ``_api`` (``games_api``, ``rulebook_api``, ``parts_api``), or ``api``; in a shared package
    after its module (``app/health.py``: ``health``)."""
    areas = _areas(root)
    found = []
    for module, name in blueprints(root):
        parts = module.split("/")
        package, stem = parts[2], Path(parts[-1]).stem
        if package == "api":
            fine = name == "api" or name.removesuffix("_api") in areas | {stem}
        elif package in SHARED:
            fine = name == stem
        else:
            fine = name == package
        if not fine:
            found.append(f"{module}: blueprint {name!r}")
    return found


def test_no_idea_wears_a_retired_name() -> None:
    assert retired_names(ROOT) == []


def test_each_area_has_one_name_in_every_layer() -> None:
    assert layers_that_disagree(ROOT) == []


def test_each_blueprint_is_named_after_its_area() -> None:
    assert blueprints_named_otherwise(ROOT) == []


def test_every_area_with_pages_has_its_blueprint(app: Flask) -> None:
    """The templates folders are the blueprints' names: ``render_template("games/…")`` in the
    ``games`` blueprint."""
    folders = {p.name for p in (ROOT / "templates").iterdir() if p.is_dir()}
    assert folders <= set(app.blueprints)


ENDPOINT = re.compile(r"""url_for\(\s*["'](\w+\.\w+)["']""")


def test_every_endpoint_named_in_code_and_templates_exists(app: Flask) -> None:
    """A ``url_for`` that still says an old blueprint's name (``main.index``) fails here, not
    only on the page that happens to render it."""
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    named: dict[str, str] = {}
    for top in ("scorekeeper", "templates", "tests"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in {".py", ".html"} or "static" in path.parts:
                continue
            if path == Path(__file__).resolve():  # its examples name the old endpoints
                continue
            for match in ENDPOINT.finditer(path.read_text("utf-8")):
                named.setdefault(match[1], path.relative_to(ROOT).as_posix())
    assert {e: where for e, where in named.items() if e not in endpoints} == {}


# --- the checks catch what they are for -------------------------------------------------------


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The folders the checks read, copied (the Python files and templates only)."""
    for top in ("scorekeeper/web", "templates", "tests/web"):
        shutil.copytree(
            ROOT / top,
            tmp_path / top,
            ignore=shutil.ignore_patterns("static", "__pycache__", "*.json", "*.js", "*.css"),
        )
    (tmp_path / "tests" / "e2e").mkdir()
    return tmp_path


def test_the_checks_pass_on_the_copy(copy: Path) -> None:
    assert retired_names(copy) == []
    assert layers_that_disagree(copy) == []
    assert blueprints_named_otherwise(copy) == []


def test_a_new_area_under_an_old_name_is_caught(copy: Path) -> None:
    area = copy / "scorekeeper" / "web" / "tournament"
    area.mkdir()
    (area / "__init__.py").write_text("")
    (area / "routes.py").write_text(
        'from flask import Blueprint\nbp = Blueprint("tournament", __name__)\n'
    )
    assert "scorekeeper/web/tournament: tournaments" in retired_names(copy)
    assert "scorekeeper/web/tournament: no tests/web/tournament" in layers_that_disagree(copy)
    assert blueprints_named_otherwise(copy) == []  # named after its package: caught above


def test_a_templates_folder_under_another_name_is_caught(copy: Path) -> None:
    (copy / "templates" / "main").mkdir()
    assert "templates/main: home" in retired_names(copy)
    assert "templates/main: no scorekeeper/web/main" in layers_that_disagree(copy)


def test_a_blueprint_named_apart_from_its_area_is_caught(copy: Path) -> None:
    routes = copy / "scorekeeper" / "web" / "home" / "routes.py"
    routes.write_text(routes.read_text("utf-8").replace('Blueprint("home"', 'Blueprint("main"'))
    assert blueprints_named_otherwise(copy) == ["scorekeeper/web/home/routes.py: blueprint 'main'"]


def test_a_table_of_numbers_called_tables_is_caught(copy: Path) -> None:
    (copy / "scorekeeper" / "web" / "rulebook" / "tables.py").write_text("")
    (copy / "templates" / "rulebook" / "_table.html").write_text("")  # a partial: fine
    assert retired_names(copy) == [
        "scorekeeper/web/rulebook/tables.py: tables is a group of players; a table of numbers is a"
        " score table"
    ]


def test_the_rules_name_stays_the_engines(copy: Path) -> None:
    (copy / "templates" / "rules").mkdir()
    assert "templates/rules: rulebook (or the engine, scorekeeper/rules)" in retired_names(copy)


# --- scripts/rename_map.py: what a branch written before the renames is rewritten to ----------


def _rename_map() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rename_map", ROOT / "scripts" / "rename_map.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_no_file_still_uses_an_old_name() -> None:
    """After a merge, code written against the old names fails here until the script ran."""
    assert _rename_map().main(["--check"]) == 0


OLD_ROUTES = """from ...rules import three_is_fifty
from ...rules.game import winner
from ...tournament.model import TournamentView
from ..canasta.stats import side_stats
from ..rulebook.tables import minimum_table
from tests.web.canasta.test_game_pages import create_game

bp = Blueprint("main", __name__)
CODE = "three_is_fifty.no_match"
FIFTY = three_is_fifty.RULESET_ID


def page():
    back = url_for("main.index")
    rules = url_for("rules_pages.show", ruleset_id="german")
    return render_template("main/index.html", back=back, rules=rules)
"""

NEW_ROUTES = """from ...rules import fifty
from ...rules.games import winner
from ...tournaments.model import TournamentView
from ..games.stats import side_stats
from ..rulebook.score_tables import minimum_table
from tests.web.games.test_game_pages import create_game

bp = Blueprint("home", __name__)
CODE = "three_is_fifty.no_match"
FIFTY = fifty.RULESET_ID


def page():
    back = url_for("home.index")
    rules = url_for("rulebook.show", ruleset_id="german")
    return render_template("home/index.html", back=back, rules=rules)
"""


def test_the_script_rewrites_imports_endpoints_and_templates() -> None:
    rename_map = _rename_map()
    path = ROOT / "scorekeeper" / "web" / "home" / "routes.py"
    assert rename_map.rewrite(OLD_ROUTES, path) == NEW_ROUTES
    assert rename_map.rewrite(NEW_ROUTES, path) == NEW_ROUTES  # a second run changes nothing


def test_the_script_rewrites_templates_and_docs() -> None:
    rename_map = _rename_map()
    template = (
        '{% from "rules/_table.html" import numbers_table %}\n'
        '<a href="{{ url_for(\'main.index\') }}">…</a> <main id="main">\n'
    )
    assert rename_map.rewrite(template, ROOT / "templates" / "base.html") == (
        '{% from "rulebook/_score_table.html" import numbers_table %}\n'
        '<a href="{{ url_for(\'home.index\') }}">…</a> <main id="main">\n'
    )
    doc = "See scorekeeper/web/canasta/stats.py and `scorekeeper.rules.three_is_fifty.points`; "
    doc += "the URL /rules/german stays, and so does sheets/tournament_model.py.\n"
    assert rename_map.rewrite(doc, ROOT / "docs" / "x.md") == (
        "See scorekeeper/web/games/stats.py and `scorekeeper.rules.fifty.points`; "
        "the URL /rules/german stays, and so does sheets/tournament_model.py.\n"
    )
