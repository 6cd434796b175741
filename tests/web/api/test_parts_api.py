"""A hand entered by its sides over the JSON API (docs/parts.md): side keys, parts entered,
corrected and taken back, the hand saved by the part that completes it, exactly as the whole
hand would have been saved, and every refusal (403, 409, 422) leaving the other parts as they
were. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.store.test_store import GERMAN_SIDES

# seed 000 (the classic rules): two natural canastas of kings and queens, a red three, gone
# out; the other side a mixed canasta of sevens and cards left in hand.
WE = {
    "melds": [["K"] * 7, ["Q"] * 7, ["5", "5", "5"]],
    "hands": [[], ["9"]],
    "red_threes": 1,
    "went_out": True,
}
YOU = {
    "melds": [["7", "7", "7", "7", "7", "2", "X"]],
    "hands": [["4", "J"], ["8"]],
    "red_threes": 0,
    "went_out": False,
}


def new_game(
    client: FlaskClient, sides: list[dict[str, Any]] | None = None, players: int = 4
) -> dict[str, Any]:
    response = client.post(
        "/api/v1/games",
        json={"ruleset": "classic", "players": players, "sides": sides or GERMAN_SIDES},
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def codes(response: Any) -> list[str]:
    return [p["code"] for p in response.get_json()["problems"]]


def put(client: FlaskClient, key: str, side: int, part: Any, **extra: Any) -> Any:
    return client.put(f"/api/v1/games/{key}/parts/{side}", json={"part": part, **extra})


def test_side_keys_are_given_with_the_game_key_only(any_client: FlaskClient) -> None:
    game = new_game(any_client)
    keys = game["side_ids"]
    assert len(keys) == 2 and len(set(keys)) == 2
    assert all(len(k) >= 16 and k not in (game["id"], game["view_id"]) for k in keys)
    again = any_client.get(f"/api/v1/games/{game['id']}").get_json()
    assert again["side_ids"] == keys
    by_side = any_client.get(f"/api/v1/games/{keys[1]}").get_json()
    by_view = any_client.get(f"/api/v1/games/{game['view_id']}").get_json()
    assert "id" not in by_side and "side_ids" not in by_side and by_side["side"] == 1
    assert "side_ids" not in by_view
    assert by_side["sides"] == by_view["sides"]


def test_parts_save_the_hand_once_as_the_whole_hand_would(any_client: FlaskClient) -> None:
    game = new_game(any_client)
    we, you = game["side_ids"]
    first = put(any_client, we, 0, WE, entry_id="part-we-0001")
    assert first.status_code == 200, first.get_json()
    body = first.get_json()
    assert body["hand"] == 1 and body["version"] == game["version"] + 1
    assert body["parts"][0]["part"]["went_out"] is True
    assert body["parts"][0]["score"]["items"]["going_out"] == 100
    assert body["parts"][1] == {"side": 1, "part": None, "score": None}
    # the view sees the part coming in
    seen = any_client.get(f"/api/v1/games/{game['view_id']}/parts").get_json()
    assert seen == body
    done = put(any_client, you, 1, YOU)
    assert done.status_code == 201, done.get_json()
    saved = done.get_json()
    assert saved["hand"] == 2
    assert [p["part"] for p in saved["parts"]] == [None, None]
    assert saved["saved"]["number"] == 1
    # the same hand entered whole in another game scores the same
    whole = new_game(any_client)
    answer = any_client.post(
        f"/api/v1/games/{whole['id']}/hands", json={"version": whole["version"], "teams": [WE, YOU]}
    )
    assert answer.status_code == 201
    assert saved["saved"]["teams"] == answer.get_json()["hands"][0]["teams"]
    assert saved["saved"]["sides"][0]["score"] == answer.get_json()["hands"][0]["sides"][0]["score"]
    sheet = any_client.get(f"/api/v1/games/{game['id']}").get_json()
    assert len(sheet["hands"]) == 1
    assert [s["total"] for s in sheet["sides"]] == [s["total"] for s in answer.get_json()["sides"]]
    # the first part sent again is recognised: it does not start the next hand
    again = put(any_client, we, 0, WE, entry_id="part-we-0001")
    assert again.status_code == 200
    assert again.get_json()["parts"][0]["part"] is None
    assert again.get_json()["version"] == saved["version"]


def test_side_key_rights(any_client: FlaskClient) -> None:
    game = new_game(any_client)
    we, you = game["side_ids"]
    assert put(any_client, we, 1, YOU).status_code == 403
    assert codes(put(any_client, we, 1, YOU)) == ["side.other"]
    assert codes(put(any_client, game["view_id"], 0, WE)) == ["view.read_only"]
    assert any_client.delete(f"/api/v1/games/{you}/parts/0").status_code == 403
    # the game's key enters any side
    assert put(any_client, game["id"], 1, YOU).status_code == 200
    refused = any_client.post(f"/api/v1/games/{we}/hands", json={"version": 1, "teams": [WE, YOU]})
    assert refused.status_code == 403 and codes(refused) == ["side.read_only"]
    assert "Saved hands" in refused.get_json()["problems"][0]["message"]
    german = any_client.post(
        f"/api/v1/games/{we}/hands",
        json={"version": 1, "teams": [WE, YOU]},
        headers={"Accept-Language": "de"},
    )
    assert (
        german.get_json()["problems"][0]["message"] != refused.get_json()["problems"][0]["message"]
    )
    for method, path in (
        ("put", "/hands/1"),
        ("delete", "/hands/1"),
        ("post", "/undo"),
    ):
        answer = getattr(any_client, method)(f"/api/v1/games/{you}{path}", json={"version": 1})
        assert answer.status_code == 403, (method, path)
    # nothing changed by the refusals
    state = any_client.get(f"/api/v1/games/{game['id']}").get_json()
    assert state["hands"] == [] and state["version"] == game["version"] + 1


def test_problems_leave_the_other_parts(any_client: FlaskClient) -> None:
    game = new_game(any_client)
    assert put(any_client, game["id"], 0, WE).status_code == 200
    bad = put(any_client, game["id"], 1, {**YOU, "melds": [["7", "7"]]})
    assert bad.status_code == 422
    assert "meld.too_small" in codes(bad)
    assert bad.get_json()["problems"][0]["where"].startswith("part")
    both_out = put(any_client, game["id"], 1, {**YOU, "went_out": True})
    assert both_out.status_code == 422 and "going_out.two_sides" in codes(both_out)
    unreadable = put(any_client, game["id"], 1, {"melds": "nonsense!", "bogus": 1})
    assert unreadable.status_code == 400
    missing = any_client.put(f"/api/v1/games/{game['id']}/parts/1", json={})
    assert missing.status_code == 400 and codes(missing) == ["request.missing"]
    huge = put(any_client, game["id"], 1, {**YOU, "hands": [["4"] * 5000]})
    assert huge.status_code in (400, 422)
    assert (
        any_client.put(f"/api/v1/games/{game['id']}/parts/7", json={"part": YOU}).status_code == 404
    )
    assert (
        any_client.put(f"/api/v1/games/{game['id']}/parts/x", json={"part": YOU}).status_code == 404
    )
    shown = any_client.get(f"/api/v1/games/{game['id']}/parts").get_json()
    assert shown["parts"][0]["part"]["went_out"] is True and shown["parts"][1]["part"] is None
    assert shown["version"] == game["version"] + 1


def test_two_phones_of_one_side_and_a_hand_saved_meanwhile(any_client: FlaskClient) -> None:
    game = new_game(any_client)
    we, you = game["side_ids"]
    read = any_client.get(f"/api/v1/games/{we}/parts").get_json()
    first = put(any_client, we, 0, WE, version=read["version"], hand=1)
    assert first.status_code == 200
    # a second phone of the same side, still at the old version: refused, sees the part
    stale = put(any_client, we, 0, {**WE, "red_threes": 2}, version=read["version"], hand=1)
    assert stale.status_code == 409 and codes(stale) == ["game.version_conflict"]
    assert stale.get_json()["parts"][0]["part"]["red_threes"] == 1
    # the other side's phone is not held up by it
    other = any_client.get(f"/api/v1/games/{you}/parts").get_json()
    # the scorer enters the whole hand meanwhile: the pending part is cleared
    whole = any_client.post(
        f"/api/v1/games/{game['id']}/hands",
        json={"version": other["version"], "teams": [WE, YOU]},
    )
    assert whole.status_code == 201
    assert [
        p["part"] for p in any_client.get(f"/api/v1/games/{you}/parts").get_json()["parts"]
    ] == [None, None]
    late = put(any_client, you, 1, YOU, version=other["version"], hand=1)
    assert late.status_code == 409 and codes(late) == ["part.hand_saved"]
    assert [h["number"] for h in late.get_json()["hands"]] == [1]
    # a correction of the own part, then taking it back
    assert put(any_client, you, 1, YOU, hand=2).status_code == 200
    fixed = put(any_client, you, 1, {**YOU, "red_threes": 1}, hand=2)
    assert fixed.get_json()["parts"][1]["part"]["red_threes"] == 1
    gone = any_client.delete(f"/api/v1/games/{you}/parts/1")
    assert gone.status_code == 200 and gone.get_json()["parts"][1]["part"] is None
    assert gone.get_json()["version"] == fixed.get_json()["version"] + 1


def test_parts_survive_a_restart(tmp_path: Any) -> None:
    from scorekeeper import create_app

    config = {
        "TESTING": True,
        "SECRET_KEY": "t",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'parts.sqlite3'}",
        "WTF_CSRF_ENABLED": False,
    }
    app = create_app(config)
    game = new_game(app.test_client())
    assert put(app.test_client(), game["side_ids"][0], 0, WE).status_code == 200
    app.extensions["scorekeeper.engine"].dispose()
    again = create_app(config).test_client()
    shown = again.get(f"/api/v1/games/{game['id']}/parts").get_json()
    assert shown["parts"][0]["part"]["went_out"] is True


def test_three_sides_and_no_side_keys_in_cutthroat(any_client: FlaskClient) -> None:
    sides = [{"name": n, "players": [n + "1", n + "2"]} for n in ("A", "B", "C")]
    game = new_game(any_client, sides, players=6)
    assert len(game["side_ids"]) == 3
    three = {"melds": [["K"] * 7, ["Q"] * 7, ["J"] * 7], "hands": [[], []], "went_out": True}
    mixed = {"melds": [["5", "5", "5"]], "hands": [["4"], ["8"]]}
    assert put(any_client, game["side_ids"][0], 0, three).status_code == 200
    assert put(any_client, game["side_ids"][2], 2, mixed).status_code == 200
    done = put(any_client, game["side_ids"][1], 1, mixed)
    assert done.status_code == 201, done.get_json()
    assert done.get_json()["saved"]["sides"][0]["items"]["going_out"] == 100
    cut = new_game(
        any_client, [{"players": ["Ann"]}, {"players": ["Bob"]}, {"players": ["Cy"]}], players=3
    )
    assert cut["side_ids"] == []
    refused = put(any_client, cut["id"], 0, WE)
    assert refused.status_code == 422 and codes(refused) == ["part.no_sides"]


def test_both_sides_at_once_save_one_hand(any_client: FlaskClient) -> None:
    game = new_game(any_client)
    answers: list[int] = []

    def send(key: str, side: int, part: dict[str, Any]) -> None:
        answers.append(put(any_client, key, side, part).status_code)

    threads = [
        threading.Thread(target=send, args=(game["side_ids"][0], 0, WE)),
        threading.Thread(target=send, args=(game["side_ids"][1], 1, YOU)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 201]
    sheet = any_client.get(f"/api/v1/games/{game['id']}").get_json()
    assert len(sheet["hands"]) == 1


def test_unknown_keys(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/api/v1/games/nosuchgamekeyatall1/parts").status_code == 404
    assert put(client, "nosuchgamekeyatall1", 0, WE).status_code == 404


def test_an_entry_id_used_again_for_another_part_is_refused(any_client: FlaskClient) -> None:
    game = new_game(any_client)
    we = game["side_ids"][0]
    first = put(any_client, we, 0, WE, entry_id="part-we-0002")
    assert first.status_code == 200
    again = put(any_client, we, 0, WE, entry_id="part-we-0002")
    assert again.status_code == 200 and again.get_json()["version"] == first.get_json()["version"]
    other = put(any_client, we, 0, {**WE, "red_threes": 3}, entry_id="part-we-0002")
    assert other.status_code == 409 and codes(other) == ["entry.reused"]
    shown = any_client.get(f"/api/v1/games/{we}/parts").get_json()
    assert shown["parts"][0]["part"]["red_threes"] == 1


def test_parts_count_against_the_write_limit(tmp_path: Any) -> None:
    from tests.web.app.test_hardening import make_app

    with make_app(tmp_path, RATELIMIT_ENABLED=True, LIMIT_WRITE="2 per minute") as app:
        client = app.test_client()
        game = new_game(client)
        we = game["side_ids"][0]
        assert put(client, we, 0, WE).status_code == 200
        assert client.delete(f"/api/v1/games/{we}/parts/0").status_code == 200
        limited = put(client, we, 0, WE)
        assert limited.status_code == 429 and limited.headers.get("Retry-After")


def test_a_closed_tournament_round_takes_no_part(client: FlaskClient) -> None:
    tournament = client.post(
        "/api/v1/tournaments",
        json={
            "name": "Klub",
            "ruleset": "classic",
            "players": 4,
            "format": "pairs",
            "scoring": "points",
            "round_end": {"hands": 2},
            "participants": [["Anna", "Ben"], ["Cleo", "Dan"]],
        },
    ).get_json()
    table = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={}).get_json()
    game = client.get(f"/api/v1/games/{table['tables'][0]['game_id']}").get_json()
    we = game["side_ids"][0]
    assert put(client, we, 0, WE).status_code == 200
    closed = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds/1/close", json={})
    assert closed.status_code == 200, closed.get_json()
    refused = put(client, game["side_ids"][1], 1, YOU)
    assert refused.status_code == 409 and codes(refused) == ["tournament.round_closed"]
    page = client.get(f"/games/{we}?lang=en").text
    assert "The round is closed" in page and 'id="hand-form"' not in page
