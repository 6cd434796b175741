"""The pages of "3 ist 50" through the test client: a new evening, entering games card by card
and as totals (plain form posts with 303, and the htmx variants), the live preview, problems
next to their fields, corrections, deleting the last game, the 409 on a stale version, the
end and the winner (lowest total), escaping of names, the view, the sheet and the referee."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper import store as canasta
from scorekeeper.store import fifty as store
from scorekeeper.store.db import session_scope
from tests.web.pagehelpers import HTMX, NASTY, form_of, slot


def totals(html: str) -> list[str]:
    return re.findall(r'<span class="total num">([^<]*)</span>', html)


def create(client: FlaskClient, **changes: str) -> str:
    page = client.get("/fifty/new")
    assert page.status_code == 200
    data = form_of(page.text, "new-fifty", **changes)
    data["action"] = "create"
    response = client.post("/fifty/new", data=data)
    assert response.status_code == 303, response.text[:2000]
    location = response.headers["Location"]
    assert re.fullmatch(r"/fifty/[A-Za-z0-9_-]{22}", location)
    return location.rsplit("/", 1)[1]


def entry(
    client: FlaskClient, game_id: str, number: int | None = None, **changes: str
) -> MultiDict[str, str]:
    url = f"/fifty/{game_id}/games/{number}/edit" if number else f"/fifty/{game_id}/games/new"
    page = client.get(url)
    assert page.status_code == 200
    return form_of(page.text, "entry-form", **changes)


def save(
    client: FlaskClient,
    game_id: str,
    data: MultiDict[str, str],
    number: int | None = None,
    **headers: str,
) -> tuple[int, str]:
    data["action"] = "save"
    url = f"/fifty/{game_id}/games/{number}" if number else f"/fifty/{game_id}/games"
    response = client.post(url, data=data, headers=headers)
    return response.status_code, response.text


def three_players(client: FlaskClient, **changes: str) -> str:
    return create(client, players="3", name__0="Anna", name__1="Ben", name__2="Cleo", **changes)


# ---- a new evening ---------------------------------------------------------------------------
def test_new_game_defaults_and_names(client: FlaskClient) -> None:
    page = client.get("/fifty/new")
    assert 'name="joker" value="10"' in page.text
    game_id = create(client, players="2", name__0="Anna")
    show = client.get(f"/fifty/{game_id}")
    assert show.status_code == 200
    assert "Anna" in show.text and "Player 2" in show.text
    assert "Player 3" not in show.text
    assert totals(show.text) == ["0", "0"]
    assert "Anna deals next." in show.text
    assert "Joker: 10 points" in show.text
    assert "No set end" in show.text
    assert game_id in show.headers.get("Set-Cookie", "")


def test_new_game_house_rules_are_checked(client: FlaskClient) -> None:
    page = client.get("/fifty/new")
    data = form_of(page.text, "new-fifty", joker="200", stop_after="x", target="5")
    data["action"] = "create"
    response = client.post("/fifty/new", data=data)
    assert response.status_code == 422
    assert slot(response.text, "stop_after") == "Enter a whole number."
    data["stop_after"] = "3"
    response = client.post("/fifty/new", data=data)
    assert response.status_code == 422
    assert "Impossible value" in slot(response.text, "joker")
    assert "from 10 to" in slot(response.text, "target")


def test_names_are_escaped(client: FlaskClient) -> None:
    game_id = create(client, players="2", name__0=NASTY, name__1="Ben")
    for url in (f"/fifty/{game_id}", f"/fifty/{game_id}/games/new"):
        text = client.get(url).text
        assert NASTY not in text
        assert "&lt;b&gt;Ala &amp; Ola&lt;/b&gt;" in text


# ---- entering games --------------------------------------------------------------------------
def test_enter_by_cards_and_by_total_then_winner(client: FlaskClient) -> None:
    game_id = three_players(client, stop_after="2")
    data = entry(
        client, game_id, p0__cards="3 A K 7", p1__mode="points", p1__points="12", p2__cards=""
    )
    status, _text = save(client, game_id, data)
    assert status == 303
    show = client.get(f"/fifty/{game_id}").text
    assert totals(show) == ["78", "12", "0"]
    assert "Ben deals next." in show
    assert 'class="standing lead"' in show  # Cleo, the lowest, is highlighted
    # Second game: threes with or without colour, German letters (B = jack, D = queen).
    data = entry(client, game_id, p0__cards="", p1__cards="3h 3s B D", p2__cards="X 2")
    assert save(client, game_id, data)[0] == 303
    show = client.get(f"/fifty/{game_id}").text
    assert totals(show) == ["78", "132", "12"]
    assert "Won: Cleo with 12 points." in show
    assert "66 points ahead" in show
    assert "Enter game 3" not in show
    # The evening is over: no third game.
    assert client.get(f"/fifty/{game_id}/games/new").status_code == 303
    data = entry(client, game_id, 1)
    data["version"] = str(store_version(client, game_id))
    status, text = save(client, game_id, data)
    assert status == 422
    assert "This evening is over" in text


def store_version(client: FlaskClient, game_id: str) -> int:
    page = client.get(f"/fifty/{game_id}/games/1/edit").text
    return int(re.search(r'name="version" value="(\d+)"', page)[1])  # type: ignore[index]


def test_joker_value_and_target_end(client: FlaskClient) -> None:
    game_id = create(client, players="2", joker="25", target="100")
    data = entry(client, game_id, p0__cards="X X", p1__cards="4")
    assert save(client, game_id, data)[0] == 303
    show = client.get(f"/fifty/{game_id}").text
    assert totals(show) == ["50", "4"]
    assert "Joker: 25 points" in show
    data = entry(client, game_id, p0__cards="3", p1__cards="")
    assert save(client, game_id, data)[0] == 303
    show = client.get(f"/fifty/{game_id}").text
    assert totals(show) == ["100", "4"]
    assert "Won: Player 2 with 4 points." in show


def test_htmx_save_redirects_and_preview_is_live(client: FlaskClient) -> None:
    game_id = three_players(client)
    data = entry(client, game_id, p0__cards="3 A K 7", p1__mode="points", p1__points="12")
    preview = client.post(f"/fifty/{game_id}/preview", data=data, headers=HTMX)
    assert preview.status_code == 200
    assert re.search(r'id="pts-p0" hx-swap-oob="true"><b class="num">78</b>', preview.text)
    assert re.search(r'id="pts-p1" hx-swap-oob="true"><b class="num">12</b>', preview.text)
    status, _text = save(client, game_id, data, **HTMX)
    assert status == 200
    response = client.post(
        f"/fifty/{game_id}/games", data=entry(client, game_id, action="save"), headers=HTMX
    )
    assert response.headers["HX-Redirect"] == f"/fifty/{game_id}"


def test_problems_next_to_their_fields(client: FlaskClient) -> None:
    game_id = three_players(client)
    data = entry(
        client,
        game_id,
        p0__cards="K Z",
        p1__mode="points",
        p1__points="zwölf",
        p2__cards="A A A A A A A A A",
    )
    status, text = save(client, game_id, data)
    assert status == 422
    assert "Unknown card" in slot(text, "p0") and "Z" in slot(text, "p0")
    assert slot(text, "p1") == "Enter a whole number."
    assert "9 cards of aces entered, but the decks hold only 8." in slot(text, "p2")
    # Counts are checked across all piles: 5 + 4 aces are too many as well.
    data = entry(client, game_id, p0__cards="A A A A A", p1__cards="A A A A")
    status, text = save(client, game_id, data)
    assert status == 422
    assert "9 cards of aces" in slot(text, "p0") and "9 cards of aces" in slot(text, "p1")
    # A total beyond what the deck holds.
    data = entry(client, game_id, p0__mode="points", p0__points="5000")
    status, text = save(client, game_id, data)
    assert status == 422
    assert "from 0 to" in slot(text, "p0")
    # The preview shows them too, and "check" without JavaScript keeps the entry.
    data = entry(client, game_id, p0__cards="K Z")
    data["action"] = "check"
    response = client.post(f"/fifty/{game_id}/games", data=data)
    assert response.status_code == 200
    assert 'value="K Z"' in response.text
    assert "Unknown card" in slot(response.text, "p0")
    assert client.get(f"/fifty/{game_id}").text.count("No game yet.") == 1


def test_edit_any_game_and_delete_the_last(client: FlaskClient) -> None:
    game_id = three_players(client)
    assert save(client, game_id, entry(client, game_id, p0__cards="K"))[0] == 303
    assert save(client, game_id, entry(client, game_id, p1__cards="Q Q"))[0] == 303
    edit = client.get(f"/fifty/{game_id}/games/1/edit")
    assert 'value="K"' in edit.text
    assert "Correct game 1" in edit.text
    data = form_of(edit.text, "entry-form", p0__mode="points", p0__points="30")
    assert save(client, game_id, data, 1)[0] == 303
    show = client.get(f"/fifty/{game_id}").text
    assert totals(show) == ["30", "20", "0"]
    # The stored number comes back as a number.
    assert 'name="p0-points" value="30"' in client.get(f"/fifty/{game_id}/games/1/edit").text
    version = store_version(client, game_id)
    response = client.post(f"/fifty/{game_id}/games/1/delete", data={"version": version})
    assert response.status_code == 422
    assert "Only the last game (2) can be deleted." in response.text
    version = store_version(client, game_id)
    response = client.post(f"/fifty/{game_id}/games/2/delete", data={"version": version})
    assert response.status_code == 303
    assert totals(client.get(f"/fifty/{game_id}").text) == ["30", "0", "0"]
    assert client.get(f"/fifty/{game_id}/games/2/edit").status_code == 404


def test_stale_version_is_409_and_keeps_the_entry(client: FlaskClient) -> None:
    game_id = three_players(client)
    first = entry(client, game_id, p0__cards="K")
    second = entry(client, game_id, p1__cards="7 7")
    assert save(client, game_id, first)[0] == 303
    status, text = save(client, game_id, second)
    assert status == 409
    assert "Someone else changed this game in the meantime." in text
    assert 'value="7 7"' in text
    assert 'name="version" value="2"' in text
    # Saved again on top of the other change.
    data = form_of(text, "entry-form")
    assert save(client, game_id, data)[0] == 303
    assert totals(client.get(f"/fifty/{game_id}").text) == ["10", "14", "0"]
    response = client.post(f"/fifty/{game_id}/games/2/delete", data={"version": "1"})
    assert response.status_code == 409
    assert "Nothing was deleted." in response.text


def test_unknown_keys_and_canasta_games_are_apart(app: Flask, client: FlaskClient) -> None:
    assert client.get("/fifty/nonexistent-key-00000000").status_code == 404
    game_id = three_players(client)
    with app.app_context(), session_scope() as session:
        game = store.get_game(session, game_id)
        assert game is not None and game.ruleset == "three-is-fifty"
        # The Canasta store does not hand a game of 3 ist 50 to code that cannot score it.
        assert canasta.get_game(session, game_id) is None
        assert canasta.get_by_view(session, game.view_id) is None
        assert canasta.recent_games(session, ids=[game_id]) == []
    assert client.get(f"/games/{game_id}").status_code == 404


# ---- view, sheet -----------------------------------------------------------------------------
def test_view_is_read_only_and_polls(client: FlaskClient) -> None:
    game_id = three_players(client)
    show = client.get(f"/fifty/{game_id}").text
    view_url = re.search(r'class="view-link" href="http://localhost(/fifty/view/[^"]+)"', show)[1]  # type: ignore[index]
    view = client.get(view_url)
    assert view.status_code == 200
    assert "Read-only view" in view.text
    assert game_id not in view.text
    assert "/games/new" not in view.text and "delete" not in view.text
    version = re.search(r"since=(\d+)", view.text)[1]  # type: ignore[index]
    assert client.get(f"{view_url}?since={version}", headers=HTMX).status_code == 204
    assert save(client, game_id, entry(client, game_id, p0__cards="K"))[0] == 303
    fragment = client.get(f"{view_url}?since={version}", headers=HTMX)
    assert fragment.status_code == 200
    assert fragment.text.lstrip().startswith('<div id="live"')
    assert totals(fragment.text) == ["10", "0", "0"]


def test_sheet_pdf(client: FlaskClient) -> None:
    game_id = three_players(client)
    assert save(client, game_id, entry(client, game_id, p0__cards="K"))[0] == 303
    response = client.get(f"/fifty/{game_id}/sheet.pdf?lang=de")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    assert client.get("/fifty/nonexistent-key-00000000/sheet.pdf").status_code == 404


# ---- the referee -----------------------------------------------------------------------------
def answer_text(html: str) -> str:
    part = html.split('id="answer"', 1)[1].split('id="rules"', 1)[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part))


@pytest.mark.parametrize(
    ("query", "verdicts", "phrases"),
    [
        # seed: a 5 takes the two middle fives; the 9 matches nothing and may not be discarded
        (
            "players=3&middle=5 9 5 K&hand=5 4",
            {"5": "yes", "4": "no"},
            ["Case 1: middle or discard pile", "Play 5: it and 5 5 from the middle"],
        ),
        # seed: 4 4 7 7 7, a 7 in hand takes the run; the covered 4s do not count
        (
            "players=2&pile-0=4 4 7 7 7&hand=7 4",
            {"7": "yes", "4": "no"},
            ["Case 2: your own minus pile", "3 \u00d7 7", "Case 3: any minus pile"],
        ),
        # nothing matches: any card onto the discard pile
        (
            "players=2&middle=9&top=K&hand=4 5",
            {"4": "yes", "5": "yes"},
            ["Case 4: onto the discard pile", "Put 4 onto the discard pile."],
        ),
        # the discard pile's top card counts as a middle card
        (
            "players=4&player=3&top=Q&hand=Q",
            {"Q": "yes"},
            ["Play Q: it and Q from the middle go onto the minus pile of Player 1"],
        ),
    ],
)
def test_referee_cases(
    client: FlaskClient, query: str, verdicts: dict[str, str], phrases: list[str]
) -> None:
    page = client.get(f"/fifty/referee?{query}&lang=en")
    assert page.status_code == 200
    for rank, verdict in verdicts.items():
        assert re.search(rf'data-card="{rank}" data-verdict="{verdict}"', page.text), rank
    text = answer_text(page.text)
    for phrase in phrases:
        assert phrase in text
    # every case quoted in the answer links to the short rules on the same page
    for anchor in re.findall(r'href="#(rule-[a-z_]+)"', page.text):
        assert f'id="{anchor}"' in page.text


def test_referee_htmx_fragment_and_problems(client: FlaskClient) -> None:
    fragment = client.get("/fifty/referee?players=2&hand=K K K K K&middle=Z", headers=HTMX)
    assert fragment.status_code == 200
    assert "Vary" in fragment.headers and "HX-Request" in fragment.headers["Vary"]
    assert fragment.text.lstrip().startswith('<div id="answer"')
    assert "Please check the input" in fragment.text
    assert "A hand holds at most 4 cards" in slot(fragment.text, "hand")
    assert "Unknown card" in slot(fragment.text, "middle")
    empty = client.get("/fifty/referee")
    assert "the answer appears here" in empty.text
    assert 'id="rule-own_pile"' in empty.text


def test_referee_in_german_uses_german_letters(client: FlaskClient) -> None:
    page = client.get("/fifty/referee?players=2&middle=B&hand=J D&lang=de")
    assert re.search(r'data-card="J" data-verdict="yes"', page.text)
    assert re.search(r'data-card="Q" data-verdict="no"', page.text)
    text = answer_text(page.text)
    assert "Ja" in text and "Nein" in text
    assert "Spieler 2" in text
    assert ">B<" in page.text and ">D<" in page.text


def test_game_page_links_referee_with_names(client: FlaskClient) -> None:
    game_id = three_players(client)
    show = client.get(f"/fifty/{game_id}").text
    link = re.search(r'href="(/fifty/referee\?[^"]+)"', show)[1].replace("&amp;", "&")  # type: ignore[index]
    page = client.get(link + "&hand=K")
    assert "What may Anna play?" in page.text
    assert "Cleo" in page.text


def test_play_again_with_the_same_players(client: FlaskClient) -> None:
    game_id = three_players(client, stop_after="1", joker="25")
    assert "Play again with the same players" not in client.get(f"/fifty/{game_id}").text
    assert (
        save(client, game_id, entry(client, game_id, p0__cards="3", p1__cards="X", p2__cards=""))[0]
        == 303
    )
    finished = client.get(f"/fifty/{game_id}").text
    assert "Won: Cleo with 0 points." in finished
    assert f'action="/fifty/{game_id}/again"' in finished
    response = client.post(f"/fifty/{game_id}/again")
    assert response.status_code == 303
    again_id = response.headers["Location"].rsplit("/", 1)[1]
    assert again_id != game_id
    again = client.get(f"/fifty/{again_id}").text
    assert totals(again) == ["0", "0", "0"] and "Enter game 1" in again
    assert "Anna" in again and "Ben" in again and "Cleo" in again
    # The same joker value and the same end: one game, a joker counts 25.
    assert (
        save(client, again_id, entry(client, again_id, p0__cards="X", p1__cards="", p2__cards="3"))[
            0
        ]
        == 303
    )
    assert totals(client.get(f"/fifty/{again_id}").text) == ["25", "0", "50"]
    assert "Won: Ben" in client.get(f"/fifty/{again_id}").text
    assert totals(client.get(f"/fifty/{game_id}").text) == ["50", "25", "0"]  # untouched
    start = client.get("/").text
    assert f"/fifty/{again_id}" in start and f"/fifty/{game_id}" in start
    assert client.post("/fifty/nope/again").status_code == 404


def test_the_evenings_of_the_same_players_are_tallied(client: FlaskClient) -> None:
    """Canasta's evening tally for 3 ist 50: evenings won and minus points per player, the
    lowest total winning (seed 001)."""
    first = three_players(client, stop_after="1")
    data = entry(client, first, p0__cards="3", p1__cards="X", p2__cards="")  # 50 / 10 / 0
    assert save(client, first, data)[0] == 303
    assert "Same players" not in client.get(f"/fifty/{first}").text  # one evening alone
    second = client.post(f"/fifty/{first}/again").headers["Location"].rsplit("/", 1)[1]
    data = entry(client, second, p0__cards="", p1__cards="3", p2__cards="X")  # 0 / 50 / 10
    assert save(client, second, data)[0] == 303
    for key in (first, second):  # both pages sum up the same evenings
        page = client.get(f"/fifty/{key}").text
        tally = re.search(r'<section class="card evening".*?</section>', page, re.S)
        assert tally and "Same players: 2 evenings" in tally[0]
        rows = re.findall(
            r'<tr[^>]*><th scope="row">(.*?)</th><td class="num">(\d+)</td>'
            r'<td class="num">([^<]+)</td>',
            tally[0],
        )
        assert [(re.sub(r"<[^>]+>|&#9733;", "", n).strip(), w, p) for n, w, p in rows] == [
            ("Anna", "1", "50"),
            ("Ben", "0", "60"),
            ("Cleo", "1", "10"),
        ]
        assert "Leading: Cleo" in tally[0]
    polish = client.get(f"/fifty/{second}?lang=pl").text
    assert "Ci sami gracze: 2 wieczory" in polish and "Prowadzi: Cleo" in polish
    view = re.search(r"/fifty/view/([A-Za-z0-9_-]+)", client.get(f"/fifty/{second}").text)
    assert view and "Same players: 2 evenings" in client.get(f"/fifty/view/{view[1]}?lang=en").text
