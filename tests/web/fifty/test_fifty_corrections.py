"""Corrections for 3 ist 50: corrected games are marked with their earlier entries, and deleting
the last game offers "Undo" (also after a reload) like the Canasta page; a stale or expired
undo changes nothing.

Points (seed 001, docs/rulebook.md §7): a king or a queen counts 10, a seven 7.
"""

from __future__ import annotations

import io
import re
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.store.db import session_scope
from scorekeeper.store.models import HandRevision
from tests.web.fifty.test_fifty_pages import entry, save, store_version, three_players, totals
from tests.web.games.test_corrections import undo_form


def earlier(page: str) -> str:
    found = re.search(r'<details class="more earlier">(.*?)</details>', page, re.S)
    assert found, "no earlier entries"
    return found[1]


def test_a_corrected_game_is_marked_with_its_earlier_entries(client: FlaskClient) -> None:
    game_id = three_players(client)
    assert save(client, game_id, entry(client, game_id, p0__cards="K", p1__cards="Q Q"))[0] == 303
    page = client.get(f"/fifty/{game_id}").text
    assert "corr." not in page and "earlier entr" not in page
    # Saved unchanged: no correction.
    assert save(client, game_id, entry(client, game_id, 1), 1)[0] == 303
    assert "corr." not in client.get(f"/fifty/{game_id}").text
    data = entry(client, game_id, 1, p0__mode="points", p0__points="30")
    assert save(client, game_id, data, 1)[0] == 303
    page = client.get(f"/fifty/{game_id}").text
    assert totals(page) == ["30", "20", "0"]
    assert '<tr class="corrected">' in page and "corr." in page
    assert "Corrected once: show the earlier entry" in page
    first = earlier(page)
    assert 'Anna <b class="num">10</b>' in first and 'Ben <b class="num">20</b>' in first
    assert "entered" in first and "ago" in first
    data = entry(client, game_id, 1, p2__cards="7 7")
    assert save(client, game_id, data, 1)[0] == 303
    page = client.get(f"/fifty/{game_id}").text
    assert "Corrected 2 times: show the earlier entries" in page
    both = earlier(page)
    assert both.index('Anna <b class="num">10</b>') < both.index('Anna <b class="num">30</b>')
    # The read-only view marks it too, without editing links.
    view_id = re.search(r"/fifty/view/([A-Za-z0-9_-]+)", page)
    assert view_id
    view = client.get(f"/fifty/view/{view_id[1]}").text
    assert "corr." in view and "Corrected 2 times" in view and "&#9998;" not in view
    german = client.get(f"/fifty/{game_id}?lang=de").text
    assert "2-mal korrigiert: frühere Eingaben zeigen" in german and "korr." in german


def test_delete_offers_undo_across_a_reload(client: FlaskClient) -> None:
    game_id = three_players(client)
    assert save(client, game_id, entry(client, game_id, p0__cards="K"))[0] == 303
    assert save(client, game_id, entry(client, game_id, p1__cards="Q Q"))[0] == 303
    assert 'class="undo card"' not in client.get(f"/fifty/{game_id}").text
    version = store_version(client, game_id)
    response = client.post(f"/fifty/{game_id}/games/2/delete", data={"version": version})
    assert response.status_code == 303
    client.get(f"/fifty/{game_id}")
    page = client.get(f"/fifty/{game_id}").text  # a reload still offers it
    assert "Game 2 deleted." in page and totals(page) == ["10", "0", "0"]
    assert "Spiel 2 gelöscht." in client.get(f"/fifty/{game_id}?lang=de").text
    offer = undo_form(page)
    assert offer["url"] == f"/fifty/{game_id}/undo"
    response = client.post(
        offer["url"], data={"version": offer["version"], "revision": offer["revision"]}
    )
    assert response.status_code == 303
    page = client.get(f"/fifty/{game_id}").text
    assert totals(page) == ["10", "20", "0"] and 'class="undo card"' not in page
    # Brought back once: the same offer again (its answer was lost) goes to the same page
    # and changes nothing.
    again = client.post(
        offer["url"], data={"version": offer["version"], "revision": offer["revision"]}
    )
    assert again.status_code == 303 and again.headers["Location"] == response.headers["Location"]
    assert totals(client.get(f"/fifty/{game_id}").text) == ["10", "20", "0"]


def test_undo_after_a_new_game_or_too_late_changes_nothing(app: Flask, client: FlaskClient) -> None:
    game_id = three_players(client)
    assert save(client, game_id, entry(client, game_id, p0__cards="K"))[0] == 303
    version = store_version(client, game_id)
    client.post(f"/fifty/{game_id}/games/1/delete", data={"version": version})
    offer = undo_form(client.get(f"/fifty/{game_id}").text)
    assert save(client, game_id, entry(client, game_id, p1__cards="7"))[0] == 303
    page = client.get(f"/fifty/{game_id}").text
    assert 'class="undo card"' not in page
    response = client.post(
        offer["url"], data={"version": offer["version"], "revision": offer["revision"]}
    )
    assert response.status_code == 409
    assert totals(client.get(f"/fifty/{game_id}").text) == ["0", "7", "0"]
    # An offer older than the undo time is gone (422, translated, nothing changes).
    version = store_version(client, game_id)
    client.post(f"/fifty/{game_id}/games/1/delete", data={"version": version})
    offer = undo_form(client.get(f"/fifty/{game_id}").text)
    with app.app_context(), session_scope() as session:
        revision = session.get(HandRevision, int(offer["revision"]))
        assert revision is not None
        revision.changed_at -= timedelta(hours=1)
    assert 'class="undo card"' not in client.get(f"/fifty/{game_id}").text
    response = client.post(
        offer["url"],
        data={"version": offer["version"], "revision": offer["revision"]},
        headers={"Accept-Language": "de"},
    )
    assert response.status_code == 422
    assert "Das gelöschte Spiel lässt sich nicht mehr zurückholen." in response.text
    assert totals(client.get(f"/fifty/{game_id}").text) == ["0", "0", "0"]


def test_the_sheet_marks_a_corrected_game(client: FlaskClient) -> None:
    game_id = three_players(client)
    assert save(client, game_id, entry(client, game_id, p0__cards="K", p1__cards="Q Q"))[0] == 303
    data = entry(client, game_id, 1, p0__mode="points", p0__points="30")
    assert save(client, game_id, data, 1)[0] == 303
    pdf = client.get(f"/fifty/{game_id}/sheet.pdf?lang=en")
    assert pdf.status_code == 200
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "Corrected; entered before: 10 / 20 / 0." in " ".join(text.split())
