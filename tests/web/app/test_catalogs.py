"""Where the compiled catalogues go (scorekeeper.web.app.catalogs): beside the .po files in a
writable checkout, into the instance folder for an installed package."""

from __future__ import annotations

import gettext
import os
import shutil
from pathlib import Path

from scorekeeper.web.app.catalogs import ensure_compiled

ROOT = Path(__file__).resolve().parents[3]
# translations/de/LC_MESSAGES/messages.po
GERMAN = ("Ask the referee", "Schiedsrichter fragen")


def copy_catalogues(into: Path) -> Path:
    translations = into / "translations"
    for locale in ("de", "pl"):
        po = ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po"
        target = translations / locale / "LC_MESSAGES"
        target.mkdir(parents=True)
        shutil.copy(po, target / "messages.po")
    return translations


def test_a_checkout_compiles_beside_the_po_files(tmp_path: Path) -> None:
    translations = copy_catalogues(tmp_path / "checkout")
    instance = tmp_path / "instance"
    assert ensure_compiled(translations, instance) == translations
    assert (translations / "de" / "LC_MESSAGES" / "messages.mo").is_file()
    assert not instance.exists()


def test_an_installed_package_compiles_into_the_instance_folder(tmp_path: Path) -> None:
    package = tmp_path / "site-packages" / "scorekeeper"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    translations = copy_catalogues(package)
    instance = tmp_path / "instance"
    folder = ensure_compiled(translations, instance)
    assert folder == instance / "translations"
    assert not list(translations.rglob("*.mo"))
    german = gettext.translation("messages", str(folder), languages=["de"])
    assert german.gettext(GERMAN[0]) == GERMAN[1]
    assert (folder / "pl" / "LC_MESSAGES" / "messages.mo").is_file()


def test_a_newer_po_is_compiled_again(tmp_path: Path) -> None:
    translations = copy_catalogues(tmp_path / "checkout")
    ensure_compiled(translations, tmp_path / "instance")
    mo = translations / "de" / "LC_MESSAGES" / "messages.mo"
    po = mo.with_suffix(".po")
    old = mo.stat().st_mtime - 10
    os.utime(mo, (old, old))
    ensure_compiled(translations, tmp_path / "instance")
    assert mo.stat().st_mtime >= po.stat().st_mtime
