"""Locale choice and locale-aware formatting (German, Polish and English everywhere).

Order of choice: ``?lang=``, then the remembered choice (cookie), then Accept-Language.
Dates are written in the reader's own time zone (:func:`reader_timezone`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime
from functools import lru_cache, wraps
from typing import Any, TypeVar
from urllib.parse import urlencode

from babel import Locale, numbers
from flask import Flask, Request, Response, current_app, g, has_request_context, request
from flask_babel import (
    force_locale,
    format_date,
    format_timedelta,
    get_domain,
    get_locale,
    get_translations,
    to_user_timezone,
)
from flask_babel import ngettext as flask_ngettext
from markupsafe import Markup, escape

from ...settings import known_zone
from ...stateless import words

LANGUAGES = ("en", "de", "pl")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "pl": "polski"}
COOKIE = "lang"
#: the cookie static/boot.js keeps the phone's time zone in (its IANA name, "Europe/Warsaw")
ZONE_COOKIE = "tz"
MINUS = "\u2212"


def select_locale() -> str:
    """The reader's language; a query, a cookie or an ``Accept-Language`` header that is not
    there is not parsed (Werkzeug parses each in full even when it is empty)."""
    if not has_request_context():
        return "en"
    asked_for: Request = request._get_current_object()  # type: ignore[attr-defined]
    asked = asked_for.args.get("lang", "") if asked_for.query_string else ""
    if asked in LANGUAGES:
        return asked
    # A phone sends its session and recent games' cookies with every request: the header is
    # parsed only when the language cookie's name is in it.
    if COOKIE in asked_for.environ.get("HTTP_COOKIE", ""):
        remembered = asked_for.cookies.get(COOKIE, "")
        if remembered in LANGUAGES:
            return remembered
    if not asked_for.headers.get("Accept-Language"):
        return "en"
    return asked_for.accept_languages.best_match(LANGUAGES) or "en"


def reader_timezone() -> str | None:
    """The phone's own time zone, which static/boot.js keeps in the ``tz`` cookie, if it is a
    zone pytz knows (flask_babel looks the name up there); else None, meaning the server's
    ``BABEL_DEFAULT_TIMEZONE`` (``SCOREKEEPER_TIMEZONE``, UTC when unset). A game begun at
    9 pm in New York is that evening's game, not the next day's as in UTC."""
    if not request:
        return None
    zone = request.cookies.get(ZONE_COOKIE, "")
    return zone if known_zone(zone) else None


def reader_locale() -> Locale:
    """:func:`select_locale` as a Babel ``Locale``, made once per language: flask_babel parses
    a locale's text again on every request."""
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
    _LOCALE_ID.set(None)
    try:
        with force_locale(code):
            yield
    finally:
        _LOCALE_ID.set(None)


#: The reader's locale of the request being served, worked out at its first use and forgotten
#: when the request ends (``init_app``: teardown). A context variable, not ``flask.g``: a page
#: asks for it with every number and word it formats, and each ``g`` lookup goes through
#: Werkzeug's proxies.
_LOCALE_ID: ContextVar[str | None] = ContextVar("scorekeeper_locale_id", default=None)


def locale_id() -> str:
    """The reader's locale as text ("de", "pl", "en"), worked out once per request: a page or
    a preview formats a dozen numbers and words, and Babel's lookup costs more than a
    formatted number kept per language."""
    found = _LOCALE_ID.get()
    if found is not None:
        return found
    found = str(get_locale() or "en")
    if has_request_context():
        _LOCALE_ID.set(found)
    return found


def _forget_locale(_error: BaseException | None = None) -> None:
    _LOCALE_ID.set(None)


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
    if type(value) is int:
        magnitude = abs(value)
        # below a thousand there is nothing to group: the same text in every language
        text = (
            str(magnitude)
            if magnitude < 1000
            else f"{magnitude:,}".replace(",", _group_symbol(locale_id()))
        )
    else:
        text = _decimal(abs(value), locale_id())
    return f"{MINUS}{text}" if value < 0 else text


@lru_cache(maxsize=len(LANGUAGES))
def _group_symbol(locale: str) -> str:
    """The locale's thousands separator: whole numbers are grouped by threes with it, as Babel
    groups them in every language offered (a test holds the two equal); Babel's formatting
    is slow for a number, and every keystroke of the preview brings new totals."""
    return numbers.get_group_symbol(locale)


@lru_cache(maxsize=4096)
def _decimal(value: int | float, locale: str) -> str:
    """Babel's formatting, kept: a page formats the same few scores over and over."""
    return numbers.format_decimal(value, locale=locale)


T = TypeVar("T")
WORDS_KEPT = 4096


def per_language(words: Callable[..., T]) -> Callable[..., T]:
    """``words`` remembered per reader's language and arguments (a live preview asks
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


@per_language
def _catalogue() -> Any:
    """The reader's catalogue (flask_babel's translations of the request's locale), found once
    per language: flask_babel looks up the app's domain, the locale and its catalogue again
    for every word."""
    return get_domain().get_translations()


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """flask_babel's ``ngettext`` (the same plural form, the same ``num`` and values) from the
    catalogue kept per language: a live preview words each column's total this way on every
    keystroke. Outside a request, flask_babel's own."""
    if not has_request_context():
        return flask_ngettext(singular, plural, num, **variables)
    variables.setdefault("num", num)
    return str(_catalogue().ungettext(singular, plural, num) % variables)


def signed(value: int) -> str:
    """A score item with its sign: +500, −15, 0."""
    if value > 0:
        return "+" + number(value)
    return number(value)


# The query parameters a kept page is made for (see ``play.pages.cached_game_page``): while it
# is rendered, its links keep only these, so the page is the same for every other query.
_page_query: ContextVar[tuple[str, ...] | None] = ContextVar("page_query", default=None)


@contextmanager
def page_query(names: tuple[str, ...]) -> Iterator[None]:
    """While the block runs, :func:`language_url` keeps only the query parameters ``names``."""
    token = _page_query.set(names)
    try:
        yield
    finally:
        _page_query.reset(token)


def language_url(code: str) -> str:
    """The current page in another language, keeping the rest of its query (of a kept page,
    only what it is kept for)."""
    kept = _page_query.get()
    args = [
        (k, v)
        for k, v in request.args.items(multi=True)
        if k != "lang" and (kept is None or k in kept)
    ]
    args.append(("lang", code))
    return request.path + "?" + urlencode(args)


def file_day(value: datetime) -> str:
    """The day of ``value`` in the reader's time zone as a file name has it (2026-11-26):
    a sheet downloaded after an evening game in New York carries that evening's date."""
    return f"{to_user_timezone(value):%Y-%m-%d}"


def long_date(value: date | datetime | None) -> str:
    if value is None:
        return ""
    return str(format_date(value, "long"))


def dated(value: date | datetime | None) -> Markup:
    """:func:`long_date` on a page. A moment also carries its instant (``<time datetime>`` in
    UTC): the first page a phone opens is written before the server knows the phone's zone
    (the ``tz`` cookie comes with the next request), and static/boot.js then writes the day
    again in that zone."""
    text = escape(long_date(value))
    if not isinstance(value, datetime):
        return text
    moment = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    instant = moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Markup('<time datetime="%s" data-day>%s</time>') % (instant, text)


def remember_choice(response: Response) -> Response:
    """A page opened with ``?lang=`` remembers the choice for a year. Only a page does: a PDF,
    a CSV or a JSON answer asked for in a language is in that language alone (a sheet printed
    for a Polish reader does not turn the whole app Polish for the one who printed it)."""
    sent: Request = request._get_current_object()  # type: ignore[attr-defined]
    if sent.endpoint == "static":
        return response
    # most requests carry no query: its parse and the Vary header's are then left out
    asked = sent.args.get("lang") if sent.query_string else None
    if (
        asked in LANGUAGES
        and response.mimetype == "text/html"
        and sent.cookies.get(COOKIE) != asked
    ):
        response.set_cookie(
            COOKIE,
            asked,
            max_age=365 * 24 * 3600,
            samesite="Lax",
            secure=current_app.config.get("SESSION_COOKIE_SECURE", False),
        )
    if asked is None and not sent.path.startswith("/api/"):
        _vary(response, ("Cookie", "Accept-Language"))
    else:
        _vary(response, ("Accept-Language",))
    return response


def _vary(response: Response, names: tuple[str, ...]) -> None:
    """Add ``names`` to the answer's ``Vary`` header, written once (``response.vary`` parses
    the header and writes it anew for each change)."""
    headers = response.headers
    found = headers.get("Vary")
    if not found:
        headers["Vary"] = ", ".join(names)
        return
    vary = response.vary
    vary.update(names)


def _request_words() -> tuple[words.Translations, str]:
    """The words of the stateless messages on a page: flask-babel's translations and language
    of the request (or of a PDF's :func:`forced_locale`)."""
    return get_translations(), current_language()


def init_app(app: Flask) -> None:
    words.follow(_request_words)
    words.use_catalogues(str(app.config["BABEL_TRANSLATION_DIRECTORIES"]).split(";")[0])
    app.after_request(remember_choice)
    app.teardown_request(_forget_locale)
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["long_date"] = dated

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


def ago(moment: datetime) -> str:
    """How long ago, in the reader's language ("vor 5 Minuten"): the server does not know the
    phone's time zone, and "how long ago" needs none."""
    return str(
        format_timedelta(moment - datetime.now(UTC), granularity="minute", add_direction=True)
    )
