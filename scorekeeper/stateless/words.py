"""The reader's language for the stateless answers, in pure Python: the project's catalogues
read with the standard library's :mod:`gettext`, and numbers written as the server writes them.

The same code runs on the server and, under Pyodide, in the phone's browser (docs/engine.md),
so nothing here imports Babel or Flask. Where the catalogues come from is told once per
process:

- :func:`use_catalogues`: a folder of compiled ``<lang>/LC_MESSAGES/messages.mo`` (the server:
  the folder the app compiles at its start); without it, the ``catalogues/`` folder inside this
  package, read as package data (the phone's archive carries it there).
- :func:`follow`: where no language was chosen by :func:`language`, ask this function for the
  translations and the language (the web layer's pages: flask-babel's of the request).

:func:`gettext`, :func:`ngettext` and :func:`pgettext` format their keyword arguments as
flask-babel does (``%``-formatting only when there are any; ``num`` given to ``ngettext``).
"""

from __future__ import annotations

import gettext as stdlib_gettext
import io
import pkgutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "de", "pl")
DOMAIN = "messages"
MINUS = "\u2212"
#: Whole numbers are grouped by threes with the language's thousands separator, as Babel's
#: ``format_decimal`` writes them in each language offered (a test holds the two equal).
GROUP_SYMBOL = {"en": ",", "de": ".", "pl": "\xa0"}

Translations = stdlib_gettext.NullTranslations
Source = Callable[[], tuple[Translations, str]]

_folder: Path | None = None
_loaded: dict[str, Translations] = {}
_follow: Source | None = None
_chosen: ContextVar[tuple[Translations, str] | None] = ContextVar(
    "scorekeeper_stateless_language", default=None
)


def use_catalogues(folder: Path | str | None) -> None:
    """Read the compiled catalogues from ``folder`` (None: the package's own ``catalogues/``)."""
    global _folder
    _folder = Path(folder) if folder is not None else None
    _loaded.clear()


def follow(source: Source | None) -> None:
    """Where no language was chosen, take the translations and the language from ``source``."""
    global _follow
    _follow = source


def catalogue(lang: str) -> Translations:
    """The translations of ``lang`` (English, the source language, has none), read once."""
    found = _loaded.get(lang)
    if found is not None:
        return found
    data: bytes | None = None
    if lang in LANGUAGES and lang != "en":
        relative = f"{lang}/LC_MESSAGES/{DOMAIN}.mo"
        try:
            if _folder is not None:
                data = (_folder / relative).read_bytes()
            else:
                data = pkgutil.get_data(__name__.rpartition(".")[0], f"catalogues/{relative}")
        except OSError:
            data = None
    found = stdlib_gettext.GNUTranslations(io.BytesIO(data)) if data else Translations()
    _loaded[lang] = found
    return found


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Words and numbers in ``lang`` (``en``, ``de``, ``pl``; any other: English) while the
    block runs."""
    lang = lang if lang in LANGUAGES else "en"
    token = _chosen.set((catalogue(lang), lang))
    try:
        yield
    finally:
        _chosen.reset(token)


def current() -> tuple[Translations, str]:
    chosen = _chosen.get()
    if chosen is not None:
        return chosen
    if _follow is not None:
        return _follow()
    return catalogue("en"), "en"


def current_language() -> str:
    return current()[1]


def gettext(string: str, **variables: Any) -> str:
    text = current()[0].gettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    text = current()[0].ngettext(singular, plural, num)
    return text % variables


def pgettext(context: str, string: str, **variables: Any) -> str:
    text = current()[0].pgettext(context, string)
    return text % variables if variables else text


def number(value: int | None) -> str:
    """A whole number in the reader's format, negatives with a true minus sign (5.000, 5 000,
    5,000)."""
    if value is None:
        return ""
    value = int(value)
    if abs(value) >= 10**15:  # beyond any score: as the server's pages write it
        return str(value).replace("-", MINUS)
    text = f"{abs(value):,}".replace(",", GROUP_SYMBOL.get(current_language(), ","))
    return f"{MINUS}{text}" if value < 0 else text
