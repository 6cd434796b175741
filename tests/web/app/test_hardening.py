"""The hardening findings, each replayed in-process: links from untrusted hosts, unread keys stored,
the scoring cache, cross-site and non-JSON writes, missing headers and cookie flags, rate
limits, a busy SQLite database, and file modes. (The waitress findings: tests/test_serve.py.)
"""

from __future__ import annotations

import os
import re
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.store import cache, entries
from scorekeeper.store.derive import rescore
from scorekeeper.store.models import Game
from scorekeeper.web.play import pages
from tests.store.test_store import quick
from tests.web.api.test_games_api import GAMES, GERMAN, create
from tests.web.games.test_game_pages import DETAIL_US, QUICK_THEM, hand_form
from tests.web.tournaments.making import form as tournament_form

HAND = [quick(meld=120, natural=1, out=True), quick(meld=60, hand=15)]


@contextmanager
def make_app(tmp_path: Path, **config: Any) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite3'}",
            **config,
        }
    )
    yield app
    app.extensions["scorekeeper.engine"].dispose()


@pytest.fixture
def lan_app(tmp_path: Path) -> Iterator[Flask]:
    # 127.0.0.2 stands in for this machine's address on the Wi-Fi (loopback only in tests).
    with make_app(
        tmp_path,
        LAN_URL="http://127.0.0.2:5000",
        SCOREKEEPER_TRUSTED_HOSTS="127.0.0.2 canasta.example.org",
    ) as app:
        yield app


def view_link(html: str) -> str:
    found = re.search(r'class="view-link" href="([^"]+)"', html)
    assert found, "no view link on the page"
    return found.group(1)


# ---- "The other phones cannot follow": links and hosts -------------------------------------------


def test_a_foreign_host_header_is_refused_and_never_linked(client: FlaskClient) -> None:
    game = create(client)
    for path in ("/", f"/games/{game['id']}", f"/api/v1/games/{game['id']}"):
        response = client.get(path, headers={"Host": "evil.example"})
        assert response.status_code == 400, path
        assert "evil.example" not in response.text
    refused = client.get("/api/v1/games/x", headers={"Host": "evil.example"})
    assert refused.get_json()["problems"][0]["code"] == "request.untrusted_host"
    german = client.get("/?lang=de", headers={"Host": "evil.example"})
    assert "Dieser Server antwortet nicht unter dieser Adresse" in german.text


def test_loopback_in_any_spelling_is_trusted(client: FlaskClient) -> None:
    for host in ("127.0.0.1:5000", "127.0.0.2", "[::1]:5000", "localhost:5000"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host


def test_the_lan_address_replaces_a_loopback_link(lan_app: Flask) -> None:
    client = lan_app.test_client()
    game = create(client)
    for host in ("127.0.0.1:5000", "localhost:5000"):
        page = client.get(f"/games/{game['id']}", headers={"Host": host}).text
        assert view_link(page) == f"http://127.0.0.2:5000/view/{game['view_id']}"
        assert "serve --lan" not in page  # nothing to explain: the link works for others
    # a request that came by the trusted public name keeps it
    page = client.get(f"/games/{game['id']}", headers={"Host": "canasta.example.org"}).text
    assert view_link(page) == f"http://canasta.example.org/view/{game['view_id']}"
    assert client.get("/", headers={"Host": "other.example.org"}).status_code == 400


def test_the_base_url_wins(tmp_path: Path) -> None:
    with make_app(tmp_path, BASE_URL="https://canasta.example.org/") as app:
        client = app.test_client()
        game = create(client)
        page = client.get(f"/games/{game['id']}").text
        assert view_link(page) == f"https://canasta.example.org/view/{game['view_id']}"
        assert "evil" not in page
        # the base URL's host is trusted, other names are not
        assert client.get("/", headers={"Host": "canasta.example.org"}).status_code == 200
        assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_a_table_and_a_tournament_share_the_public_address_too(tmp_path: Path) -> None:
    """A table's and a tournament's links for the other phones follow the deployment's public
    address as a game's do; on a loopback address they say how to let the phones in."""
    with make_app(tmp_path, BASE_URL="https://canasta.example.org/") as app:
        client = app.test_client()
        table = client.post("/api/v1/tables", json={"name": "Club", "players": ["A", "B"]})
        page = client.get(f"/tables/{table.get_json()['id']}").text
        assert "https://canasta.example.org/tables/" in page and "http://localhost/" not in page
        assert "serve --lan" not in page
    (tmp_path / "loop").mkdir()
    with make_app(tmp_path / "loop") as app:
        client = app.test_client()
        table = client.post("/api/v1/tables", json={"name": "Club", "players": ["A", "B"]})
        page = client.get(f"/tables/{table.get_json()['id']}?lang=de").text
        assert "Andere Handys können diese Adresse nicht öffnen" in page
        names = "\n".join(["Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
        made = client.post("/tournaments/new", data=tournament_form(participants=names))
        assert made.status_code == 303, made.text[:500]
        director = client.get(made.headers["Location"] + "?lang=en").text
        assert "Other phones cannot open this address" in director


def test_a_loopback_link_says_how_to_let_the_phones_in(client: FlaskClient) -> None:
    game = create(client)
    page = client.get(f"/games/{game['id']}?lang=de").text
    assert view_link(page).startswith("http://localhost/view/")
    assert "Andere Handys können diese Adresse nicht öffnen" in page
    assert "scorekeeper serve --lan" in page
    polish = client.get(f"/games/{game['id']}?lang=pl").text
    assert "Inne telefony nie otworzą tego adresu" in polish
    fifty = client.post(
        "/fifty/new",
        data={
            "players": "3",
            "name-0": "Ala",
            "name-1": "Ola",
            "name-2": "Ela",
            "joker": "20",
            "stop_after": "",
            "target": "",
            "action": "create",
        },
    )
    assert fifty.status_code == 303
    fifty_page = client.get(fifty.headers["Location"] + "?lang=de").text
    assert "Andere Handys können diese Adresse nicht öffnen" in fifty_page
    assert view_link(fifty_page).startswith("http://localhost/fifty/view/")
    assert "<svg" in fifty_page  # the QR code of the link


# ---- "Anyone can exhaust memory and disk": stored exactly what was read --------------------------


def test_extra_keys_in_a_hand_are_refused_and_named(client: FlaskClient) -> None:
    game = create(client)
    padded = [{**HAND[0], "pad": "x" * 500_000}, HAND[1]]
    response = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": padded})
    assert response.status_code == 400
    problems = response.get_json()["problems"]
    assert [(p["code"], p["where"]) for p in problems] == [("request.unknown_key", "teams[0].pad")]
    assert "pad" in problems[0]["message"] and "x" * 100 not in response.text
    inner = [{**HAND[0], "quick": {**HAND[0]["quick"], "note": 1}}, HAND[1]]
    response = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": inner})
    assert [p["where"] for p in response.get_json()["problems"]] == ["teams[0].quick.note"]
    assert client.get(f"{GAMES}/{game['id']}").get_json()["version"] == 1
    # the stateless score answers the same
    scored = client.post("/api/v1/score", json={"ruleset": "german", "teams": padded})
    assert scored.status_code == 400
    assert scored.get_json()["problems"][0]["code"] == "request.unknown_key"


def test_a_hand_is_stored_as_read_and_small(client: FlaskClient) -> None:
    game = create(client)
    detail = {
        "melds": ["k k k 2", "7,7,7,7,7,7,7"],
        "hands": ["d", []],
        "red_threes": 1,
        "went_out": True,
    }
    saved = client.post(
        f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": [detail, HAND[1]]}
    )
    assert saved.status_code == 201
    stored = client.get(f"{GAMES}/{game['id']}").get_json()["hands"][0]["teams"]
    assert stored[0] == {
        "melds": [["K", "K", "K", "2"], ["7"] * 7],
        "hands": [["Q"], []],
        "red_threes": 1,
        "went_out": True,
        "concealed": False,
    }
    # a 4-player hand in detail is well under 4 KB as stored
    assert len(str(stored).encode()) < 1024


def test_a_hand_over_the_size_cap_is_refused(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create(client)
    monkeypatch.setattr(entries, "HAND_MAX_BYTES", 100)
    response = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": HAND})
    assert response.status_code == 422
    assert response.get_json()["problems"][0]["code"] == "hand.too_large"


def test_the_scoring_cache_is_bounded_and_keyed_small(app: Flask) -> None:
    big = "x" * 50_000
    with app.app_context():
        game = Game(ruleset="german", players=4, sides=[{}, {}], options={})
        cache.forget()
        for i in range(cache.RESCORED_MAX + 50):
            rescore(game, "{}", [{"n": i, "pad": big}], None, False)
        rescored = cache.kept().rescored
        assert rescored.size()[0] == cache.RESCORED_MAX
        assert {len(key) for key in rescored.weights()} == {16}
        cache.forget()


# ---- cross-site and non-JSON writes --------------------------------------------------------------


def test_api_writes_need_json(client: FlaskClient) -> None:
    import json

    response = client.post(GAMES, data=json.dumps(GERMAN), content_type="text/plain")
    assert response.status_code == 415
    assert response.get_json()["problems"][0]["code"] == "request.content_type"
    form = client.post(GAMES, data={"ruleset": "german"})
    assert form.status_code == 415
    game = create(client)
    hand = client.post(
        f"{GAMES}/{game['id']}/hands",
        data=json.dumps({"version": 1, "teams": HAND}),
        content_type="text/plain;charset=UTF-8",
    )
    assert hand.status_code == 415
    assert client.get(f"{GAMES}/{game['id']}").get_json()["version"] == 1
    # a DELETE needs no body (?version=); the stateless questions read any content type
    assert client.delete(f"{GAMES}/{game['id']}/hands/1?version=1").status_code == 404
    assert (
        client.post(
            "/api/v1/score",
            data=json.dumps({"ruleset": "german", "teams": HAND}),
            content_type="text/plain",
        ).status_code
        == 200
    )


@pytest.mark.parametrize(
    ("headers", "forms_refused"),
    [
        ({"Sec-Fetch-Site": "cross-site"}, True),
        ({"Sec-Fetch-Site": "cross-site", "Origin": "null"}, True),
        ({"Origin": "https://evil.example"}, True),
        ({"Origin": "http://localhost:8080"}, True),
        # an old browser without Sec-Fetch-Site: a sandboxed frame's "null" cannot use the API;
        # forms carry a CSRF token (off in these tests)
        ({"Origin": "null"}, False),
    ],
)
def test_cross_site_writes_are_refused(
    client: FlaskClient, headers: dict[str, str], forms_refused: bool
) -> None:
    game = create(client)
    api = [
        client.post(GAMES, json=GERMAN, headers=headers),
        client.post(
            f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": HAND}, headers=headers
        ),
        client.delete(f"{GAMES}/{game['id']}/hands/1?version=1", headers=headers),
    ]
    forms = [
        client.post("/games/new", data={"action": "create"}, headers=headers),
        client.post(f"/games/{game['id']}/hands", data={"action": "save"}, headers=headers),
    ]
    assert [r.status_code for r in api] == [403] * len(api)
    assert api[0].get_json()["problems"][0]["code"] == "request.cross_site"
    assert ([r.status_code == 403 for r in forms] == [True] * len(forms)) is forms_refused
    assert client.get(f"{GAMES}/{game['id']}").get_json()["version"] == 1


def test_same_site_writes_pass(client: FlaskClient) -> None:
    # Chromium sends "Origin: null" for a site's own form when the referrer policy is
    # no-referrer, with Sec-Fetch-Site: same-origin
    for headers in (
        {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},
        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "none"},
        {"Origin": "http://localhost"},
        {},
    ):
        assert client.post(GAMES, json=GERMAN, headers=headers).status_code == 201


# ---- headers and cookies -------------------------------------------------------------------------


def test_security_headers_everywhere(client: FlaskClient) -> None:
    game = create(client)
    for path in (
        "/",
        f"/games/{game['id']}",
        f"/view/{game['view_id']}",
        "/referee",
        "/rules/german",
        f"{GAMES}/{game['id']}",
        "/static/app.css",
        "/nowhere",
    ):
        headers = client.get(path).headers
        csp = headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "object-src 'none'" in csp and "base-uri 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert headers.get("X-Content-Type-Options") == "nosniff"
        assert headers.get("Referrer-Policy") == "no-referrer"
        assert "Strict-Transport-Security" not in headers  # plain http
        assert "Retry-After" not in headers


INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.IGNORECASE
)


def test_pages_have_nothing_the_csp_blocks(client: FlaskClient) -> None:
    game = create(client)
    game_id = game["id"]
    client.post(f"{GAMES}/{game_id}/hands", json={"version": 1, "teams": HAND})
    paths = [
        "/",
        "/games/new",
        f"/games/{game_id}",
        f"/view/{game['view_id']}",
        f"/games/{game_id}/hands/new",
        f"/games/{game_id}/hands/1/edit",
        "/referee",
        "/rules/german",
        "/rules/polish",
        "/fifty/new",
        "/fifty/referee",
        "/nowhere",
    ]
    for path in paths:
        html = client.get(path).text
        found = INLINE.findall(html)
        assert not found, (path, found[:3])
        assert '"includeIndicatorStyles":false' in html, path  # htmx injects no <style>
        # nor copies a style attribute across a swap (setting one is inline style too)
        assert '"attributesToSettle":["class","width","height"]' in html, path


def test_every_cookie_is_samesite_and_the_recent_games_cookie_is_short(client: FlaskClient) -> None:
    game = create(client)
    response = client.get(f"/games/{game['id']}?lang=de")
    cookies = response.headers.getlist("Set-Cookie")
    assert len(cookies) >= 2
    for cookie in cookies:
        assert "SameSite=Lax" in cookie and "Secure" not in cookie
    recent = next(c for c in cookies if c.startswith("games="))
    assert f"Max-Age={45 * 24 * 3600}" in recent and "HttpOnly" in recent
    for _ in range(10):
        client.get(f"/games/{create(client)['id']}")
    kept = client.get_cookie("games")
    assert kept is not None and len(kept.value.split()) == 11  # every game, not the newest 8
    # at most as many keys as fit one cookie (a browser keeps 4,096 bytes)
    client.set_cookie("games", " ".join(f"{n:022d}" for n in range(160)))
    client.get(f"/games/{game['id']}")
    value = client.get_cookie("games").value.strip('"')  # type: ignore[union-attr]
    assert value.split()[0] == game["id"]
    assert len(value.split()) == pages.RECENT_MAX == 150 and len(value) <= pages.RECENT_BYTES


def test_over_https_behind_a_proxy_cookies_are_secure_and_hsts_is_sent(tmp_path: Path) -> None:
    # Behind a proxy waitress turns the trusted proxy's X-Forwarded-Proto into the request's
    # scheme before the app runs (scorekeeper/serving.py; tests/test_proxy_stack.py runs it
    # through Caddy): the app follows the scheme it is handed, and trusts no header itself.
    with make_app(tmp_path, WTF_CSRF_ENABLED=True) as app:
        client = app.test_client()
        response = client.get(
            "/games/new?lang=pl",
            environ_overrides={"wsgi.url_scheme": "https", "REMOTE_ADDR": "203.0.113.9"},
        )
        assert response.headers["Strict-Transport-Security"].startswith("max-age=")
        cookies = response.headers.getlist("Set-Cookie")
        assert any(c.startswith("session=") for c in cookies)
        for cookie in cookies:
            assert "Secure" in cookie and "SameSite=Lax" in cookie
        plain = client.get("/games/new?lang=pl", headers={"X-Forwarded-Proto": "https"})
        assert "Strict-Transport-Security" not in plain.headers
        assert all("Secure" not in c for c in plain.headers.getlist("Set-Cookie"))


# ---- rate limits ---------------------------------------------------------------------------------


def test_creation_is_rate_limited_with_a_translated_429(tmp_path: Path) -> None:
    with make_app(tmp_path, RATELIMIT_ENABLED=True, LIMIT_CREATE="3 per minute") as app:
        client = app.test_client()
        for _ in range(2):
            assert client.post(GAMES, json=GERMAN).status_code == 201
        # refused tries cost nothing
        assert client.post(GAMES, json={**GERMAN, "players": 5}).status_code == 422
        assert client.post(GAMES, json=GERMAN).status_code == 201
        limited = client.post(GAMES, json=GERMAN, headers={"Accept-Language": "de"})
        assert limited.status_code == 429
        assert int(limited.headers["Retry-After"]) > 0
        problem = limited.get_json()["problems"][0]
        assert problem["code"] == "request.rate_limited"
        assert problem["message"].startswith("Zu viele Anfragen")
        page = client.post("/games/new?lang=pl", data={"action": "create"})
        assert page.status_code == 429 and "Zbyt wiele żądań" in page.text
        assert "Retry-After" in page.headers
        # another address has its own count
        other = client.post(GAMES, json=GERMAN, environ_base={"REMOTE_ADDR": "127.0.0.9"})
        assert other.status_code == 201


def test_writes_are_rate_limited_per_address(tmp_path: Path) -> None:
    with make_app(tmp_path, RATELIMIT_ENABLED=True, LIMIT_WRITE="2 per minute") as app:
        client = app.test_client()
        game = create(client)
        url = f"{GAMES}/{game['id']}/hands"
        assert client.post(url, json={"version": 1, "teams": HAND}).status_code == 201
        assert client.post(url, json={"version": 1, "teams": HAND}).status_code == 409
        assert client.post(url, json={"version": 2, "teams": HAND}).status_code == 201
        assert client.post(url, json={"version": 3, "teams": HAND}).status_code == 429


# ---- a busy SQLite database ----------------------------------------------------------------------


def hold_the_write_lock(app: Flask) -> threading.Lock:
    lock: threading.Lock = app.extensions["scorekeeper.write_lock"]
    assert lock.acquire(timeout=5)
    return lock


def test_busy_database_is_503_with_retry_after_over_the_api(tmp_path: Path) -> None:
    with make_app(tmp_path, SQLITE_BUSY_TIMEOUT=1) as app:
        client = app.test_client()
        game = create(client)
        lock = hold_the_write_lock(app)
        try:
            response = client.post(
                f"{GAMES}/{game['id']}/hands",
                json={"version": 1, "teams": HAND},
                headers={"Accept-Language": "pl"},
            )
        finally:
            lock.release()
        assert response.status_code == 503 and response.headers["Retry-After"] == "2"
        problem = response.get_json()["problems"][0]
        assert problem["code"] == "request.busy" and "zajęty" in problem["message"]
        assert client.get(f"{GAMES}/{game['id']}").get_json()["version"] == 1
        again = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": HAND})
        assert again.status_code == 201


def test_busy_database_keeps_the_entry_on_the_form(tmp_path: Path) -> None:
    with make_app(tmp_path, SQLITE_BUSY_TIMEOUT=1) as app:
        client = app.test_client()
        game_id = create(client)["id"]
        data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
        data["action"] = "save"
        lock = hold_the_write_lock(app)
        try:
            response = client.post(f"/games/{game_id}/hands?lang=de", data=data)
        finally:
            lock.release()
        assert response.status_code == 503 and response.headers["Retry-After"] == "2"
        assert "Der Spielbericht ist gerade beschäftigt" in response.text
        assert 'value="K K K 2"' in response.text  # what was typed is still there
        assert client.get(f"{GAMES}/{game_id}").get_json()["version"] == 1


def test_concurrent_saves_never_500(tmp_path: Path) -> None:
    """The finding's load, bounded: many writers at once on one SQLite file; every save is
    answered 201 or 409 (stale version), none 500, and no hand is lost."""
    with make_app(tmp_path) as app:
        setup = app.test_client()
        game_ids = [create(setup)["id"] for _ in range(4)]
        statuses: list[int] = []
        guard = threading.Lock()

        def writer(n: int) -> None:
            client = app.test_client()
            game_id = game_ids[n % len(game_ids)]
            for _ in range(12):
                version = client.get(f"{GAMES}/{game_id}").get_json()["version"]
                response = client.post(
                    f"{GAMES}/{game_id}/hands", json={"version": version, "teams": HAND}
                )
                with guard:
                    statuses.append(response.status_code)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert len(statuses) == 16 * 12
        assert set(statuses) <= {201, 409, 422}, sorted(set(statuses))
        saved = statuses.count(201)
        stored = sum(len(setup.get(f"{GAMES}/{g}").get_json()["hands"]) for g in game_ids)
        # 422: a game reached its target and took no more hands
        assert saved == stored > 0


# ---- files -----------------------------------------------------------------------------------


def test_secret_key_and_database_are_private(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    app = create_app({"TESTING": True, "SECRET_KEY": None})
    app.instance_path = str(instance)  # as a fresh installation's
    from scorekeeper.factory import _instance_secret
    from scorekeeper.store.db import make_engine

    secret = _instance_secret(app)
    app.extensions["scorekeeper.engine"].dispose()
    assert len(secret) == 64
    assert stat.S_IMODE(os.stat(instance / "secret_key").st_mode) == 0o600
    engine = make_engine(f"sqlite:///{instance / 'scorekeeper.sqlite3'}")
    with engine.connect() as connection:
        connection.exec_driver_sql("CREATE TABLE t (x)")
        connection.commit()
    engine.dispose()
    assert stat.S_IMODE(os.stat(instance / "scorekeeper.sqlite3").st_mode) == 0o600


def test_importing_a_backup_counts_as_creating(tmp_path: Path) -> None:
    with make_app(tmp_path, RATELIMIT_ENABLED=True, LIMIT_CREATE="1 per minute") as app:
        client = app.test_client()
        game = create(client)
        backup = client.get(f"{GAMES}/{game['id']}").get_json()
        limited = client.post(f"{GAMES}/import", json=backup)
        assert limited.status_code == 429
