"""3 ist 50 in the JSON API (docs/rulebook.md §7, seed 001): the ruleset described, games created,
read (by key and view id), played (piles or points), corrected, deleted, undone and given
back in a shape that can be posted again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.store.test_store import BACKENDS, backend_app, quick

GAMES = "/api/v1/games"
FIFTY = {"ruleset": "three-is-fifty", "players": ["Ann", "Ben", "Cy"]}


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FlaskClient]:
    with backend_app(request.param, tmp_path) as app:
        yield app.test_client()


def create(client: FlaskClient, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post(GAMES, json=body or FIFTY)
    assert response.status_code == 201, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def codes(response: Any) -> list[tuple[str, str]]:
    return [(p["code"], p["where"]) for p in response.get_json()["problems"]]


def totals(body: dict[str, Any]) -> list[int]:
    return [s["total"] for s in body["sides"]]


# ---- the ruleset -------------------------------------------------------------------------------


def test_rulesets_list_and_describe_three_is_fifty(client: FlaskClient) -> None:
    listed = client.get("/api/v1/rulesets").get_json()["rulesets"]
    assert {"id": "three-is-fifty", "name": "3 ist 50", "players": [2, 3, 4, 5, 6]} in listed

    described = client.get("/api/v1/rulesets/three-is-fifty")
    assert described.status_code == 200
    body = described.get_json()
    # Seed 001 "Werte der Karten": 3 = 50, Asse 11, Bilder 10, Zahl ihr Zahlenwert; the joker is
    # the option docs/rulebook.md §7 adds (default 10); four cards dealt to each hand and the
    # middle.
    assert body["card_values"]["3"] == 50 and body["card_values"]["A"] == 11
    assert body["card_values"]["K"] == 10 and body["card_values"]["7"] == 7
    assert body["joker"] == 10 and body["options"]["joker"]["maximum"] == 100
    assert (body["hand_size"], body["middle_size"], body["lowest_wins"]) == (4, 4, True)
    assert body["players"] == 4 and body["deck"]["X"] == 4
    # Six players may use three packs and six jokers (docs/rulebook.md §1).
    six = client.get("/api/v1/rulesets/three-is-fifty?players=6").get_json()
    assert six["players"] == 6 and six["deck"]["X"] == 6
    wrong = client.get("/api/v1/rulesets/three-is-fifty?players=9")
    assert wrong.status_code == 422 and codes(wrong) == [("players.not_allowed", "players")]


# ---- creating ----------------------------------------------------------------------------------


def test_create_by_names_or_by_sides(client: FlaskClient) -> None:
    game = create(client, {**FIFTY, "options": {"joker": 20}, "name": "Freitag"})
    assert game["ruleset"] == "three-is-fifty" and game["players"] == 3
    assert game["options"] == {"joker": 20} and game["name"] == "Freitag"
    assert [(s["name"], s["players"], s["total"]) for s in game["sides"]] == [
        ("Ann", ["Ann"], 0),
        ("Ben", ["Ben"], 0),
        ("Cy", ["Cy"], 0),
    ]
    assert game["version"] == 1 and game["hands"] == [] and game["winner"] is None
    assert len(game["id"]) >= 22 and game["view_id"] != game["id"]

    # The Canasta request's shape: a count and one side per player.
    sides = {
        "ruleset": "three-is-fifty",
        "players": 2,
        "sides": [{"name": "Ann"}, {"players": ["Ben"]}],
        "stop_after": 3,
        "target": 500,
    }
    two = create(client, sides)
    assert [s["name"] for s in two["sides"]] == ["Ann", "Ben"]
    assert (two["stop_after"], two["target"]) == (3, 500)


@pytest.mark.parametrize(
    ("body", "status", "problems"),
    [
        ({"players": ["Ann"]}, 422, [("players.not_allowed", "players")]),
        ({"players": 7}, 422, [("players.not_allowed", "players")]),
        ({"players": 3}, 400, [("request.missing", "sides")]),
        ({"players": None}, 400, [("request.missing", "players")]),
        ({"players": 3, "sides": [{"name": "A"}]}, 422, [("sides.count", "sides")]),
        ({"options": {"joker": 101}}, 422, [("options.invalid", "options.joker")]),
        ({"options": {"jokers": 1}}, 422, [("options.unknown", "options.jokers")]),
        ({"target": "x"}, 400, [("request.type", "target")]),
        ({"stop_after": 0}, 400, [("request.value", "stop_after")]),
        ({"players": ["Ann", ""]}, 422, [("name.invalid", "players[1]")]),
    ],
)
def test_create_refused(
    client: FlaskClient, body: dict[str, Any], status: int, problems: list[tuple[str, str]]
) -> None:
    response = client.post(GAMES, json={**FIFTY, **body}, headers={"Accept-Language": "de"})
    assert response.status_code == status, response.get_json()
    assert codes(response) == problems
    assert all(p["message"] and p["message"] != p["code"] for p in response.get_json()["problems"])


# ---- playing -----------------------------------------------------------------------------------


def test_play_correct_delete_undo_and_read(client: FlaskClient) -> None:
    game = create(client)
    key, view = game["id"], game["view_id"]

    # A deck's minus piles as for POST /api/v1/score: 3+A+K+7 = 78 (seed 001's values),
    # X 2 = 12 with the joker at 10.
    first = client.post(
        f"{GAMES}/{key}/hands", json={"version": 1, "piles": [["3h", "A", "K", "7"], "X 2", []]}
    )
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    assert first.headers["Location"].endswith(f"{GAMES}/{key}/hands/1")
    assert body["hand"] == 1 and body["version"] == 2 and totals(body) == [78, 12, 0]
    assert body["hands"][0]["sides"] == [
        {"points": 78, "total": 78},
        {"points": 12, "total": 12},
        {"points": 0, "total": 0},
    ]
    assert body["leaders"] == [2] and body["next_dealer"]["name"] == "Ben"

    # Points counted at the table, one number per player.
    second = client.post(f"{GAMES}/{key}/hands", json={"version": 2, "points": [10, 0, 5]})
    assert second.status_code == 201 and totals(second.get_json()) == [88, 12, 5]
    assert [h["number"] for h in second.get_json()["hands"]] == [2]

    # A correction, mixed: a pile for one player, points for the others.
    fixed = client.put(
        f"{GAMES}/{key}/hands/1",
        json={"version": 3, "players": [{"cards": ["3s"]}, {"points": 3}, {"cards": []}]},
    )
    assert fixed.status_code == 200, fixed.get_json()
    assert totals(fixed.get_json()) == [60, 3, 5]
    hand = fixed.get_json()["hands"][0]
    assert hand["corrected"] and hand["corrections"][0]["points"] == [78, 12, 0]

    # The Canasta request's key, "teams", is read like "players"; problems sit at that key.
    teams = client.put(
        f"{GAMES}/{key}/hands/2", json={"version": 4, "teams": [{"points": 10}, {}, {"points": 5}]}
    )
    assert teams.status_code == 400 and codes(teams) == [("request.type", "teams[1]")]

    # A stale version is a 409 and changes nothing.
    stale = client.post(f"{GAMES}/{key}/hands", json={"version": 3, "points": [1, 1, 1]})
    assert stale.status_code == 409 and stale.get_json()["version"] == 4

    # Only the last game can be deleted; the delete offers its undo.
    refused = client.delete(f"{GAMES}/{key}/hands/1?version=4")
    assert refused.status_code == 422 and codes(refused)[0][0] == "hand.not_last"
    deleted = client.delete(f"{GAMES}/{key}/hands/2?version=4")
    assert deleted.status_code == 200 and totals(deleted.get_json()) == [50, 3, 0]
    # the same delete again (its answer lost): the first answer, nothing more deleted
    again = client.delete(f"{GAMES}/{key}/hands/2?version=4")
    assert again.status_code == 200 and again.get_json() == deleted.get_json()
    offer = deleted.get_json()["undo"]
    assert isinstance(offer["revision"], int) and offer["until"]
    undone = client.post(f"{GAMES}/{key}/undo", json={"version": 5, "revision": offer["revision"]})
    assert undone.status_code == 200, undone.get_json()
    assert totals(undone.get_json()) == [60, 3, 5] and undone.get_json()["hand"] == 2
    again = client.post(f"{GAMES}/{key}/undo", json={"version": 6})
    assert again.status_code == 422 and codes(again)[0][0] == "hand.undo_expired"

    # Read by view id: everything but the editing key; one game alone.
    seen = client.get(f"{GAMES}/{view}")
    assert seen.status_code == 200 and "id" not in seen.get_json()
    assert totals(seen.get_json()) == [60, 3, 5] and len(seen.get_json()["hands"]) == 2
    one = client.get(f"{GAMES}/{view}/hands/1").get_json()
    assert one["players"] == [{"cards": ["3"]}, {"points": 3}, {"cards": []}]
    assert client.get(f"{GAMES}/{view}/hands/9").status_code == 404
    # The view id grants no editing.
    assert (
        client.post(f"{GAMES}/{view}/hands", json={"version": 6, "points": [0, 0, 0]}).status_code
        == 404
    )


def test_the_answer_can_be_posted_again(client: FlaskClient) -> None:
    """A game's stored entries come back in the shape a save takes (the backup's need)."""
    game = create(client)
    key = game["id"]
    client.post(f"{GAMES}/{key}/hands", json={"version": 1, "piles": [["Q", "3h"], ["X"], []]})
    stored = client.get(f"{GAMES}/{key}").get_json()
    copy = create(client)
    again = client.post(
        f"{GAMES}/{copy['id']}/hands", json={"version": 1, "players": stored["hands"][0]["players"]}
    )
    assert again.status_code == 201 and totals(again.get_json()) == totals(stored) == [60, 10, 0]


@pytest.mark.parametrize(
    ("entry", "status", "problems"),
    [
        ({}, 400, [("request.missing", "piles")]),
        ({"piles": [["Z"], [], []]}, 422, [("card.unknown", "piles[0]")]),
        ({"piles": [[], []]}, 422, [("piles.count", "piles")]),
        ({"points": [5, -1, 0]}, 400, [("request.value", "points[1]")]),
        ({"points": [5, "x", 0]}, 400, [("request.type", "points[1]")]),
        (
            {"piles": [["X"] * 3, ["X"] * 2, []]},
            422,
            [("card.too_many", "piles[0]"), ("card.too_many", "piles[1]")],
        ),
        ({"points": [600, 600, 0]}, 422, [("three_is_fifty.points_over_deck", "points")]),
    ],
)
def test_entries_refused(
    client: FlaskClient, entry: dict[str, Any], status: int, problems: list[tuple[str, str]]
) -> None:
    game = create(client)
    response = client.post(
        f"{GAMES}/{game['id']}/hands",
        json={"version": 1, **entry},
        headers={"Accept-Language": "pl"},
    )
    assert response.status_code == status, response.get_json()
    assert codes(response) == problems
    assert all(p["message"] != p["code"] for p in response.get_json()["problems"])
    assert client.get(f"{GAMES}/{game['id']}").get_json()["version"] == 1


def test_the_evening_ends_and_names_its_winner(client: FlaskClient) -> None:
    game = create(client, {**FIFTY, "stop_after": 1})
    done = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "points": [30, 8, 20]})
    body = done.get_json()
    # Seed 001: "Wer am wenigsten hat, ist der Sieger".
    assert body["finished"] and body["winner"] == 1 and body["winners"] == [1]
    more = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 2, "points": [0, 0, 0]})
    assert more.status_code == 422 and codes(more) == [("game.finished", "")]


def test_canasta_undo_through_the_api(client: FlaskClient) -> None:
    """The same undo for a Canasta game (the store keeps the deletion for both games)."""
    german = {
        "ruleset": "german",
        "players": 4,
        "sides": [{"name": "Wir", "players": ["A", "B"]}, {"name": "Ihr", "players": ["C", "D"]}],
    }
    game = create(client, german)
    hands = [quick(meld=400, natural=1), quick(meld=100)]
    added = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": hands})
    assert added.status_code == 201, added.get_json()
    before, after = (s["total"] for s in added.get_json()["sides"])
    deleted = client.delete(f"{GAMES}/{game['id']}/hands/1?version=2").get_json()
    assert deleted["hands"] == [] and deleted["version"] == 3
    stale = client.post(f"{GAMES}/{game['id']}/undo", json={"version": 2})
    assert stale.status_code == 409
    undone = client.post(f"{GAMES}/{game['id']}/undo", json={"version": 3})
    assert undone.status_code == 200 and [s["total"] for s in undone.get_json()["sides"]] == [
        before,
        after,
    ]


def test_an_entry_sent_twice_is_stored_once(client: FlaskClient) -> None:
    """Exactly once for 3 ist 50 through the API: a repeated ``entry_id`` is answered as the first
    time (same game number, 201) and changes nothing, whatever version it carries."""
    game = create(client)
    url = f"{GAMES}/{game['id']}/hands"
    first = client.post(url, json={"version": 1, "points": [10, 0, 5], "entry_id": "phone-1-a"})
    again = client.post(url, json={"version": 1, "points": [10, 0, 5], "entry_id": "phone-1-a"})
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.get_json()["hand"] == again.get_json()["hand"] == 1
    read = client.get(f"{GAMES}/{game['id']}").get_json()
    assert len(read["hands"]) == 1 and read["version"] == 2
    bad = client.post(url, json={"version": 2, "points": [5, 5, 5], "entry_id": "no"})
    assert bad.status_code == 400 and codes(bad) == [("request.entry_id", "entry_id")]
