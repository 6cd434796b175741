"""The scorekeeper's pages through the test client: plain form posts as a browser without
JavaScript sends them (303 redirects), the htmx variants, problems next to their fields,
corrections, the 409 on a stale version, and escaping of names."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from tests.web.pagehelpers import HTMX, NASTY, form_of, slot


def create_game(client: FlaskClient, **changes: str | list[str]) -> str:
    page = client.get("/games/new?ruleset=german")
    data = form_of(page.text, "new-game", **changes)
    data["action"] = "create"
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.text[:2000]
    location = response.headers["Location"]
    assert re.fullmatch(r"/games/[A-Za-z0-9_-]{22}", location)
    return location.rsplit("/", 1)[1]


def hand_form(
    client: FlaskClient, game_id: str, number: int | None = None, **changes: str | list[str]
) -> MultiDict[str, str]:
    url = f"/games/{game_id}/hands/{number}/edit" if number else f"/games/{game_id}/hands/new"
    page = client.get(url)
    assert page.status_code == 200
    return form_of(page.text, "hand-form", **changes)


def save_hand(
    client: FlaskClient,
    game_id: str,
    data: MultiDict[str, str],
    number: int | None = None,
    expect: int = 303,
    headers: dict[str, str] | None = None,
    action: str = "save-anyway",
):
    # "save-anyway": a side left empty saves as 0 without the question (tested on its own in
    # test_an_empty_side_is_asked_about); the hands here leave the other side empty on purpose.
    data["action"] = action
    url = f"/games/{game_id}/hands/{number}" if number else f"/games/{game_id}/hands"
    response = client.post(url, data=data, headers=headers or {})
    assert response.status_code == expect, response.text[:3000]
    return response


def totals(client: FlaskClient, game_id: str) -> list[str]:
    page = client.get(f"/games/{game_id}").text
    return re.findall(r'<div class="total">([^<]*)</div>', page)


def minimums(client: FlaskClient, game_id: str) -> list[str]:
    page = client.get(f"/games/{game_id}").text
    return re.findall(r'<div class="minimum"[^>]*>[^<]*<b>([^<]*)</b>', page)


# The worked example of docs/api.md §3: detail side 690, quick side 415.
DETAIL_US = {
    "out": "0",
    "t0__mode": "detail",
    "t0__meld": ["K K K 2", "7 7 7 7 7 2 2", ""],
    "t0__hand": ["", "5 Q"],
    "t0__red": "1",
}
QUICK_THEM = {
    "t1__mode": "quick",
    "t1__mixed_canastas": "1",
    "t1__meld_points": "155",
    "t1__hand_points": "40",
    "t1__red": "0",
}


@pytest.fixture
def game_id(client: FlaskClient) -> str:
    return create_game(
        client, player__0__0="Anna", player__0__1=NASTY, player__1__0="Ben", player__1__1="Cleo"
    )


def test_new_game_form_and_game_page(client: FlaskClient, game_id: str) -> None:
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert totals(client, game_id) == ["0", "0"]
    assert minimums(client, game_id) == ["50", "50"]
    assert "Us" in page.text and "Them" in page.text
    assert "Anna deals next." in page.text
    assert f"/games/{game_id}/hands/new" in page.text
    view = re.search(r'href="(http://localhost/view/[A-Za-z0-9_-]+)"', page.text)
    assert view and "<svg" in page.text  # the QR code of the view link
    assert client.get(view[1].removeprefix("http://localhost")).status_code == 200


def test_side_names_follow_the_language(client: FlaskClient) -> None:
    de = client.get("/games/new?lang=de").text
    assert 'value="Wir"' in de and 'value="Ihr"' in de
    client.delete_cookie("lang")
    pl = client.get("/games/new", headers={"Accept-Language": "pl"}).text
    assert 'value="My"' in pl and 'value="Wy"' in pl
    en = client.get("/games/new?lang=en").text
    assert 'value="Us"' in en and 'value="Them"' in en


def test_new_game_form_follows_ruleset_and_players(client: FlaskClient) -> None:
    page = client.get("/games/new?ruleset=german")
    data = form_of(page.text, "new-game", ruleset="classic", players="3", action="refresh")
    three = client.post("/games/new", data=data)
    assert three.status_code == 200
    assert 'name="player-2-0"' in three.text and 'name="side-0"' not in three.text
    # the target follows the ruleset for three players (7,500), the form is not stored yet
    assert 'name="target" value="7500"' in three.text
    data = form_of(three.text, "new-game", players="6", action="refresh")
    six = client.post("/games/new", data=data)
    assert 'name="layout"' in six.text and 'name="player-1-2"' in six.text  # 2 teams of 3
    data = form_of(six.text, "new-game", layout="3", action="refresh")
    six3 = client.post("/games/new", data=data, headers=HTMX)
    assert "<html" not in six3.text  # htmx gets the form alone
    assert 'name="side-2"' in six3.text and 'name="player-2-1"' in six3.text
    assert 'name="player-0-2"' not in six3.text


def test_house_rules_store_only_changes_and_show_them(client: FlaskClient) -> None:
    page = client.get("/games/new?ruleset=german")
    assert 'name="opt-two_value" value="50"' in page.text  # prefilled with the ruleset value
    game_id = create_game(client, opt__two_value="20", target="3000")
    shown = client.get(f"/games/{game_id}").text
    assert "Value of a two: 20 instead of 50" in shown
    assert "Target 3,000" in shown and "instead of 5,000" in shown
    # house rules apply to scoring: K K K 2 is 30 + 20 now
    data = hand_form(client, game_id, out="", t0__mode="detail", t0__meld=["K K K 2"])
    preview = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    assert "4 cards · 50 points" in slot(preview, "t0-m0")


def test_bad_house_rule_is_shown_next_to_it(client: FlaskClient) -> None:
    page = client.get("/games/new?ruleset=german")
    data = form_of(page.text, "new-game", **{"opt-canasta_size": "x", "action": "create"})
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert "Impossible value" in slot(response.text, "opt-canasta_size")
    assert '<details class="more house" open>' in response.text


def test_quick_and_detail_hands(client: FlaskClient, game_id: str) -> None:
    data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    response = save_hand(client, game_id, data)
    assert response.headers["Location"] == f"/games/{game_id}"
    assert totals(client, game_id) == ["690", "415"]
    data = hand_form(
        client,
        game_id,
        out="1",
        t0__mode="quick",
        t0__meld_points="90",
        t0__hand_points="25",
        t1__mode="quick",
        t1__natural_canastas="1",
        t1__mixed_canastas="1",
        t1__meld_points="300",
        t1__hand_points="0",
        t1__red="2",
    )
    save_hand(client, game_id, data)
    # Us: 90 - 25 = 65; Them: 300 + 800 + 200 + 100 = 1,400
    assert totals(client, game_id) == ["755", "1,815"]
    assert minimums(client, game_id) == ["50", "90"]
    page = client.get(f"/games/{game_id}").text
    # seats: Anna, Ben, <b>…, Cleo; Anna and Ben dealt the two hands
    assert "&lt;b&gt;Ala &amp; Ola&lt;/b&gt; deals next." in page


def test_the_entry_form_remembers_each_sides_mode(client: FlaskClient, game_id: str) -> None:
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    page = client.get(f"/games/{game_id}/hands/new").text
    assert re.search(r'name="t0-mode" value="detail" checked', page)
    assert re.search(r'name="t1-mode" value="quick" checked', page)


def test_card_counter_fills_points(client: FlaskClient, game_id: str) -> None:
    data = hand_form(
        client,
        game_id,
        out="stock",
        t0__mode="quick",
        t0__mc__50="2",
        t0__mc__10="4",
        t0__hc__5="3",
        t1__mode="quick",
        t1__meld_points="50",
    )
    preview = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    assert "Counted: 140" in slot(preview, "t0-q-meld_points")
    assert "Counted: 15" in slot(preview, "t0-q-hand_points")
    save_hand(client, game_id, data)
    assert totals(client, game_id) == ["125", "50"]


def test_preview_places_problems_next_to_fields(client: FlaskClient, game_id: str) -> None:
    data = hand_form(
        client,
        game_id,
        out="0",
        t0__mode="detail",
        t0__meld=["K K", "9 9 Z", ""],
        t0__hand=["", ""],
        t1__mode="quick",
        t1__meld_points="17",
    )
    response = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX)
    assert response.status_code == 200
    assert len(response.data) < 8 * 1024
    html = response.text
    assert "A meld needs at least 3 cards (this one has 2)." in slot(html, "t0-m0")
    assert "Unknown card" in slot(html, "t0-m1")
    assert "Going out needs 1 canasta" in slot(html, "out")
    assert "steps of 5" in slot(html, "t1-q-meld_points")
    assert 'hx-swap-oob="true"' in html and "<html" not in html
    # in German, with the reader's letters
    german = client.post(f"/games/{game_id}/preview?lang=de", data=data, headers=HTMX).text
    assert "Eine Meldung braucht mindestens 3 Karten (diese hat 2)." in slot(german, "t0-m0")


def test_impossible_hand_is_not_saved_and_keeps_input(client: FlaskClient, game_id: str) -> None:
    data = hand_form(
        client, game_id, out="0", t0__mode="detail", t0__meld=["K K", ""], t1__mode="quick"
    )
    response = save_hand(client, game_id, data, expect=422)
    assert 'value="K K"' in response.text
    assert "at least 3 cards" in slot(response.text, "t0-m0")
    assert totals(client, game_id) == ["0", "0"]
    # corrected, it saves
    fixed = form_of(response.text, "hand-form", t0__meld=["K K K", "X 4 4 4 4 4 4", ""])
    save_hand(client, game_id, fixed)
    assert totals(client, game_id) == ["510", "0"]  # 30 + 80 + 300 + 100


def test_warnings_do_not_block(client: FlaskClient, game_id: str) -> None:
    # Going out while both players still hold cards is odd, not impossible to enter.
    data = hand_form(
        client,
        game_id,
        out="0",
        t0__mode="detail",
        t0__meld=["7 7 7 7 7 7 7", ""],
        t0__hand=["5", "4"],
        t1__mode="quick",
    )
    preview = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    assert 'class="note warning"' in preview
    save_hand(client, game_id, data)


def test_no_js_check_button_renders_the_preview(client: FlaskClient, game_id: str) -> None:
    page = client.get(f"/games/{game_id}/hands/new").text
    assert '<noscript><button type="submit" name="action" value="check">' in page
    data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    data["action"] = "check"
    checked = client.post(f"/games/{game_id}/hands", data=data)
    assert checked.status_code == 200 and "<html" in checked.text
    assert "+690" in checked.text and "+415" in checked.text
    # a spare empty meld field is always there to type into
    assert len(re.findall(r'name="t0-meld"', checked.text)) == 3
    assert totals(client, game_id) == ["0", "0"]  # checking stores nothing


def test_edit_any_hand_and_delete_the_last(client: FlaskClient, game_id: str) -> None:
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    save_hand(
        client,
        game_id,
        hand_form(
            client,
            game_id,
            out="1",
            t0__mode="quick",
            t1__mode="quick",
            t1__natural_canastas="1",
            t1__meld_points="70",
        ),
    )
    assert totals(client, game_id) == ["690", "1,085"]
    edit = client.get(f"/games/{game_id}/hands/1/edit")
    assert edit.status_code == 200
    assert 'value="K K K 2"' in edit.text and 'value="155"' in edit.text
    data = form_of(edit.text, "hand-form", t0__red="2")
    response = save_hand(client, game_id, data, number=1)
    assert response.headers["Location"] == f"/games/{game_id}"
    assert totals(client, game_id) == ["790", "1,085"]
    page = client.get(f"/games/{game_id}").text
    assert "Delete hand 2" in page and "Delete hand 1" not in page
    assert "Delete hand 2" in client.get(f"/games/{game_id}/hands/2/edit").text
    assert "Delete hand" not in client.get(f"/games/{game_id}/hands/1/edit").text
    version = re.search(r'name="version" value="(\d+)"', page)[1]  # type: ignore[index]
    # only the last hand can go
    assert (
        client.post(f"/games/{game_id}/hands/1/delete", data={"version": version}).status_code
        == 422
    )
    deleted = client.post(f"/games/{game_id}/hands/2/delete", data={"version": version})
    assert deleted.status_code == 303
    assert totals(client, game_id) == ["790", "415"]
    assert client.get(f"/games/{game_id}/hands/2/edit").status_code == 404


def test_stale_version_is_a_conflict_that_keeps_both(client: FlaskClient, game_id: str) -> None:
    mine = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    theirs = hand_form(
        client,
        game_id,
        out="1",
        t0__mode="quick",
        t1__mode="quick",
        t1__natural_canastas="1",
        t1__meld_points="70",
    )
    save_hand(client, game_id, theirs)
    conflict = save_hand(client, game_id, mine, expect=409)
    assert "Someone else changed this game in the meantime." in conflict.text
    assert 'value="K K K 2"' in conflict.text  # my entry is kept
    # Their change is shown: 1 natural canasta 500 + 70 card points + 100 for going out.
    assert "670" in conflict.text
    again = form_of(conflict.text, "hand-form")
    assert again["version"] != mine["version"]
    save_hand(client, game_id, again)
    assert totals(client, game_id) == ["690", "1,085"]
    # htmx gets the form fragment with the 409
    stale = hand_form(client, game_id, out="stock", t0__mode="quick", t1__mode="quick")
    stale["version"] = "1"
    fragment = save_hand(client, game_id, stale, expect=409, headers=HTMX)
    assert fragment.text.lstrip().startswith("<form") and "Someone else" in fragment.text
    # deleting with a stale version, too
    assert client.post(f"/games/{game_id}/hands/2/delete", data={"version": "1"}).status_code == 409


def test_htmx_save_redirects_by_header(client: FlaskClient, game_id: str) -> None:
    data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    response = save_hand(client, game_id, data, expect=200, headers=HTMX)
    assert response.headers["HX-Redirect"] == f"/games/{game_id}"
    bad = hand_form(client, game_id, out="0", t0__mode="detail", t0__meld=["K K"])
    fragment = save_hand(client, game_id, bad, expect=422, headers=HTMX)
    assert fragment.text.lstrip().startswith("<form") and "<html" not in fragment.text


def test_names_are_escaped_everywhere(client: FlaskClient, game_id: str) -> None:
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    pages = [
        client.get(f"/games/{game_id}").text,
        client.get(f"/games/{game_id}/hands/new").text,
        client.get(f"/games/{game_id}/hands/1/edit").text,
        client.get("/").text,
    ]
    view = re.search(r'href="http://localhost(/view/[^"]+)"', pages[0])[1]  # type: ignore[index]
    pages.append(client.get(view).text)
    pages.append(client.get(view, headers=HTMX).text)
    for html in pages:
        assert NASTY not in html
        assert "<b>Ala" not in html
    assert "&lt;b&gt;Ala &amp; Ola&lt;/b&gt;" in pages[0]
    assert "&lt;b&gt;Ala &amp; Ola&lt;/b&gt;" in pages[1]


def test_view_page_refreshes_itself(client: FlaskClient, game_id: str) -> None:
    page = client.get(f"/games/{game_id}").text
    view = re.search(r'href="http://localhost(/view/[^"]+)"', page)[1]  # type: ignore[index]
    full = client.get(view)
    assert full.status_code == 200 and "<html" in full.text
    # polled, and fetched again at once when its event stream (by the view key) tells of a change
    assert 'hx-trigger="every 5s, live:change"' in full.text
    view_id = view.rsplit("/", 1)[1]
    assert f'data-live="/api/v1/games/{view_id}/events"' in full.text
    assert '<meta http-equiv="refresh"' in full.text  # without JavaScript
    assert f"/games/{game_id}" not in full.text  # no editing key on the read-only view
    fragment = client.get(view, headers=HTMX)
    assert "<html" not in fragment.text and 'id="live"' in fragment.text
    assert "HX-Request" in fragment.headers.get("Vary", "")
    version = re.search(r"since=(\d+)", fragment.text)[1]  # type: ignore[index]
    assert client.get(f"{view}?since={version}", headers=HTMX).status_code == 204
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    changed = client.get(f"{view}?since={version}", headers=HTMX)
    assert changed.status_code == 200 and "690" in changed.text
    restore = client.get(view, headers={**HTMX, "HX-History-Restore-Request": "true"})
    assert "<html" in restore.text


def test_start_page_lists_this_browsers_games(client: FlaskClient, game_id: str) -> None:
    start = client.get("/")
    assert start.status_code == 200
    assert f"/games/{game_id}" in start.text and "/games/new" in start.text
    stranger = client.application.test_client()
    assert f"/games/{game_id}" not in stranger.get("/").text


def test_start_page_lists_both_games_and_forgets_one(client: FlaskClient, game_id: str) -> None:
    from tests.web.fifty.test_fifty_pages import create as create_fifty

    fifty_id = create_fifty(client)
    start = client.get("/?lang=en").text
    assert f"/games/{game_id}" in start and f"/fifty/{fifty_id}" in start
    assert "Your recent games of 3 is 50" in start
    assert start.count("Remove from this list") >= 4  # title and label of each button
    gone = client.post("/recent/forget", data={"kind": "canasta", "game_id": game_id})
    assert gone.status_code == 303 and gone.headers["Location"].endswith("/")
    start = client.get("/").text
    assert f"/games/{game_id}" not in start and f"/fifty/{fifty_id}" in start
    assert client.get(f"/games/{game_id}").status_code == 200  # only the list forgets it
    client.post("/recent/forget", data={"kind": "fifty", "game_id": fifty_id})
    assert f"/fifty/{fifty_id}" not in client.get("/").text
    # Unknown keys change nothing; an unknown kind is a bad request, never a 500.
    unknown = client.post("/recent/forget", data={"kind": "canasta", "game_id": "x"})
    assert unknown.status_code == 303
    bad = client.post("/recent/forget?lang=de", data={"kind": "poker", "game_id": game_id})
    assert bad.status_code == 400 and 'lang="de"' in bad.text


def test_finished_game_shows_the_winner(client: FlaskClient) -> None:
    game_id = create_game(client, target="500")
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    page = client.get(f"/games/{game_id}").text
    assert "Won: Us with 690 points." in page
    assert "Enter hand 2" not in page
    start = client.get("/").text
    assert "Won: Us" in start
    assert client.get(f"/games/{game_id}/hands/new").status_code == 303
    # A side's name is never the subject of a verb (a side of two is plural, and
    # "Wir"/"Ihr" need their own forms), so every name reads right in German and Polish.
    german = client.get(f"/games/{game_id}?lang=de").text
    assert "Gewonnen: Us mit 690 Punkten." in german and " hat mit " not in german
    assert "Ausgemacht: Us." in german and "hat ausgemacht" not in german
    assert "Gewonnen: Us" in client.get("/?lang=de").text
    polish = client.get(f"/games/{game_id}?lang=pl").text
    assert "Wygrana: Us, 690 punktów." in polish and "Wyjście: Us." in polish


def cutthroat_game(client: FlaskClient) -> str:
    """A Classic game of three (Ala, Bo, Cy), made through the new-game form: its key."""
    page = client.get("/games/new?ruleset=german")
    data = form_of(page.text, "new-game", ruleset="classic", players="3", action="refresh")
    form = client.post("/games/new", data=data).text
    data = form_of(
        form, "new-game", player__0__0="Ala", player__1__0="Bo", player__2__0="Cy", action="create"
    )
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def test_cutthroat_lone_player_and_partners(client: FlaskClient) -> None:
    game_id = cutthroat_game(client)
    entry = client.get(f"/games/{game_id}/hands/new").text
    assert 'name="lone"' in entry
    # choose Bo as the lone player: the form is rebuilt for Bo against Ala & Cy
    data = form_of(entry, "hand-form", lone="1", action="refresh")
    rebuilt = client.post(f"/games/{game_id}/hands", data=data, headers=HTMX)
    assert rebuilt.status_code == 200 and "Ala &amp; Cy" in rebuilt.text
    assert len(re.findall(r'name="t1-red"', rebuilt.text)) == 2  # red threes per partner
    data = form_of(
        rebuilt.text,
        "hand-form",
        out="1",
        t0__mode="quick",
        t0__meld_points="60",
        t1__mode="quick",
        t1__natural_canastas="1",
        t1__mixed_canastas="1",
        t1__meld_points="250",
        t1__red=["1", "0"],
    )
    save_hand(client, game_id, data)
    # Bo: 60; partners: 250 + 800 + 100 = 1,150, Ala +100 for her red three
    assert totals(client, game_id) == ["1,250", "60", "1,150"]
    assert minimums(client, game_id) == ["50", "50", "50"]
    edit = client.get(f"/games/{game_id}/hands/1/edit").text
    assert re.search(r'name="lone" value="1" checked', edit)


def test_cutthroat_everyone_alone_with_a_player_out_says_who_played_alone(
    client: FlaskClient,
) -> None:
    """docs/rulebook.md §3 (3 players): everyone scores alone only when the stock runs out before
    the
    pile was taken; who goes out before that is the lone player. "Everyone alone" with a
    player out is refused with that rule in words (not "the stock ran out"), nothing stored;
    the same hand with that player chosen as the lone one saves."""
    game_id = cutthroat_game(client)
    entry = client.get(f"/games/{game_id}/hands/new").text
    alone = client.post(
        f"/games/{game_id}/hands", data=form_of(entry, "hand-form", lone="all", action="refresh")
    ).text
    hand = {"t0__mode": "quick", "t1__mode": "quick", "t2__mode": "quick"}
    hand.update(t1__natural_canastas="1", t1__meld_points="200", t0__meld_points="60")
    data = form_of(alone, "hand-form", out="1", **hand)
    refused = save_hand(client, game_id, data, expect=422)
    text = re.sub(r"\s+", " ", refused.text)
    assert "Everyone plays alone only when the stock runs out before anyone took the pile." in text
    assert "Bo went out before the pile was taken, so Bo played alone" in text
    assert "so nobody went out" not in text
    assert totals(client, game_id) == ["0", "0", "0"]
    german = client.post(f"/games/{game_id}/hands?lang=de", data={**data, "action": "save"})
    assert "Jeder spielt nur dann allein" in german.text
    polish = client.post(f"/games/{game_id}/hands?lang=pl", data={**data, "action": "save"})
    assert "Każdy gra sam tylko wtedy" in polish.text


def test_six_players_in_three_teams(client: FlaskClient) -> None:
    page = client.get("/games/new?ruleset=german")
    data = form_of(page.text, "new-game", ruleset="classic", players="6", action="refresh")
    data = form_of(
        client.post("/games/new", data=data).text, "new-game", layout="3", action="refresh"
    )
    data = form_of(client.post("/games/new", data=data).text, "new-game", action="create")
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    entry = client.get(f"/games/{game_id}/hands/new").text
    assert 'name="t2-mode"' in entry
    assert totals(client, game_id) == ["0", "0", "0"]


def test_unknown_game_and_hand_are_404(client: FlaskClient, game_id: str) -> None:
    assert client.get("/games/" + "A" * 22).status_code == 404
    assert client.get("/view/" + "A" * 22).status_code == 404
    assert client.get(f"/games/{game_id}/hands/1/edit").status_code == 404
    assert client.post(f"/games/{game_id}/preview", data={}).status_code == 200


def test_entry_form_page_details(client: FlaskClient, game_id: str) -> None:
    page = client.get(f"/games/{game_id}/hands/new?lang=de").text
    # the card pad shows the reader's letters (German B for Bube, D for Dame)
    assert 'data-card="B"' in page and 'data-card="D"' in page
    assert 'hx-trigger="input changed delay:250ms, change"' in page
    assert "/static/games.js" in page and "/static/app.css" in page


def test_long_game_shows_latest_hands_first_load(client: FlaskClient, game_id: str) -> None:
    for _ in range(10):
        save_hand(
            client,
            game_id,
            hand_form(
                client,
                game_id,
                out="stock",
                t0__mode="quick",
                t0__meld_points="50",
                t1__mode="quick",
            ),
        )
    page = client.get(f"/games/{game_id}").text
    assert page.count('<details class="hand" id=') == 6
    assert "Show all 10 hands" in page and "?all=1" in page
    assert client.get(f"/games/{game_id}?all=1").text.count('<details class="hand" id=') == 10
    assert totals(client, game_id) == ["500", "0"]


def test_the_first_ruleset_offered_follows_the_language(client: FlaskClient) -> None:
    """German readers start on German rules, Polish on Polish, everyone else on Classic;
    a ruleset in the query wins."""

    def checked(html: str) -> list[str]:
        return re.findall(r'name="ruleset" value="([a-z]+)" checked', html)

    assert checked(client.get("/games/new?lang=de").text) == ["german"]
    assert checked(client.get("/games/new?lang=pl").text) == ["polish"]
    assert checked(client.get("/games/new?lang=en").text) == ["classic"]
    assert checked(client.get("/games/new?lang=pl&ruleset=classic").text) == ["classic"]
    assert checked(client.get("/games/new?lang=en&ruleset=nope").text) == ["classic"]


def test_unknown_ruleset_in_a_new_game_changes_nothing(client: FlaskClient) -> None:
    data = form_of(
        client.get("/games/new?ruleset=german").text, "new-game", ruleset="nope", action="create"
    )
    response = client.post("/games/new?lang=de", data=data)
    assert response.status_code == 422
    assert "Unbekanntes Regelwerk \u201enope\u201c" in response.text
    assert "/games/" not in client.get("/").headers.get("Set-Cookie", "")
    assert client.get("/").text.count('class="recent"') == 0


def test_new_game_with_the_same_players(client: FlaskClient) -> None:
    game_id = create_game(
        client,
        target="500",
        **{"opt-two_value": "20"},
        **{"player-0-0": "Anna", "player-1-1": NASTY},
    )
    assert "New game with the same players" not in client.get(f"/games/{game_id}").text
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    finished = client.get(f"/games/{game_id}").text
    assert f'action="/games/{game_id}/again"' in finished
    response = client.post(f"/games/{game_id}/again")
    assert response.status_code == 303
    again_id = response.headers["Location"].rsplit("/", 1)[1]
    assert again_id != game_id
    assert totals(client, again_id) == ["0", "0"]
    again = client.get(f"/games/{again_id}").text
    assert "Enter hand 1" in again and "Anna" in again
    assert "&lt;b&gt;Ala &amp; Ola&lt;/b&gt;" in again
    assert "Value of a two: 20 instead of 50" in again  # the house rule came along
    original = client.get(f"/api/v1/games/{game_id}").get_json()
    copy = client.get(f"/api/v1/games/{again_id}").get_json()
    for key in ("ruleset", "players", "options", "target", "name", "seats"):
        assert copy[key] == original[key], key
    assert [s["name"] for s in copy["sides"]] == [s["name"] for s in original["sides"]]
    assert copy["hands"] == [] and len(original["hands"]) == 1
    assert f"/games/{again_id}" in client.get("/").text
    assert client.post("/games/nope/again").status_code == 404
