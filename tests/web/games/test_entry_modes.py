"""The hand form's third way of entering a side (only its total), what switching between the
ways keeps, and the question before a side left empty is saved as 0."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.games.test_game_pages import (
    DETAIL_US,
    QUICK_THEM,
    create_game,
    hand_form,
    save_hand,
    totals,
)
from tests.web.pagehelpers import HTMX, slot


def a_game(client: FlaskClient) -> str:
    return create_game(
        client, player__0__0="Anna", player__0__1="Ola", player__1__0="Ben", player__1__1="Cleo"
    )


def test_both_sides_as_totals_are_stored_and_come_back(client: FlaskClient) -> None:
    game_id = a_game(client)
    data = hand_form(client, game_id, out="0", t0__mode="total", t0__total="1230", t1__mode="total")
    data.setlist("t1-total", ["\u2212415"])  # the minus sign a phone may type
    save_hand(client, game_id, data, action="save")
    assert totals(client, game_id) == ["1,230", "\u2212415"]
    page = client.get(f"/games/{game_id}/hands/1/edit").text
    assert re.search(r'name="t0-mode" value="total" checked', page)
    assert 'name="t0-total" value="1230"' in page and 'name="t1-total" value="-415"' in page
    # the next hand is entered the same way
    page = client.get(f"/games/{game_id}/hands/new").text
    assert re.search(r'name="t1-mode" value="total" checked', page)


def test_a_total_is_checked_as_far_as_it_can_be(client: FlaskClient) -> None:
    game_id = a_game(client)
    data = hand_form(
        client,
        game_id,
        out="0",
        t0__mode="total",
        t0__total="1233",
        t1__mode="total",
        t1__total="400",
    )
    response = save_hand(client, game_id, data, expect=422, action="save")
    assert "multiple of 5" in slot(response.text, "t0-total")
    # below what going out alone guarantees: a word, no refusal
    data.setlist("t0-total", ["200"])
    preview = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    assert "Going out alone brings at least 400" in slot(preview, "t0-total")
    save_hand(client, game_id, data, action="save")
    assert totals(client, game_id) == ["200", "400"]


def test_a_total_ignores_the_hidden_fields_of_other_modes(client: FlaskClient) -> None:
    game_id = a_game(client)
    data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    data.setlist("t0-mode", ["total"])
    data.setlist("t0-total", ["700"])
    save_hand(client, game_id, data, action="save")
    assert totals(client, game_id) == ["700", "415"]


def test_switching_keeps_the_score_as_the_total_and_the_counts(client: FlaskClient) -> None:
    game_id = a_game(client)
    data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    preview = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    # the contract's example: 690 in detail (2 canastas?), 415 quick
    us = re.search(r'<div class="side-score" id="sc-t0"([^>]*)>', preview)
    them = re.search(r'<div class="side-score" id="sc-t1"([^>]*)>', preview)
    assert us and them
    assert 'data-keep-total="690"' in us[1] and 'data-keep-mixed-canastas="1"' in us[1]
    assert 'data-keep-meld-points="205"' in us[1] and 'data-keep-hand-points="15"' in us[1]
    assert 'data-keep-total="415"' in them[1] and "canastas" not in them[1]


def test_an_empty_side_is_asked_about(client: FlaskClient) -> None:
    game_id = a_game(client)
    data = hand_form(client, game_id, **DETAIL_US, t1__mode="quick")
    asked = save_hand(client, game_id, data, expect=200, action="save")
    assert "Nothing is entered for Them. Save this side with 0 points?" in asked.text
    assert 'name="action" value="save-anyway"' in asked.text
    assert totals(client, game_id) == ["0", "0"]  # nothing stored yet
    # htmx swaps the form with the question in place
    asked = client.post(f"/games/{game_id}/hands", data=data, headers=HTMX)
    assert asked.status_code == 200 and "Save this side with 0 points?" in asked.text
    save_hand(client, game_id, data, action="save-anyway")
    assert totals(client, game_id) == ["690", "0"]


def test_the_question_is_translated_and_counts_sides(client: FlaskClient) -> None:
    game_id = a_game(client)
    data = hand_form(client, game_id, out="stock", t0__mode="total", t1__mode="quick")
    asked = client.post(f"/games/{game_id}/hands?lang=pl", data={**data, "action": "save"})
    assert asked.status_code == 200
    assert "Nic nie wpisano dla: Us, Them. Zapisać te strony z 0 punktów?" in asked.text


def test_a_side_that_went_out_with_nothing_entered_is_asked_about_too(
    client: FlaskClient,
) -> None:
    game_id = a_game(client)
    data = hand_form(client, game_id, out="0", t0__mode="total", t1__mode="total", t1__total="-45")
    asked = save_hand(client, game_id, data, expect=200, action="save")
    assert "Nothing is entered for Us. Save this side with 0 points?" in asked.text
