"""A request costs what it changes. The scores kept beside each hand (``hands.scored``,
keyed by the engine's fingerprint), the state cache per game version, and the saves that
answer with the hands they changed.

Expected numbers come from docs/api.md §3 (the example hand scores 690 and 415), not from the
code under test.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, update

from scorekeeper.store import cache
from scorekeeper.store.db import engine, session_scope
from scorekeeper.store.models import Game, Hand, utcnow
from tests.store.test_store import GERMAN_SIDES, quick
from tests.web.examples import CONTRACT_TEAMS

GAMES = "/api/v1/games"
GERMAN = {"ruleset": "german", "players": 4, "sides": GERMAN_SIDES, "options": {}}


def new_game(client: FlaskClient, hands: int) -> tuple[str, int]:
    game = client.post(GAMES, json=GERMAN).get_json()
    version = game["version"]
    for _ in range(hands):
        response = client.post(
            f"{GAMES}/{game['id']}/hands", json={"version": version, "teams": CONTRACT_TEAMS}
        )
        assert response.status_code == 201, response.get_json()
        version = response.get_json()["version"]
    return game["id"], version


def set_scored(app: Flask, game_id: str, number: int, scored: Any) -> None:
    """Change a stored score behind the store's back (as an older engine would have left it);
    the version moves on, as it does with every change of a game."""
    with app.app_context(), session_scope() as session:
        session.execute(
            update(Hand).where(Hand.game_id == game_id, Hand.number == number).values(scored=scored)
        )
        session.execute(
            update(Game)
            .where(Game.id == game_id)
            .values(version=Game.version + 1, updated_at=utcnow())
        )


def test_a_save_stores_the_score_beside_the_entry(app: Flask, client: FlaskClient) -> None:
    game_id, _ = new_game(client, 1)
    with app.app_context(), session_scope() as session:
        hand = session.query(Hand).filter_by(game_id=game_id).one()
        assert hand.scored is not None and hand.scored["engine"] == cache.ENGINE
        assert [s[0] for s in hand.scored["scores"]] == [690, 415]


def test_the_sheet_reads_stored_scores_and_rescores_stale_ones(
    app: Flask, client: FlaskClient
) -> None:
    game_id, _ = new_game(client, 1)
    with app.app_context(), session_scope() as session:
        kept = dict(session.query(Hand).filter_by(game_id=game_id).one().scored)
    # A stored score of the current engine is read as it is (here: a number no hand scores).
    planted = {**kept, "scores": [[1234, *kept["scores"][0][1:]], kept["scores"][1]]}
    set_scored(app, game_id, 1, planted)
    sheet = client.get(f"{GAMES}/{game_id}").get_json()
    assert [s["total"] for s in sheet["sides"]] == [1234, 415]
    # One made by another engine (a rule fixed since) is scored again: 690 and 415.
    set_scored(app, game_id, 1, {**planted, "engine": "an older engine"})
    sheet = client.get(f"{GAMES}/{game_id}").get_json()
    assert [s["total"] for s in sheet["sides"]] == [690, 415]
    # ... and so is a hand saved before scores were kept.
    set_scored(app, game_id, 1, None)
    assert [s["total"] for s in client.get(f"{GAMES}/{game_id}").get_json()["sides"]] == [690, 415]


def count_hand_reads(app: Flask) -> list[str]:
    seen: list[str] = []
    with app.app_context():

        @event.listens_for(engine(), "before_cursor_execute")
        def _seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.lstrip().upper().startswith("SELECT") and "FROM hands" in statement:
                seen.append(statement)

    return seen


def test_reading_an_unchanged_game_does_not_read_its_hands(app: Flask, client: FlaskClient) -> None:
    game_id, version = new_game(client, 3)
    cache.forget(app)
    reads = count_hand_reads(app)
    assert client.get(f"/games/{game_id}").status_code == 200
    assert len(reads) == 1  # the first view after a start derives the state once
    for url in (f"/games/{game_id}", f"{GAMES}/{game_id}", f"/games/{game_id}/hands/new"):
        assert client.get(url).status_code == 200
    assert len(reads) == 1
    # A save moves the version on: the next view shows the new hand.
    response = client.post(
        f"{GAMES}/{game_id}/hands",
        json={"version": version, "teams": [quick(meld=50), quick(meld=60)]},
    )
    assert response.status_code == 201
    sheet = client.get(f"{GAMES}/{game_id}").get_json()
    assert len(sheet["hands"]) == 4 and [s["total"] for s in sheet["sides"]] == [
        3 * 690 + 50,
        3 * 415 + 60,
    ]


def test_a_refused_save_leaves_no_state_behind(client: FlaskClient) -> None:
    game_id, version = new_game(client, 1)
    client.get(f"{GAMES}/{game_id}")
    # a correction of a hand that is not there: the version was not moved on
    missing = client.put(
        f"{GAMES}/{game_id}/hands/7", json={"version": version, "teams": CONTRACT_TEAMS}
    )
    assert missing.status_code == 404
    # a stale version: 409, nothing changed
    stale = client.post(
        f"{GAMES}/{game_id}/hands", json={"version": version - 1, "teams": CONTRACT_TEAMS}
    )
    assert stale.status_code == 409
    sheet = client.get(f"{GAMES}/{game_id}").get_json()
    assert sheet["version"] == version and [s["total"] for s in sheet["sides"]] == [690, 415]


def test_saves_answer_with_the_hands_they_changed(client: FlaskClient) -> None:
    game_id, version = new_game(client, 3)
    added = client.post(
        f"{GAMES}/{game_id}/hands",
        json={"version": version, "teams": [quick(meld=50), quick(meld=60)]},
    ).get_json()
    assert added["hands_from"] == 4 and [h["number"] for h in added["hands"]] == [4]
    assert [s["total"] for s in added["sides"]] == [3 * 690 + 50, 3 * 415 + 60]
    # correcting hand 2 changes it and the running totals of hands 3 and 4
    fixed = client.put(
        f"{GAMES}/{game_id}/hands/2",
        json={"version": added["version"], "teams": [quick(meld=100), quick(meld=200)]},
    ).get_json()
    assert fixed["hands_from"] == 2 and [h["number"] for h in fixed["hands"]] == [2, 3, 4]
    assert [s["total"] for s in fixed["hands"][0]["sides"]] == [690 + 100, 415 + 200]
    assert [s["total"] for s in fixed["sides"]] == [2 * 690 + 100 + 50, 2 * 415 + 200 + 60]
    gone = client.delete(f"{GAMES}/{game_id}/hands/4?version={fixed['version']}").get_json()
    assert gone["hands"] == [] and gone["next_hand"] == 4
    # the whole sheet is one GET away, and starts at hand 1
    sheet = client.get(f"{GAMES}/{game_id}").get_json()
    assert sheet["hands_from"] == 1 and [h["number"] for h in sheet["hands"]] == [1, 2, 3]
