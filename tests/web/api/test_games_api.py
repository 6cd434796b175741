"""The stored-games JSON API (docs/api.md §3 "Games (stored)")."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.api import games as games_api
from tests.store.test_store import CUTTHROAT_SIDES, GERMAN_SIDES, quick
from tests.web.examples import CONTRACT_TEAMS

GAMES = "/api/v1/games"
GERMAN = {"ruleset": "german", "players": 4, "sides": GERMAN_SIDES, "options": {}}
DETAIL_HAND = CONTRACT_TEAMS


def create(client: FlaskClient, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post(GAMES, json=body or GERMAN)
    assert response.status_code == 201, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def codes(response: Any) -> list[str]:
    return [p["code"] for p in response.get_json()["problems"]]


# ---- the happy path ------------------------------------------------------------------------------


def test_create_read_and_score(any_client: FlaskClient) -> None:
    client = any_client
    response = client.post(GAMES, json={**GERMAN, "name": "Freitag"})
    assert response.status_code == 201
    game = response.get_json()
    assert response.headers["Location"].endswith(f"{GAMES}/{game['id']}")
    assert game["version"] == 1 and game["winner"] is None and game["hands"] == []
    assert len(game["id"]) >= 22 and game["view_id"] != game["id"]
    assert [(s["name"], s["total"], s["minimum_meld"]) for s in game["sides"]] == [
        ("Wir", 0, 50),
        ("Ihr", 0, 50),
    ]
    assert game["target"] == 5000 and game["name"] == "Freitag"

    response = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": DETAIL_HAND})
    assert response.status_code == 201, response.get_json()
    sheet = response.get_json()
    assert sheet["version"] == 2 and sheet["hand"] == 1
    assert response.headers["Location"].endswith(f"{GAMES}/{game['id']}/hands/1")
    # The same numbers as POST /api/v1/score (docs/api.md §3): 690 and 415.
    hand = sheet["hands"][0]
    assert [s["score"] for s in hand["sides"]] == [690, 415]
    assert hand["sides"][0]["items"] == {
        "melded_cards": 205,
        "canasta_bonus": 300,
        "red_threes": 100,
        "going_out": 100,
        "in_hand": -15,
    }
    assert hand["teams"] == DETAIL_HAND  # stored exactly as entered
    assert [s["total"] for s in sheet["sides"]] == [690, 415]
    assert sheet["next_dealer"] == {"seat": 1, "name": "Cleo", "side": 1}

    detail = client.get(f"{GAMES}/{game['id']}")
    # the sides' keys come with the game's key (docs/parts.md), the rest as the save answered
    assert detail.status_code == 200 and detail.get_json() == {
        **{k: v for k, v in sheet.items() if k != "hand"},
        "side_ids": game["side_ids"],
    }
    one = client.get(f"{GAMES}/{game['id']}/hands/1").get_json()
    assert one["number"] == 1 and one["version"] == 2
    assert client.get(f"{GAMES}/{game['id']}/hands/2").status_code == 404

    # The view key reads without the editing key, and cannot write.
    view = client.get(f"{GAMES}/{game['view_id']}")
    assert view.status_code == 200 and "id" not in view.get_json()
    assert view.get_json()["sides"] == sheet["sides"]
    assert client.get(f"{GAMES}/{game['view_id']}/hands/1").status_code == 200
    denied = client.post(
        f"{GAMES}/{game['view_id']}/hands", json={"version": 2, "teams": DETAIL_HAND}
    )
    assert denied.status_code == 404 and codes(denied) == ["game.not_found"]


def two_hands(client: FlaskClient) -> tuple[str, str]:
    """A new game with two hands in detail (version 3): its id and its hands' address."""
    game_id = create(client)["id"]
    hands = f"{GAMES}/{game_id}/hands"
    for version in (1, 2):
        assert (
            client.post(hands, json={"version": version, "teams": DETAIL_HAND}).status_code == 201
        )
    return game_id, hands


def test_edit_and_delete_hands(any_client: FlaskClient) -> None:
    client = any_client
    game_id, hands = two_hands(client)
    edited = client.put(
        f"{hands}/1",
        json={
            "version": 3,
            "teams": [quick(meld=300, natural=2, red=1, out=True), quick(meld=50, hand=20)],
        },
    )
    assert edited.status_code == 200, edited.get_json()
    sheet = edited.get_json()
    assert sheet["version"] == 4 and [s["total"] for s in sheet["sides"]] == [2190, 445]
    assert [s["minimum_meld"] for s in sheet["sides"]] == [90, 50]

    not_last = client.delete(f"{hands}/1", json={"version": 4})
    assert not_last.status_code == 422 and codes(not_last) == ["hand.not_last"]
    deleted = client.delete(f"{hands}/2?version=4")
    assert deleted.status_code == 200 and deleted.get_json()["version"] == 5
    assert [s["total"] for s in deleted.get_json()["sides"]] == [1500, 30]
    deleted = client.delete(f"{hands}/1", json={"version": 5})
    assert deleted.status_code == 200 and deleted.get_json()["hands"] == []
    for method in (client.put, client.delete):
        missing = method(f"{hands}/1", json={"version": 6, "teams": DETAIL_HAND})
        assert missing.status_code == 404 and codes(missing) == ["hand.not_found"]
    assert client.delete(f"{hands}/x?version=6").status_code == 404
    assert codes(client.delete(f"{hands}/1")) in (["hand.not_found"], ["request.missing"])


def test_cutthroat_over_the_api(any_client: FlaskClient) -> None:
    client = any_client
    game = create(client, {"ruleset": "classic", "players": 3, "sides": CUTTHROAT_SIDES})
    assert game["cutthroat"] and game["target"] == 7500
    assert [s["name"] for s in game["sides"]] == ["Ann", "Bob", "Cy"]
    response = client.post(
        f"{GAMES}/{game['id']}/hands",
        json={
            "version": 1,
            "lone_player": 0,
            "teams": [quick(meld=100, red=1), quick(meld=200, natural=2, red=[1, 0], out=True)],
        },
    )
    assert response.status_code == 201, response.get_json()
    sheet = response.get_json()
    assert [s["total"] for s in sheet["sides"]] == [200, 1400, 1300]
    assert [s["alone"] for s in sheet["hands"][0]["sides"]] == [True, False, False]
    assert sheet["hands"][0]["lone_player"] == 0
    stock_out = client.post(
        f"{GAMES}/{game['id']}/hands",
        json={"version": 2, "teams": [quick(meld=50), quick(meld=60), quick(meld=70)]},
    )
    # a save answers with the hands it changed: here the second one only
    assert stock_out.status_code == 201 and stock_out.get_json()["hands_from"] == 2
    assert [h["number"] for h in stock_out.get_json()["hands"]] == [2]
    assert stock_out.get_json()["hands"][0]["stock_out"]
    missing = client.post(
        f"{GAMES}/{game['id']}/hands",
        json={"version": 3, "teams": [quick(meld=100), quick(meld=200, natural=2, out=True)]},
    )
    assert missing.status_code == 422 and "hand.lone_player" in codes(missing)


def test_winner_over_the_api(client: FlaskClient) -> None:
    game_id = create(client, {**GERMAN, "target": 1000})["id"]
    sheet = client.post(
        f"{GAMES}/{game_id}/hands",
        json={"version": 1, "teams": [quick(meld=300, natural=2, out=True), quick(meld=50)]},
    ).get_json()
    assert sheet["winner"] == 0 and sheet["finished"]
    over = client.post(
        f"{GAMES}/{game_id}/hands", json={"version": 2, "teams": [quick(meld=50), quick(meld=50)]}
    )
    assert over.status_code == 422 and codes(over) == ["game.finished"]
    corrected = client.put(
        f"{GAMES}/{game_id}/hands/1",
        json={"version": 2, "teams": [quick(meld=50), quick(meld=300, natural=2, out=True)]},
    )
    assert corrected.get_json()["winner"] == 1


# ---- conflicts and problems --------------------------------------------------------------------


def test_two_phones_stale_version(any_client: FlaskClient) -> None:
    phone_a, phone_b = any_client, any_client.application.test_client()
    game_id = create(phone_a)["id"]
    seen_a = phone_a.get(f"{GAMES}/{game_id}").get_json()["version"]
    seen_b = phone_b.get(f"{GAMES}/{game_id}").get_json()["version"]
    first = phone_a.post(f"{GAMES}/{game_id}/hands", json={"version": seen_a, "teams": DETAIL_HAND})
    assert first.status_code == 201
    second = phone_b.post(
        f"{GAMES}/{game_id}/hands",
        json={"version": seen_b, "teams": DETAIL_HAND},
        headers={"Accept-Language": "de"},
    )
    assert second.status_code == 409
    body = second.get_json()
    assert codes(second) == ["game.version_conflict"] and body["version"] == 2
    assert body["problems"][0]["message"]
    assert "Accept-Language" in second.headers.get("Vary", "")
    for change in (phone_b.put, phone_b.delete):
        stale = change(f"{GAMES}/{game_id}/hands/1", json={"version": 1, "teams": DETAIL_HAND})
        assert stale.status_code == 409
    sheet = phone_b.get(f"{GAMES}/{game_id}").get_json()
    assert sheet["version"] == 2 and len(sheet["hands"]) == 1


def test_concurrent_posts(any_client: FlaskClient) -> None:
    app = any_client.application
    game_id = create(any_client)["id"]
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def post() -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(
            client.post(
                f"{GAMES}/{game_id}/hands", json={"version": 1, "teams": DETAIL_HAND}
            ).status_code
        )

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [201, 409]
    assert len(any_client.get(f"{GAMES}/{game_id}").get_json()["hands"]) == 1


def test_problems_leave_the_game_unchanged(client: FlaskClient) -> None:
    game_id = create(client)["id"]
    before = client.get(f"{GAMES}/{game_id}").get_json()
    bad = client.post(
        f"{GAMES}/{game_id}/hands",
        json={"version": 1, "teams": [{"melds": [["K", "K"]], "went_out": False}, quick(meld=50)]},
    )
    assert bad.status_code == 422 and codes(bad) == ["meld.too_small"]
    assert bad.get_json()["problems"][0]["where"] == "teams[0].melds[0]"
    unreadable = client.post(f"{GAMES}/{game_id}/hands", json={"version": 1, "teams": "KKK"})
    assert unreadable.status_code == 400
    assert client.get(f"{GAMES}/{game_id}").get_json() == before


def test_failure_mid_save_over_the_api(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = create(client)["id"]
    before = client.get(f"{GAMES}/{game_id}").get_json()

    def broken(*given: Any, **named: Any) -> Any:
        raise RuntimeError("rendering the answer failed after the hand was written")

    monkeypatch.setattr(games_api, "state_json", broken)
    response = client.post(f"{GAMES}/{game_id}/hands", json={"version": 1, "teams": DETAIL_HAND})
    assert response.status_code == 500 and codes(response) == ["request.invalid"]
    monkeypatch.undo()
    # The answer is built after the commit (the write lock is held for the change
    # only), so the hand was saved whole; sending the same save again cannot store it twice.
    after = client.get(f"{GAMES}/{game_id}").get_json()
    assert after["version"] == before["version"] + 1 and len(after["hands"]) == 1
    again = client.post(f"{GAMES}/{game_id}/hands", json={"version": 1, "teams": DETAIL_HAND})
    assert again.status_code == 409
    assert client.get(f"{GAMES}/{game_id}").get_json() == after


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({**GERMAN, "ruleset": "bridge"}, 422, "ruleset.unknown"),
        # a missing ruleset is a missing field like any other (as POST /api/v1/score says)
        ({k: v for k, v in GERMAN.items() if k != "ruleset"}, 400, "request.missing"),
        ({**GERMAN, "ruleset": None}, 400, "request.missing"),
        ({**GERMAN, "ruleset": 7}, 400, "request.type"),
        ({**GERMAN, "players": 3}, 422, "players.not_allowed"),
        ({**GERMAN, "options": {"two_value": "many"}}, 422, "options.invalid"),
        ({**GERMAN, "sides": GERMAN_SIDES[:1]}, 422, "sides.count"),
        (
            {**GERMAN, "sides": [{"name": "x" * 41, "players": ["a", "b"]}, GERMAN_SIDES[1]]},
            422,
            "name.invalid",
        ),
        ({k: v for k, v in GERMAN.items() if k != "sides"}, 400, "request.missing"),
        ({**GERMAN, "target": "lots"}, 400, "request.type"),
        ([GERMAN], 400, "request.type"),
    ],
)
def test_create_problems(client: FlaskClient, body: Any, status: int, code: str) -> None:
    response = client.post(GAMES, json=body)
    assert response.status_code == status
    assert code in codes(response)


def test_unknown_game(client: FlaskClient) -> None:
    for key in ("nope", "A" * 22, "../etc", "x" * 500):
        for method, path in (
            ("get", ""),
            ("post", "/hands"),
            ("put", "/hands/1"),
            ("delete", "/hands/1"),
            ("get", "/hands/1"),
        ):
            response = getattr(client, method)(f"{GAMES}/{key}{path}", json={"version": 1})
            assert response.status_code == 404, (method, key, path)
            assert codes(response) in (["game.not_found"], ["request.not_found"])
    assert client.patch(f"{GAMES}/x").status_code == 405


def test_names_come_back_as_given(client: FlaskClient) -> None:
    sides = [{"name": "<b>Wir</b> & Co", "players": ["Zoë", "Łukasz"]}, GERMAN_SIDES[1]]
    game = create(client, {**GERMAN, "sides": sides})
    assert game["sides"][0]["name"] == "<b>Wir</b> & Co"
    assert game["sides"][0]["players"] == ["Zoë", "Łukasz"]


# ---- never a 500 -------------------------------------------------------------------------------

JUNK: list[Any] = [
    None,
    True,
    0,
    -1,
    2**70,
    1.5,
    "",
    "K",
    "x" * 300,
    [],
    {},
    [None],
    {"a": 1},
    [[[]]],
    ["K", "K"],
    {"quick": None},
    {"melds": [[None]]},
    float("nan"),
    "\u0000",
    "\ud800",
    {"\udfff": "x"},
    "3h" * 60,
]


def _mutate(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """A copy of ``value`` with some nodes replaced by junk."""
    if depth > 6 or rng.random() < 0.04:
        return rng.choice(JUNK)
    if isinstance(value, dict):
        out = {k: _mutate(v, rng, depth + 1) for k, v in value.items() if rng.random() > 0.03}
        if rng.random() < 0.05:
            out[
                rng.choice(
                    [
                        "version",
                        "teams",
                        "junk",
                        "lone_player",
                        "stock_out",
                        "sides",
                        "players",
                        "ruleset",
                        "options",
                    ]
                )
            ] = rng.choice(JUNK)
        return out
    if isinstance(value, list):
        return [_mutate(v, rng, depth + 1) for v in value if rng.random() > 0.03]
    return value


def _check(response: Any) -> None:
    assert response.status_code in (200, 201, 400, 404, 405, 409, 422), response.data[:300]
    body = response.get_json()
    if response.status_code >= 400:
        assert body["problems"] and all(p["code"] and "message" in p for p in body["problems"])


def test_fuzz_never_500(client: FlaskClient) -> None:
    rng = random.Random(20240601)
    game = create(client)
    cutthroat = create(client, {"ruleset": "classic", "players": 3, "sides": CUTTHROAT_SIDES})
    raw_bodies = [
        b"",
        b"{",
        b"null",
        b"\xff\xfe",
        b"[" * 5000 + b"]" * 5000,
        b'{"version": 1e999}',
        b'{"version": NaN, "teams": [Infinity]}',
        '{"teams": "\u0000"}'.encode(),
    ]
    for game_id in (game["id"], cutthroat["id"]):
        for raw in raw_bodies:
            for method, path in (("post", ""), ("put", "/1"), ("delete", "/1")):
                _check(
                    getattr(client, method)(
                        f"{GAMES}/{game_id}/hands{path}", data=raw, content_type="application/json"
                    )
                )
        for raw in raw_bodies:
            _check(client.post(GAMES, data=raw, content_type="application/json"))
    bodies = {
        game["id"]: {"teams": DETAIL_HAND},
        cutthroat["id"]: {
            "lone_player": 1,
            "stock_out": False,
            "teams": [
                {
                    "melds": [["K", "K", "K", "K", "K", "K", "K"], ["A"] * 6 + ["X"]],
                    "red_threes": 1,
                    "hands": [[]],
                    "went_out": True,
                },
                {"melds": [["9", "9", "9"]], "hands": [["4"], ["3s", "Q"]], "red_threes": [0, 1]},
            ],
        },
    }
    statuses: set[int] = set()
    for _ in range(400):
        target = rng.choice([game, cutthroat])
        sheet = client.get(f"{GAMES}/{target['id']}").get_json()
        body = _mutate({**bodies[target["id"]], "version": sheet["version"]}, rng)
        method, path = rng.choice([("post", ""), ("post", ""), ("put", ""), ("delete", "")])
        if method != "post":
            path = f"/{max(1, len(sheet['hands']))}"
        text = json.dumps(body, allow_nan=True)
        response = getattr(client, method)(
            f"{GAMES}/{target['id']}/hands{path}", data=text, content_type="application/json"
        )
        _check(response)
        statuses.add(response.status_code)
        _check(
            client.post(
                GAMES,
                data=json.dumps(_mutate(GERMAN, rng), allow_nan=True),
                content_type="application/json",
            )
        )
    assert {200, 201, 400, 422} <= statuses  # the fuzz reaches the saving code, too
    for query in ("?version=abc", "?version=99999999999999999999", "?version=-1", "?version=%00"):
        _check(client.delete(f"{GAMES}/{game['id']}/hands/1{query}"))


def test_api_is_exempt_from_csrf(app: Flask) -> None:
    # The blueprint is registered by create_app and exempt from CSRF even when CSRF is on.
    app.config["WTF_CSRF_ENABLED"] = True
    response = app.test_client().post(GAMES, json=GERMAN)
    assert response.status_code == 201


def test_a_delete_sent_again_is_answered_as_the_first(any_client: FlaskClient) -> None:
    """A phone that lost the answer to a delete and sends it again (same hand, same version)
    gets the first answer, not a conflict; nothing else changes. Once anything else changed,
    the old delete is a conflict again."""
    client = any_client
    game_id, hands = two_hands(client)
    first = client.delete(f"{hands}/2?version=3")
    assert first.status_code == 200 and first.get_json()["version"] == 4
    again = client.delete(f"{hands}/2?version=3")
    assert again.status_code == 200, again.get_json()
    assert again.get_json() == first.get_json()
    assert len(client.get(f"{GAMES}/{game_id}").get_json()["hands"]) == 1
    # not a repeat: another hand number, or the version the delete itself answered
    assert client.delete(f"{hands}/1?version=3").status_code == 409
    assert client.post(hands, json={"version": 4, "teams": DETAIL_HAND}).status_code == 201
    stale = client.delete(f"{hands}/2?version=3")
    assert stale.status_code == 409
    assert len(client.get(f"{GAMES}/{game_id}").get_json()["hands"]) == 2
