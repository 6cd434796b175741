"""The translation catalogues: extract, update and compile with Babel's own tools.

``scorekeeper translations`` runs the whole workflow; ``ensure_compiled`` builds missing or stale
``.mo`` files when the app starts, so no compiled file is ever kept in git or edited by hand.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

LOCALES = ("de", "pl")
DOMAIN = "messages"


def _po(root: Path, locale: str) -> Path:
    return root / "translations" / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def ensure_compiled(root: Path) -> None:
    """Compile every catalogue whose .mo is missing or older than its .po."""
    for locale in LOCALES:
        po = _po(root, locale)
        mo = po.with_suffix(".mo")
        if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
            # A read-only install keeps whatever was built at install time.
            with contextlib.suppress(OSError):
                _compile(root, locale)


def _compile(root: Path, locale: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", "compile", "-d", str(root / "translations"),
                                "-l", locale, "-D", DOMAIN])


def update_catalogs(root: Path, extract: bool = True) -> list[str]:
    pot = root / "translations" / f"{DOMAIN}.pot"
    out = []
    if extract:
        CommandLineInterface().run([
            "pybabel", "-q", "extract", "-F", str(root / "pyproject.toml"), "-k", "_l",
            "--no-location", "--sort-output", "--project", "scorekeeper",
            "-o", str(pot), str(root),
        ])
        out.append(f"extracted {pot}")
    for locale in LOCALES:
        po = _po(root, locale)
        cmd = "update" if po.exists() else "init"
        args = ["pybabel", "-q", cmd, "-i", str(pot), "-d", str(root / "translations"),
                "-l", locale, "-D", DOMAIN]
        if cmd == "update":
            args.append("--no-fuzzy-matching")
        CommandLineInterface().run(args)
        _compile(root, locale)
        out.append(f"{'updated' if cmd == 'update' else 'created'} and compiled {po}")
    return out
