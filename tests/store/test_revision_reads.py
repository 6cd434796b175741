"""A game's revisions (the entry before each correction or take-back) are read only where
they are used. Every take-back adds a deletion record, so a game played with
many take-backs must not cost more to show, preview or save into: the game page reads the latest
record (its undo offer) and the corrections that still belong to a hand, the preview and the
API's sheet none (when the sheet is cached), a save none.

Counted as rows the ORM builds into ``HandRevision`` objects, and as statements on the table.
Expected totals: docs/api.md §3's example hand (690 and 415) and quick entries whose points are
given.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.store import cache
from scorekeeper.store.models import HandRevision
from tests.store.test_summary import GERMAN, NEW, SAVES, new_game, statements
from tests.web.examples import CONTRACT_TEAMS
from tests.web.games.test_game_pages import DETAIL_US, QUICK_THEM, hand_form

GAMES = "/api/v1/games"
TAKE_BACKS = 6


@contextmanager
def loaded_revisions() -> Iterator[list[tuple[str, int]]]:
    """``(kind, number)`` of every hand revision the ORM loads while the block runs."""
    seen: list[tuple[str, int]] = []

    def loaded(target: HandRevision, _context: Any) -> None:
        seen.append((target.kind, target.number))

    event.listen(HandRevision, "load", loaded)
    try:
        yield seen
    finally:
        event.remove(HandRevision, "load", loaded)


def revision_reads(seen: list[str]) -> list[str]:
    return [s for s in seen if "FROM hand_revisions" in s]


def played_with_take_backs(client: FlaskClient) -> tuple[str, int]:
    """A game of two hands: hand 1 corrected once (690/415 → 35/1,220), hand 2 saved and taken
    back ``TAKE_BACKS`` times, then saved for good. Returns its key and version."""
    game_id = new_game(client, [CONTRACT_TEAMS], GERMAN)
    put = client.put(f"{GAMES}/{game_id}/hands/1", json={"version": 2, "teams": SAVES[1]})
    assert put.status_code == 200
    version = 3
    for _ in range(TAKE_BACKS):
        saved = client.post(f"{GAMES}/{game_id}/hands", json={"version": version, "teams": NEW})
        assert saved.status_code == 201
        gone = client.delete(f"{GAMES}/{game_id}/hands/2?version={version + 1}")
        assert gone.status_code == 200
        version += 2
    saved = client.post(f"{GAMES}/{game_id}/hands", json={"version": version, "teams": SAVES[2]})
    assert saved.status_code == 201
    return game_id, version + 1


def test_the_game_page_reads_the_latest_revision_not_every_take_back(
    app: Flask, client: FlaskClient
) -> None:
    game_id, version = played_with_take_backs(client)
    cache.forget(app)  # a start: the page derives the sheet
    with loaded_revisions() as loaded, statements(app) as seen:
        page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert re.findall(r'<div class="total">([^<]*)</div>', page.text) == [
        f"{35 + 390:,}",
        f"{1220 + 60:,}",
    ]
    # the latest record (a save came after it: no undo offered) and hand 1's correction
    assert sorted(loaded) == [("corrected", 1), ("deleted", 2)]
    assert 'name="revision"' not in page.text
    assert len(revision_reads(seen)) <= 2
    # Once the sheet is known, showing it again reads none of them but the latest.
    cache.forget(app)
    client.get(f"{GAMES}/{game_id}")
    with loaded_revisions() as loaded:
        assert client.get(f"/games/{game_id}?lang=de").status_code == 200
    assert loaded == [("deleted", 2)]
    # A take-back is offered for undo on the page: the record the page read is that one.
    gone = client.delete(f"{GAMES}/{game_id}/hands/2?version={version}")
    assert gone.status_code == 200
    with loaded_revisions() as loaded:
        page = client.get(f"/games/{game_id}")
    assert loaded == [("deleted", 2)]
    offered = re.search(r'name="revision" value="(\d+)"', page.text)
    assert offered is not None


def test_previews_api_reads_and_saves_read_no_revision(app: Flask, client: FlaskClient) -> None:
    game_id, version = played_with_take_backs(client)
    assert client.get(f"{GAMES}/{game_id}").status_code == 200  # the sheet, now cached
    form = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
    with loaded_revisions() as loaded, statements(app) as seen:
        sheet = client.get(f"{GAMES}/{game_id}").get_json()
        preview = client.post(
            f"/games/{game_id}/preview", data=form, headers={"HX-Request": "true"}
        )
        saved = client.post(
            f"{GAMES}/{game_id}/hands", json={"version": version, "teams": CONTRACT_TEAMS}
        )
    assert [s["total"] for s in sheet["sides"]] == [35 + 390, 1220 + 60]
    assert preview.status_code == 200 and "690" in preview.text
    assert saved.status_code == 201
    assert [s["total"] for s in saved.get_json()["sides"]] == [35 + 390 + 690, 1220 + 60 + 415]
    assert loaded == [] and revision_reads(seen) == []
    # After a start, a save still reads none (the summary), and the sheet its corrections only.
    cache.forget(app)
    with loaded_revisions() as loaded, statements(app) as seen:
        again = client.post(f"{GAMES}/{game_id}/hands", json={"version": version + 1, "teams": NEW})
    assert again.status_code == 201 and loaded == [] and revision_reads(seen) == []
    with loaded_revisions() as loaded:
        whole = client.get(f"{GAMES}/{game_id}").get_json()
    assert loaded == [("corrected", 1)]
    assert [h["number"] for h in whole["hands"]] == [1, 2, 3, 4]
