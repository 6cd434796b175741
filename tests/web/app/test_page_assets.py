"""What every page loads (one stylesheet; no script holds up the first view):
one stylesheet, app.css; one async script, boot.js, which runs the files preloaded in <head> once
the page is complete; none inline and none in <body>."""

from __future__ import annotations

import re
from pathlib import Path

from flask.testing import FlaskClient

from scorekeeper.web.app.assets import YEAR, version
from tests.web.pagehelpers import form_of

STATIC = Path(__file__).resolve().parents[3] / "scorekeeper" / "static"


def pages(client: FlaskClient) -> list[str]:
    """The main pages, with a Canasta game and a game of 3 ist 50 to show."""
    game = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "options": {},
            "sides": [
                {"name": "Wir", "players": ["Anna", "Ben"]},
                {"name": "Ihr", "players": ["Cleo", "Dora"]},
            ],
        },
    )
    assert game.status_code == 201, game.text
    canasta, view = game.get_json()["id"], game.get_json()["view_id"]
    data = form_of(client.get("/fifty/new").text, "new-fifty")
    data["action"] = "create"
    created = client.post("/fifty/new", data=data)
    assert created.status_code == 303, created.text[:500]
    fifty = created.headers["Location"]
    return [
        "/",
        "/games/new",
        f"/games/{canasta}",
        f"/games/{canasta}/hands/new",
        f"/view/{view}",
        "/referee",
        "/rules/german",
        "/rules/three-is-fifty",
        "/fifty/new",
        fifty,
        f"{fifty}/games/new",
        "/fifty/referee",
        "/nope",
    ]


def versioned(name: str) -> str:
    return f"/static/{name}?v={version(str(STATIC), name)}"


def test_the_static_folder_has_one_stylesheet() -> None:
    assert sorted(p.name for p in STATIC.glob("*.css")) == ["app.css"]


def test_every_page_links_only_app_css(client: FlaskClient) -> None:
    for url in pages(client):
        html = client.get(url + "?lang=en").text
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert sheets == [f"/static/app.css?v={version(str(STATIC), 'app.css')}"], url
        assert "<style" not in html, url


def test_no_script_holds_up_the_first_view(client: FlaskClient) -> None:
    """One script tag per page, boot.js, async; everything else is preloaded in the
    head (data-run, in the order boot.js runs it), htmx first."""
    seen = set()
    for url in pages(client):
        html = client.get(url + "?lang=en").text
        head, body = html.split("</head>", 1)
        assert "<script" not in body and "data-run" not in body, url
        tags = re.findall(r"<script\b[^>]*>", head)
        assert tags == [f'<script src="{versioned("boot.js")}" async>'], (url, tags)
        runs = re.findall(
            r'<link rel="preload" as="script" href="/static/([^"?]+)\?v=[0-9a-f]{12}" data-run>',
            head,
        )
        assert runs and runs[0] == "htmx-2.0.11.min.js", url
        assert len(runs) == len(set(runs)), url
        assert (STATIC / runs[-1]).is_file(), url
        seen.update(runs)
    # The page scripts named in the issue are all among them.
    assert {"htmx-2.0.11.min.js", "cardpad.js", "games.js", "fifty.js", "referee.js"} <= seen


def test_static_files_have_versioned_addresses_cached_for_a_year(client: FlaskClient) -> None:
    """A script's address names its content: after an upgrade a phone loads the new script with
    the new pages (the live preview and notices.js change together), and meanwhile never asks
    again for one it has."""
    html = client.get("/games/new?lang=en").text
    address = versioned("notices.js")
    assert re.fullmatch(r"/static/notices\.js\?v=[0-9a-f]{12}", address)
    for name in ("boot.js", "htmx-2.0.11.min.js", "app.css"):
        assert versioned(name) in html, name
    answer = client.get(address)
    assert answer.status_code == 200
    assert answer.cache_control.max_age == YEAR and answer.cache_control.immutable
    for other in ("/static/notices.js", "/static/notices.js?v=000000000000"):
        answer = client.get(other)  # no version, or an old one: an hour, as before
        assert answer.status_code == 200
        assert answer.cache_control.max_age == 3600 and not answer.cache_control.immutable
    assert client.get("/static/nothing.js?v=000000000000").status_code == 404


def test_a_changed_file_gets_a_new_version(tmp_path: Path) -> None:
    script = tmp_path / "x.js"
    script.write_text("one();")
    first = version(str(tmp_path), "x.js")
    script.write_text("two(); // and more")
    second = version(str(tmp_path), "x.js")
    assert first and second and first != second
    assert version(str(tmp_path), "missing.js") == ""
    assert version(str(tmp_path), "../x.js") == ""  # never outside the folder


def test_no_page_needs_more_files_than_a_phone_fetches_at_once(client: FlaskClient) -> None:
    """A browser opens six connections to a server: a seventh file of the first view waits
    for one of them, a whole round trip on a slow phone line (2 s on "Slow 3G")."""
    for url in pages(client):
        head = client.get(url + "?lang=en").text.split("</head>", 1)[0]
        files = re.findall(r'<link rel="(?:stylesheet|preload)"[^>]*href="(/static/[^"]+)"', head)
        files += re.findall(r'<script src="(/static/[^"]+)"', head)
        assert len(files) <= 6, (url, files)
