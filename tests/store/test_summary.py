"""A save costs what it changes. ``games.summary`` keeps what the next save needs of
the sheet (hand count and totals), tagged with the engine's fingerprint and the game's version
and ``updated_at``: a save into a game whose sheet is not cached (after a start) reads no hand,
and answers exactly as a save into a cached game does. A summary that does not match the game
is never trusted.

Expected totals come from docs/api.md §3 (the example hand scores 690 and 415) and from quick
entries whose points are given, not from the code under test.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select, update

from scorekeeper import store
from scorekeeper.edge.games import read_hand
from scorekeeper.store import cache
from scorekeeper.store.db import session_scope
from scorekeeper.store.models import Game
from tests.store.test_store import BACKENDS, GERMAN_SIDES, backend_app, quick
from tests.web.examples import CONTRACT_TEAMS

GAMES = "/api/v1/games"
GERMAN = {"ruleset": "german", "players": 4, "sides": GERMAN_SIDES, "options": {}}
CUTTHROAT = {
    "ruleset": "classic",
    "players": 3,
    "sides": [{"players": ["Anna"]}, {"players": ["Ben"]}, {"players": ["Cem"]}],
    "options": {},
}
# changes with each hand, so that every running total and the dealer are checked
SAVES = [
    CONTRACT_TEAMS,
    [quick(meld=50, hand=15), quick(meld=120, natural=2, out=True)],  # 35 and 1,220
    [quick(meld=90, mixed=1), quick(meld=60)],  # 390 and 60
]
NEW = [quick(meld=75, natural=2, out=True), quick(meld=40, hand=20)]  # 1,175 and 20
# who and what an answer may differ in between two games: their keys and times
OWN = ("id", "view_id", "side_ids", "created_at", "updated_at")  # each game's own keys and times


@pytest.fixture(params=BACKENDS)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """Both backends: a summary is trusted only when its ``updated_at`` is the game's, as each
    backend gives it back."""
    with backend_app(request.param, tmp_path) as app:
        yield app


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements the app sends while the block runs."""
    seen: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_: object) -> None:
        seen.append(" ".join(sql.split()))

    engine = app.extensions["scorekeeper.engine"]
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def reads_of(seen: list[str], table: str) -> list[str]:
    return [s for s in seen if s.upper().startswith("SELECT") and f"FROM {table} " in s + " "]


def new_game(client: FlaskClient, hands: list[Any], body: dict[str, Any] = GERMAN) -> str:
    game = client.post(GAMES, json=body).get_json()
    version = game["version"]
    for teams in hands:
        response = client.post(
            f"{GAMES}/{game['id']}/hands", json={"version": version, **teams_of(teams)}
        )
        assert response.status_code == 201, response.get_json()
        version = response.get_json()["version"]
    return str(game["id"])


def teams_of(entry: Any) -> dict[str, Any]:
    return entry if isinstance(entry, dict) else {"teams": entry}


def version_of(client: FlaskClient, game_id: str) -> int:
    return int(client.get(f"{GAMES}/{game_id}").get_json()["version"])


def save(client: FlaskClient, game_id: str, version: int, entry: Any = NEW) -> dict[str, Any]:
    response = client.post(f"{GAMES}/{game_id}/hands", json={"version": version, **teams_of(entry)})
    assert response.status_code == 201, response.get_json()
    return strip(response.get_json())


def strip(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in OWN}


def summary_of(app: Flask, game_id: str) -> Any:
    with app.app_context(), session_scope() as session:
        return session.scalar(select(Game.summary).where(Game.id == game_id))


def set_summary(app: Flask, game_id: str, summary: Any) -> None:
    """Change the summary behind the store's back (the version stays)."""
    with app.app_context(), session_scope() as session:
        session.execute(update(Game).where(Game.id == game_id).values(summary=summary))


def test_a_cold_save_answers_as_a_warm_one_and_reads_no_hand(
    app: Flask, client: FlaskClient
) -> None:
    warm, cold, derived = (new_game(client, SAVES) for _ in range(3))
    versions = {g: version_of(client, g) for g in (warm, cold, derived)}  # caches all three
    expected = save(client, warm, versions[warm])
    assert expected["hands_from"] == 4 and [h["number"] for h in expected["hands"]] == [4]
    assert [s["total"] for s in expected["sides"]] == [690 + 35 + 390 + 1175, 415 + 1220 + 60 + 20]
    set_summary(app, derived, None)  # as a game saved before summaries were kept
    cache.forget(app)  # a start
    with statements(app) as seen:
        answer = save(client, cold, versions[cold])
    assert answer == expected
    assert reads_of(seen, "hands") == [] and reads_of(seen, "hand_revisions") == []
    with statements(app) as seen:
        assert save(client, derived, versions[derived]) == expected
    assert reads_of(seen, "hands")  # derived from its hands, as before summaries
    # ... and the whole sheet read afterwards is the warm game's, hand by hand.
    sheets = [strip(client.get(f"{GAMES}/{g}").get_json()) for g in (warm, cold, derived)]
    for sheet in sheets:
        sheet["hands"] = [{k: v for k, v in h.items() if k != "teams"} for h in sheet["hands"]]
    assert sheets[0] == sheets[1] == sheets[2]


def test_each_save_leaves_the_summary_of_its_version(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, SAVES[:1])
    kept = summary_of(app, game_id)
    assert kept["engine"] == cache.ENGINE and kept["version"] == 2
    assert kept["hands"] == 1 and kept["totals"] == [690, 415]
    cache.forget(app)
    save(client, game_id, 2)
    assert summary_of(app, game_id)["totals"] == [690 + 1175, 415 + 20]
    assert summary_of(app, game_id)["hands"] == 2 and summary_of(app, game_id)["version"] == 3
    # A take-back keeps it (the next save after a start still reads no hand) ...
    cache.forget(app)
    deleted = client.delete(f"{GAMES}/{game_id}/hands/2?version=3")
    assert deleted.status_code == 200
    assert [s["total"] for s in deleted.get_json()["sides"]] == [690, 415]
    assert summary_of(app, game_id)["totals"] == [690, 415]
    assert summary_of(app, game_id)["hands"] == 1
    cache.forget(app)
    with statements(app) as seen:
        assert [s["total"] for s in save(client, game_id, 4)["sides"]] == [1865, 435]
    assert reads_of(seen, "hands") == []
    # ... and a correction clears it: its version is gone, and so is its summary.
    corrected = client.put(
        f"{GAMES}/{game_id}/hands/1", json={"version": 5, "teams": SAVES[1]}
    ).get_json()
    assert [s["total"] for s in corrected["sides"]] == [35 + 1175, 1220 + 20]
    assert summary_of(app, game_id) is None
    cache.forget(app)
    assert [s["total"] for s in save(client, game_id, 6)["sides"]] == [1210 + 1175, 1240 + 20]
    assert summary_of(app, game_id)["totals"] == [2385, 1260]


@pytest.mark.parametrize(
    "change",
    [
        {"engine": "an older engine"},  # a rule fixed since: scored differently now
        {"version": 1},  # made for another version
        {"updated_at": "2020-01-01T00:00:00+00:00"},  # another change at the same version
        {"totals": [1, 2, 3]},  # not one total per side
        {"hands": "two"},
    ],
)
def test_a_summary_that_does_not_match_is_ignored_and_rebuilt(
    app: Flask, client: FlaskClient, change: dict[str, Any]
) -> None:
    game_id = new_game(client, SAVES[:2])
    kept = summary_of(app, game_id)
    # wrong totals and count: were it trusted, the answer would show them
    set_summary(app, game_id, {**kept, "totals": [100_000, 0], "hands": 7, **change})
    cache.forget(app)
    with statements(app) as seen:
        answer = save(client, game_id, 3)
    assert reads_of(seen, "hands")  # derived from the hands
    assert [h["number"] for h in answer["hands"]] == [3] and answer["next_hand"] == 4
    assert [s["total"] for s in answer["sides"]] == [690 + 35 + 1175, 415 + 1220 + 20]
    rebuilt = summary_of(app, game_id)
    assert rebuilt["engine"] == cache.ENGINE and rebuilt["updated_at"] > kept["updated_at"]
    assert (rebuilt["version"], rebuilt["hands"], rebuilt["totals"]) == (4, 3, [1900, 1655])


def test_a_trusted_summary_is_what_a_cold_save_adds_to(app: Flask, client: FlaskClient) -> None:
    """The proof that a cold save reads the summary (and nothing else): a planted one of the
    right version and engine is taken as it is."""
    game_id = new_game(client, SAVES[:1])
    set_summary(app, game_id, {**summary_of(app, game_id), "totals": [1000, 2000]})
    cache.forget(app)
    answer = save(client, game_id, 2)
    assert [s["total"] for s in answer["sides"]] == [1000 + 1175, 2000 + 20]


def test_a_finished_game_refuses_a_cold_save(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, [CONTRACT_TEAMS], {**GERMAN, "target": 500})
    cache.forget(app)
    response = client.post(f"{GAMES}/{game_id}/hands", json={"version": 2, "teams": NEW})
    assert response.status_code == 422
    assert [p["code"] for p in response.get_json()["problems"]] == ["game.finished"]
    assert version_of(client, game_id) == 2
    stale = client.post(f"{GAMES}/{game_id}/hands", json={"version": 1, "teams": NEW})
    assert stale.status_code == 409


def test_cutthroat_cold_and_warm_saves_agree(app: Flask, client: FlaskClient) -> None:
    lone = {
        "teams": [quick(meld=120, natural=2, out=True), {**quick(meld=90), "red_threes": [1, 0]}],
        "lone_player": 1,
    }
    hands = [lone, {**lone, "lone_player": 2}]
    warm, cold = new_game(client, hands, CUTTHROAT), new_game(client, hands, CUTTHROAT)
    version = version_of(client, warm)
    assert version == version_of(client, cold)
    expected = save(client, warm, version, {**lone, "lone_player": 0})
    cache.forget(app)
    with statements(app) as seen:
        assert save(client, cold, version, {**lone, "lone_player": 0}) == expected
    assert reads_of(seen, "hands") == []
    assert expected["next_dealer"]["seat"] == 0 and expected["next_hand"] == 4


def test_saves_in_one_session_build_on_each_other(app: Flask, client: FlaskClient) -> None:
    """A backup's import adds every hand in one transaction: each save starts from the sheet
    the one before made."""
    game_id = new_game(client, [])
    with app.app_context(), session_scope() as session:
        game = store.get_game(session, game_id)
        assert game is not None
        for version, teams in enumerate(SAVES, start=1):
            store.add_hand(session, game, version, read_hand(teams))
    cache.forget(app)
    sheet = client.get(f"{GAMES}/{game_id}").get_json()
    assert [s["total"] for s in sheet["sides"]] == [1115, 1695] and len(sheet["hands"]) == 3
    assert summary_of(app, game_id)["totals"] == [1115, 1695]
    assert summary_of(app, game_id)["version"] == sheet["version"] == 4


def test_a_take_back_reads_only_its_hand_and_answers_as_a_warm_one(
    app: Flask, client: FlaskClient
) -> None:
    warm, cold = new_game(client, SAVES), new_game(client, SAVES)
    version = version_of(client, warm)
    assert version == version_of(client, cold)  # both cached
    expected = client.delete(f"{GAMES}/{warm}/hands/3?version={version}").get_json()
    assert expected["hands"] == [] and expected["next_hand"] == 3
    assert [s["total"] for s in expected["sides"]] == [690 + 35, 415 + 1220]
    cache.forget(app)
    with statements(app) as seen:
        answer = client.delete(f"{GAMES}/{cold}/hands/3?version={version}").get_json()
    assert strip(answer) == strip(expected)
    hand_reads = reads_of(seen, "hands")
    assert len(hand_reads) == 1 and "hands.number = " in hand_reads[0]  # that hand alone
    assert reads_of(seen, "hand_revisions") == []
    # Not the last hand: refused, nothing changed.
    cache.forget(app)
    refused = client.delete(f"{GAMES}/{cold}/hands/1?version={version + 1}")
    assert refused.status_code == 422
    assert [p["code"] for p in refused.get_json()["problems"]] == ["hand.not_last"]
    # Both games go on alike, and their whole sheets agree.
    assert save(client, cold, version + 1) == save(client, warm, version + 1)
    sheets = [strip(client.get(f"{GAMES}/{g}").get_json()) for g in (warm, cold)]
    assert sheets[0] == sheets[1] and len(sheets[0]["hands"]) == 3


def test_reads_load_the_latest_revision_only_and_corrections_stay(
    app: Flask, client: FlaskClient
) -> None:
    """Every take-back leaves a deletion record: the game page's undo offer reads the latest
    only, and deriving the sheet reads the corrections no deletion ended."""
    game_id = new_game(client, SAVES[:2])
    put = client.put(f"{GAMES}/{game_id}/hands/1", json={"version": 3, "teams": SAVES[2]})
    assert put.status_code == 200  # hand 1: 390 and 60, was 690 and 415
    put = client.put(f"{GAMES}/{game_id}/hands/2", json={"version": 4, "teams": NEW})
    assert put.status_code == 200  # hand 2 corrected, then deleted: its trail goes with it
    assert client.delete(f"{GAMES}/{game_id}/hands/2?version=5").status_code == 200
    version = 6
    for _ in range(3):  # saved and taken back
        version = save(client, game_id, version)["version"]
        gone = client.delete(f"{GAMES}/{game_id}/hands/2?version={version}")
        version = gone.get_json()["version"]
    cache.forget(app)
    with app.app_context(), session_scope() as session:
        game = store.get_game(session, game_id, revisions=True)
        assert game is not None
        assert [(r.kind, r.number) for r in game.revisions] == [("deleted", 2)]
        sheet = store.game_state(game)
        assert [len(h.corrections) for h in sheet.hands] == [1]
        assert sheet.hands[0].corrections[0].scores == [690, 415]
        offer = store.undoable_deletion(game)
        assert offer is not None and offer.version == version
        # the undo brings the hand of the last take-back back, the others stay gone
        store.undo_delete(session, game, offer.id, version)
    sheet = client.get(f"{GAMES}/{game_id}").get_json()
    assert [h["number"] for h in sheet["hands"]] == [1, 2]
    assert [s["total"] for s in sheet["sides"]] == [390 + 1175, 60 + 20]
    with app.app_context(), session_scope() as session:
        game = store.get_game(session, game_id)
        assert game is not None and store.undoable_deletion(game) is None
        assert [len(h.corrections) for h in store.game_state(game).hands] == [1, 0]
