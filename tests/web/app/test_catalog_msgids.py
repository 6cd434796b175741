"""Every string the code marks is translated: the sources are extracted afresh (the extraction of
``scorekeeper translations``) and each msgid is looked up in the German and Polish catalogues.
The other catalogue tests (tests/web/test_i18n.py) start from translations/messages.pot, which
went stale without anyone noticing; here the .pot is also held to the sources."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from scorekeeper.web.app.catalogs import extract

ROOT = Path(__file__).resolve().parents[3]
LOCALES = ("de", "pl")


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The sources' strings, extracted as scorekeeper.web.app.catalogs.update_catalogs does."""
    pot = tmp_path_factory.mktemp("extract") / "messages.pot"
    extract(ROOT, pot)
    catalog = _read(pot)
    assert len(catalog) > 500  # the extraction found the sources
    return catalog


@pytest.mark.parametrize("locale", LOCALES)
def test_every_msgid_the_code_uses_is_translated(extracted: Catalog, locale: str) -> None:
    catalog = _read(ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po", locale)
    missing, wrong = [], []
    for message in extracted:
        if not message.id:
            continue
        found = catalog.get(message.id)
        if found is None:
            missing.append(message.id)
            continue
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        if (
            found.fuzzy
            or not all(strings)
            or message.pluralizable != found.pluralizable
            or (
                message.pluralizable
                and (found.id != message.id or len(strings) != catalog.num_plurals)
            )
        ):
            wrong.append(message.id)
    assert missing == []
    assert wrong == []


def test_the_template_is_up_to_date(extracted: Catalog) -> None:
    """translations/messages.pot holds exactly the strings of the sources: regenerate it with
    the extraction of ``scorekeeper translations`` when a string changes."""
    template = _read(ROOT / "translations" / "messages.pot")
    ids = {str(m.id) for m in template if m.id}
    wanted = {str(m.id) for m in extracted if m.id}
    assert sorted(wanted - ids) == []
    assert sorted(ids - wanted) == []
