"""Rewrite code written against the old area names to the names each idea has now.

Each idea has one name in every layer (docs/architecture.md, "One name per idea"); this script
rewrites what a branch written before the renames still says: imports (absolute and relative),
dotted module paths and file paths in text, ``url_for`` endpoints, blueprint names and template
paths. It changes no URL and no problem code (``three_is_fifty.*`` codes stay: they are data).

    python scripts/rename_map.py [--check] [PATH ...]   # default: the whole checkout

Without ``--check`` it rewrites the files in place and prints each file it changed; with
``--check`` it changes nothing and exits 1 when a file still uses an old name. Run it after
``git mv``-ing a branch's new files into the new folders (git's rename detection usually does
that when merging), then sort the imports and read the diff:

    python scripts/rename_map.py && ruff check --fix --select I . && ruff format . && git diff
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: old dotted module -> new dotted module (a module's sub-modules follow it)
MODULES: dict[str, str] = {
    "scorekeeper.web.canasta": "scorekeeper.web.games",
    "scorekeeper.rules.three_is_fifty": "scorekeeper.rules.fifty",
    "scorekeeper.rules.game": "scorekeeper.rules.games",
    "scorekeeper.tournament": "scorekeeper.tournaments",
    "scorekeeper.sheets.tournament": "scorekeeper.sheets.tournaments",
    "scorekeeper.web.play.tournament": "scorekeeper.web.play.tournaments",
    "scorekeeper.web.rulebook.tables": "scorekeeper.web.rulebook.score_tables",
    "tests.web.canasta": "tests.web.games",
    "tests.tournament": "tests.tournaments",
    "tests.rules.test_three_is_fifty": "tests.rules.test_fifty",
    "tests.rules.test_tables": "tests.rules.test_casefiles",
    "tests.e2e.test_tournament": "tests.e2e.test_tournaments_browser",
}

#: old blueprint name -> new (and so every endpoint ``old.view`` -> ``new.view``)
BLUEPRINTS: dict[str, str] = {
    "main": "home",
    "rules_pages": "rulebook",
    "rules_api": "rulebook_api",
}

#: the views of a blueprint whose name is a common word (only these endpoints are rewritten)
VIEWS: dict[str, str] = {"main": r"(?:index|forget|manifest|service_worker|offline)"}

#: old template path prefix -> new (inside templates/)
TEMPLATES: dict[str, str] = {
    "rules/_table.html": "rulebook/_score_table.html",
    "main/": "home/",
    "rules/": "rulebook/",
}

#: the files the script reads (others are left alone)
SUFFIXES = {".py", ".html", ".md", ".json", ".toml", ".cfg", ".js", ".yml", ".yaml", ".txt"}
SKIP_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    "site",
    "pyodide",
    ".mypy_cache",
    "instance",  # what a local run built (the docs site), not the source
}
#: docs/architecture.md names the old names on purpose, in its paragraph of retired names
SKIP_FILES = {"scripts/rename_map.py", "tests/test_one_name.py", "docs/architecture.md"}


def _word(dotted: str) -> str:
    """A pattern for a dotted name that is not the start of a longer name (``game`` is not
    ``games``, ``tournament`` not ``tournament_model``)."""
    return r"(?<![\w.])" + re.escape(dotted) + r"(?![\w])"


def _path_rules() -> list[tuple[re.Pattern[str], str]]:
    """The same renames written as file paths (``scorekeeper/web/canasta/…``, ``web/canasta``),
    as a module path would appear in docs and comments."""
    rules: list[tuple[re.Pattern[str], str]] = []
    for old, new in MODULES.items():
        old_parts, new_parts = old.split("."), new.split(".")
        # the path may be written from the repository's root or from inside the package
        for i in range(len(old_parts) - 1):
            old_path = "/".join(old_parts[i:])
            new_path = "/".join(new_parts[i:])
            rules.append(
                (re.compile(r"(?<![\w/.])" + re.escape(old_path) + r"\.py\b"), new_path + ".py")
            )
            rules.append((re.compile(r"(?<![\w/.])" + re.escape(old_path) + r"(?=/)"), new_path))
            rules.append(
                (re.compile(r"(?<![\w/.])" + re.escape(old_path) + r"(?![\w.])"), new_path)
            )
    return rules


PATH_RULES = _path_rules() + [
    # a path joined from its parts: ``ROOT / "scorekeeper" / "tournament"``
    (
        re.compile(r"\s*/\s*".join(f'"{part}"' for part in old.split("."))),
        " / ".join(f'"{part}"' for part in new.split(".")),
    )
    for old, new in MODULES.items()
]
DOTTED_RULES = [(re.compile(_word(old)), new) for old, new in MODULES.items()] + [
    # written from inside the package, in docstrings and comments: ``rules.three_is_fifty.X``
    (
        re.compile(r"(?<![\w])" + re.escape(".".join(old.split(".")[i:])) + r"(?![\w])"),
        ".".join(new.split(".")[i:]),
    )
    for old, new in MODULES.items()
    if old.startswith("scorekeeper.")
    for i in range(1, len(old.split(".")) - 1)
]
ENDPOINT_RULES = [
    (
        re.compile(
            r"""(?P<q>["'])"""
            + re.escape(old)
            + r"\.(?P<view>"
            + VIEWS.get(old, r"\w+")
            + ")(?P=q)"
        ),
        new,
    )
    for old, new in BLUEPRINTS.items()
]
BLUEPRINT_RULES = [
    (re.compile(r"""(Blueprint\(\s*)(?P<q>["'])""" + re.escape(old) + r"(?P=q)"), new)
    for old, new in BLUEPRINTS.items()
]
TEMPLATE_RULES = [
    (
        re.compile(
            r"""(?P<lead>["'/]|templates/)"""
            + re.escape(old)
            + (r"(?=[\w.-]+\.html)" if old.endswith("/") else r"(?![\w])")
        ),
        new,
    )
    for old, new in TEMPLATES.items()
]
FROM_IMPORT = re.compile(
    r"^(?P<indent>[ \t]*)from[ \t]+(?P<dots>\.*)(?P<module>[\w.]*)"
    r"[ \t]+import[ \t]+(?P<names>\(?[^\n]*)$",
    re.MULTILINE,
)


def _package_of(path: Path) -> list[str] | None:
    """The dotted package a Python file sits in, or None outside scorekeeper/ and tests/."""
    try:
        rel = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    parts = list(rel.with_suffix("").parts)
    if not parts or parts[0] not in ("scorekeeper", "tests"):
        return None
    return parts[:-1]


def _renamed(module: str) -> str:
    for old, new in MODULES.items():
        if module == old or module.startswith(old + "."):
            return new + module[len(old) :]
    return module


def _rewrite_relative(text: str, path: Path) -> str:
    """Imports written against old module paths, relative ones too: ``from ..canasta.stats
    import x`` becomes ``from ..games.stats import x``. A module imported by its name (``from
    ...rules import three_is_fifty``) is imported by its new name, and the code's uses of that
    name (``three_is_fifty.RULESET_ID``) follow; never inside a string (``"three_is_fifty.match"``
    is a problem code and stays)."""
    package = _package_of(path)
    if package is None:
        return text
    renamed_names: dict[str, str] = {}

    def one(match: re.Match[str]) -> str:
        dots, module, names = match["dots"], match["module"], match["names"]
        base: list[str] = []
        if dots:
            up = len(dots) - 1
            if up > len(package):
                return match.group(0)
            base = package[: len(package) - up]
            absolute = ".".join([*base, module] if module else base)
        else:
            absolute = module
        new_absolute = _renamed(absolute)
        new_module = module
        if new_absolute != absolute:
            # the renames keep each module's depth, so the same number of dots still fits
            new_module = ".".join(new_absolute.split(".")[len(base) :]) if dots else new_absolute
        # ``from pkg import old_module`` (and ``old_module as x``)
        new_names = names
        for old, new in MODULES.items():
            parent, _, leaf = old.rpartition(".")
            if new_absolute == parent or absolute == parent:
                new_leaf = new.rpartition(".")[2]
                pattern = re.compile(
                    r"(?<![\w.])" + re.escape(leaf) + r"(?![\w])(?P<alias>[ \t]+as[ \t]+\w+)?"
                )

                def swap(m: re.Match[str], leaf: str = leaf, new_leaf: str = new_leaf) -> str:
                    if not m["alias"]:
                        renamed_names[leaf] = new_leaf
                    elif m["alias"].split()[-1] == new_leaf:  # ``fifty as fifty``
                        return new_leaf
                    return new_leaf + (m["alias"] or "")

                new_names = pattern.sub(swap, new_names)
        if new_module == module and new_names == names:
            return match.group(0)
        return f"{match['indent']}from {dots}{new_module} import {new_names}"

    text = FROM_IMPORT.sub(one, text)
    for old_leaf, new_leaf in renamed_names.items():
        # the module's name used in the code: ``three_is_fifty.RULESET_ID``; never inside a
        # string or a longer name (``"three_is_fifty.match"`` is a problem code and stays)
        text = re.sub(r"(?<![\w.\"'`/-])" + re.escape(old_leaf) + r"(?=\.\w)", new_leaf, text)
    return text


_WORDS = sorted(
    {old.rpartition(".")[2] for old in MODULES} | set(BLUEPRINTS) | set(TEMPLATES),
    key=len,
    reverse=True,
)


def _token(pattern: re.Pattern[str]) -> str:
    """A word every match of the pattern contains: a file without it is skipped (fast)."""
    return next((w for w in _WORDS if re.escape(w) in pattern.pattern), "")


_TOKENS = {
    pattern: _token(pattern)
    for rules in (DOTTED_RULES, PATH_RULES, ENDPOINT_RULES, BLUEPRINT_RULES, TEMPLATE_RULES)
    for pattern, _ in rules
}


def rewrite(text: str, path: Path) -> str:
    """The file's text with every old name replaced by its new one."""
    if path.suffix == ".py":
        text = _rewrite_relative(text, path)
    for pattern, new in DOTTED_RULES:
        if _TOKENS[pattern] in text:
            text = pattern.sub(new, text)
    for pattern, new in PATH_RULES:
        if _TOKENS[pattern] in text:
            text = pattern.sub(new, text)
    # in a replacement string, \g<name> puts back what the pattern's group matched
    for pattern, new in ENDPOINT_RULES:
        text = pattern.sub(rf"\g<q>{new}.\g<view>\g<q>", text)
    for pattern, new in BLUEPRINT_RULES:
        text = pattern.sub(rf"\g<1>\g<q>{new}\g<q>", text)
    for pattern, new in TEMPLATE_RULES:
        text = pattern.sub(rf"\g<lead>{new}", text)
    return text


def files(paths: Iterable[Path]) -> Iterator[Path]:
    """The text files under ``paths``, leaving out the folders of SKIP_DIRS unread."""
    for path in paths:
        if path.is_file():
            yield path
            continue
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
            for name in sorted(names):
                if Path(name).suffix in SUFFIXES:
                    yield Path(folder) / name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 on an old name"
    )
    parser.add_argument("paths", nargs="*", type=Path)
    args = parser.parse_args(argv)
    stale = 0
    for path in files(args.paths or [ROOT]):
        try:
            if path.resolve().relative_to(ROOT).as_posix() in SKIP_FILES:
                continue
        except ValueError:
            pass
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        new = rewrite(text, path)
        if new != text:
            stale += 1
            print(path)
            if not args.check:
                path.write_text(new, "utf-8")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
