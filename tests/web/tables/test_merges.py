"""People of a table renamed and merged: a side's name made from its players follows them
everywhere (the game, the table's list, the records, the season sheet, the JSON) while a
typed one stays; a merge is asked for first, kept in the trail and can be undone while no
later change depends on it; a merge into oneself and a constraint that refuses a write are
answered in words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy.exc import IntegrityError

from scorekeeper.store import tables
from tests.sheets.helpers import pdf_lines

HAND = {"teams": [{"total": 3000, "went_out": True}, {"total": 100, "went_out": False}]}


def _table(client: FlaskClient, *people: str) -> tuple[str, dict[str, int]]:
    made = client.post("/api/v1/tables", json={"name": "Club", "players": list(people)})
    assert made.status_code == 201, made.json
    assert made.json is not None
    return made.json["id"], {p["name"]: p["id"] for p in made.json["players"]}


def _game(client: FlaskClient, key: str, sides: list[dict[str, Any]]) -> str:
    made = client.post(
        "/api/v1/games", json={"ruleset": "german", "players": 4, "sides": sides, "table": key}
    )
    assert made.status_code == 201, made.json
    assert made.json is not None
    game_id: str = made.json["id"]
    saved = client.post(f"/api/v1/games/{game_id}/hands", json={**HAND, "version": 1})
    assert saved.status_code == 201, saved.json
    return game_id


def _sides(client: FlaskClient, game_id: str) -> list[tuple[str, list[str]]]:
    body = client.get(f"/api/v1/games/{game_id}").json
    assert body is not None
    return [(s["name"], s["players"]) for s in body["sides"]]


MADE = [
    {"name": "Ania & Celina", "players": ["Ania", "Celina"]},
    {"name": "Ben & Dan", "players": ["Ben", "Dan"]},
]
TYPED = [
    {"name": "Die Profis", "players": ["Ania", "Ben"]},
    {"name": "Celina & Dan", "players": ["Celina", "Dan"]},
]


def test_a_made_name_follows_a_rename_everywhere_and_a_typed_one_stays(
    client: FlaskClient,
) -> None:
    key, ids = _table(client, "Ania", "Ben", "Celina", "Dan")
    made = _game(client, key, MADE)
    typed = _game(client, key, TYPED)
    renamed = client.put(f"/api/v1/tables/{key}/players/{ids['Ania']}", json={"name": "Anna"})
    assert renamed.status_code == 200
    assert _sides(client, made)[0] == ("Anna & Celina", ["Anna", "Celina"])
    assert _sides(client, typed)[0] == ("Die Profis", ["Anna", "Ben"])  # typed: as typed
    # the game's header, the table's list of games and its records
    assert "Anna &amp; Celina" in client.get(f"/games/{made}").text
    page = client.get(f"/tables/{key}").text
    assert "Ania" not in page
    assert re.search(r"Best hand.*?Anna &amp; Celina", page, re.S)
    listed = client.get(f"/api/v1/tables/{key}").json
    assert listed is not None
    assert {g["sides"][0]["name"] for g in listed["games"]} == {"Anna & Celina", "Die Profis"}
    # the season sheet
    sheet = client.get(f"/tables/{key}/sheet.pdf?lang=en")
    assert sheet.status_code == 200
    lines = [line for page_ in pdf_lines(sheet.data) for line in page_]
    assert "Anna & Celina" in lines and not any("Ania" in line for line in lines)


def test_a_made_name_follows_a_merge(client: FlaskClient) -> None:
    key, ids = _table(client, "Ania", "Ben", "Celina", "Dan", "Anna")
    made = _game(client, key, MADE)
    merged = client.post(
        f"/api/v1/tables/{key}/merge", json={"keep": ids["Anna"], "merge": ids["Ania"]}
    )
    assert merged.status_code == 200
    assert _sides(client, made)[0] == ("Anna & Celina", ["Anna", "Celina"])


def test_the_page_asks_before_a_merge_then_offers_its_undo(client: FlaskClient) -> None:
    key, ids = _table(client, "Ania", "Ben", "Celina", "Dan", "Anna")
    game = _game(client, key, MADE)
    asked = client.post(f"/tables/{key}/merge", data={"keep": ids["Anna"], "merge": ids["Ania"]})
    assert asked.status_code == 303
    question = client.get(asked.headers["Location"]).text
    assert "Merge Ania into Anna?" in question
    assert "1 game will name Anna" in question
    assert 'name="confirm" value="yes"' in question
    assert _sides(client, game)[0][1] == ["Ania", "Celina"]  # nothing changed yet
    done = client.post(
        f"/tables/{key}/merge", data={"keep": ids["Anna"], "merge": ids["Ania"], "confirm": "yes"}
    )
    assert done.status_code == 303 and "merged=" in done.headers["Location"]
    page = client.get(done.headers["Location"]).text
    assert "Ania was merged into Anna." in page and "Undo the merge" in page
    assert _sides(client, game)[0] == ("Anna & Celina", ["Anna", "Celina"])
    undo = re.search(r'action="(/tables/[^"]+/merges/\d+/undo)"', page)
    assert undo is not None
    assert client.post(undo[1]).status_code == 303
    assert _sides(client, game)[0] == ("Ania & Celina", ["Ania", "Celina"])
    body = client.get(f"/api/v1/tables/{key}").json
    assert body is not None
    assert [p["name"] for p in body["players"]] == ["Ania", "Ben", "Celina", "Dan", "Anna"]
    assert body["players"][0]["id"] == ids["Ania"]  # the same person again
    assert body["merges"][0]["undone_at"] is not None and not body["merges"][0]["undoable"]
    # the same undo again (a lost answer) changes nothing
    assert client.post(undo[1]).status_code == 303
    trail = client.get(f"/tables/{key}").text
    assert "Ania into Anna" in trail and "undone" in trail and "Undo the merge" not in trail


def test_a_merge_cannot_be_undone_once_a_later_change_depends_on_it(
    client: FlaskClient,
) -> None:
    key, ids = _table(client, "Ania", "Ben", "Celina", "Dan", "Anna")
    _game(client, key, MADE)
    merged = client.post(
        f"/api/v1/tables/{key}/merge", json={"keep": ids["Anna"], "merge": ids["Ania"]}
    )
    assert merged.json is not None
    merge_id = merged.json["merges"][0]["id"]
    assert merged.json["merges"][0]["undoable"]
    client.put(f"/api/v1/tables/{key}/players/{ids['Anna']}", json={"name": "Annie"})
    late = client.post(
        f"/api/v1/tables/{key}/merges/{merge_id}/undo",
        json={},
        headers={"Accept-Language": "de"},
    )
    assert late.status_code == 409
    assert late.json is not None
    problem = late.json["problems"][0]
    assert problem["code"] == "table.merge_stale"
    assert "nicht mehr" in problem["message"]
    unknown = client.post(f"/api/v1/tables/{key}/merges/999/undo", json={})
    assert unknown.status_code == 404


def test_a_new_game_naming_a_merged_name_names_the_person_kept(client: FlaskClient) -> None:
    key, ids = _table(client, "Ania", "Ben", "Celina", "Dan", "Anna")
    client.post(f"/api/v1/tables/{key}/merge", json={"keep": ids["Anna"], "merge": ids["Ania"]})
    later = _game(client, key, MADE)
    assert _sides(client, later)[0] == ("Anna & Celina", ["Anna", "Celina"])
    both = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "table": key,
            "sides": [
                {"name": "A", "players": ["Ania", "Ben"]},
                {"name": "B", "players": ["Anna", "Dan"]},
            ],
        },
    )
    assert both.status_code == 409
    assert both.json is not None and both.json["problems"][0]["code"] == "table.player_merged"


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_a_merge_into_oneself_and_a_merged_person_are_refused_in_words(
    client: FlaskClient, lang: str
) -> None:
    key, ids = _table(client, "Ania", "Ben", "Anna")
    headers = {"Accept-Language": lang}
    same = client.post(
        f"/api/v1/tables/{key}/merge",
        json={"keep": ids["Anna"], "merge": ids["Anna"]},
        headers=headers,
    )
    assert same.status_code == 422
    assert same.json is not None and same.json["problems"][0]["code"] == "table.merge_same"
    client.post(f"/api/v1/tables/{key}/merge", json={"keep": ids["Anna"], "merge": ids["Ania"]})
    again = client.post(
        f"/api/v1/tables/{key}/merge",
        json={"keep": ids["Ben"], "merge": ids["Ania"]},
        headers=headers,
    )
    assert again.status_code == 409
    assert again.json is not None
    problem = again.json["problems"][0]
    assert problem["code"] == "table.player_merged"
    assert "Ania" in problem["message"] and "merged" not in problem["message"]
    page = client.post(
        f"/tables/{key}/merge", data={"keep": ids["Anna"], "merge": ids["Anna"]}, headers=headers
    )
    assert page.status_code == 422


def test_a_constraint_error_is_a_translated_conflict_not_a_500(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    key, ids = _table(client, "Ania", "Ben")

    def refused(*_args: object) -> None:
        raise IntegrityError("INSERT …", {}, Exception("duplicate key"))

    monkeypatch.setattr(tables, "rename", refused)
    answer = client.put(
        f"/api/v1/tables/{key}/players/{ids['Ben']}",
        json={"name": "Bea"},
        headers={"Accept-Language": "de"},
    )
    assert answer.status_code == 409
    assert answer.json is not None
    assert answer.json["problems"][0]["code"] == "request.conflict"
    assert "gleichen Moment" in answer.json["problems"][0]["message"]
    page = client.post(f"/tables/{key}/players/{ids['Ben']}", data={"name": "Bea"})
    assert page.status_code == 409
    assert "same moment" in page.text


def test_same_players_again_stays_at_the_table_under_the_names_of_now(
    client: FlaskClient,
) -> None:
    key, ids = _table(client, "Ania", "Ben", "Celina", "Dan")
    first = _game(client, key, MADE)
    client.put(f"/api/v1/tables/{key}/players/{ids['Ania']}", json={"name": "Anna"})
    again = client.post(f"/games/{first}/again")
    assert again.status_code == 303
    again_id = again.headers["Location"].rstrip("/").split("/")[-1]
    assert _sides(client, again_id)[0] == ("Anna & Celina", ["Anna", "Celina"])
    body = client.get(f"/api/v1/tables/{key}").json
    assert body is not None
    assert {g["id"] for g in body["games"]} == {first, again_id}
    client.put(f"/api/v1/tables/{key}/players/{ids['Ania']}", json={"name": "Anka"})
    assert _sides(client, again_id)[0] == ("Anka & Celina", ["Anka", "Celina"])
