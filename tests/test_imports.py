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
    ("cli.py", ".store"): "Alembic (store.schema), for the db commands; a whole backup's "
    "readers and writers (store.backup), for export and import",
    ("cli.py", ".store.tournaments"): "the tournaments' part of a whole backup, for export "
    "and import",
    ("cli.py", ".web.api"): "a table's export file (web.api.table_json), for import",
    ("web/sheets/routes.py", "...sheets"): "reportlab (sheets.pdf), only when a PDF is drawn",
    ("web/play/sheet_pdf.py", "...sheets"): "reportlab (sheets.pdf), only when a PDF is drawn",
    ("web/app/catalogs.py", "babel.messages.frontend"): "pybabel, for `translations` alone",
    ("web/api/openapi.py", "...edge"): "the API description's answer types (edge.responses), "
    "only when the description is first asked for",
    ("web/engine/archive.py", "babel.messages.extract"): "Babel's extractor, only when the "
    "phone's engine archive is built",
    ("start.py", ".cli"): "the command line, imported with the garbage collector paused",
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


# --- No import runs up a layer ---------------------------------------------------------------
#
# Each area of the package (a top-level package or module; under web/, each sub-package) stands
# in one layer, the lowest first. A module may import its own layer and those below; an import
# into a higher layer makes the lower area depend on one built on top of it (the shared piece
# belongs a layer down, where both can reach it). What runs when a module is loaded counts, as
# for the cycles above; an import inside a function (the listed ones) does too.

LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer)
    for layer in (
        # the rules engine and the pure models; the settings, the loopback helpers, the signers,
        # the dataclasses' kept code
        {
            "rules",
            "tournaments",
            "settings",
            "net",
            "extensions",
            "signing",
            "__init__",
            "dataclass_code",
            "files",
            "first_answer",
        },
        {"edge"},  # requests read into typed values, answers described (docs/api.md §3)
        {"stateless", "sheets"},  # the engine's answers in words; the PDF drawings
        {"store", "migrations"},
        {"web.words"},
        {"web.app", "web.engine", "web.live", "web.docs"},
        {"web.play"},
        {"web.fifty"},
        {"web.rulebook"},
        {"web.referee"},
        {"web.api"},
        {"web.games"},
        {"web.home", "web.tables"},
        {"web.sheets"},
        {"web.tournaments"},
        {"web", "factory", "serving", "cli"},
        {"start"},  # the command's entry point, above the command line it imports
    )
)


def area(module: str) -> str:
    """``scorekeeper.web.api.games`` -> ``web.api``; ``scorekeeper.store.games`` -> ``store``."""
    parts = module.split(".")[1:]
    if not parts:
        return "__init__"
    if parts[0] == "web" and len(parts) > 1:
        return f"web.{parts[1]}"
    return parts[0]


def layer_of(name: str) -> int:
    for i, layer in enumerate(LAYERS):
        if name in layer:
            return i
    raise AssertionError(f"{name}: no layer (place it in LAYERS)")


def _imports_inside_functions(root: Path, package: str) -> dict[str, set[str]]:
    """Each module -> the package's modules its functions import."""
    names = _module_names(root, package)
    found: dict[str, set[str]] = {}
    for name, (path, is_package) in names.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for target in _imported_at_load(name, is_package, node.body):
                    if target in names:
                        found.setdefault(name, set()).add(target)
    return found


def up_layer_imports(root: Path, package: str) -> list[str]:
    graph = import_graph(root, package)
    for name, targets in _imports_inside_functions(root, package).items():
        graph[name] = graph[name] | targets
    found = []
    for module, targets in sorted(graph.items()):
        if module == package:
            # the package's own __init__: the lowest helpers (its folders) and, inside
            # create_app alone, the entry into the app on top of everything (listed in ALLOWED)
            continue
        for target in sorted(targets):
            low, high = area(module), area(target)
            if low != high and layer_of(low) < layer_of(high):
                found.append(f"{module} -> {target} ({low} imports {high}, a layer up)")
    return found


def test_no_import_runs_up_a_layer() -> None:
    found = up_layer_imports(PACKAGE, "scorekeeper")
    assert found == [], "\n".join(found)


def test_every_area_has_a_layer() -> None:
    areas = {area(name) for name in _module_names(PACKAGE, "scorekeeper")}
    for name in areas:
        layer_of(name)
    assert areas == set().union(*LAYERS)


def test_the_layer_check_finds_an_import_up_a_layer(tmp_path: Path) -> None:
    """The guard of the app answering problems through the API's own module, as it once did:
    ``web.app`` stands below ``web.api``."""
    (tmp_path / "web" / "app").mkdir(parents=True)
    (tmp_path / "web" / "api").mkdir()
    for folder in ("", "web", "web/app", "web/api"):
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "web" / "api" / "answers.py").write_text("def problem_response(): ...\n")
    (tmp_path / "web" / "app" / "limits.py").write_text(
        "from ..api.answers import problem_response\n"
    )
    assert up_layer_imports(tmp_path, "scorekeeper") == [
        "scorekeeper.web.app.limits -> scorekeeper.web.api (web.app imports web.api, a layer up)",
        "scorekeeper.web.app.limits -> scorekeeper.web.api.answers (web.app imports web.api, "
        "a layer up)",
    ]
    (tmp_path / "web" / "app" / "limits.py").write_text("def guard(): ...\n")
    assert up_layer_imports(tmp_path, "scorekeeper") == []
