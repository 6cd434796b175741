"""The deal goes on round the table from one game to the next ("same players again"): seed
001 for 3 ist 50 ("the player left of the last dealer deals"), and the same custom at Canasta;
a game started on its own starts with the first seat."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import fifty
from scorekeeper.store.db import session_scope
from tests.store.test_store import GERMAN_SIDES
from tests.web.fifty.test_fifty_pages import entry, save, three_players

GAMES = "/api/v1/games"


def hand(client: FlaskClient, game: dict, out: int = 0) -> dict:
    teams = [
        {"quick": {"mixed_canastas": 1, "meld_points": 155}, "went_out": i == out} for i in range(2)
    ]
    added = client.post(
        f"{GAMES}/{game['id']}/hands", json={"version": game["version"], "teams": teams}
    )
    assert added.status_code == 201, added.get_json()
    return added.get_json()  # type: ignore[no-any-return]


def test_the_next_canasta_game_continues_the_deal(client: FlaskClient) -> None:
    body = {"ruleset": "german", "players": 4, "sides": GERMAN_SIDES, "target": 1500}
    game = client.post(GAMES, json=body).get_json()
    assert game["next_dealer"]["name"] == "Anna"
    for _ in range(3):  # Anna, Cleo, Ben deal; the game is won (3 × 555 ≥ 1,500)
        game = hand(client, game)
    assert game["winner"] == 0 and game["next_dealer"]["name"] == "Dan"
    again = client.post(f"/games/{game['id']}/again")
    assert again.status_code == 303
    second = client.get(f"{GAMES}/{again.headers['Location'].rsplit('/', 1)[1]}").get_json()
    assert second["next_dealer"]["name"] == "Dan"  # not Anna again
    second = hand(client, second)
    assert second["hands"][0]["dealer"]["name"] == "Dan"
    assert second["next_dealer"]["name"] == "Anna"
    # a game started afresh starts with the first seat
    assert client.post(GAMES, json=body).get_json()["next_dealer"]["name"] == "Anna"


def test_the_next_evening_game_of_three_is_fifty_continues_the_deal(
    app: Flask, client: FlaskClient
) -> None:
    game_id = three_players(client, stop_after="2")
    for cards in (("3", "X", ""), ("X", "", "3")):  # Anna deals, then Ben
        data = entry(client, game_id, p0__cards=cards[0], p1__cards=cards[1], p2__cards=cards[2])
        assert save(client, game_id, data)[0] == 303
    again = client.post(f"/fifty/{game_id}/again").headers["Location"].rsplit("/", 1)[1]
    with app.app_context(), session_scope() as session:
        first = fifty.fifty_state(fifty.get_game(session, game_id))  # type: ignore[arg-type]
        second = fifty.fifty_state(fifty.get_game(session, again))  # type: ignore[arg-type]
    assert [row.dealer for row in first.rows] == [0, 1] and first.next_dealer == 2
    assert second.next_dealer == 2  # Cleo deals the first game of the next one
