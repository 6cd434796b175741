"""Who may do what with which link (docs/parts.md): every Canasta game route, pages and API,
asked with the game's key, its view key, a side's own key and another side's key. A side's key
reads what the view reads and enters its own side's part; the game's key stays the only way to
change saved hands. Then the side's page itself: its part form, in the hand form's entry
modes, saving the hand once every side is in, its problems and a hand saved meanwhile."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.api.test_parts_api import WE, YOU
from tests.web.pagehelpers import HTMX, form_of

SIDES = [{"name": "Wir", "players": ["Anna", "Ben"]}, {"name": "Ihr", "players": ["Cleo", "Dan"]}]
KINDS = ("game", "view", "side", "other")


def game_with_a_hand(client: FlaskClient) -> dict[str, Any]:
    game = client.post(
        "/api/v1/games", json={"ruleset": "classic", "players": 4, "sides": SIDES}
    ).get_json()
    saved = client.post(
        f"/api/v1/games/{game['id']}/hands", json={"version": game["version"], "teams": [WE, YOU]}
    )
    assert saved.status_code == 201
    game["version"] = saved.get_json()["version"]
    return game


def key_of(game: dict[str, Any], kind: str) -> str:
    return {
        "game": game["id"],
        "view": game["view_id"],
        "side": game["side_ids"][0],
        "other": game["side_ids"][1],
    }[kind]


# (method, path, body, expected status per kind: game, view, side 0's key, side 1's key). A
# set: any of them; "ok" for the game's key: anything but refused or unknown (a form sent
# without its fields is 422, which is the key allowed in).
OK = "ok"
ROUTES: list[tuple[str, str, Any, tuple[Any, Any, Any, Any]]] = [
    # the JSON API
    ("get", "/api/v1/games/{k}", None, (200, 200, 200, 200)),
    ("get", "/api/v1/games/{k}/hands/1", None, (200, 200, 200, 200)),
    ("post", "/api/v1/games/{k}/hands", {"teams": [WE, YOU]}, (201, 404, 403, 403)),
    ("put", "/api/v1/games/{k}/hands/1", {"teams": [WE, YOU]}, (200, 404, 403, 403)),
    ("delete", "/api/v1/games/{k}/hands/1", {}, (200, 404, 403, 403)),
    ("post", "/api/v1/games/{k}/undo", {}, (OK, 404, 403, 403)),
    ("get", "/api/v1/games/{k}/parts", None, (200, 200, 200, 200)),
    ("put", "/api/v1/games/{k}/parts/0", {"part": WE}, (200, 403, 200, 403)),
    ("delete", "/api/v1/games/{k}/parts/0", {}, (200, 403, 200, 403)),
    # the pages
    ("get", "/games/{k}", None, (200, 404, 200, 200)),
    ("get", "/view/{k}", None, (404, 200, 404, 404)),
    ("get", "/games/{k}/hands/new", None, (200, 404, 403, 403)),
    ("get", "/games/{k}/hands/new/live", None, (200, 404, 403, 403)),
    ("post", "/games/{k}/hands", "form", (OK, 404, 403, 403)),
    ("post", "/games/{k}/preview", "form", (200, 404, 403, 403)),
    ("get", "/games/{k}/hands/1/edit", None, (200, 404, 403, 403)),
    ("post", "/games/{k}/hands/1", "form", (OK, 404, 403, 403)),
    ("post", "/games/{k}/hands/1/delete", "form", (OK, 404, 403, 403)),
    ("post", "/games/{k}/undo", "form", (OK, 404, 403, 403)),
    ("post", "/games/{k}/again", "form", (303, 404, 403, 403)),
    ("get", "/games/{k}/export.json", None, (200, 200, 200, 200)),
    ("get", "/games/{k}/hands.csv", None, (200, 200, 200, 200)),
    ("get", "/games/{k}/sheet.pdf", None, (200, 200, 200, 200)),
    # a side's part on its own page: side keys only (the game's key enters the whole hand)
    ("post", "/games/{k}/part", "part", (404, 404, 303, 303)),
    ("post", "/games/{k}/part/preview", "part", (404, 404, 200, 200)),
    ("post", "/games/{k}/part/delete", "form", (404, 404, 303, 303)),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), ROUTES, ids=[f"{m} {p}" for m, p, _, _ in ROUTES]
)
@pytest.mark.parametrize("kind", KINDS)
def test_every_route_for_every_link(
    client: FlaskClient, method: str, path: str, body: Any, expected: tuple[Any, ...], kind: str
) -> None:
    game = game_with_a_hand(client)
    key = key_of(game, kind)
    want = expected[KINDS.index(kind)]
    url = path.format(k=key)
    send: dict[str, Any] = {}
    if isinstance(body, dict):
        send["json"] = {"version": game["version"], **body}
    elif body == "form":
        send["data"] = {"version": str(game["version"])}
    elif body == "part":
        side = 1 if kind == "other" else 0
        send["data"] = {f"t{side}-mode": "total", f"t{side}-total": "500", "hand": "2"}
    answer = getattr(client, method)(url, **send)
    if want == OK:
        assert answer.status_code not in (403, 404, 500), answer.status_code
    else:
        assert answer.status_code == want, (answer.status_code, answer.data[:300])
    if answer.status_code == 403 and path.startswith("/games"):
        assert "part" in answer.text  # says why, in words (side.read_only)
    # what a side's key or the view reads never carries the keys that grant more
    if kind in ("view", "side", "other") and answer.status_code == 200:
        body_text = answer.data.decode("utf-8", "replace")
        assert game["id"] not in body_text
        if kind == "view":
            assert not any(k in body_text for k in game["side_ids"])
        else:
            other = game["side_ids"][1 if kind == "side" else 0]
            assert other not in body_text


def test_refusals_change_nothing(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    before = client.get(f"/api/v1/games/{game['id']}").get_json()
    for kind in ("view", "side", "other"):
        key = key_of(game, kind)
        client.post(f"/games/{key}/hands/1/delete", data={"version": str(game["version"])})
        client.delete(f"/api/v1/games/{key}/hands/1", json={"version": game["version"]})
        client.post(f"/games/{key}/again", data={})
    assert client.get(f"/api/v1/games/{game['id']}").get_json() == before


def test_the_refusal_page_speaks_the_readers_language(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    side = game["side_ids"][0]
    for lang, words in (("de", "Partei"), ("pl", "strony")):
        page = client.get(f"/games/{side}/hands/new?lang={lang}")
        assert page.status_code == 403
        assert words in page.text


def test_the_side_page_enters_the_part_and_the_last_part_saves_the_hand(
    client: FlaskClient,
) -> None:
    game = game_with_a_hand(client)
    we, you = game["side_ids"]
    page = client.get(f"/games/{we}?lang=de")
    assert page.status_code == 200
    html = page.text
    assert 'name="t0-mode"' in html and 'name="t1-mode"' not in html  # this side's fields only
    assert "Wir" in html and 'id="pad"' in html  # the card pad as in the hand form
    data = form_of(html, "hand-form")
    data.setlist("t0-mode", ["detail"])
    data.setlist("t0-meld", ["K K K K K K K", "D D D D D D D", "5 5 5"])
    data.setlist("t0-hand", ["", "9"])
    data.setlist("t0-red", ["1"])
    data.setlist("out", ["0"])
    saved = client.post(f"/games/{we}/part", data=data)
    assert saved.status_code == 303
    # the game page, the view and the other side's page show Wir in, with its score
    for url in (f"/games/{game['id']}", f"/view/{game['view_id']}", f"/games/{you}"):
        shown = client.get(url + "?lang=en").text
        assert 'class="card parts"' in shown and "1 of 2 sides is in" in shown, url
    parts = client.get(f"/api/v1/games/{you}/parts").get_json()
    alone = client.post(
        "/api/v1/score", json={"ruleset": "classic", "players": 4, "teams": [WE, YOU]}
    ).get_json()
    # the part scores as the same side of a whole hand does (and WE is that side)
    assert parts["hand"] == 2 and parts["parts"][0]["score"] == alone["teams"][0]
    mine = client.get(f"/games/{we}").text
    assert "Your part is in" in mine and "K K K K K K K" in mine  # the part comes back to correct
    # the other side in the quick counts: the hand is saved
    data = form_of(client.get(f"/games/{you}").text, "hand-form")
    data.setlist("t1-mode", ["quick"])
    for field, value in (("mixed_canastas", "1"), ("meld_points", "120"), ("hand_points", "35")):
        data.setlist(f"t1-{field}", [value])
    assert client.post(f"/games/{you}/part", data=data).status_code == 303
    sheet = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert len(sheet["hands"]) == 2
    assert sheet["hands"][1]["sides"][0]["score"] == alone["teams"][0]["score"]
    assert sheet["hands"][1]["sides"][1]["score"] == 120 + 300 - 35
    assert 'class="card parts"' not in client.get(f"/view/{game['view_id']}").text


def test_the_side_page_refuses_a_bad_part_and_a_hand_saved_meanwhile(
    client: FlaskClient,
) -> None:
    game = game_with_a_hand(client)
    we, you = game["side_ids"]
    client.put(f"/api/v1/games/{we}/parts/0", json={"part": WE})
    data = form_of(client.get(f"/games/{you}").text, "hand-form")
    data.setlist("t1-mode", ["detail"])
    data.setlist("t1-meld", ["7 7"])
    bad = client.post(f"/games/{you}/part", data=data, headers=HTMX)
    assert bad.status_code == 422
    assert "7 7" in bad.text  # kept as typed
    assert re.search(r'id="n-t1-m0"[^>]*>\s*<p class="note problem">', bad.text)
    data.setlist("t1-meld", ["7 7 7 7 7 2 X"])
    data.setlist("out", ["1"])
    both = client.post(f"/games/{you}/part", data=data)
    assert both.status_code == 422  # Wir went out already
    # the scorer enters the whole hand meanwhile: the part form sent later is told so
    data.setlist("out", [])
    client.post(
        f"/api/v1/games/{game['id']}/hands",
        json={
            "version": client.get(f"/api/v1/games/{game['id']}").get_json()["version"],
            "teams": [WE, YOU],
        },
    )
    late = client.post(f"/games/{you}/part", data=data)
    assert late.status_code == 409
    assert "was saved in the meantime" in late.text
    assert client.get(f"/api/v1/games/{we}/parts").get_json()["parts"][0]["part"] is None


def _summary(html: str) -> str:
    found = re.search(r'<div id="hand-summary".*?</div>', html, re.S)
    assert found is not None
    return found.group(0)


def test_a_refused_part_shows_its_problems_and_no_score(client: FlaskClient) -> None:
    """Going out takes a canasta (docs/rulebook.md, going out): a part that says it went out
    without one is refused, and neither the page sent back nor the live preview shows its
    score as if it counted; the summary points to the red notes."""
    game = game_with_a_hand(client)
    you = game["side_ids"][1]
    data = form_of(client.get(f"/games/{you}?lang=en").text, "hand-form")
    data.setlist("t1-mode", ["quick"])
    for field, value in (("meld_points", "150"), ("hand_points", "0")):
        data.setlist(f"t1-{field}", [value])
    data.setlist("out", ["1"])
    for answer, status in (
        (client.post(f"/games/{you}/part?lang=en", data=data, headers=HTMX), 422),
        (client.post(f"/games/{you}/part/preview?lang=en", data=data, headers=HTMX), 200),
    ):
        assert answer.status_code == status
        summary = _summary(answer.text)
        assert "+250" not in summary and "Check the red notes" in summary, summary
        assert "Going out needs 1 canasta" in answer.text
        assert "+250" not in answer.text  # nor beside the side's fields
    # the same part without going out counts: its score is shown
    data.setlist("out", [])
    fine = client.post(f"/games/{you}/part/preview?lang=en", data=data, headers=HTMX)
    assert "+150" in _summary(fine.text) and "Check the red notes" not in fine.text


def test_the_scorers_form_of_a_new_hand_follows_the_parts(client: FlaskClient) -> None:
    """The scorer's "Enter hand n" page follows the game's event stream: its live part shows
    each side's part as it comes in (and that saving the form opened before it would now be
    a conflict), then that the hand was saved by the last part; 204 while nothing changed."""
    game = client.post(
        "/api/v1/games", json={"ruleset": "classic", "players": 4, "sides": SIDES}
    ).get_json()
    we, you = game["side_ids"]
    page = client.get(f"/games/{game['id']}/hands/new?lang=en").text
    live = re.search(r'<div id="entry-live".*?>', page, re.S)
    assert live is not None
    assert f'data-live="/api/v1/games/{game["view_id"]}/events"' in live.group(0)
    url = f"/games/{game['id']}/hands/new/live?hand=1&base=1"
    assert client.get(url + "&since=1").status_code == 204
    assert client.put(f"/api/v1/games/{we}/parts/0", json={"part": WE}).status_code == 200
    shown = client.get(url + "&since=1&lang=en")
    assert shown.status_code == 200
    assert "1 of 2 sides is in" in shown.text and "Start again from the parts in" in shown.text
    assert 'since=2"' in shown.text  # asks from the version it shows
    assert client.put(f"/api/v1/games/{you}/parts/1", json={"part": YOU}).status_code == 201
    saved = client.get(url + "&since=2&lang=de")
    assert "Spiel 1 wurde inzwischen gespeichert" in saved.text
    assert 'class="card parts"' not in saved.text
    # a correction's form has no such part; a side's key is refused (403), as for the form
    assert 'id="entry-live"' not in client.get(f"/games/{game['id']}/hands/1/edit").text
    assert client.get(f"/games/{we}/hands/new/live?hand=1").status_code == 403


def test_share_panel_offers_each_sides_link_and_qr(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    page = client.get(f"/games/{game['id']}?lang=pl").text
    for key in game["side_ids"]:
        assert f"/games/{key}" in page
    assert page.count('class="side-link"') == 2
    assert page.count('class="qr"') == 3  # the view's and one per side
    assert "Niech każda strona wpisze swoją część" in page


def test_a_shared_backup_file_leaves_the_side_keys_out(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    for kind in KINDS:
        shared = json.loads(client.get(f"/games/{key_of(game, kind)}/export.json").data)
        assert "side_ids" not in shared["games"][0] and "id" not in shared["games"][0]


def test_the_scorers_form_starts_from_the_parts_in(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    we = game["side_ids"][0]
    client.put(f"/api/v1/games/{we}/parts/0", json={"part": {"total": 1230, "went_out": True}})
    page = client.get(f"/games/{game['id']}/hands/new").text
    data = form_of(page, "hand-form")
    assert data["t0-mode"] == "total" and data["t0-total"] == "1230" and data["out"] == "0"
    # the scorer completes the hand: saved whole, the part cleared
    data.setlist("t1-mode", ["total"])
    data.setlist("t1-total", ["350"])
    data["action"] = "save"
    assert client.post(f"/games/{game['id']}/hands", data=data).status_code == 303
    sheet = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert [h["sides"][0]["score"] for h in sheet["hands"]][-1] == 1230
    assert client.get(f"/api/v1/games/{we}/parts").get_json()["parts"][0]["part"] is None


def test_a_finished_game_and_a_closed_round_take_no_part(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    we = game["side_ids"][0]
    won = client.post(
        f"/api/v1/games/{game['id']}/hands",
        json={
            "version": game["version"],
            "teams": [{"total": 9000, "went_out": True}, {"total": 0}],
        },
    )
    assert won.status_code == 201 and won.get_json()["finished"]
    page = client.get(f"/games/{we}?lang=en")
    assert page.status_code == 200 and "The game is over" in page.text
    assert 'id="hand-form"' not in page.text
    refused = client.put(f"/api/v1/games/{we}/parts/0", json={"part": WE})
    assert refused.status_code == 422
    assert refused.get_json()["problems"][0]["code"] == "game.finished"


def test_two_phones_of_one_side_never_overwrite_each_other_unseen(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    we = game["side_ids"][0]
    first = form_of(client.get(f"/games/{we}?lang=en").text, "hand-form")
    second = form_of(client.get(f"/games/{we}?lang=en").text, "hand-form")
    for data, total in ((first, "500"), (second, "700")):
        data.setlist("t0-mode", ["total"])
        data.setlist("t0-total", [total])
    assert client.post(f"/games/{we}/part", data=first).status_code == 303
    stale = client.post(f"/games/{we}/part", data=second, headers=HTMX)
    assert stale.status_code == 409
    assert (
        "Another phone of your side (Wir) changed your part" in stale.text
        and 'value="700"' in stale.text
    )
    shown = client.get(f"/api/v1/games/{we}/parts").get_json()
    assert shown["parts"][0]["part"]["total"] == 500  # the first phone's part stands
    again = form_of(stale.text, "hand-form")  # now knowing the other phone's part
    assert client.post(f"/games/{we}/part", data=again).status_code == 303
    assert client.get(f"/api/v1/games/{we}/parts").get_json()["parts"][0]["part"]["total"] == 700
