"""Every dataclass of the package says in a docstring what it holds.

Besides being read, a docstring saves a start time: for a class without one, Python 3.11's
``dataclasses`` makes ``__doc__`` from ``inspect.signature(cls)`` when the class is defined
(about 40 µs a class; docs/measurements.md, "Third round"). The sources are read with ``ast``,
so a class defined inside a function is checked as well as one at module level, and nothing
needs importing."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"


def _is_dataclass_decorator(node: ast.expr) -> bool:
    """``@dataclass``, ``@dataclasses.dataclass``, either called with arguments or not."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id == "dataclass"
    return isinstance(node, ast.Attribute) and node.attr == "dataclass"


def dataclasses_in(source: str) -> list[tuple[int, str, bool]]:
    """Each dataclass defined in ``source``: its line, its name, and whether it has a
    docstring of its own."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and any(
            _is_dataclass_decorator(d) for d in node.decorator_list
        ):
            found.append((node.lineno, node.name, ast.get_docstring(node) is not None))
    return found


def test_the_check_finds_a_dataclass_without_a_docstring() -> None:
    source = (
        "import dataclasses\n"
        "from dataclasses import dataclass\n"
        "@dataclass(frozen=True)\n"
        "class Said:\n"
        '    """A point."""\n'
        "    x: int\n"
        "def f():\n"
        "    @dataclasses.dataclass\n"
        "    class Silent:\n"
        "        x: int\n"
        "    return Silent\n"
        "class Plain:\n"
        "    x: int\n"
    )
    assert sorted(dataclasses_in(source)) == [(4, "Said", True), (9, "Silent", False)]


def test_every_dataclass_of_the_package_has_a_docstring() -> None:
    missing = []
    count = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        for line, name, documented in dataclasses_in(path.read_text("utf-8")):
            count += 1
            if not documented:
                missing.append(f"{path.relative_to(PACKAGE.parent)}:{line} {name}")
    assert not missing, "dataclasses without a docstring:\n" + "\n".join(missing)
    # the walk found the package's dataclasses (some 250), not none through a changed layout
    assert count > 200
