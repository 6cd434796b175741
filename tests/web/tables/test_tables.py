"""A table's life: made, games joining it, its people renamed and merged, exported and
imported, deleted with its games; bad input answered with a sentence, never a 500."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import cache
from scorekeeper.store.db import write_scope
from scorekeeper.store.models import Game
from scorekeeper.web.api import table_json
from tests.sheets.helpers import pdf_lines

SIDES = [{"name": "We", "players": ["Anna", "Ben"]}, {"name": "They", "players": ["Cleo", "Dan"]}]


def _table(client: FlaskClient, players: list[str] | None = None) -> dict[str, Any]:
    made = client.post(
        "/api/v1/tables", json={"name": "Club", "players": players or ["Anna", "Ben", "Cleo"]}
    )
    assert made.status_code == 201
    assert made.json is not None
    return made.json


def _game(client: FlaskClient, key: str, sides: list[dict[str, Any]] = SIDES) -> dict[str, Any]:
    made = client.post(
        "/api/v1/games", json={"ruleset": "german", "players": 4, "sides": sides, "table": key}
    )
    assert made.status_code == 201, made.json
    assert made.json is not None
    return made.json


def test_a_table_is_made_with_its_players_and_keys(client: FlaskClient) -> None:
    table = _table(client)
    assert [p["name"] for p in table["players"]] == ["Anna", "Ben", "Cleo"]
    assert len(table["id"]) >= 16 and len(table["view_id"]) >= 16  # 128 random bits each
    assert table["id"] != table["view_id"]
    assert client.get(f"/api/v1/tables/{table['id']}").status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "Club"}, 400, "request.missing"),
        ({"name": "Club", "players": "Anna"}, 400, "request.type"),
        ({"name": "Club", "players": ["Anna"]}, 422, "table.players"),
        ({"name": "Club", "players": ["Anna", "anna"]}, 422, "table.player_twice"),
        ({"name": "", "players": ["Anna", "Ben"]}, 422, "name.invalid"),
        ({"name": "Club", "players": ["Anna", 5]}, 400, "request.type"),
        ({"players": ["Anna", "Ben"]}, 400, "request.missing"),
    ],
)
def test_bad_tables_are_refused_with_a_sentence(
    client: FlaskClient, body: dict[str, Any], status: int, code: str
) -> None:
    answer = client.post("/api/v1/tables", json=body, headers={"Accept-Language": "de"})
    assert answer.status_code == status
    assert answer.json is not None
    problem = answer.json["problems"][0]
    assert problem["code"] == code
    assert problem["message"]


def test_a_game_names_the_tables_people_and_new_names_join(client: FlaskClient) -> None:
    table = _table(client)
    sides = [
        {"name": "We", "players": ["anna", "Ben"]},
        {"name": "They", "players": ["Cleo", "Dan"]},
    ]
    game = _game(client, table["id"], sides)
    assert game["sides"][0]["players"] == ["Anna", "Ben"]  # spelled as the table does
    answer = client.get(f"/api/v1/tables/{table['id']}").json
    assert answer is not None
    assert [p["name"] for p in answer["players"]] == ["Anna", "Ben", "Cleo", "Dan"]
    assert [g["id"] for g in answer["games"]] == [game["id"]]


def test_a_game_with_an_unknown_table_or_one_person_twice_is_not_made(
    client: FlaskClient, app: Flask
) -> None:
    table = _table(client)
    body = {"ruleset": "german", "players": 4, "sides": SIDES, "table": "x" * 22}
    answer = client.post("/api/v1/games", json=body)
    assert answer.status_code == 422
    assert answer.json is not None and answer.json["problems"][0]["code"] == "table.not_found"
    twice = [{"name": "A", "players": ["Anna", "Ben"]}, {"name": "B", "players": ["ANNA", "Dan"]}]
    body = {"ruleset": "german", "players": 4, "sides": twice, "table": table["id"]}
    answer = client.post("/api/v1/games", json=body)
    assert answer.status_code == 422
    assert answer.json is not None and answer.json["problems"][0]["code"] == "table.player_twice"
    after = client.get(f"/api/v1/tables/{table['id']}").json
    assert after is not None and after["games"] == []
    assert [p["name"] for p in after["players"]] == ["Anna", "Ben", "Cleo"]  # Dan not added


def test_renaming_a_player_renames_them_in_every_game(client: FlaskClient) -> None:
    table = _table(client)
    game = _game(client, table["id"])
    anna = table["players"][0]["id"]
    answer = client.put(f"/api/v1/tables/{table['id']}/players/{anna}", json={"name": "Anne"})
    assert answer.status_code == 200
    sheet = client.get(f"/api/v1/games/{game['id']}").json
    assert sheet is not None and sheet["sides"][0]["players"] == ["Anne", "Ben"]
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Anne" in page
    taken = client.put(f"/api/v1/tables/{table['id']}/players/{anna}", json={"name": "ben"})
    assert taken.status_code == 422


def test_a_rename_is_read_at_the_edge_once_the_table_is_found(client: FlaskClient) -> None:
    """A new name of the wrong shape is refused with its problem and renames nobody; for a
    table that is not there the answer says so (docs/api.md §3)."""
    table = _table(client)
    anna = table["players"][0]["id"]
    gone = client.put("/api/v1/tables/nonsense-key-0000000000/players/1", json={"name": ""})
    assert gone.status_code == 404
    assert [p["code"] for p in gone.get_json()["problems"]] == ["table.not_found"]
    for sent, status, code in (
        ({"name": "x" * 41}, 422, "name.invalid"),
        ({"name": 5}, 400, "request.type"),
        ({}, 400, "request.type"),
    ):
        refused = client.put(f"/api/v1/tables/{table['id']}/players/{anna}", json=sent)
        assert refused.status_code == status
        assert [(p["code"], p["where"]) for p in refused.get_json()["problems"]] == [(code, "name")]
    unknown = client.put(f"/api/v1/tables/{table['id']}/players/99999", json={"name": "Zoe"})
    assert unknown.status_code == 422
    assert unknown.get_json()["problems"][0]["code"] == "table.player_unknown"
    after = client.get(f"/api/v1/tables/{table['id']}").get_json()
    assert [p["name"] for p in after["players"]] == ["Anna", "Ben", "Cleo"]


def test_merging_two_entries_of_one_person(client: FlaskClient) -> None:
    table = _table(client, ["Anna", "Ben", "Cleo", "Dan", "Annie"])
    ids = {p["name"]: p["id"] for p in table["players"]}
    sides = [{"name": "A", "players": ["Annie", "Ben"]}, {"name": "B", "players": ["Cleo", "Dan"]}]
    game = _game(client, table["id"], sides)
    together = _game(client, table["id"], [{"name": "A", "players": ["Annie", "Anna"]}, SIDES[1]])
    refused = client.post(
        f"/api/v1/tables/{table['id']}/merge", json={"keep": ids["Anna"], "merge": ids["Annie"]}
    )
    assert refused.status_code == 422  # both played in one game: two people
    assert client.delete(f"/api/v1/tables/{table['id']}").status_code == 204
    table = _table(client, ["Anna", "Ben", "Cleo", "Dan", "Annie"])
    ids = {p["name"]: p["id"] for p in table["players"]}
    game = _game(client, table["id"], sides)
    merged = client.post(
        f"/api/v1/tables/{table['id']}/merge", json={"keep": ids["Anna"], "merge": ids["Annie"]}
    )
    assert merged.status_code == 200
    assert merged.json is not None
    assert [p["name"] for p in merged.json["players"]] == ["Anna", "Ben", "Cleo", "Dan"]
    sheet = client.get(f"/api/v1/games/{game['id']}").json
    assert sheet is not None and sheet["sides"][0]["players"] == ["Anna", "Ben"]
    assert together["id"]


def test_deleting_a_table_deletes_its_games(client: FlaskClient) -> None:
    table = _table(client)
    game = _game(client, table["id"])
    other = client.post("/api/v1/games", json={"ruleset": "german", "players": 4, "sides": SIDES})
    assert other.json is not None
    assert client.delete(f"/api/v1/tables/{table['view_id']}").status_code == 404  # view: no
    assert client.delete(f"/api/v1/tables/{table['id']}").status_code == 204
    assert client.get(f"/api/v1/tables/{table['id']}").status_code == 404
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 404
    assert client.get(f"/api/v1/games/{other.json['id']}").status_code == 200


def test_export_and_import_give_the_same_table(
    client: FlaskClient, table: dict[str, Any], app: Flask
) -> None:
    export = client.get(f"/api/v1/tables/{table['id']}/export").json
    assert export is not None
    imported = client.post("/api/v1/tables/import", json=export)
    assert imported.status_code == 201, imported.json
    assert imported.json is not None
    before = client.get(f"/api/v1/tables/{table['id']}").json
    assert before is not None
    with app.app_context():
        cache.forget()
    after = client.get(f"/api/v1/tables/{imported.json['id']}").json
    assert after is not None

    def plain(stats: dict[str, Any]) -> dict[str, Any]:
        out = dict(stats)
        out["players"] = [{k: v for k, v in p.items() if k != "id"} for p in stats["players"]]
        out["records"] = [{k: v for k, v in r.items() if k != "game"} for r in stats["records"]]
        return out

    assert plain(after["stats"]) == plain(before["stats"])
    assert len(after["games"]) == len(before["games"]) == 12
    broken = dict(export)
    broken["games"] = [*export["games"][:2], {"kind": "canasta", "game": {"ruleset": "nope"}}]
    refused = client.post("/api/v1/tables/import", json=broken)
    assert refused.status_code in (400, 422)
    assert refused.json is not None and refused.json["problems"][0]["where"].startswith(
        "games[2].game"
    )


def test_the_statistics_follow_a_new_hand(client: FlaskClient) -> None:
    table = _table(client)
    game = _game(client, table["id"])
    first = client.get(f"/api/v1/tables/{table['id']}").json
    assert first is not None and first["stats"]["players"][0]["hands"] == 0
    teams = [
        {"quick": {"natural_canastas": 2, "meld_points": 400, "melded": True}, "went_out": True},
        {"quick": {"meld_points": 50, "hand_points": 20, "melded": True}},
    ]
    saved = client.post(f"/api/v1/games/{game['id']}/hands", json={"version": 1, "teams": teams})
    assert saved.status_code == 201, saved.json
    after = client.get(f"/api/v1/tables/{table['id']}").json
    assert after is not None
    anna = after["stats"]["players"][0]
    assert (anna["hands"], anna["canastas"]["natural"], anna["went_out"]) == (1, 2, 1)


def _figure(html: str, label: str) -> str:
    found = re.search(rf'<th scope="row">{re.escape(label)}</th><td class="num">([^<]*)</td>', html)
    assert found is not None, label
    return found.group(1)


def test_canastas_per_hand_count_the_hands_that_say_them(client: FlaskClient) -> None:
    """A hand entered as totals says no canastas: "Canastas per hand" is taken over the hands
    that do (as the game page's statistics), with a note, and written the reader's way."""
    table = _table(client, ["Anna", "Ben", "Cleo", "Dan"])
    game = _game(client, table["id"])
    url = f"/api/v1/games/{game['id']}/hands"
    totals = [{"total": 600, "went_out": True}, {"total": 150}]
    saved = client.post(url, json={"version": 1, "teams": totals})
    assert saved.status_code == 201, saved.json
    page = client.get(f"/tables/{table['id']}?lang=pl").get_data(as_text=True)
    assert _figure(page, "Kanasty na rozdanie") == "&ndash;"  # nothing known, not 0.00
    assert "z 0 z 1 rozdania (pozostałe wpisano jako sumy)" in page
    quick = [
        {"quick": {"natural_canastas": 1, "meld_points": 300, "melded": True}, "went_out": True},
        {"quick": {"meld_points": 50, "melded": True}},
    ]
    version = saved.json["version"]  # type: ignore[index]
    for natural in (1, 2):
        quick[0]["quick"]["natural_canastas"] = natural
        saved = client.post(url, json={"version": version, "teams": quick})
        assert saved.status_code == 201, saved.json
        version = saved.json["version"]  # type: ignore[index]
    # Anna: 3 canastas over the 2 hands that say them (not over all 3 hands)
    polish = client.get(f"/tables/{table['id']}?lang=pl").get_data(as_text=True)
    assert _figure(polish, "Kanasty na rozdanie") == "1,5"
    german = client.get(f"/tables/{table['id']}?lang=de").get_data(as_text=True)
    assert _figure(german, "Canastas pro Runde") == "1,5"
    english = client.get(f"/tables/{table['id']}?lang=en").get_data(as_text=True)
    assert _figure(english, "Canastas per hand") == "1.5"
    assert "from 2 of 3 hands (the others were entered as totals)" in english
    anna = client.get(f"/api/v1/tables/{table['id']}").json["stats"]["players"][0]  # type: ignore[index]
    assert (anna["hands"], anna["canastas_hands"], anna["canastas"]["natural"]) == (3, 2, 3)


def test_pages_in_german_and_polish(client: FlaskClient, table: dict[str, Any]) -> None:
    for lang, word in (("de", "Statistik"), ("pl", "Statystyki")):
        page = client.get(f"/tables/{table['id']}?lang={lang}")
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert word in html
        assert "<svg" in html  # the QR code and the form chart
        assert f"/tables/view/{table['view_id']}" in html
        assert client.get(f"/tables/view/{table['view_id']}?lang={lang}").status_code == 200
    view = client.get(f"/tables/view/{table['view_id']}").get_data(as_text=True)
    assert table["id"] not in view


def test_the_table_page_pages_its_games(client: FlaskClient, table: dict[str, Any]) -> None:
    first = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert "?page=2" not in first  # 12 games fit one page of 20
    for page in ("0", "99", "x", "-1"):
        assert client.get(f"/tables/{table['id']}?page={page}").status_code == 200
    assert client.get(f"/tables/{table['id']}?player=nope").status_code == 200
    assert client.get("/tables/not-a-key").status_code == 404


def test_the_api_pages_a_table_s_games_and_counts_them_all(
    client: FlaskClient, table: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    key, view = table["id"], table["view_id"]
    whole = client.get(f"/api/v1/tables/{key}").json
    assert whole is not None
    assert (whole["games_total"], whole["page"], whole["pages"]) == (12, 1, 1)
    assert len(whole["games"]) == 12
    monkeypatch.setattr(table_json, "GAMES_PER_PAGE", 5)
    pages = [client.get(f"/api/v1/tables/{key}?page={n}").json for n in (1, 2, 3)]
    assert [len(p["games"]) for p in pages] == [5, 5, 2]  # type: ignore[index]
    assert all((p["games_total"], p["pages"]) == (12, 3) for p in pages)  # type: ignore[index]
    # the pages together are the whole list, newest first, each game once
    assert [g["id"] for p in pages for g in p["games"]] == [g["id"] for g in whole["games"]]  # type: ignore[index]
    # the statistics count every game whatever the page
    assert all(p["stats"] == whole["stats"] for p in pages)  # type: ignore[index]
    past = client.get(f"/api/v1/tables/{view}?page=9").json
    assert past is not None and past["page"] == 3 and "id" not in past["games"][0]
    for bad in ("0", "-1", "x", "1.5", "\u0662", "9999999"):
        answer = client.get(f"/api/v1/tables/{key}?page={bad}", headers={"Accept-Language": "de"})
        assert answer.status_code == 400, bad
        assert answer.json["problems"][0]["where"] == "page"  # type: ignore[index]
        assert (
            answer.json["problems"][0]["message"]
            == "Dieser Wert liegt außerhalb des erlaubten Bereichs."
        )  # type: ignore[index]


def test_a_phone_remembers_its_tables(client: FlaskClient) -> None:
    made = client.post("/tables", data={"name": "Familie", "players": "Oma\nOpa\n\nKim"})
    assert made.status_code == 303
    listing = client.get("/tables").get_data(as_text=True)
    assert "Familie" in listing
    other = client.application.test_client()
    assert "Familie" not in other.get("/tables").get_data(as_text=True)
    key = made.headers["Location"].rsplit("/", 1)[1]
    assert other.get(f"/tables/{key}").status_code == 200  # the QR link: joins
    assert "Familie" in other.get("/tables").get_data(as_text=True)


def test_bad_forms_change_nothing(client: FlaskClient) -> None:
    refused = client.post("/tables", data={"name": "", "players": "Oma"})
    assert refused.status_code == 422
    table = _table(client)
    answer = client.post(
        f"/tables/{table['id']}/games", data={"ruleset": "german", "seat1": "Anna", "seat2": "Ben"}
    )
    assert answer.status_code == 422
    assert (
        client.post(f"/tables/{table['id']}/players/99999", data={"name": "X"}).status_code == 422
    )
    after = client.get(f"/api/v1/tables/{table['id']}").json
    assert after is not None and after["games"] == []


def test_the_season_sheet_is_a_pdf(client: FlaskClient, table: dict[str, Any]) -> None:
    for lang in ("de", "pl", "en"):
        answer = client.get(f"/tables/{table['id']}/sheet.pdf?lang={lang}")
        assert answer.status_code == 200
        assert answer.data.startswith(b"%PDF")
    assert client.get(f"/tables/{table['view_id']}/sheet.pdf").status_code == 200
    assert client.get("/tables/nothing-here-at-all/sheet.pdf").status_code == 404


def test_no_finished_game_has_no_win_rate(client: FlaskClient) -> None:
    """A player whose games are all still running has won 0 of 0, and without a hand has no
    average: the page and the season sheet say "–", not 0 % or 0."""
    table = _table(client, ["Anna", "Ben", "Cleo", "Dan"])
    _game(client, table["id"])
    html = client.get(f"/tables/{table['id']}?lang=en").get_data(as_text=True)
    rows = re.findall(r'<td class="num">(\d+/\d+)</td><td class="num">([^<]*)</td>', html)
    assert rows and all(row == ("0/0", "–") for row in rows), rows
    assert _figure(html, "Average per hand") == "–"
    sheet = pdf_lines(client.get(f"/tables/{table['id']}/sheet.pdf?lang=en").data)[0]
    assert "0 %" not in sheet and "–" in sheet
    assert "Finished games" in " ".join(sheet)  # why a running game counts 0 there


def test_an_integer_beyond_64_bits_is_readable_json(
    client: FlaskClient, table: dict[str, Any]
) -> None:
    """JSON allows any integer: an export with one beyond 64 bits (a key of its own) is read,
    not refused as unreadable JSON (the C parser cannot hold it; the Python one can)."""
    export = client.get(f"/api/v1/tables/{table['id']}/export").json
    assert export is not None
    body = json.dumps(export)[:-1] + ', "note": [-123319093152315532296323072]}'
    answer = client.post("/api/v1/tables/import", data=body, content_type="application/json")
    assert answer.status_code == 201, answer.json
    assert answer.json is not None and answer.json["name"] == export["name"]


def test_a_table_file_is_imported_on_the_tables_page(
    client: FlaskClient, table: dict[str, Any]
) -> None:
    saved = client.get(f"/tables/{table['id']}/export.json")
    assert saved.status_code == 200
    assert "attachment" in saved.headers["Content-Disposition"]
    upload = {"backup": (io.BytesIO(saved.data), "table.json")}
    answer = client.post("/tables/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 303
    copy = answer.headers["Location"].rsplit("/", 1)[1]
    assert copy != table["id"]
    again = client.get(f"/api/v1/tables/{copy}").json
    assert again is not None and len(again["games"]) == 12
    junk = {"backup": (io.BytesIO(b"{not json"), "table.json")}
    refused = client.post("/tables/import", data=junk, content_type="multipart/form-data")
    assert refused.status_code == 422


def test_the_page_deletes_a_table_only_when_the_box_is_ticked(client: FlaskClient) -> None:
    table = _table(client)
    game = _game(client, table["id"])
    kept = client.post(f"/tables/{table['id']}/delete", data={})
    assert kept.status_code == 422
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 200
    gone = client.post(f"/tables/{table['id']}/delete", data={"confirm": "yes"})
    assert gone.status_code == 303
    assert client.get(f"/tables/{table['id']}").status_code == 404
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 404


ODD = [None, [], "x", 5, True, {"name": None}, {"name": "A", "players": [None, {}]}, {"keep": [1]}]


def test_no_input_gives_a_500(client: FlaskClient) -> None:
    table = _table(client)
    key = table["id"]
    person = table["players"][0]["id"]
    calls = [
        ("post", "/api/v1/tables"),
        ("post", "/api/v1/tables/import"),
        ("put", f"/api/v1/tables/{key}/players/{person}"),
        ("put", f"/api/v1/tables/{key}/players/x"),
        ("post", f"/api/v1/tables/{key}/merge"),
        ("post", "/api/v1/games"),
    ]
    for method, url in calls:
        for body in ODD:
            answer = getattr(client, method)(url, json=body)
            assert answer.status_code < 500, (url, body)
        bad_json = getattr(client, method)(url, data=b"{", content_type="application/json")
        assert bad_json.status_code == 400
    for body in ({"table": 5}, {"table": None}, {"table": ["x"]}):
        made = client.post(
            "/api/v1/games", json={"ruleset": "german", "players": 4, "sides": SIDES, **body}
        )
        assert made.status_code in (201, 422)
    form = {"ruleset": "nope", "seat1": "A" * 500, "sides": "3", "target": "x"}
    assert client.post(f"/tables/{key}/games", data=form).status_code == 422
    assert client.post(f"/tables/{key}/merge", data={"keep": "x", "merge": ""}).status_code == 422
    assert client.post(f"/tables/{key}/players", data={"name": ""}).status_code == 422


def test_an_evening_past_midnight_is_one_evening(app: Flask, client: FlaskClient) -> None:
    """The table's page heads each evening once: games without a pause of six hours between
    them are one evening, also across midnight; a game days earlier is another."""
    made = client.post(
        "/api/v1/tables", json={"name": "Nachteulen", "players": ["Anna", "Ben", "Cleo"]}
    )
    key = made.json["id"]  # type: ignore[index]
    ids = []
    for _ in range(3):
        game = client.post(
            "/api/v1/games",
            json={
                "ruleset": "classic",
                "players": 2,
                "table": key,
                "sides": [
                    {"name": "Anna", "players": ["Anna"]},
                    {"name": "Ben", "players": ["Ben"]},
                ],
            },
        )
        ids.append(game.json["id"])  # type: ignore[index]
    started = [
        datetime(2026, 11, 20, 18, 5),  # Friday evening, 19:05 in Berlin
        datetime(2026, 11, 20, 22, 40),
        datetime(2026, 11, 21, 0, 50),  # past midnight (UTC): the same evening
    ]
    with app.app_context(), write_scope() as session:
        for game_id, when in zip(ids, started, strict=True):
            game = session.get(Game, game_id)
            assert game is not None
            game.created_at = when
    cache.forget(app)
    earlier = client.post(
        "/api/v1/games",
        json={
            "ruleset": "classic",
            "players": 2,
            "table": key,
            "sides": [{"name": "Cleo", "players": ["Cleo"]}, {"name": "Ben", "players": ["Ben"]}],
        },
    ).json["id"]  # type: ignore[index]
    with app.app_context(), write_scope() as session:
        game = session.get(Game, earlier)
        assert game is not None
        game.created_at = datetime(2026, 11, 13, 18, 0)
    cache.forget(app)
    html = client.get(f"/tables/{key}?lang=en").get_data(as_text=True)
    headings = re.findall(
        r'<h3 class="evening-day"><time datetime="[^"]+" data-day>([^<]+)</time></h3>', html
    )
    assert headings == ["November 20, 2026", "November 13, 2026"]
    first, second = html.split('class="evening-day"')[1:3]
    assert sum(game_id in first for game_id in ids) == 3 and earlier in second


def test_a_game_of_a_table_leads_back_to_it(client: FlaskClient) -> None:
    """The game page names its table and links to the table's read-only page (the game's key
    grants no editing of the table); a game of no table has no such link."""
    table = _table(client, ["Anna", "Ben", "Cleo", "Dan"])
    game = _game(client, table["id"])
    page = client.get(f"/games/{game['id']}?lang=en").text
    assert f'href="/tables/view/{table["view_id"]}"' in page
    assert "Table: Club" in page
    assert table["id"] not in page.replace(game["id"], "")
    started = client.post(
        f"/tables/{table['id']}/games",
        data={"ruleset": "three-is-fifty", "seat1": "Anna", "seat2": "Ben", "seat3": "Cleo"},
    )
    assert started.status_code == 303
    evening = client.get(started.headers["Location"] + "?lang=de").text
    assert f'href="/tables/view/{table["view_id"]}"' in evening
    assert "Tisch: Club" in evening
    alone = client.post(
        "/api/v1/games", json={"ruleset": "german", "players": 4, "sides": SIDES}
    ).json
    assert alone is not None
    assert "/tables/view/" not in client.get(f"/games/{alone['id']}").text


def test_a_refused_new_game_comes_back_as_it_was_filled_in(client: FlaskClient) -> None:
    """Polish for six is refused (it is played by 2 or 4): the form comes back open with the
    ruleset, all six seats, the three partnerships and the target still chosen."""
    table = _table(client, ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"])
    seats = {f"seat{i}": n for i, n in enumerate(["Finn", "Eva", "Dan", "Cleo", "Ben", "Anna"], 1)}
    answer = client.post(
        f"/tables/{table['id']}/games?lang=en",
        data={"ruleset": "polish", "sides": "3", "target": "7000", **seats},
    )
    assert answer.status_code == 422
    page = answer.text
    assert "not 6" in page
    assert '<option value="polish" selected>' in page
    for i, name in enumerate(["Finn", "Eva", "Dan", "Cleo", "Ben", "Anna"], 1):
        seat = page.split(f'name="seat{i}"', 1)[1].split("</select>", 1)[0]
        assert f'<option value="{name}" selected>' in seat
        assert seat.count(" selected") == 1
    assert 'name="sides" value="3" checked' in page
    assert 'name="target" inputmode="numeric" maxlength="9" value="7000"' in page
    assert '<details class="card more table-new-game" open>' in page


def test_a_game_s_view_leads_back_to_its_table_too(client: FlaskClient) -> None:
    """The read-only view (where a table's records and its shared link lead) also names its
    table and links to the table's read-only page."""
    table = _table(client, ["Anna", "Ben", "Cleo", "Dan"])
    game = _game(client, table["id"])
    view = client.get(f"/view/{game['view_id']}?lang=en").text
    assert f'href="/tables/view/{table["view_id"]}"' in view
    assert "Table: Club" in view
