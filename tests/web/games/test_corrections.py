"""Corrections leave a trace and a deleted hand can be brought back.

Every correction keeps the entry as it was (when it was entered and when it was changed); the
history marks corrected hands and shows the earlier entry on request. Deleting the last hand
offers "Undo" on the game page, also after a reload, until anything else changes or the offer
gets old; a stale undo is a 409 and changes nothing.
"""

from __future__ import annotations

import re
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store
from scorekeeper.store.db import session_scope
from scorekeeper.store.models import HandRevision
from tests.web.games.test_game_pages import (
    DETAIL_US,
    QUICK_THEM,
    create_game,
    hand_form,
    save_hand,
    totals,
)

# docs/api.md §3's worked example: the detail side scores 690, the quick side 415.
# The same quick side with 135 instead of 155 meld points: 415 - 20 = 395.
QUICK_THEM_LESS = {**QUICK_THEM, "t1__meld_points": "135"}


def undo_form(page: str) -> dict[str, str]:
    form = re.search(r'<form class="undo card"[^>]*action="([^"]+)"(.*?)</form>', page, re.S)
    assert form, "no undo offered"
    fields = dict(re.findall(r'name="(version|revision)" value="([^"]*)"', form[2]))
    return {"url": form[1], **fields}


def test_a_correction_is_kept_and_marked(client: FlaskClient) -> None:
    game_id = create_game(client)
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    page = client.get(f"/games/{game_id}").text
    assert "corr." not in page and "earlier entry" not in page
    # Saving the hand unchanged is no correction.
    save_hand(client, game_id, hand_form(client, game_id, 1), number=1)
    assert "corr." not in client.get(f"/games/{game_id}").text
    save_hand(client, game_id, hand_form(client, game_id, 1, **QUICK_THEM_LESS), number=1)
    assert totals(client, game_id) == ["690", "395"]
    page = client.get(f"/games/{game_id}").text
    assert 'class="hand corrected"' in page and "corr." in page
    assert "Corrected once: show the earlier entry" in page
    earlier = re.search(r'<details class="more earlier">(.*?)</details>', page, re.S)
    assert earlier and "+690" in earlier[1] and "+415" in earlier[1]
    assert "entered" in earlier[1] and "ago" in earlier[1]
    # A second correction: both earlier entries, oldest first.
    save_hand(client, game_id, hand_form(client, game_id, 1, **QUICK_THEM), number=1)
    page = client.get(f"/games/{game_id}").text
    assert "Corrected 2 times: show the earlier entries" in page
    earlier = re.search(r'<details class="more earlier">(.*?)</details>', page, re.S)
    assert earlier and earlier[1].index("+415") < earlier[1].index("+395")
    # The read-only view marks it too (without the editing links).
    view_id = re.search(r"/view/([A-Za-z0-9_-]+)", page)
    assert view_id
    view = client.get(f"/view/{view_id[1]}").text
    assert "corr." in view and "&#9998;" not in view and "✎" not in view
    german = client.get(f"/games/{game_id}?lang=de").text
    assert "2-mal korrigiert: frühere Eingaben zeigen" in german and "korr." in german
    assert "vor " in german  # "eingegeben vor 1 Minute"


def test_delete_offers_undo_across_a_reload(client: FlaskClient) -> None:
    game_id = create_game(client)
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    save_hand(client, game_id, hand_form(client, game_id, 2, **QUICK_THEM_LESS), number=2)
    assert totals(client, game_id) == ["1,380", "810"]
    page = client.get(f"/games/{game_id}").text
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version
    gone = client.post(f"/games/{game_id}/hands/2/delete", data={"version": version[1]})
    assert gone.status_code == 303
    assert totals(client, game_id) == ["690", "415"]
    # the same form again (its answer was lost): to the game page as the first, nothing more
    again = client.post(f"/games/{game_id}/hands/2/delete", data={"version": version[1]})
    assert again.status_code == 303 and again.headers["Location"] == gone.headers["Location"]
    assert totals(client, game_id) == ["690", "415"]
    page = client.get(f"/games/{game_id}").text  # a reload: still offered
    assert "Hand 2 deleted." in page
    assert "Spiel 2 gelöscht." in client.get(f"/games/{game_id}?lang=de").text
    assert "Rozdanie 2 usunięte." in client.get(f"/games/{game_id}?lang=pl").text
    page = client.get(f"/games/{game_id}?lang=en").text
    offer = undo_form(page)
    back = client.post(offer.pop("url"), data=offer)
    assert back.status_code == 303
    assert totals(client, game_id) == ["1,380", "810"]
    page = client.get(f"/games/{game_id}").text
    assert "deleted." not in page
    # The hand came back with its correction trail.
    assert "Corrected once: show the earlier entry" in page
    # The same offer again (its answer was lost): the game page as after the first, nothing
    # changes; also when it arrives after a later correction, which it leaves alone.
    again = client.post(offer_url(game_id), data=offer)
    assert again.status_code == 303 and again.headers["Location"] == back.headers["Location"]
    assert totals(client, game_id) == ["1,380", "810"]
    save_hand(client, game_id, hand_form(client, game_id, 2, **QUICK_THEM), number=2)
    assert totals(client, game_id) == ["1,380", "830"]
    late = client.post(offer_url(game_id), data=offer)
    assert late.status_code == 303 and totals(client, game_id) == ["1,380", "830"]


def offer_url(game_id: str) -> str:
    return f"/games/{game_id}/undo"


def a_game_whose_hand_was_deleted(client: FlaskClient) -> str:
    """A new game, one hand saved into it, and that hand deleted (an undo is on offer)."""
    game_id = create_game(client)
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    page = client.get(f"/games/{game_id}").text
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version
    client.post(f"/games/{game_id}/hands/1/delete", data={"version": version[1]})
    return game_id


def test_undo_never_overwrites_a_newer_change(client: FlaskClient) -> None:
    game_id = a_game_whose_hand_was_deleted(client)
    offer = undo_form(client.get(f"/games/{game_id}").text)
    offer.pop("url")
    # Another phone enters a new hand 1 meanwhile: the undo offer disappears, and the old
    # form is refused with a 409 that leaves the new hand as it is.
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM_LESS))
    assert "Undo" not in client.get(f"/games/{game_id}").text
    stale = client.post(offer_url(game_id), data=offer)
    assert stale.status_code == 409
    assert totals(client, game_id) == ["690", "395"]
    # The new hand 1 does not carry the deleted hand's trail.
    assert "corr." not in client.get(f"/games/{game_id}").text


def test_an_old_deletion_cannot_be_undone(app: Flask, client: FlaskClient) -> None:
    game_id = a_game_whose_hand_was_deleted(client)
    offer = undo_form(client.get(f"/games/{game_id}").text)
    offer.pop("url")
    with app.app_context(), session_scope() as session:
        revision = session.get(HandRevision, int(offer["revision"]))
        assert revision is not None and revision.kind == "deleted"
        revision.changed_at -= timedelta(seconds=store.UNDO_SECONDS + 1)
    assert "Undo" not in client.get(f"/games/{game_id}").text
    late = client.post(offer_url(game_id) + "?lang=de", data=offer)
    assert late.status_code == 422
    assert "lässt sich nicht mehr zurückholen" in late.text
    assert totals(client, game_id) == ["0", "0"]
    # Garbage never makes a 500.
    for data in ({}, {"version": "x", "revision": "y"}, {"version": "1", "revision": "-5"}):
        assert client.post(offer_url(game_id), data=data).status_code in (409, 422)
    assert client.post("/games/unknown/undo", data=offer).status_code == 404


def test_api_delete_and_put_are_kept_too(client: FlaskClient) -> None:
    game = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "sides": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
        },
    )
    assert game.status_code == 201
    key, version = game.json["id"], game.json["version"]
    quick = {
        "natural_canastas": 0,
        "mixed_canastas": 1,
        "wild_canastas": 0,
        "meld_points": 155,
        "hand_points": 40,
        "black_threes_in_hand": 0,
        "melded": True,
    }
    teams = [{"quick": quick, "red_threes": 0, "went_out": True}, {"quick": quick, "red_threes": 0}]
    added = client.post(f"/api/v1/games/{key}/hands", json={"version": version, "teams": teams})
    assert added.status_code == 201
    changed = [{**teams[0], "red_threes": 1}, teams[1]]
    put = client.put(
        f"/api/v1/games/{key}/hands/1", json={"version": added.json["version"], "teams": changed}
    )
    assert put.status_code == 200, put.text
    page = client.get(f"/games/{key}").text
    assert "corr." in page
    gone = client.delete(f"/api/v1/games/{key}/hands/1", json={"version": put.json["version"]})
    assert gone.status_code in (200, 204)
    assert "Hand 1 deleted." in client.get(f"/games/{key}").text
