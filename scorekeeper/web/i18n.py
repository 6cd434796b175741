"""Locale choice and locale-aware formatting (issue: German, Polish and English everywhere).

Order of choice: ``?lang=``, then the remembered choice (cookie), then Accept-Language.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from functools import lru_cache, wraps
from typing import Any, TypeVar
from urllib.parse import urlencode

from babel import Locale, numbers
from flask import Flask, Response, current_app, g, has_request_context, request
from flask_babel import force_locale, format_date, get_locale

LANGUAGES = ("en", "de", "pl")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "pl": "polski"}
COOKIE = "lang"
MINUS = "\u2212"


def select_locale() -> str:
    if not request:
        return "en"
    asked = request.args.get("lang", "")
    if asked in LANGUAGES:
        return asked
    remembered = request.cookies.get(COOKIE, "")
    if remembered in LANGUAGES:
        return remembered
    return request.accept_languages.best_match(LANGUAGES) or "en"


def reader_locale() -> Locale:
    """:func:`select_locale` as a Babel ``Locale``, made once per language: flask_babel parses
    a locale's text again on every request (issue 16)."""
    return _parsed(select_locale())


@lru_cache(maxsize=len(LANGUAGES))
def _parsed(code: str) -> Locale:
    return Locale.parse(code)


def current_language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else "en"


@contextmanager
def forced_locale(code: str) -> Iterator[None]:
    """flask_babel's ``force_locale`` (a PDF in its own language), also for :func:`locale_id`."""
    g.pop("_locale_id", None)
    try:
        with force_locale(code):
            yield
    finally:
        g.pop("_locale_id", None)


def locale_id() -> str:
    """The reader's locale as text ("de", "pl", "en"), worked out once per request: a page or
    a preview formats a dozen numbers and words, and Babel's lookup costs more than a
    formatted number kept per language (issue 16)."""
    if not has_request_context():
        return str(get_locale() or "en")
    found: str | None = g.get("_locale_id")
    if found is None:
        found = g._locale_id = str(get_locale() or "en")
    return found


HOME_RULESETS = {"de": "german", "pl": "polish", "en": "classic"}


def home_ruleset() -> str:
    """The ruleset a reader of this language most likely plays: the first choice offered
    where a page is not told one (German rules in German, Polish in Polish, else Classic)."""
    return HOME_RULESETS.get(current_language(), "classic")


def number(value: int | float | None) -> str:
    """A number in the reader's format, negatives with a true minus sign (5.000, 5 000, 5,000)."""
    if value is None:
        return ""
    if abs(value) >= 10**15:  # beyond any score; Babel's decimal context gives up on such
        return str(value).replace("-", MINUS)
    text = _decimal(abs(value), locale_id())
    return f"{MINUS}{text}" if value < 0 else text


@lru_cache(maxsize=4096)
def _decimal(value: int | float, locale: str) -> str:
    """Babel's formatting, kept: a page formats the same few scores over and over (issue 16)."""
    return numbers.format_decimal(value, locale=locale)


T = TypeVar("T")
WORDS_KEPT = 4096


def per_language(words: Callable[..., T]) -> Callable[..., T]:
    """``words`` remembered per reader's language and arguments (issue 16: a live preview asks
    for the same labels and counted nouns on every keystroke, and each gettext call looks up
    the request's locale and catalogue again). Only for results made of the catalogues, which
    are read once at start, and hashable arguments; callers must not change what they get."""
    kept: dict[tuple[Hashable, ...], T] = {}

    @wraps(words)
    def remembered(*args: Hashable) -> T:
        key = (locale_id(), *args)
        try:
            return kept[key]
        except KeyError:
            pass
        if len(kept) >= WORDS_KEPT:
            kept.clear()
        found = kept[key] = words(*args)
        return found

    return remembered


def signed(value: int) -> str:
    """A score item with its sign: +500, −15, 0."""
    if value > 0:
        return "+" + number(value)
    return number(value)


def language_url(code: str) -> str:
    """The current page in another language, keeping the rest of its query."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    args.append(("lang", code))
    return request.path + "?" + urlencode(args)


def long_date(value: date | datetime | None) -> str:
    if value is None:
        return ""
    return format_date(value, "long")


def remember_choice(response: Response) -> Response:
    """A page opened with ``?lang=`` remembers the choice for a year."""
    if request.endpoint == "static":
        return response
    asked = request.args.get("lang", "")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        response.set_cookie(
            COOKIE,
            asked,
            max_age=365 * 24 * 3600,
            samesite="Lax",
            secure=current_app.config.get("SESSION_COOKIE_SECURE", False),
        )
    # one update of the header (each ``vary.add`` writes it anew)
    if request.args.get("lang") is None and not request.path.startswith("/api/"):
        response.vary.update(("Cookie", "Accept-Language"))
    else:
        response.vary.add("Accept-Language")
    return response


def init_app(app: Flask) -> None:
    app.after_request(remember_choice)
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["long_date"] = long_date

    @app.context_processor
    def language_context() -> dict[str, Any]:
        lang = current_language()
        g.lang = lang
        return {
            "lang": lang,
            "languages": LANGUAGES,
            "language_names": LANGUAGE_NAMES,
            "language_url": language_url,
            "home_ruleset": HOME_RULESETS.get(lang, "classic"),
        }
