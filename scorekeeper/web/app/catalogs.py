"""The translation catalogues: extract, update and compile with Babel's own tools.

``scorekeeper translations`` runs the whole workflow in a checkout; ``ensure_compiled`` builds
missing or stale ``.mo`` files when the app starts, so no compiled file is ever kept in git,
shipped in the wheel or edited by hand. In a checkout they are built next to their ``.po``; in an
installed package (or a read-only folder) into ``<instance>/translations``.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from ...files import write_whole

LOCALES = ("de", "pl")
DOMAIN = "messages"


def _po(root: Path, locale: str) -> Path:
    return root / "translations" / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def _catalogue(folder: Path, locale: str, suffix: str) -> Path:
    return folder / locale / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def compiled_folder(translations: Path, instance_path: Path) -> Path:
    """Where the ``.mo`` files of ``translations`` belong: beside the ``.po`` files in a writable
    checkout, else (an installed package, a read-only app folder) in the instance folder."""
    installed = (translations.parent / "__init__.py").exists()
    if not installed and os.access(translations, os.W_OK):
        return translations
    return instance_path / "translations"


def ensure_compiled(translations: Path, instance_path: Path) -> Path:
    """Compile every catalogue whose ``.mo`` is missing or older than its ``.po``.

    Returns the folder holding the ``.mo`` files (for ``BABEL_TRANSLATION_DIRECTORIES``).
    """
    target = compiled_folder(translations, instance_path)
    for locale in LOCALES:
        po = _catalogue(translations, locale, ".po")
        mo = _catalogue(target, locale, ".mo")
        if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
            # Nowhere to write: English pages rather than no start (a failed write is silent).
            with contextlib.suppress(OSError):
                compile_catalogue(po, mo)
    return target


def compile_catalogue(po: Path, mo: Path) -> None:
    """Compile one ``.po`` into ``mo`` (fuzzy entries left out, as ``pybabel compile`` does).

    Written to a temporary file and renamed, so two processes starting at once never read a
    half-written catalogue.
    """
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.parent.parent.name, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    write_whole(mo, compiled.getvalue())


def _compile(root: Path, locale: str) -> None:
    compile_catalogue(_po(root, locale), _po(root, locale).with_suffix(".mo"))


def _pybabel(args: list[str]) -> None:
    """Run one ``pybabel`` command. Babel's command line is loaded here, by the
    ``translations`` workflow alone: a starting server never needs it."""
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(args)


def extract(root: Path, pot: Path) -> None:
    """The strings the sources under ``root`` mark for translation, written to ``pot``."""
    _pybabel(
        [
            "pybabel",
            "-q",
            "extract",
            "-F",
            str(root / "pyproject.toml"),
            "-k",
            "_l",
            "--no-location",
            "--sort-output",
            "--project",
            "scorekeeper",
            "-o",
            str(pot),
            str(root),
        ]
    )


def update_catalogs(root: Path, extract_strings: bool = True) -> list[str]:
    pot = root / "translations" / f"{DOMAIN}.pot"
    out = []
    if extract_strings:
        extract(root, pot)
        out.append(f"extracted {pot}")
    for locale in LOCALES:
        po = _po(root, locale)
        cmd = "update" if po.exists() else "init"
        args = [
            "pybabel",
            "-q",
            cmd,
            "-i",
            str(pot),
            "-d",
            str(root / "translations"),
            "-l",
            locale,
            "-D",
            DOMAIN,
        ]
        if cmd == "update":
            args.append("--no-fuzzy-matching")
        _pybabel(args)
        _compile(root, locale)
        out.append(f"{'updated' if cmd == 'update' else 'created'} and compiled {po}")
    return out
