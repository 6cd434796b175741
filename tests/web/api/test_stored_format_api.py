"""The stored-game format in the API description (docs/stored-format.md): its
schema is part of ``components.schemas``, the operations that give or take stored games name
it (the table's export, the two imports) with an example, and every file the app writes (a
game's backup of either kind, the phone's backup, ``scorekeeper export``, a table's export)
validates against the description; files of format version 1 are described by the imports
and still import. Every API answer here is also checked against the description by the API
tests' hook (tests/web/api/described.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator

from scorekeeper.cli import main
from scorekeeper.edge.stored_format import (
    FORMAT_VERSION,
    KEY_PATTERN,
    MAX_VERSION,
    BackupFile,
    TableFile,
    stored_format_schema,
)
from scorekeeper.store.games import KEY
from scorekeeper.web.api.openapi import document as description

DATA = Path(__file__).parents[2] / "data"
QUICK = {"natural_canastas": 1, "mixed_canastas": 1, "meld_points": 155, "melded": True}


def described(schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of ``schema`` with the description's components to point into."""
    return Draft202012Validator({**schema, "components": description()["components"]})


def component(name: str) -> Draft202012Validator:
    return described({"$ref": f"#/components/schemas/{name}"})


def body_of(path: str, method: str = "post") -> dict[str, Any]:
    content: dict[str, Any] = description()["paths"][path][method]["requestBody"]["content"]
    return dict(content["application/json"])


def must_be_valid(check: Draft202012Validator, data: Any) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message[:160]}" for e in check.iter_errors(data)]
    assert not errors, errors[:5]


def test_the_format_is_in_the_description_as_the_format_defines_it() -> None:
    doc = description()
    schemas = doc["components"]["schemas"]
    own = stored_format_schema("#/components/schemas/")["$defs"]
    assert {"BackupFile", "TableFile", "StoredGame", "StoredHand", "StoredRevision"} <= set(own)
    for name, schema in own.items():
        assert schemas[name] == schema, name
    assert schemas["BackupFile"]["properties"]["format_version"]["maximum"] == FORMAT_VERSION
    assert schemas["StoredGame"]["properties"]["created_at"]["format"] == "date-time"
    # the bounds the readers hold a stored game to, where a schema can say them
    game = schemas["StoredGame"]["properties"]
    assert game["view_id"]["pattern"] == KEY_PATTERN == KEY.pattern
    assert game["version"]["maximum"] == MAX_VERSION

    paths = doc["paths"]
    export = paths["/api/v1/tables/{key}/export"]["get"]["responses"]["200"]["content"]
    assert export["application/json"]["schema"] == {"$ref": "#/components/schemas/TableFile"}
    assert export["application/json"]["example"] == TableFile.EXAMPLE
    games_import = body_of("/api/v1/games/import")
    assert '"#/components/schemas/BackupFile"' in json.dumps(games_import["schema"])
    assert games_import["example"] == BackupFile.EXAMPLE
    table_import = body_of("/api/v1/tables/import")
    assert '"#/components/schemas/TableFile"' in json.dumps(table_import["schema"])
    assert table_import["example"] == TableFile.EXAMPLE
    # the examples hold both kinds of game and are files of the format
    for example in (BackupFile.EXAMPLE, TableFile.EXAMPLE):
        must_be_valid(Draft202012Validator(stored_format_schema()), example)
    assert {g["ruleset"] for g in BackupFile.EXAMPLE["games"]} == {"german", "three-is-fifty"}


def test_the_import_describes_what_it_refuses_for_the_format() -> None:
    """An import of no game, of more games than one request takes, or of a later version of
    the format is refused 400 (tests/store/test_stored_format.py); the description says so."""
    check = described(body_of("/api/v1/games/import")["schema"])
    assert check.is_valid(BackupFile.EXAMPLE)
    for games in ([], [BackupFile.EXAMPLE["games"][0]] * 101):
        assert not check.is_valid({**BackupFile.EXAMPLE, "games": games})
    later = {**BackupFile.EXAMPLE, "format_version": FORMAT_VERSION + 1}
    assert not component("BackupFile").is_valid(later)
    assert not component("TableFile").is_valid({**TableFile.EXAMPLE, "format_version": 3})


def test_the_examples_import_and_the_table_comes_back_as_its_example(client: FlaskClient) -> None:
    games = client.post("/api/v1/games/import", json=BackupFile.EXAMPLE)
    assert games.status_code == 201, games.json
    assert [g["imported"] for g in games.json["games"]] == [True, True]
    german = client.get(f"/api/v1/games/{games.json['games'][0]['id']}").json
    assert german["ruleset"] == "german" and len(german["hands"]) == 1
    assert german["hands"][0]["teams"][0]["went_out"] is True  # the hand as corrected

    table = client.post("/api/v1/tables/import", json=TableFile.EXAMPLE)
    assert table.status_code == 201, table.json
    exported = client.get(f"/api/v1/tables/{table.json['id']}/export")
    assert exported.status_code == 200  # and as described (the hook)
    back = exported.json

    def kept(file: dict[str, Any]) -> list[Any]:
        """What a table's export keeps of its games (the keys and times are the new table's)."""
        out = []
        for item in file["games"]:
            game = {
                k: v
                for k, v in item["game"].items()
                if k not in ("view_id", "created_at", "updated_at", "version")
            }
            game["hands"] = [h["teams"] for h in game["hands"]]
            game["revisions"] = [(r["kind"], r["teams"]) for r in game["revisions"]]
            out.append((item["kind"], item["people"], game))
        return out

    assert back["format_version"] == FORMAT_VERSION
    assert [p["name"] for p in back["players"]] == ["Anna", "Ben", "Cleo", "Dan"]
    assert kept(back) == kept(TableFile.EXAMPLE)


def test_every_file_the_app_writes_validates_against_the_description(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    backup_file, table_file = component("BackupFile"), component("TableFile")
    game = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "sides": [
                {"name": "Wir", "players": ["Anna", "Ben"]},
                {"name": "Ihr", "players": ["Cleo", "Dan"]},
            ],
        },
    ).json
    teams = [{"quick": QUICK, "red_threes": 1, "went_out": True}, {"quick": {"melded": False}}]
    game = client.post(
        f"/api/v1/games/{game['id']}/hands", json={"version": game["version"], "teams": teams}
    ).json
    corrected = client.put(
        f"/api/v1/games/{game['id']}/hands/1",
        json={"version": game["version"], "teams": [teams[0], {"total": -200}]},
    )
    assert corrected.status_code == 200, corrected.json
    client.get(f"/games/{game['id']}")  # the phone remembers the games it opened
    fifty = client.post(
        "/fifty/new",
        data={"players": "3", "name-0": "Ola", "name-1": "Jan", "name-2": "Ewa", "joker": "10"}
        | {"action": "create"},
    )
    assert fifty.status_code == 303, fifty.text
    fifty_id = fifty.headers["Location"].rstrip("/").split("/")[-1]
    table = client.post("/api/v1/tables/import", json=TableFile.EXAMPLE).json
    tournament = client.post(
        "/api/v1/tournaments",
        json={
            "name": "Cup",
            "ruleset": "german",
            "players": 4,
            "participants": list("ABCD"),
            "round_end": {"hands": 4},
        },
    )
    assert tournament.status_code == 201, tournament.json

    # a game's backup, either kind, by editing and by view key
    for key in (game["id"], game["view_id"], fifty_id):
        one = client.get(f"/games/{key}/export.json")
        assert one.status_code == 200, key
        must_be_valid(backup_file, one.json)
    # the phone's backup: every game it holds, both kinds
    phone = client.get("/games/export.json").json
    assert {g["ruleset"] for g in phone["games"]} == {"german", "three-is-fifty"}
    must_be_valid(backup_file, phone)
    # a table's export (the API's, checked by the hook too, and the page's download)
    exported = client.get(f"/api/v1/tables/{table['id']}/export").json
    must_be_valid(table_file, exported)
    must_be_valid(table_file, client.get(f"/tables/{table['id']}/export.json").json)
    # `scorekeeper export`: the whole database, with its tables and tournaments
    out = tmp_path / "all.json"
    result = CliRunner().invoke(main, ["export", str(out), "--db", app.config["DATABASE_URL"]])
    assert result.exit_code == 0, result.output
    whole = json.loads(out.read_text(encoding="utf-8"))
    assert whole["format_version"] == FORMAT_VERSION
    assert whole["tables"] and whole["tournaments"] and len(whole["games"]) == 4
    assert {g["ruleset"] for g in whole["games"]} == {"german", "three-is-fifty"}
    must_be_valid(backup_file, whole)
    # a file that breaks the format is found by the same check (it could fail)
    broken = copy.deepcopy(whole)
    broken["games"][0]["hands"] = [{"number": 0}]
    assert not backup_file.is_valid(broken)


def test_files_of_format_1_are_described_and_still_import(client: FlaskClient) -> None:
    """The files of before (tests/data/*-v1.json: a backup of format 1, a single game in the
    games API's shape, a table's export whose games are in that shape and its 3-ist-50 game in
    one of its own) validate against what the imports take, and import (that they import to
    the same games: tests/store/test_stored_format.py)."""
    games = described(body_of("/api/v1/games/import")["schema"])
    tables = described(body_of("/api/v1/tables/import")["schema"])
    for name, path, check in (
        ("backup-v1.json", "/api/v1/games/import", games),
        ("game-api-v1.json", "/api/v1/games/import", games),
        ("table-v1.json", "/api/v1/tables/import", tables),
    ):
        old = json.loads((DATA / name).read_text(encoding="utf-8"))
        assert old.get("format_version", 1) == 1, name
        # a single game of before is described as the one game of `{"games": [...]}` (the
        # import takes it alone too)
        must_be_valid(check, old if "games" in old else {"games": [old]})
        answer = client.post(path, json=old)
        assert answer.status_code == 201, (name, answer.json)
    # they are of before: not files of the format as it is written now
    assert not component("BackupFile").is_valid(
        json.loads((DATA / "game-api-v1.json").read_text(encoding="utf-8"))
    )
    assert not component("TableFile").is_valid(
        json.loads((DATA / "table-v1.json").read_text(encoding="utf-8"))
    )
