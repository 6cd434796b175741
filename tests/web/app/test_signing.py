"""The session cookie and the CSRF tokens signed by serializers kept per app
(scorekeeper/signing.py): the same values itsdangerous writes with Flask's and Flask-WTF's own
serializers, read both ways; tampered, foreign and expired tokens still refused; the secret's
fallbacks still read, and a new secret key takes effect."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask, g, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import generate_csrf, validate_csrf
from itsdangerous import URLSafeTimedSerializer

from scorekeeper.signing import KeptSerializer, csrf_token
from tests.web.app.test_hardening import make_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    with make_app(tmp_path, WTF_CSRF_ENABLED=True) as made:
        yield made


def _flasks_own(app: Flask) -> URLSafeTimedSerializer:
    serializer = SecureCookieSessionInterface().get_signing_serializer(app)
    assert serializer is not None
    return serializer


def test_the_session_cookie_is_flasks_own_format(app: Flask) -> None:
    ours = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    assert isinstance(ours, KeptSerializer)
    assert app.session_interface.get_signing_serializer(app) is ours  # made once  # type: ignore[attr-defined]
    value = {"csrf_token": "abc", "n": [1, 2]}
    assert _flasks_own(app).loads(ours.dumps(value)) == value
    assert ours.loads(_flasks_own(app).dumps(value)) == value
    # the same bytes (when both fall in the same second: the timestamp is in the value)
    for _ in range(5):
        mine, flasks = ours.dumps(value), _flasks_own(app).dumps(value)
        if mine.split(".")[1] == flasks.split(".")[1]:
            assert mine == flasks
            break
    else:
        pytest.fail("no two values made in the same second")


def test_a_new_secret_key_makes_a_new_serializer_and_the_old_one_falls_back(app: Flask) -> None:
    old = _flasks_own(app).dumps({"k": 1})
    app.secret_key = "new"
    with app.test_request_context():
        ours = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        assert ours.loads(_flasks_own(app).dumps({"k": 2})) == {"k": 2}
        with pytest.raises(Exception, match="Signature"):
            ours.loads(old)
    app.config["SECRET_KEY_FALLBACKS"] = ["test"]
    ours = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    assert ours.loads(old) == {"k": 1}


def test_csrf_tokens_read_both_ways(app: Flask) -> None:
    with app.test_request_context("/"):
        theirs = generate_csrf()
        raw = session["csrf_token"]
        g.pop("csrf_token")
        ours = csrf_token()
        assert csrf_token() is ours  # kept for the request, as Flask-WTF keeps its own
        validate_csrf(ours)  # Flask-WTF reads ours
        serializer = URLSafeTimedSerializer("test", salt="wtf-csrf-token")
        assert serializer.loads(ours) == serializer.loads(theirs) == raw


def _form_page(app: Flask) -> tuple[object, str]:
    client = app.test_client()
    page = client.get("/games/new")
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert found
    return client, found[1]


@pytest.mark.parametrize(
    ("change", "passes"),
    [
        (lambda t: t, True),
        (lambda t: t[:-2] + ("AA" if t[-2:] != "AA" else "BB"), False),  # signature
        (lambda t: "x" + t, False),  # payload
        (lambda t: "", False),  # missing
        (
            lambda t: URLSafeTimedSerializer("other", salt="wtf-csrf-token").dumps("f" * 40),
            False,
        ),  # another secret
    ],
)
def test_the_form_check_refuses_what_flask_wtf_refuses(
    app: Flask, change: object, passes: bool
) -> None:
    client, token = _form_page(app)
    answer = client.post(  # type: ignore[attr-defined]
        "/games/new",
        data={"ruleset": "classic", "players": "4", "csrf_token": change(token)},  # type: ignore[operator]
    )
    assert (answer.status_code != 400) is passes, answer.status_code


def test_the_header_token_and_its_age(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    client, token = _form_page(app)
    ok = client.post(  # type: ignore[attr-defined]
        "/games/new", data={"ruleset": "classic"}, headers={"X-CSRFToken": token}
    )
    assert ok.status_code != 400
    app.config["WTF_CSRF_TIME_LIMIT"] = 1
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 5)
    old = client.post(  # type: ignore[attr-defined]
        "/games/new", data={"ruleset": "classic"}, headers={"X-CSRFToken": token}
    )
    assert old.status_code == 400 and b"expired" in old.data.lower()


def test_a_good_token_is_read_by_the_kept_serializer_alone(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    import flask_wtf.csrf

    client, token = _form_page(app)

    def not_here(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("Flask-WTF's own check ran")

    monkeypatch.setattr(flask_wtf.csrf, "validate_csrf", not_here)
    monkeypatch.setattr(flask_wtf.csrf, "URLSafeTimedSerializer", not_here)
    ok = client.post(  # type: ignore[attr-defined]
        "/games/new", data={"ruleset": "classic", "csrf_token": token}
    )
    assert ok.status_code != 400
    page = client.get("/games/new")  # type: ignore[attr-defined]
    assert token in page.get_data(as_text=True) or "csrf_token" in page.get_data(as_text=True)
