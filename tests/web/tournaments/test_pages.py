"""The tournament pages through the test client: the new form (each problem under its field,
nothing stored), the director's changes (swap, new lot, confirm, absent, close, next round, a
refused change explained), the public page and its poll, the game page's banner, names
escaped everywhere."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.store.db import session_scope
from scorekeeper.store.models import Tournament
from tests.web.games.test_game_pages import hand_form

from .making import EIGHT, form, games, hand, make, play, post, start_round

HTMX = {"HX-Request": "true"}


def _count(app: Flask) -> int:
    with app.app_context(), session_scope() as session:
        return int(session.scalar(select(func.count()).select_from(Tournament)) or 0)


def _problem_near(html: str, field: str) -> str:
    found = re.search(rf'<p class="problem" id="p-{field}" role="alert">([^<]*)</p>', html)
    assert found, f"no problem under {field}"
    return found[1]


def _view_id(client: FlaskClient, key: str) -> str:
    found = re.search(r"/tournaments/view/([A-Za-z0-9_-]+)", client.get(f"/tournaments/{key}").text)
    assert found
    return found[1]


def test_the_start_page_links_to_the_tournaments(client: FlaskClient) -> None:
    assert 'href="/tournaments"' in client.get("/").text
    page = client.get("/tournaments")
    assert page.status_code == 200
    assert 'href="/tournaments/new"' in page.text


def test_the_new_form_offers_the_canasta_rulesets_and_their_table_sizes(
    client: FlaskClient,
) -> None:
    page = client.get("/tournaments/new?lang=en").text
    assert re.findall(r'name="ruleset" value="(\w+)"', page) == [
        "german",
        "polish",
        "classic",
        "american",
    ]
    assert "fifty" not in re.findall(r'name="ruleset" value="(\w+)"', page)
    # the chips of sizes a ruleset does not allow are marked for it (hidden by the stylesheet)
    size2 = re.search(r'class="chip num-chip size-2 ([^"]*)"', page)
    assert size2 and "no-german" in size2[1] and "no-classic" not in size2[1]
    assert 'name="csrf_token"' in page


def test_each_problem_stands_under_its_field_and_nothing_is_stored(
    app: Flask, client: FlaskClient
) -> None:
    bad = form(
        name="",
        players="6",  # German rules: tables of 4 only
        win="x",
        hands="0",
        participants="Anna\nBen\nanna",
    )
    answer = client.post("/tournaments/new?lang=en", data=bad)
    assert answer.status_code == 422
    html = answer.text
    assert "Give the tournament a name." in _problem_near(html, "name")
    assert "4" in _problem_near(html, "players")
    assert "0 to 100" in _problem_near(html, "points")
    assert "1 to 50" in _problem_near(html, "round_end")
    assert "named twice" in _problem_near(html, "participants")
    assert "Ben\nanna</textarea>" in html  # the typed lines are kept
    assert _count(app) == 0


def test_the_problems_are_in_the_readers_language(client: FlaskClient) -> None:
    answer = client.post("/tournaments/new?lang=de", data=form(name="", participants="Anna"))
    assert answer.status_code == 422
    assert "Give the tournament a name." not in answer.text
    assert _problem_near(answer.text, "name")
    answer = client.post("/tournaments/new?lang=pl", data=form(participants="Anna"))
    assert "Enter at least" not in _problem_near(answer.text, "participants")


def test_pairs_are_typed_one_pair_a_line(app: Flask, client: FlaskClient) -> None:
    answer = client.post(
        "/tournaments/new?lang=en",
        data=form(format="pairs", participants="Anna & Ben\nCleo\nDan & Eva"),
    )
    assert answer.status_code == 422
    assert "Line 2" in _problem_near(answer.text, "participants")
    assert _count(app) == 0
    key = make(
        client, format="pairs", participants="Anna & Ben\nCleo & Dan\nEva & Finn\nGus & Hanna"
    )
    page = client.get(f"/tournaments/{key}").text
    assert "Anna &amp; Ben" in page


@pytest.mark.parametrize(
    ("changes", "field", "sentence"),
    [
        ({"name": "   "}, "name", "Give the tournament a name."),
        ({"name": "N" * 41}, "name", "The name is too long (at most 40 characters)."),
        ({"name": "\u0301\u0301"}, "name", "A name needs at least one letter or digit that shows."),
        ({"ruleset": "three-is-fifty"}, "ruleset", "Choose the rules every table plays."),
        ({"ruleset": ""}, "ruleset", "Choose the rules every table plays."),
        ({"format": "swiss"}, "format", "Choose individual or pairs."),
        ({"players": "x"}, "players", "These rules allow tables of 4 players."),
        (
            {"ruleset": "classic", "players": "5"},
            "players",
            "These rules allow tables of 2, 3, 4, 6 players.",
        ),
        (
            {
                "ruleset": "classic",
                "format": "pairs",
                "players": "3",
                "participants": "A & B\nC & D",
            },
            "players",
            "These rules allow tables of 4, 6 players.",
        ),
        ({"scoring": "x"}, "scoring", "Choose match points or points."),
        ({"draw": "-1"}, "points", "Match points are whole numbers from 0 to 100."),
        ({"win": ""}, "points", "Match points are whole numbers from 0 to 100."),
        (
            {"win": "1", "draw": "2"},
            "points",
            "A win gives at least a draw, a draw at least a loss.",
        ),
        ({"round_end": "laps"}, "round_end", "Choose when a round ends."),
        ({"hands": "x"}, "round_end", "Type a whole number from 1 to 50."),
        (
            {"round_end": "target", "target": "50"},
            "round_end",
            "Type a whole number from 100 to 1000000.",
        ),
        ({"odd": "x"}, "odd", "Choose what happens to players left over."),
        ({"participants": ""}, "participants", "Enter at least 4 players, one per line."),
        ({"participants": "Anna\nanna"}, "participants", "“anna” is named twice."),
        (
            {"participants": "Anna\nBen\nCleo\n" + "L" * 41},
            "participants",
            "Line 4: this name is too long.",
        ),
        (
            {"participants": "\n".join(f"P{i}" for i in range(401))},
            "participants",
            "At most 400 participants.",
        ),
        (
            {"format": "pairs", "participants": "Anna & Ben\nCleo & \nDan & Eva"},
            "participants",
            "Line 2: a pair is two names joined by “&” (Anna & Ben).",
        ),
        (
            {"format": "pairs", "participants": "Anna & " + "L" * 41 + "\nCleo & Dan"},
            "participants",
            "Line 1: this name is too long.",
        ),
        (
            {"format": "pairs", "players": "6", "ruleset": "classic", "participants": "A & B"},
            "participants",
            "Enter at least 3 pairs, one per line.",
        ),
    ],
)
def test_the_form_says_in_its_words_what_to_choose_or_type(
    app: Flask, client: FlaskClient, changes: dict[str, str], field: str, sentence: str
) -> None:
    """The form is read once, by the reader of ``POST /api/v1/tournaments``; each of its
    problems is said in the form's words under the field it names, once, and nothing else is
    said (the other fields are fine)."""
    answer = client.post("/tournaments/new?lang=en", data=form(**changes))
    assert answer.status_code == 422
    found = re.findall(
        r'<p class="problem"(?: id="p-(\w+)")? role="alert">([^<]*)</p>', answer.text
    )
    assert [(f, unescape(text)) for f, text in found] == [(field, sentence)]
    assert _count(app) == 0


def test_a_new_tournament_joins_this_phones_list(client: FlaskClient) -> None:
    key = make(client)
    listed = client.get("/tournaments").text
    assert f'href="/tournaments/{key}"' in listed and "Spring cup" in listed
    assert post(client, f"/tournaments/{key}/forget").status_code == 303
    assert f'href="/tournaments/{key}"' not in client.get("/tournaments").text
    assert client.get(f"/tournaments/{key}").status_code == 200  # forgotten here, not deleted


def test_players_come_from_one_of_this_phones_tables(client: FlaskClient) -> None:
    made = client.post("/api/v1/tables", json={"name": "Thursday", "players": EIGHT})
    assert made.status_code == 201 and made.json is not None
    table = made.json["id"]
    client.get(f"/tables/{table}")  # this phone keeps the table
    page = client.get("/tournaments/new").text
    assert f"/tournaments/new?table={table}" in page
    page = client.get(f"/tournaments/new?table={table}").text
    assert len(re.findall(r'name="person" value="[^"]+" checked', page)) == 8
    ticked = [n for n in EIGHT if n != "Hanna"]
    data = form(participants="", table=table)
    data["person"] = ticked
    answer = client.post("/tournaments/new", data=data)
    assert answer.status_code == 303, answer.text
    key = answer.headers["Location"].rsplit("/", 1)[1]
    director = client.get(f"/tournaments/{key}").text
    assert re.search(r'class="who">Gus', director)
    assert not re.search(r'class="who">Hanna', director)
    # pairs of the table's people are typed; a name the table does not know is refused
    data = form(format="pairs", participants="Anna & Ben\nCleo & Zoe", table=table)
    refused = client.post("/tournaments/new?lang=en", data=data)
    assert refused.status_code == 422
    assert _problem_near(refused.text, "participants")


def test_the_director_swaps_draws_again_and_confirms(client: FlaskClient) -> None:
    key = make(client)
    assert "Seat round 1 by lot" in client.get(f"/tournaments/{key}?lang=en").text
    assert post(client, f"/tournaments/{key}/rounds").status_code == 303
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "Confirm the seating" in page
    assert 'hx-select="#director-live"' not in page  # a proposal never moves under the thumb
    seats = re.findall(r'data-participant="(\d+)"', page)
    assert sorted(map(int, seats)) == list(range(8))
    a, b = int(seats[0]), int(seats[-1])  # table 1's first and table 2's last
    assert post(client, f"/tournaments/{key}/rounds/1/swap", a=a, b=b).status_code == 303
    after = re.findall(r'data-participant="(\d+)"', client.get(f"/tournaments/{key}").text)
    assert after[0] == str(b) and after[-1] == str(a)
    # the same participant twice, an unknown one: a sentence, nothing changed
    same = post(client, f"/tournaments/{key}/rounds/1/swap?lang=en", a=a, b=a)
    assert same.status_code == 422 and "two different participants" in same.text
    unknown = post(client, f"/tournaments/{key}/rounds/1/swap?lang=en", a=a, b=99)
    assert unknown.status_code in (409, 422)
    assert re.search(r'<p class="problem" role="alert">[^<]+</p>', unknown.text)
    assert "seating." not in re.findall(r'role="alert">([^<]*)<', unknown.text)[0]
    assert re.findall(r'data-participant="(\d+)"', client.get(f"/tournaments/{key}").text) == after
    # a new lot and the confirmation
    assert post(client, f"/tournaments/{key}/rounds").status_code == 303
    assert post(client, f"/tournaments/{key}/rounds/1/confirm").status_code == 303
    played = games(client, key)
    assert len(played) == 2
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "0 of 2 tables reported" in page and "provisional" in page
    assert 'hx-select="#director-live"' in page  # while tables play, it follows them
    assert "Confirm the seating" not in page
    # a confirmation sent twice is refused with a sentence, no second set of games
    again = post(client, f"/tournaments/{key}/rounds/1/confirm")
    assert again.status_code in (409, 422)
    assert games(client, key) == played


def test_standings_follow_the_hands_and_a_correction(client: FlaskClient) -> None:
    key = make(client)
    view_id = _view_id(client, key)
    first = start_round(client, key, 1)
    public = client.get(f"/tournaments/view/{view_id}?lang=en").text
    stamp = re.search(r"since=([0-9a-f]+)", public)
    assert stamp
    assert (
        client.get(f"/tournaments/view/{view_id}?since={stamp[1]}", headers=HTMX).status_code == 204
    )
    play(client, first[0], winner=0)
    poll = client.get(f"/tournaments/view/{view_id}?since={stamp[1]}&lang=en", headers=HTMX)
    assert poll.status_code == 200
    assert "<html" not in poll.text and 'id="live"' in poll.text
    assert "1 of 2 hands" in poll.text
    # the game page of the table says where it belongs
    banner = client.get(f"/games/{first[0]}?lang=en").text
    assert re.search(r"Spring cup · round 1 · table 1 · 1 of 2 hands", banner)
    assert f'href="/tournaments/view/{view_id}"' in banner
    # so does the read-only view the other phones open, and its poll keeps the count current
    game_view = client.get(f"/api/v1/games/{first[0]}").json["view_id"]  # type: ignore[index]
    shown = client.get(f"/view/{game_view}?lang=en").text
    assert "Spring cup · round 1 · table 1 · 1 of 2 hands" in shown
    unknown = ("y" if game_view[0] == "x" else "x") + game_view[1:]  # one letter changed
    assert client.get(f"/view/{unknown}?lang=en").status_code == 404
    other_view = client.get(f"/api/v1/games/{first[1]}").json["view_id"]  # type: ignore[index]
    assert "table 2 · 0 of 2 hands" in client.get(f"/view/{other_view}?lang=en").text

    kept = client.get(f"/tournaments/view/{view_id}?since=0&lang=en", headers=HTMX).text
    assert "1 of 2 hands" in kept  # the fragment kept for the phones polling: still current
    play(client, first[0], winner=0)
    fresh = client.get(f"/tournaments/view/{view_id}?since=0&lang=en", headers=HTMX).text
    assert "2 of 2 hands" in fresh and "1 of 2 hands" not in fresh  # a change: made again
    live = client.get(f"/view/{game_view}?since=1&lang=en", headers=HTMX).text
    assert "<html" not in live and "table 1 · 2 of 2 hands" in live
    play(client, first[1], winner=1)
    play(client, first[1], winner=1)
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "2 of 2 tables reported" in page
    top = re.findall(r'<td class="who">([^<]*)</td>', page)[:4]

    # the director fixes a mistyped hand at table 1 (from its game, as the director's link
    # opens it): side 2 went out instead of side 1, and the standings move
    game = client.get(f"/api/v1/games/{first[0]}").json
    assert game is not None
    fixed = client.put(
        f"/api/v1/games/{first[0]}/hands/2",
        json={"version": game["version"], "teams": [*reversed(_hand_teams(1500))]},
    )
    assert fixed.status_code == 200, fixed.json
    moved = re.findall(r'<td class="who">([^<]*)</td>', client.get(f"/tournaments/{key}").text)[:4]
    assert moved != top

    # round 2: the next round closes round 1
    second = start_round(client, key, 2)
    assert len(second) == 2 and not set(second) & set(first)
    assert "Round 2" in client.get(f"/tournaments/view/{view_id}?lang=en").text


def _hand_teams(bonus: int) -> list[dict[str, object]]:
    """Side 1 far ahead (``bonus`` meld points): reversed, side 2 is."""
    from_side = []
    for won in (True, False):
        from_side.append(
            {
                "quick": {
                    "natural_canastas": 2 if won else 0,
                    "mixed_canastas": 1,
                    "wild_canastas": 0,
                    "meld_points": 300 + bonus if won else 150,
                    "hand_points": 0 if won else 40,
                    "black_threes_in_hand": 0,
                    "melded": True,
                },
                "red_threes": 0,
                "went_out": won,
                "concealed": False,
            }
        )
    return from_side


def test_next_round_is_refused_while_tables_play(client: FlaskClient) -> None:
    key = make(client)
    start_round(client, key, 1)
    refused = post(client, f"/tournaments/{key}/rounds?lang=en")
    assert refused.status_code == 409
    assert re.search(r'<p class="problem" role="alert">[^<]+</p>', refused.text)
    assert post(client, f"/tournaments/{key}/rounds/1/close").status_code in (303, 409, 422)


def test_closing_a_round_while_tables_play_is_asked_first(client: FlaskClient) -> None:
    """Closing makes what the tables entered final: while a table still plays, the director
    is asked first, on a page that does not refresh under the thumb; the next round is offered
    only once every table has reported."""
    key = make(client)
    played = start_round(client, key, 1)
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "Seat round 2 by lot" not in page and "Next round" not in page
    ask = re.search(r'<a class="button block" href="([^"]+)">Close round 1</a>', page)
    assert ask, "closing is asked, not posted at once"
    asked = client.get(ask[1].replace("&amp;", "&").split("#")[0] + "&lang=en").text
    assert "2 tables have not reported yet." in asked
    assert "what its tables have entered so far is final" in asked
    assert "Close round 1 now" in asked and "Keep playing" in asked
    assert 'id="director-live" hx-get' not in asked  # holds still while asked
    assert 'id="director-live" hx-get' in page
    play(client, played[0], winner=0)
    play(client, played[0], winner=1)  # table 1 played its two hands
    one_left = client.get(f"/tournaments/{key}?close=1&lang=pl").text
    assert "1 stół jeszcze nie skończył." in one_left
    assert post(client, f"/tournaments/{key}/rounds/1/close").status_code == 303
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "Seat round 2 by lot" in page and "closed" in page


def test_the_next_round_is_offered_once_every_table_reported(client: FlaskClient) -> None:
    key = make(client)
    played = start_round(client, key, 1)
    for game in played:  # two hands a round
        play(client, game, winner=0)
        play(client, game, winner=1)
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "2 of 2 tables reported" in page
    assert "Seat round 2 by lot" in page and "Close round 1</button>" in page
    assert post(client, f"/tournaments/{key}/rounds").status_code == 303
    assert "Round 2" in client.get(f"/tournaments/{key}?lang=en").text


def test_an_absent_player_is_left_out_of_the_next_seating(client: FlaskClient) -> None:
    key = make(client, participants="\n".join([*EIGHT, "Ida"]))
    assert post(client, f"/tournaments/{key}/participants/8/absent", absent="1").status_code == 303
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert re.search(r'<li class="absent"><span class="who">Ida', page)
    post(client, f"/tournaments/{key}/rounds")
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "Sitting out" not in page  # 8 present: two full tables
    assert post(client, f"/tournaments/{key}/participants/8/absent", absent="0").status_code == 303
    post(client, f"/tournaments/{key}/rounds")  # a new lot seats Ida again, one sits out
    assert "Sitting out" in client.get(f"/tournaments/{key}?lang=en").text


def test_names_are_escaped_on_every_page(client: FlaskClient) -> None:
    evil = "<b>&amp;"
    key = make(client, name="<b>Cup&", participants="\n".join([evil, *EIGHT[1:]]))
    view_id = _view_id(client, key)
    first = start_round(client, key, 1)
    for url in (
        f"/tournaments/{key}",
        f"/tournaments/view/{view_id}",
        f"/tournaments/view/{view_id}/projector",
        "/tournaments",
    ):
        html = client.get(url).text
        assert "<b>Cup&" not in html and "&lt;b&gt;Cup&amp;" in html, url
        if "view" in url or url.endswith(key):
            assert "<b>&amp;" not in html and "&lt;b&gt;&amp;amp;" in html, url
    assert "&lt;b&gt;Cup&amp;" in client.get(f"/games/{first[0]}").text


def test_the_projector_has_no_controls_and_refreshes(client: FlaskClient) -> None:
    key = make(client)
    view_id = _view_id(client, key)
    start_round(client, key, 1)
    page = client.get(f"/tournaments/view/{view_id}/projector").text
    assert "<form" not in page and "<button" not in page
    assert 'hx-trigger="every 5s, live:change"' in page
    # the standings' event stream, by the public key
    assert f'data-live="/api/v1/tournaments/{view_id}/events"' in page
    assert key not in page  # no director's key on a public page
    assert key not in client.get(f"/tournaments/view/{view_id}").text
    for game_id in games(client, key):
        assert game_id not in page


def test_unknown_keys_are_404(client: FlaskClient) -> None:
    assert client.get("/tournaments/nope").status_code == 404
    assert client.get("/tournaments/view/nope").status_code == 404
    assert client.get("/tournaments/view/nope/projector").status_code == 404
    assert post(client, "/tournaments/nope/rounds").status_code == 404


def test_the_pdfs_are_drawn_in_the_asked_language(client: FlaskClient) -> None:
    key = make(client, participants="\n".join(["<b>&amp;", *EIGHT[1:]]))
    assert client.get(f"/tournaments/{key}/rounds/1.pdf").status_code == 404  # no round yet
    start_round(client, key, 1)
    for url in (f"/tournaments/{key}/standings.pdf", f"/tournaments/{key}/rounds/1.pdf"):
        for lang in ("de", "pl", "en"):
            answer = client.get(f"{url}?lang={lang}")
            assert answer.status_code == 200, url
            assert answer.mimetype == "application/pdf"
            assert answer.data.startswith(b"%PDF")
    assert client.get(f"/tournaments/{key}/rounds/2.pdf").status_code == 404
    assert client.get("/tournaments/nope/standings.pdf").status_code == 404
    page = client.get(f"/tournaments/{key}").text
    assert f"/tournaments/{key}/rounds/1.pdf?lang=de" in page
    assert f"/tournaments/{key}/standings.pdf?lang=pl" in page


def test_the_director_calls_time_and_closes_a_round(client: FlaskClient) -> None:
    key = make(client, round_end="minutes", minutes="45", odd="larger")
    assert "45 minutes per round" in client.get(f"/tournaments/{key}?lang=en").text
    played = start_round(client, key, 1)
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "Call time" in page and "time called" not in page
    assert post(client, f"/tournaments/{key}/rounds/1/time").status_code == 303
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "time called" in page and "Call time" not in page
    play(client, played[0], winner=0)  # a hand after time was called: table 1 has reported
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "1 of 2 tables reported" in page
    assert post(client, f"/tournaments/{key}/rounds/1/close").status_code == 303
    page = client.get(f"/tournaments/{key}?lang=en").text
    assert "Seat round 2 by lot" in page and "provisional" not in page
    # a round ending after hands has no time to call
    other = make(client)
    start_round(client, other, 1)
    assert "Call time" not in client.get(f"/tournaments/{other}?lang=en").text
    refused = post(client, f"/tournaments/{other}/rounds/1/time?lang=en")
    assert refused.status_code == 422
    assert re.search(r'<p class="problem" role="alert">[^<]+</p>', refused.text)


def test_a_button_tapped_twice_changes_nothing_the_second_time(client: FlaskClient) -> None:
    key = make(client)
    page = client.get(f"/tournaments/{key}").text
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version
    first = post(client, f"/tournaments/{key}/rounds", version=version[1])
    assert first.status_code == 303
    seated = re.findall(r'data-participant="(\d+)"', client.get(f"/tournaments/{key}").text)
    again = post(client, f"/tournaments/{key}/rounds?lang=en", version=version[1])
    assert again.status_code == 409
    assert "nothing was changed" in again.text
    # the proposal was not drawn again
    assert re.findall(r'data-participant="(\d+)"', client.get(f"/tournaments/{key}").text) == seated


def test_the_directors_forms_are_rate_limited_like_the_api(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'limits.sqlite3'}",
            "RATELIMIT_ENABLED": True,
            "LIMIT_CREATE": "2 per minute",
            "LIMIT_WRITE": "2 per minute",
        }
    )
    try:
        client = app.test_client()
        assert client.post("/tournaments/new", data=form(name="")).status_code == 422  # free
        key = make(client)
        make(client)
        assert client.post("/tournaments/new", data=form()).status_code == 429
        url = f"/tournaments/{key}/participants/0/absent"
        assert post(client, url, absent="1").status_code == 303
        assert post(client, url, absent="0").status_code == 303
        assert post(client, url, absent="1").status_code == 429
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_a_table_that_played_the_rounds_hands_is_told_the_round_is_over(
    client: FlaskClient,
) -> None:
    """A round of N hands: after the N-th the table's page says so instead of offering hand
    N + 1 (a later hand would not count); taking the last hand back offers it again."""
    key = make(client)  # two hands a round
    first = start_round(client, key, 1)
    play(client, first[0], winner=0)
    page = client.get(f"/games/{first[0]}?lang=en").text
    assert "Enter hand 2" in page and "Round over" not in page
    played = play(client, first[0], winner=1)
    page = client.get(f"/games/{first[0]}?lang=en").text
    assert "Enter hand 3" not in page
    assert "Round over: this table has played the round's 2 hands." in page
    german = client.get(f"/games/{first[0]}?lang=de").text
    assert "Runde vorbei: Dieser Tisch hat die 2 Spiele der Runde gespielt." in german
    polish = client.get(f"/games/{first[0]}?lang=pl").text
    assert "Koniec rundy: ten stół rozegrał 2 rozdania tej rundy." in polish
    # the other table has not finished: it still enters its hands
    assert "Enter hand 1" in client.get(f"/games/{first[1]}?lang=en").text
    taken = client.delete(f"/api/v1/games/{first[0]}/hands/2", json={"version": played["version"]})
    assert taken.status_code in (200, 204), taken.text
    page = client.get(f"/games/{first[0]}?lang=en").text
    assert "Enter hand 2" in page and "Round over" not in page


def ranked(client: FlaskClient, key: str) -> list[tuple[int, int, int]]:
    """The standings as the API gives them: participant, match points, points."""
    shown = client.get(f"/api/v1/tournaments/{key}").get_json()
    return [(s["participant"], s["match_points"], s["points"]) for s in shown["standings"]]


def test_a_closed_rounds_tables_take_no_new_hand(client: FlaskClient) -> None:
    """Closing a round makes what its tables entered its result: its games take no new hand
    (through the pages and the API: a sentence, nothing stored), and their pages say the round
    is closed instead of offering the next hand, also a page kept from before the close. A
    hand entered wrongly can still be corrected (the director's fix moves the standings)."""
    key = make(client)
    first, second = start_round(client, key, 1)
    play(client, first, winner=0)
    assert "Enter hand 2" in client.get(f"/games/{first}?lang=en").text  # kept from now on
    open_form = hand_form(client, first)  # a phone has the next hand's form open
    assert post(client, f"/tournaments/{key}/rounds/1/close").status_code == 303
    standings = ranked(client, key)

    page = client.get(f"/games/{first}?lang=en").text
    assert "Round 1 is closed: this table takes no new hand." in page
    assert "Enter hand 2" not in page and "&#9998;" in page
    assert "Runde 1 ist abgeschlossen" in client.get(f"/games/{second}?lang=de").text
    open_form["action"] = "save-anyway"
    saved = client.post(f"/games/{first}/hands?lang=en", data=open_form)
    assert saved.status_code == 409
    assert "Round 1 of the tournament is closed: its tables take no new hand." in saved.text
    sheet = client.get(f"/api/v1/games/{first}").get_json()
    added = client.post(
        f"/api/v1/games/{first}/hands", json={"version": sheet["version"], "teams": hand(1)}
    )
    assert added.status_code == 409, added.get_json()
    assert [p["code"] for p in added.get_json()["problems"]] == ["tournament.round_closed"]
    assert client.get(f"/api/v1/games/{first}").get_json() == sheet
    assert ranked(client, key) == standings
    fixed = client.put(
        f"/api/v1/games/{first}/hands/1", json={"version": sheet["version"], "teams": hand(1)}
    )
    assert fixed.status_code == 200, fixed.get_json()
    assert ranked(client, key) != standings
