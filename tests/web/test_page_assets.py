"""What every page loads (issue 11: one stylesheet; issue 16: no script holds up the first view):
one stylesheet, app.css; one async script, boot.js, which runs the files preloaded in <head> once
the page is complete; none inline and none in <body>."""

from __future__ import annotations

import re
from pathlib import Path

from flask.testing import FlaskClient

from tests.web.pagehelpers import form_of

STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"


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


def test_the_static_folder_has_one_stylesheet() -> None:
    assert sorted(p.name for p in STATIC.glob("*.css")) == ["app.css"]


def test_every_page_links_only_app_css(client: FlaskClient) -> None:
    for url in pages(client):
        html = client.get(url + "?lang=en").text
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert sheets == ["/static/app.css"], url
        assert "<style" not in html, url


def test_no_script_holds_up_the_first_view(client: FlaskClient) -> None:
    """Issue 16: one script tag per page, boot.js, async; everything else is preloaded in the
    head (data-run, in the order boot.js runs it), htmx first."""
    seen = set()
    for url in pages(client):
        html = client.get(url + "?lang=en").text
        head, body = html.split("</head>", 1)
        assert "<script" not in body and "data-run" not in body, url
        tags = re.findall(r"<script\b[^>]*>", head)
        assert tags == ['<script src="/static/boot.js" async>'], (url, tags)
        runs = re.findall(r'<link rel="preload" as="script" href="/static/([^"]+)" data-run>', head)
        assert runs and runs[0] == "htmx-2.0.11.min.js", url
        assert len(runs) == len(set(runs)), url
        assert (STATIC / runs[-1]).is_file(), url
        seen.update(runs)
    # The page scripts named in the issue are all among them.
    assert {"htmx-2.0.11.min.js", "cardpad.js", "games.js", "fifty.js", "referee.js"} <= seen
