"""Work a request no longer does (benchmarks/profile_requests.py shows where the time goes):
the in-memory rate-limit counts start no thread per count, and the JSON API neither checks nor
writes the session cookie. The guards stay: the limits still count and refuse, the forms'
CSRF check still refuses a missing token, and a page's session is unchanged by API calls."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest
from flask import Flask
from flask_limiter import Limiter
from jinja2 import BaseLoader, ChoiceLoader, DictLoader
from limits.storage import MemoryStorage

from scorekeeper.factory import synchronous_only
from scorekeeper.web.app import limits
from tests.web.api.test_games_api import GAMES, GERMAN
from tests.web.app.test_hardening import make_app

SCORE = {
    "ruleset": "classic",
    "players": 4,
    "teams": [
        {"quick": {"natural_canastas": 1, "meld_points": 120}, "went_out": True},
        {"quick": {"meld_points": 60, "hand_points": 15}},
    ],
}


@pytest.fixture
def timers(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The interval of every ``threading.Timer`` started while the test runs."""
    started: list[float] = []
    original = threading.Timer

    class Counted(original):  # type: ignore[misc,valid-type]
        def start(self) -> None:
            started.append(self.interval)
            super().start()

    monkeypatch.setattr(threading, "Timer", Counted)
    return started


def test_the_plain_memory_storage_starts_a_timer_thread_for_a_count(timers: list[float]) -> None:
    # what MemoryCounts avoids (if limits changes this, the next test shows whether it matters)
    storage = MemoryStorage()
    time.sleep(0.05)  # its first timer has run out
    timers.clear()
    storage.incr("k", 60)
    assert timers == [0.01]


def test_the_app_counts_in_memory_without_a_thread_per_request(
    tmp_path: Path, timers: list[float]
) -> None:
    with make_app(tmp_path, RATELIMIT_ENABLED=True) as app:
        limiter = app.extensions["scorekeeper.limiter"]
        assert isinstance(limiter.storage, limits.MemoryCounts)
        client = app.test_client()
        time.sleep(0.05)
        timers.clear()
        for _ in range(5):
            assert client.post("/api/v1/score", json=SCORE).status_code == 200
            time.sleep(0.015)  # longer than the plain storage's timer
        assert timers == []
        assert limiter.storage.get(next(iter(limiter.storage.storage))) == 5


def test_counts_run_out_with_their_window_and_are_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    storage = limits.MemoryCounts(limits.MEMORY_URI)
    time.sleep(0.03)  # the sweep MemoryStorage starts when made has run
    storage.incr("old", 0.01)
    storage.incr("kept", 60)
    time.sleep(0.03)
    assert storage.get("kept") == 1
    assert "old" in storage.storage  # not read since: still held
    storage.incr("kept", 60)  # the next sweep is a second away
    assert "old" in storage.storage
    monkeypatch.setattr(storage, "next_sweep", 0.0)
    storage.incr("kept", 60)
    assert "old" not in storage.storage and storage.get("kept") == 3
    assert storage.get("old") == 0


def test_the_limits_still_refuse_with_the_counts_in_memory(tmp_path: Path) -> None:
    with make_app(tmp_path, RATELIMIT_ENABLED=True, LIMIT_ANY="3 per minute") as app:
        client = app.test_client()
        for _ in range(3):
            assert client.post("/api/v1/score", json=SCORE).status_code == 200
        refused = client.post("/api/v1/score", json=SCORE)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
        assert refused.headers["X-RateLimit-Limit"] == "3"


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    with make_app(tmp_path, WTF_CSRF_ENABLED=True) as app:
        yield app


def _count_session_reads(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    reads: list[Any] = []
    interface = app.session_interface
    original = interface.get_signing_serializer  # type: ignore[attr-defined]

    def counted(flask_app: Flask) -> Any:
        reads.append(flask_app)
        return original(flask_app)

    monkeypatch.setattr(interface, "get_signing_serializer", counted)
    return reads


def test_the_api_does_not_read_or_write_the_session(
    csrf_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = csrf_app.test_client()
    page = client.get("/games/new")
    assert any(c.startswith("session=") for c in page.headers.getlist("Set-Cookie"))
    session = client.get_cookie("session")
    assert session is not None
    reads = _count_session_reads(csrf_app, monkeypatch)
    for answer in (
        client.post("/api/v1/score", json=SCORE),
        client.post(GAMES, json=GERMAN),
        client.get(GAMES + "/nosuchgame"),
    ):
        assert answer.status_code in (200, 201, 404)
        assert not answer.headers.getlist("Set-Cookie")
        assert "Cookie" not in answer.headers.get("Vary", "")
    assert reads == []
    # the page's session (and so its forms' CSRF token) is as it was
    assert client.get_cookie("session").value == session.value  # type: ignore[union-attr]
    client.get("/games/new")
    assert reads  # a page reads it


def test_a_form_still_needs_its_csrf_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    client.get("/games/new")
    refused = client.post("/games/new", data={"ruleset": "classic"})
    assert refused.status_code == 400


def test_an_unchanged_session_is_not_written_but_varies(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    first = client.get("/games/new")
    assert any(c.startswith("session=") for c in first.headers.getlist("Set-Cookie"))
    again = client.get("/games/new")  # the token is in the session already
    assert not any(c.startswith("session=") for c in again.headers.getlist("Set-Cookie"))
    assert "Cookie" in again.headers["Vary"]


def test_every_view_and_hook_is_synchronous_and_an_async_one_is_refused(tmp_path: Path) -> None:
    with make_app(tmp_path) as app:
        synchronous_only(app)  # as create_app did
        assert app.ensure_sync(synchronous_only) is synchronous_only  # run as it is

        async def late() -> str:
            return "late"

        app.add_url_rule("/late", "late", late)
        with pytest.raises(TypeError, match="late is async"):
            synchronous_only(app)
        app.view_functions.pop("late")

        async def hook() -> None:
            return None

        app.before_request_funcs.setdefault(None, []).append(hook)
        with pytest.raises(TypeError, match="hook is async"):
            synchronous_only(app)


def test_every_limited_request_counts_once_and_exempt_ones_not_at_all(tmp_path: Path) -> None:
    # LIMIT_ANY is counted by limits.count_every_request with the counts in memory
    with make_app(tmp_path, RATELIMIT_ENABLED=True, LIMIT_ANY="4 per minute") as app:
        client = app.test_client()
        for _ in range(5):
            assert client.get("/static/app.css").status_code == 200
            assert client.get("/healthz").status_code == 200
            assert client.get("/no/such/page").status_code == 404
        left = []
        for _ in range(4):
            answer = client.post("/api/v1/score", json=SCORE)
            assert answer.status_code == 200
            assert answer.headers["X-RateLimit-Limit"] == "4"
            left.append(answer.headers["X-RateLimit-Remaining"])
        assert left == ["3", "2", "1", "0"]
        page = client.get("/", headers={"Accept-Language": "de"})
        assert page.status_code == 429 and "Sekunde" in page.get_data(as_text=True)
        assert 0 < int(page.headers["Retry-After"]) <= 60


def test_a_write_counts_against_every_request_and_the_write_limit(tmp_path: Path) -> None:
    hand = {"version": 1, "teams": SCORE["teams"]}
    with make_app(
        tmp_path, RATELIMIT_ENABLED=True, LIMIT_ANY="3 per minute", LIMIT_WRITE="1 per minute"
    ) as app:
        client = app.test_client()
        game = client.post(GAMES, json=GERMAN).get_json()
        url = f"{GAMES}/{game['id']}/hands"
        assert client.post(url, json=hand).status_code == 201
        assert client.post(url, json={**hand, "version": 2}).status_code == 429  # writes
        assert client.get(f"{GAMES}/{game['id']}").status_code == 429  # all three used


def test_with_a_shared_store_flask_limiter_checks_every_request_itself(tmp_path: Path) -> None:
    uri = "redis://127.0.0.1:9/0"  # never asked here
    with make_app(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=uri) as app:
        limiter = app.extensions["scorekeeper.limiter"]
        assert not isinstance(limiter.storage, limits.MemoryCounts)
        assert limiter._check_request_limit in app.before_request_funcs[None]
    with make_app(tmp_path, RATELIMIT_ENABLED=True) as app:
        limiter = app.extensions["scorekeeper.limiter"]
        assert limiter._check_request_limit not in app.before_request_funcs[None]


def _rate_headers(answer: Any) -> dict[str, str]:
    return {k: v for k, v in answer.headers.items() if k.startswith("X-RateLimit-")}


def test_the_rate_headers_are_flask_limiters_own(tmp_path: Path) -> None:
    """The headers of a request counted by the app's hook alone are written by its own
    after-request hook; they are the ones Flask-Limiter's hook writes for the same count."""
    with make_app(tmp_path, RATELIMIT_ENABLED=True, LIMIT_ANY="9 per minute") as app:
        limiter = app.extensions["scorekeeper.limiter"]
        after = app.after_request_funcs[None]
        ours = next(h for h in after if getattr(h, "__qualname__", "").startswith("_headers"))
        theirs = partial(Limiter._Limiter__inject_headers, limiter)  # type: ignore[attr-defined]
        client = app.test_client()
        mine = client.post("/api/v1/score", json=SCORE)
        after[after.index(ours)] = theirs
        flask_limiters = client.post("/api/v1/score", json=SCORE)
        assert mine.status_code == flask_limiters.status_code == 200
        assert _rate_headers(mine)["X-RateLimit-Limit"] == "9"
        assert _rate_headers(mine)["X-RateLimit-Remaining"] == "8"
        assert _rate_headers(flask_limiters)["X-RateLimit-Remaining"] == "7"
        assert set(_rate_headers(mine)) == set(_rate_headers(flask_limiters))
        reset = int(_rate_headers(mine)["X-RateLimit-Reset"])
        assert abs(reset - int(_rate_headers(flask_limiters)["X-RateLimit-Reset"])) <= 1
        assert 0 < reset - time.time() <= 61
        assert "Retry-After" not in mine.headers and "Retry-After" not in flask_limiters.headers


def test_a_write_shows_its_own_limit_in_the_headers(tmp_path: Path) -> None:
    """A view with a limit of its own is answered by Flask-Limiter's hook: its headers name
    that limit (the write limit of a minute), not the one of every request."""
    hand = {"version": 1, "teams": SCORE["teams"]}
    with make_app(
        tmp_path, RATELIMIT_ENABLED=True, LIMIT_ANY="50 per minute", LIMIT_WRITE="5 per minute"
    ) as app:
        client = app.test_client()
        game = client.post(GAMES, json=GERMAN).get_json()
        saved = client.post(f"{GAMES}/{game['id']}/hands", json=hand)
        assert saved.status_code == 201
        assert saved.headers["X-RateLimit-Limit"] == "5"
        assert client.get(f"{GAMES}/{game['id']}").headers["X-RateLimit-Limit"] == "50"


def test_templates_take_their_globals_as_a_dict_and_see_a_later_one(tmp_path: Path) -> None:
    """Each template's globals are a plain dict (copied in one step on every render); a global
    added after a template was loaded still reaches it (the loaded templates are dropped)."""
    with make_app(tmp_path) as app:
        source = "{{ late_global() if late_global is defined else 'none' }}"
        app.jinja_env.loader = ChoiceLoader(
            [DictLoader({"late.html": source}), cast(BaseLoader, app.jinja_env.loader)]
        )
        template = app.jinja_env.get_template("late.html")
        assert type(template.globals) is dict and "url_for" in template.globals
        with app.test_request_context("/"):
            assert app.jinja_env.get_template("late.html").render() == "none"
            app.add_template_global(lambda: "here", "late_global")
            assert app.jinja_env.get_template("late.html").render() == "here"


# ---- the live previews: questions, without the session or a CSRF token ---------------------------


def _quick_hand(client: Any, game_id: str) -> Any:
    from tests.web.games.test_game_pages import hand_form

    return hand_form(
        client,
        game_id,
        out="0",
        t0__mode="quick",
        t0__meld_points="200",
        t0__mixed_canastas="1",
        t1__mode="quick",
        t1__meld_points="150",
    )


def _hand_count(client: Any, game_id: str) -> int:
    return len(client.get(f"{GAMES}/{game_id}").get_json()["hands"])


def test_every_preview_and_only_a_preview_goes_without_csrf_and_session(csrf_app: Flask) -> None:
    """The previews found in the URL map are the views exempt from the CSRF check (outside
    the JSON API's blueprints), so a form that saves cannot become exempt by its path."""
    csrf = csrf_app.extensions["csrf"]
    previews = {
        rule.endpoint
        for rule in csrf_app.url_map.iter_rules()
        if rule.rule.endswith("/preview") and "POST" in (rule.methods or ())
    }
    assert previews == {"games.hand_preview", "games.part_preview", "fifty.entry_preview"}
    exempt = {
        endpoint
        for endpoint, view in csrf_app.view_functions.items()
        if f"{view.__module__}.{view.__name__}" in csrf._exempt_views
    }
    assert exempt == previews


def test_a_preview_needs_no_token_and_neither_reads_nor_writes_the_session(
    csrf_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.web.games.test_game_pages import create_game

    client = csrf_app.test_client()
    game_id = create_game(client)
    form = _quick_hand(client, game_id)
    session = client.get_cookie("session")
    assert session is not None and form.get("csrf_token")
    reads = _count_session_reads(csrf_app, monkeypatch)
    without = form.copy()
    without.pop("csrf_token")
    shown = []
    for data in (form, without):
        answer = client.post(f"/games/{game_id}/preview", data=data, headers={"HX-Request": "1"})
        assert answer.status_code == 200, answer.text[:500]
        shown.append(re.findall(r'<span class="after">total ([^<]*)</span>', answer.text))
        assert not answer.headers.getlist("Set-Cookie")
        assert answer.headers["X-Frame-Options"] == "DENY"  # the security headers stay
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
    assert shown[0] == shown[1] and len(shown[0]) == 2 and shown[0] != ["0", "0"], shown
    assert reads == []
    assert client.get_cookie("session").value == session.value  # type: ignore[union-attr]
    assert _hand_count(client, game_id) == 0  # a preview stores nothing


def test_the_preview_speaks_the_readers_language_without_the_session(csrf_app: Flask) -> None:
    from tests.web.games.test_game_pages import create_game

    client = csrf_app.test_client()
    game_id = create_game(client)
    form = _quick_hand(client, game_id)
    form.pop("csrf_token")
    client.get("/?lang=pl")  # the language is the reader's cookie, not the session
    polish = client.post(f"/games/{game_id}/preview", data=form, headers={"HX-Request": "1"})
    german = client.post(
        f"/games/{game_id}/preview",
        data=form,
        headers={"HX-Request": "1", "Accept-Language": "de"},
        query_string={"lang": "de"},
    )
    assert polish.status_code == german.status_code == 200
    assert polish.text != german.text
    assert "razem" in polish.text.lower() or "suma" in polish.text.lower(), polish.text[:800]


def test_a_save_without_its_token_is_still_refused(csrf_app: Flask) -> None:
    from tests.web.games.test_game_pages import create_game

    client = csrf_app.test_client()
    game_id = create_game(client)
    form = _quick_hand(client, game_id)
    form["action"] = "save-anyway"
    without = form.copy()
    without.pop("csrf_token")
    assert client.post(f"/games/{game_id}/hands", data=without).status_code == 400
    assert _hand_count(client, game_id) == 0
    assert client.post(f"/games/{game_id}/hands", data=form).status_code == 303
    assert _hand_count(client, game_id) == 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "https://evil.example"},
        {},  # no browser's word on where it came from: answered, and still nothing stored
    ],
)
def test_a_cross_site_preview_changes_nothing_and_sets_no_cookie(
    csrf_app: Flask, headers: dict[str, str]
) -> None:
    from tests.web.games.test_game_pages import create_game

    client = csrf_app.test_client()
    game_id = create_game(client)
    form = _quick_hand(client, game_id)
    session = client.get_cookie("session")
    form.pop("csrf_token")  # another site cannot read the token
    form["action"] = "save-anyway"  # and asking the preview to save does nothing
    stranger = csrf_app.test_client()  # the attacker's page: the browser sends the cookie
    stranger.set_cookie("session", session.value)  # type: ignore[union-attr]
    answer = stranger.post(
        f"/games/{game_id}/preview", data=form, headers={"HX-Request": "1", **headers}
    )
    assert answer.status_code == (200 if not headers else 403)
    assert not answer.headers.getlist("Set-Cookie")
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert _hand_count(client, game_id) == 0
    assert client.get(f"/games/{game_id}").status_code == 200
