"""Translations: complete catalogues, marked template strings, locale choice and formats."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[3]
LOCALES = ("de", "pl")


def _catalog(locale: str):  # type: ignore[no-untyped-def]
    path = ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po"
    assert path.exists(), f"missing catalogue {path}"
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


@pytest.mark.parametrize("locale", LOCALES)
def test_catalogue_is_complete_and_not_fuzzy(locale: str) -> None:
    catalog = _catalog(locale)
    assert len(catalog) > 50
    bad = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or any(not s for s in strings):
            bad.append(message.id)
    assert bad == []


def test_polish_has_three_plural_forms() -> None:
    assert _catalog("pl").num_plurals == 3


@pytest.mark.parametrize("locale", LOCALES)
def test_catalogue_holds_every_extracted_string(locale: str) -> None:
    """Every string of the extracted template (.pot) is in the catalogue: nothing left out."""
    with (ROOT / "translations" / "messages.pot").open("rb") as handle:
        template = read_po(handle)
    catalog = _catalog(locale)
    missing = [m.id for m in template if m.id and m.id not in catalog]
    assert missing == []


_TAG = re.compile(r"<[^>]*>", re.S)
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_BLOCKS = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
_ATTR = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"{]*)"')


def _unmarked(text: str) -> list[str]:
    body = _BLOCKS.sub(" ", text)
    body = re.sub(r"\{%\s*trans\b.*?\{%\s*endtrans\s*%\}", " ", body, flags=re.S)
    found = [a for a in _ATTR.findall(body) if re.search(r"[A-Za-z]{2,}", a)]
    body = _JINJA.sub(" ", body)
    body = _TAG.sub(" ", body)
    body = re.sub(r"&[a-z]+;|&#\d+;", " ", body)
    found += [w for w in body.split() if re.search(r"[A-Za-z]{2,}", w)]
    return found


def test_no_unmarked_strings_in_templates() -> None:
    leftovers = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        words = _unmarked(path.read_text(encoding="utf-8"))
        if words:
            leftovers[str(path.relative_to(ROOT))] = words[:10]
    assert leftovers == {}


def test_known_strings_translate(client: FlaskClient) -> None:
    body = client.post(
        "/api/v1/referee/meld",
        json={"ruleset": "german", "cards": ["K", "K"]},
        headers={"Accept-Language": "de"},
    ).get_json()
    english = client.post(
        "/api/v1/referee/meld",
        json={"ruleset": "german", "cards": ["K", "K"]},
        headers={"Accept-Language": "en"},
    ).get_json()
    assert body["reasons"][0]["code"] == english["reasons"][0]["code"] == "meld.too_small"
    assert body["reasons"][0]["message"] != english["reasons"][0]["message"]
    polish = client.post(
        "/api/v1/referee/meld",
        json={"ruleset": "german", "cards": ["K", "K"]},
        headers={"Accept-Language": "pl"},
    ).get_json()
    assert polish["reasons"][0]["message"] not in (
        body["reasons"][0]["message"],
        english["reasons"][0]["message"],
    )


def test_locale_choice_order(client: FlaskClient) -> None:
    # Accept-Language alone
    assert '<html lang="pl">' in client.get("/", headers={"Accept-Language": "pl"}).text
    # ?lang= wins and is remembered in a cookie
    page = client.get("/?lang=de", headers={"Accept-Language": "pl"})
    assert '<html lang="de">' in page.text
    assert "lang=de" in page.headers.get("Set-Cookie", "")
    # the remembered choice beats Accept-Language
    assert '<html lang="de">' in client.get("/", headers={"Accept-Language": "pl"}).text
    # ?lang= changes it again
    assert '<html lang="en">' in client.get("/?lang=en").text


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("de", "5.000"),
        ("pl", "5\u00a0000"),
        ("en", "5,000"),
    ],
)
def test_numbers_per_locale(app: Flask, lang: str, expected: str) -> None:
    from scorekeeper.web.words.i18n import number

    with app.test_request_context(f"/?lang={lang}"):
        assert number(5000) == expected
        assert number(-15) == "\u221215"


@pytest.mark.parametrize(
    ("lang", "one", "few", "many"),
    [
        ("pl", "1 kanasta", "3 kanasty", "5 kanast"),
    ],
)
def test_polish_plurals(app: Flask, lang: str, one: str, few: str, many: str) -> None:
    from flask_babel import ngettext

    with app.test_request_context(f"/?lang={lang}"):
        forms = [ngettext("%(num)s canasta", "%(num)s canastas", n) for n in (1, 3, 5)]
    assert forms == [one, few, many]


def test_a_sheet_in_another_language_leaves_the_app_in_yours(client: FlaskClient) -> None:
    """A PDF asked for in Polish is Polish, but the reader's own choice stays: the language of
    a sheet is a parameter of that sheet only."""
    assert '<html lang="de">' in client.get("/?lang=de").text
    sheet = client.get("/sheets/blank.pdf?ruleset=polish&lang=pl")
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
    assert "lang=" not in sheet.headers.get("Set-Cookie", "")
    assert '<html lang="de">' in client.get("/").text
