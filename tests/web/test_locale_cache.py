"""Issue 16: the reader's locale is worked out once per request for numbers and words, and a
PDF in another language (``forced_locale``) still gets its own formats (README: languages)."""

from __future__ import annotations

from flask import Flask

from scorekeeper.web.i18n import forced_locale, locale_id, number


def test_a_forced_locale_formats_in_its_language_and_then_returns(app: Flask) -> None:
    with app.test_request_context("/?lang=de"):
        assert locale_id() == "de" and number(-5000) == "\u22125.000"
        with forced_locale("pl"):
            assert locale_id() == "pl"
            assert number(5000) == "5\u00a0000"
        with forced_locale("en"):
            assert number(5000) == "5,000"
        assert locale_id() == "de" and number(5000) == "5.000"


def test_each_request_has_its_own_locale(app: Flask) -> None:
    for lang, text in (("pl", "12\u00a0345"), ("en", "12,345"), ("de", "12.345")):
        with app.test_request_context(f"/?lang={lang}"):
            assert number(12345) == text
