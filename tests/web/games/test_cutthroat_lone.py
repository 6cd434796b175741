"""Cutthroat (three-player Classic): the lone player entered as "who took the pile first", and
a player who went out before anyone took the pile made the lone one (seed 002:137-139); a hand
where the stock ran out before anyone took it scores each player alone (seed 002:139)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.games.test_game_pages import cutthroat_game, save_hand, totals
from tests.web.pagehelpers import HTMX, form_of


def test_the_lone_player_is_who_took_the_pile_first(client: FlaskClient) -> None:
    """seed 002:137 "the first player who takes the discard pile plays alone"."""
    game_id = cutthroat_game(client)
    entry = client.get(f"/games/{game_id}/hands/new").text
    assert "Who took the discard pile first? That player plays alone." in entry
    german = client.get(f"/games/{game_id}/hands/new?lang=de").text
    assert "Wer hat den Abwurfstapel zuerst genommen?" in german
    polish = client.get(f"/games/{game_id}/hands/new?lang=pl").text
    assert "Kto pierwszy wziął stos kart odkrytych?" in polish


def test_going_out_before_the_pile_was_taken_makes_the_lone_player(
    client: FlaskClient,
) -> None:
    """seed 002:139: "If a player goes out before anyone has taken the discard pile, the player
    who goes out is the lone player." With "everyone alone" chosen, choosing who went out
    rebuilds the form for that player against the other two, and the hand saves so."""
    game_id = cutthroat_game(client)
    entry = client.get(f"/games/{game_id}/hands/new").text
    alone = client.post(
        f"/games/{game_id}/hands",
        data=form_of(entry, "hand-form", lone="all", action="refresh"),
        headers=HTMX,
    ).text
    assert "Choose below who went out" in alone
    assert re.search(r'name="out" value="1"[^>]*hx-vals=\'\{"action": "refresh"\}\'', alone)
    data = form_of(alone, "hand-form", out="1", t1__mode="quick", t1__meld_points="200")
    data["action"] = "refresh"
    rebuilt = client.post(f"/games/{game_id}/hands", data=data, headers=HTMX).text
    text = re.sub(r"\s+", " ", rebuilt)
    assert "Bo went out before anyone took the pile, so Bo plays alone." in text
    assert re.search(r'name="lone" value="1" checked', rebuilt)
    assert re.search(r'name="out" value="0" checked', rebuilt)  # Bo's side is the first
    assert "Ala &amp; Cy" in rebuilt
    # What was typed for Bo stays with Bo (now the first side).
    assert re.search(r'name="t0-meld_points"[^>]*value="200"', rebuilt)
    data = form_of(
        rebuilt,
        "hand-form",
        t0__natural_canastas="2",
        t0__meld_points="200",
        t1__mode="quick",
        t1__meld_points="50",
        t1__hand_points="30",
        t1__red=["0", "0"],
    )
    save_hand(client, game_id, data)
    # Bo (two canastas to go out with three players, seed 002 / the rulebook): 200 + 2 × 500
    # + 100 for going out = 1,300; Ala and Cy: 50 - 30 = 20 each.
    assert totals(client, game_id) == ["20", "1,300", "20"]


def test_stock_out_before_the_pile_was_taken_scores_everyone_alone(
    client: FlaskClient,
) -> None:
    """seed 002:139 "If the play ends because the stock runs out, and no one has taken the
    discard pile by then, each player scores separately for that hand"."""
    game_id = cutthroat_game(client)
    entry = client.get(f"/games/{game_id}/hands/new").text
    alone = client.post(
        f"/games/{game_id}/hands",
        data=form_of(entry, "hand-form", lone="all", action="refresh"),
        headers=HTMX,
    ).text
    data = form_of(
        alone,
        "hand-form",
        out="stock",
        t0__mode="quick",
        t0__meld_points="90",
        t1__mode="quick",
        t1__meld_points="60",
        t1__hand_points="15",
        t2__mode="quick",
        t2__meld_points="120",
    )
    save_hand(client, game_id, data)
    assert totals(client, game_id) == ["90", "45", "120"]
    history = client.get(f"/games/{game_id}").text
    assert "The stock ran out." in history
