"""The reader's locale is worked out once per request for numbers and words, and a
PDF in another language (``forced_locale``) still gets its own formats (docs/using.md:
languages)."""

from __future__ import annotations

from flask import Flask

from scorekeeper.web.words.i18n import forced_locale, locale_id, number


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


def test_whole_numbers_are_grouped_as_babel_groups_them() -> None:
    """The fast path for whole numbers writes what Babel writes, in every language."""
    import random

    from babel import numbers

    from scorekeeper.web.words.i18n import LANGUAGES, _group_symbol

    rng = random.Random(16)
    values = [*range(0, 20_000, 7), *(rng.randrange(10**15) for _ in range(2_000)), 10**15 - 1]
    for lang in LANGUAGES:
        mine = [f"{v:,}".replace(",", _group_symbol(lang)) for v in values]
        assert mine == [numbers.format_decimal(v, locale=lang) for v in values], lang


def test_requests_one_after_another_in_one_thread_keep_their_own_locale(app: Flask) -> None:
    """The locale is kept for the request (a context variable) and forgotten when it ends."""
    from tests.web.games.test_game_pages import create_game

    client = app.test_client()
    game_id = create_game(client)
    for lang, sep in (("de", "."), ("pl", "\u00a0"), ("en", ","), ("de", ".")):
        page = client.get(f"/games/{game_id}?lang={lang}").text
        assert f'lang="{lang}"' in page
        assert f"5{sep}000" in page, lang  # the target, in the page's own format
    with app.test_request_context("/?lang=pl"):
        assert locale_id() == "pl"
    with app.app_context():
        assert locale_id() == "en"  # no request: nothing kept from the one before
