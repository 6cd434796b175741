"""The phone's engine archive, made from the source tree: a zip of exactly the modules the
phone runs (``scorekeeper/__init__.py``, ``scorekeeper/rules/``, ``scorekeeper/edge/`` and
``scorekeeper/stateless/``)
and the German and Polish catalogues compiled from the project's ``.po`` files, cut down to the
messages those modules say (docs/engine.md).

The zip is reproducible: the same sources give the same bytes (entries sorted, one fixed
time, fixed permissions, one compression level), so its digest names it and a phone keeps it
until a source changes. It is built in memory, once per process and again when a source
changes (a test holds it to the source tree).
"""

from __future__ import annotations

import hashlib
import io
import threading
import time
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from ... import PACKAGE, data_folder
from ...stateless.words import DOMAIN, LANGUAGES

#: The packages of ``scorekeeper`` the phone runs, every module of them.
PACKAGES = ("edge", "rules", "stateless")
#: Where the compiled catalogues sit in the archive (``stateless.words`` reads them there).
CATALOGUES = "scorekeeper/stateless/catalogues"
#: One time for every entry: 1980-01-01, the earliest a zip can say.
STAMP = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Archive:
    """The phone engine's zip archive, and the digest that is its address."""

    data: bytes
    digest: str  # the first 16 hex digits of its sha256: its address

    @property
    def names(self) -> list[str]:
        with zipfile.ZipFile(io.BytesIO(self.data)) as z:
            return z.namelist()


def modules(package: Path = PACKAGE) -> list[tuple[str, Path]]:
    """Each module the phone runs: its name in the archive and its source file."""
    found = [("scorekeeper/__init__.py", package / "__init__.py")]
    for name in PACKAGES:
        for path in sorted((package / name).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found.append(("scorekeeper/" + path.relative_to(package).as_posix(), path))
    return sorted(found)


def said(package: Path = PACKAGE) -> set[tuple[str | None, str]]:
    """(context, msgid) of every message the stateless modules say: ``_``, ``gettext``,
    ``ngettext`` (its singular is the catalogue's key) and ``pgettext`` calls."""
    from babel.messages.extract import extract_from_file

    found: set[tuple[str | None, str]] = set()
    for path in sorted((package / "stateless").rglob("*.py")):
        for _line, message, _comments, context in extract_from_file("python", path):
            found.add((context, message[0] if isinstance(message, tuple) else message))
    return found


def catalogue(po: Path, wanted: set[tuple[str | None, str]]) -> bytes:
    """``po`` compiled (fuzzy entries left out, as the server's own) with only the ``wanted``
    messages and the header (its plural forms)."""
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.parent.parent.name, domain=DOMAIN)
    for message in list(catalog):
        if not message.id:
            continue  # the header
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if (message.context, key) not in wanted:
            catalog.delete(message.id, message.context)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # unix, on every machine
    info.external_attr = 0o644 << 16
    return info


def build(package: Path = PACKAGE, translations: Path | None = None) -> bytes:
    """The archive's bytes, from the sources under ``package`` and the ``.po`` files under
    ``translations`` (the project's)."""
    translations = translations or data_folder("translations")
    wanted = said(package)
    files = [(name, path.read_bytes()) for name, path in modules(package)]
    for lang in LANGUAGES:
        po = translations / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.exists():
            files.append((f"{CATALOGUES}/{lang}/LC_MESSAGES/{DOMAIN}.mo", catalogue(po, wanted)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in sorted(files):
            z.writestr(_entry(name), data, compresslevel=9)
    return out.getvalue()


def _inputs(package: Path, translations: Path) -> tuple[tuple[str, int, int], ...]:
    """What the archive is made of, as (path, time of change, size): a change rebuilds it."""
    paths = [path for _name, path in modules(package)]
    paths += sorted(translations.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    out = []
    for path in paths:
        found = path.stat()
        out.append((str(path), found.st_mtime_ns, found.st_size))
    return tuple(out)


#: How often (seconds) :func:`current` looks whether a source changed: every page with the
#: engine names the archive, and looking costs a file system walk.
LOOK_EVERY = 2.0
_looked: list[tuple[float, Archive]] = []
#: One build at a time: a page that needs the archive while it is being made (the server
#: makes it once its first answer is out, web/engine) waits for that build, not a second one.
_building = threading.Lock()


def current() -> Archive:
    """The archive of the sources as they are now (built once, again after a change)."""
    now = time.monotonic()
    if _looked and now - _looked[0][0] < LOOK_EVERY:
        return _looked[0][1]
    with _building:
        if _looked and time.monotonic() - _looked[0][0] < LOOK_EVERY:
            return _looked[0][1]  # made while this one waited
        translations = data_folder("translations")
        found = _built(PACKAGE, translations, _inputs(PACKAGE, translations))
        _looked[:] = [(time.monotonic(), found)]
        return found


@lru_cache(maxsize=2)
def _built(package: Path, translations: Path, _stamps: tuple[tuple[str, int, int], ...]) -> Archive:
    data = build(package, translations)
    return Archive(data, hashlib.sha256(data).hexdigest()[:16])
