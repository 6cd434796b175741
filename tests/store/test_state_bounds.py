"""Issue 16 (memory): the cache of derived sheets is bounded by games and by hands; a sheet that
fell out is derived again from the stored hands (never served stale or wrong), and a save into
such a game still reads no hand (the summary on the game row).

Expected totals: CONTRACT.md §3's example hand (690 and 415) and quick entries whose points
are given.
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import games as store
from tests.store.test_summary import NEW, SAVES, new_game, reads_of, statements

GAMES = "/api/v1/games"


def cached() -> dict[str, int]:
    """Game key -> hands of each sheet in the cache."""
    with store._STATES_LOCK:
        return {key: len(state.hands) for key, (_, state) in store._STATES.items()}


def totals(client: FlaskClient, game_id: str) -> list[int]:
    return [s["total"] for s in client.get(f"{GAMES}/{game_id}").get_json()["sides"]]


def test_the_sheet_cache_keeps_its_bounds_and_refills_correctly(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    three, two, one = new_game(client, SAVES), new_game(client, SAVES[:2]), new_game(client, [])
    monkeypatch.setattr(store, "STATE_CACHE_GAMES", 2)
    monkeypatch.setattr(store, "STATE_CACHE_HANDS", 4)
    store.forget_states()
    assert totals(client, three) == [690 + 35 + 390, 415 + 1220 + 60]
    assert totals(client, one) == [0, 0]
    assert cached() == {three: 3, one: 0}
    assert totals(client, two) == [690 + 35, 415 + 1220]  # 5 hands: the oldest sheet goes
    assert cached() == {one: 0, two: 2}
    assert store._STATES_HANDS[0] == 2
    # The sheet that fell out is read again from its hands, and right.
    with statements(app) as seen:
        assert totals(client, three) == [690 + 35 + 390, 415 + 1220 + 60]
    assert reads_of(seen, "hands")
    assert cached() == {three: 3} and store._STATES_HANDS[0] == 3
    # A save into a game whose sheet is not kept reads no hand, and answers right.
    with statements(app) as seen:
        saved = client.post(f"{GAMES}/{two}/hands", json={"version": 3, "teams": NEW})
    assert saved.status_code == 201 and reads_of(seen, "hands") == []
    assert [s["total"] for s in saved.get_json()["sides"]] == [690 + 35 + 1175, 415 + 1220 + 20]
    assert totals(client, two) == [690 + 35 + 1175, 415 + 1220 + 20]
    assert sum(cached().values()) <= 4 and len(cached()) <= 2
    assert store._STATES_HANDS[0] == sum(cached().values())
