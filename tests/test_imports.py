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
