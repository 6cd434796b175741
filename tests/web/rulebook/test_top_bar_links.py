"""The top bar's "Referee" and "Rules": on a game's pages they lead to that game's own referee
and rules (its ruleset and house rules; 3 ist 50's own), elsewhere to the ruleset a reader of
the page's language most likely plays (German, Polish, else Classic)."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

from flask.testing import FlaskClient

GAMES = "/api/v1/games"


def top_bar(html: str) -> dict[str, str]:
    nav = re.search(r'<nav class="topnav"[^>]*>(.*?)</nav>', html, re.S)
    assert nav, "no top bar"
    return {
        text: href.replace("&amp;", "&")
        for href, text in re.findall(r'<a href="([^"]+)">([^<]+)</a>', nav[1])
    }


def test_a_game_s_pages_lead_to_its_own_rules(client: FlaskClient) -> None:
    made = client.post(
        GAMES,
        json={
            "ruleset": "polish",
            "players": 4,
            "options": {"target": 3000},
            "sides": [
                {"name": "My", "players": ["Ala", "Bo"]},
                {"name": "Wy", "players": ["Ce", "Di"]},
            ],
        },
    )
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    pages = [f"/games/{game['id']}", f"/games/{game['id']}/hands/new", f"/view/{game['view_id']}"]
    for path in pages:
        links = top_bar(client.get(f"{path}?lang=en").text)
        referee, rules = urlsplit(links["Referee"]), urlsplit(links["Rules"])
        assert referee.path == "/referee" and rules.path == "/rules/polish", path
        asked = parse_qs(referee.query)
        assert asked["ruleset"] == ["polish"]
        assert json.loads(asked["options"][0]) == {"target": 3000}
        assert parse_qs(rules.query)["options"] == asked["options"]
    # the links work: the referee page is set to the game's rules
    page = client.get(top_bar(client.get(pages[0]).text)["Referee"]).text
    assert '<input type="hidden" name="ruleset" value="polish">' in page


def test_a_3_ist_50_evening_leads_to_its_referee(client: FlaskClient) -> None:
    made = client.post(GAMES, json={"ruleset": "three-is-fifty", "players": ["Ann", "Ben", "Cy"]})
    assert made.status_code == 201, made.get_json()
    key = made.get_json()["id"]
    links = top_bar(client.get(f"/fifty/{key}?lang=de").text)
    assert links["Schiedsrichter"] == "/fifty/referee"
    assert links["Regeln"] == "/rules/three-is-fifty"
    assert client.get(links["Regeln"]).status_code == 200


def test_elsewhere_the_readers_likely_rules(client: FlaskClient) -> None:
    for lang, ruleset in (("de", "german"), ("pl", "polish"), ("en", "classic")):
        links = top_bar(client.get(f"/?lang={lang}").text)
        assert list(links.values()) == ["/referee", f"/rules/{ruleset}"], lang
