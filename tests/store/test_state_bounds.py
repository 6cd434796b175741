"""Memory: the cache of derived sheets is bounded by games and by hands; a sheet that
fell out is derived again from the stored hands (never served stale or wrong), and a save into
such a game still reads no hand (the summary on the game row).

Expected totals: docs/api.md §3's example hand (690 and 415) and quick entries whose points
are given.
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import cache
from tests.store.test_summary import NEW, SAVES, new_game, reads_of, statements

GAMES = "/api/v1/games"


def cached(app: Flask) -> dict[str, int]:
    """Game key -> hands of each sheet kept."""
    return cache.kept(app).states.weights()


def totals(client: FlaskClient, game_id: str) -> list[int]:
    return [s["total"] for s in client.get(f"{GAMES}/{game_id}").get_json()["sides"]]


def test_the_sheet_cache_keeps_its_bounds_and_refills_correctly(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    three, two, one = new_game(client, SAVES), new_game(client, SAVES[:2]), new_game(client, [])
    cache.kept(app).states.bound(2, 4)
    cache.forget(app)
    assert totals(client, three) == [690 + 35 + 390, 415 + 1220 + 60]
    assert totals(client, one) == [0, 0]
    assert cached(app) == {three: 3, one: 0}
    assert totals(client, two) == [690 + 35, 415 + 1220]  # 5 hands: the oldest sheet goes
    assert cached(app) == {one: 0, two: 2}
    assert cache.kept(app).states.size()[1] == 2
    # The sheet that fell out is read again from its hands, and right.
    with statements(app) as seen:
        assert totals(client, three) == [690 + 35 + 390, 415 + 1220 + 60]
    assert reads_of(seen, "hands")
    assert cached(app) == {three: 3} and cache.kept(app).states.size()[1] == 3
    # A save into a game whose sheet is not kept reads no hand, and answers right.
    with statements(app) as seen:
        saved = client.post(f"{GAMES}/{two}/hands", json={"version": 3, "teams": NEW})
    assert saved.status_code == 201 and reads_of(seen, "hands") == []
    assert [s["total"] for s in saved.get_json()["sides"]] == [690 + 35 + 1175, 415 + 1220 + 20]
    assert totals(client, two) == [690 + 35 + 1175, 415 + 1220 + 20]
    assert sum(cached(app).values()) <= 4 and len(cached(app)) <= 2
    assert cache.kept(app).states.size()[1] == sum(cached(app).values())
