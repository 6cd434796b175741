"""The reader's language, in its order (?lang=, the remembered choice, Accept-Language, else
English), with nothing parsed that the request does not carry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask, request

from scorekeeper.web.words.i18n import select_locale
from tests.web.app.test_hardening import make_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    with make_app(tmp_path) as made:
        yield made


@pytest.mark.parametrize(
    ("path", "headers", "language"),
    [
        ("/", {}, "en"),
        ("/", {"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"}, "pl"),
        ("/", {"Accept-Language": "fr"}, "en"),
        ("/?lang=de", {"Accept-Language": "pl"}, "de"),
        ("/?lang=xx", {"Accept-Language": "pl"}, "pl"),
        ("/?all=1", {"Cookie": "lang=de", "Accept-Language": "pl"}, "de"),
        ("/?lang=pl", {"Cookie": "lang=de"}, "pl"),
        (
            "/",
            {"Cookie": "session=x.y.z; lang=pl; tz=Europe/Warsaw", "Accept-Language": "de"},
            "pl",
        ),
        ("/", {"Cookie": "session=x.y.z; games=abc", "Accept-Language": "de"}, "de"),
        ("/", {"Cookie": "xlang=pl; language=de", "Accept-Language": "fr"}, "en"),
        ("/", {"Cookie": "lang=xx", "Accept-Language": "pl"}, "pl"),
    ],
)
def test_the_language_in_its_order(
    app: Flask, path: str, headers: dict[str, str], language: str
) -> None:
    with app.test_request_context(path, headers=headers):
        assert select_locale() == language


def test_an_absent_query_and_header_are_not_parsed(app: Flask) -> None:
    with app.test_request_context("/"):
        assert select_locale() == "en"
        assert "args" not in request.__dict__  # Werkzeug keeps what it parsed here
        assert "accept_languages" not in request.__dict__


def test_cookies_without_the_language_cookie_are_not_parsed(app: Flask) -> None:
    """A phone sends its session and recent games' cookies with every request: the header
    is parsed only when it names the language cookie."""
    headers = {"Cookie": "session=x.y.z; games=abc def", "Accept-Language": "pl"}
    # a live preview (it goes without the session, which would read the cookies)
    with app.test_request_context("/games/x/preview", method="POST", headers=headers):
        assert select_locale() == "pl"
        assert "cookies" not in request.__dict__
    with app.test_request_context("/", headers={"Cookie": "games=abc; lang=de"}):
        assert select_locale() == "de"
        assert "cookies" in request.__dict__
