"""Imports stand at the top of each module, typed and plain. The exceptions are listed here,
each with why: a tool that a running server almost never needs, imported inside the one
function that uses it, so that it is no part of every start."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"

#: (file, module imported inside a function) -> why
ALLOWED = {
    ("__init__.py", ".factory"): "importing the rules engine must not import Flask",
    ("store/db.py", "."): "Alembic (store.schema), only when a database is behind",
    ("cli.py", ".store"): "Alembic (store.schema), for the db commands",
    ("web/sheets/routes.py", "...sheets"): "reportlab (sheets.pdf), only when a PDF is drawn",
    ("web/app/catalogs.py", "babel.messages.frontend"): "pybabel, for `translations` alone",
    ("web/engine/archive.py", "babel.messages.extract"): "Babel's extractor, only when the "
    "phone's engine archive is built",
}


def imports_inside_functions() -> set[tuple[str, str]]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom):
                    module = "." * inner.level + (inner.module or "")
                elif isinstance(inner, ast.Import):
                    module = inner.names[0].name
                else:
                    continue
                found.add((path.relative_to(PACKAGE).as_posix(), module))
    return found


def test_imports_inside_functions_are_the_listed_ones() -> None:
    assert imports_inside_functions() == set(ALLOWED)


# --- No import cycles among scorekeeper's modules ------------------------------------------
#
# A cycle works only as long as the modules happen to be imported in one order: a module that
# starts the cycle from elsewhere meets a half-initialised module and fails. What a module runs
# when imported is counted: its module-level imports (those under ``if TYPE_CHECKING:`` run
# only for mypy), and for ``import a.b.c`` or ``from a.b.c import x`` every package on the way
# (``a``, ``a.b``: their ``__init__`` runs first). A module's own enclosing packages are left
# out: they are importing already when it runs, by Python's design, not by a cycle.


def _module_names(root: Path, package: str) -> dict[str, tuple[Path, bool]]:
    names: dict[str, tuple[Path, bool]] = {}
    for path in root.rglob("*.py"):
        parts = (package, *path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        names[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_at_load(name: str, is_package: bool, body: list[ast.stmt]) -> set[str]:
    """Every module named by an import statement that runs when the module is loaded."""
    found: set[str] = set()
    here = name.split(".") if is_package else name.split(".")[:-1]
    for node in body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            # ``from package import module`` imports that module too
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found |= _imported_at_load(name, is_package, node.body + node.orelse)
        elif isinstance(node, ast.Try):
            handlers = [stmt for handler in node.handlers for stmt in handler.body]
            found |= _imported_at_load(
                name, is_package, node.body + handlers + node.orelse + node.finalbody
            )
        elif isinstance(node, (ast.With, ast.For, ast.While)):
            found |= _imported_at_load(name, is_package, node.body)
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of the package -> the package's modules loading it runs first."""
    names = _module_names(root, package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in names.items():
        body = ast.parse(path.read_text("utf-8")).body
        edges: set[str] = set()
        for target in _imported_at_load(name, is_package, body):
            parts = target.split(".")
            for end in range(1, len(parts) + 1):
                module = ".".join(parts[:end])
                if module in names and not f"{name}.".startswith(f"{module}."):
                    edges.add(module)
        graph[name] = edges
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each with one cycle
    through it spelled out, so that a failure says where to cut."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1 or module in graph[module]:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return [_one_cycle(graph, group) for group in groups]


def _one_cycle(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        module = queue.pop(0)
        for target in sorted(graph[module] & group):
            if target == start:
                return [*paths[module], start]
            if target not in paths:
                paths[target] = [*paths[module], target]
                queue.append(target)
    raise AssertionError(group)  # a strongly connected group always closes a cycle


def test_no_import_cycle_among_scorekeeper_modules() -> None:
    cycles = import_cycles(import_graph(PACKAGE, "scorekeeper"))
    assert cycles == [], "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_the_cycle_check_finds_a_cycle_through_a_package(tmp_path: Path) -> None:
    """The cycle the API once had, in small: a package whose __init__ imports its routes, and a
    module elsewhere that imports a helper of that package (which runs its __init__)."""
    (tmp_path / "api").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "api" / "__init__.py").write_text("from .games import bp\n")
    (tmp_path / "api" / "games.py").write_text("from ..app.security import guard\nbp = 1\n")
    (tmp_path / "api" / "answers.py").write_text("def answer(): ...\n")
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "security.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from ..api.answers import answer\n"
        "if TYPE_CHECKING:\n    from ..api import games\n"
        "def guard(): ...\n"
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.app.security"] == {"pkg.api", "pkg.api.answers"}
    assert import_cycles(graph) == [["pkg.api", "pkg.api.games", "pkg.app.security", "pkg.api"]]
    # the same answers imported without going through the package's __init__: no cycle
    (tmp_path / "api" / "__init__.py").write_text("")
    assert import_cycles(import_graph(tmp_path, "pkg")) == []
