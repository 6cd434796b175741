"""The one stored-game format (scorekeeper.store.stored_format): every file the app writes (a
game's backup, the phone's, ``scorekeeper export``, a table's export) holds its games of both
kinds in it, carries ``format_version`` and validates against the format's JSON Schema; the
files of before (tests/data/*-v1.json, written by the version before this format: a backup, a
single game in the games API's shape, a table's export with a 3-ist-50 game in a shape of its
own) import to the same games, and what they import to goes round through the new format
unchanged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.store import backup, fifty
from scorekeeper.store.db import session_scope
from scorekeeper.store.derive import game_state
from scorekeeper.store.models import Game
from scorekeeper.store.stored_format import FORMAT_VERSION, stored_format_schema

DATA = Path(__file__).parent.parent / "data"


def old(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Any]:
    """Apps on empty databases of their own, as many as a test asks for."""
    made: list[Flask] = []

    def make() -> Flask:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "DATABASE_URL": f"sqlite:///{tmp_path / f'db{len(made)}.sqlite3'}",
                "WTF_CSRF_ENABLED": False,
            }
        )
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["scorekeeper.engine"].dispose()


def games_of(app: Flask) -> dict[str, Any]:
    """Every game of the app's database by kind, derived: what a player sees of it (names,
    each hand's entry and scores, the totals, the winner; 3 ist 50: each game's minus points,
    the totals, the winners)."""
    out: dict[str, Any] = {}
    with app.app_context(), session_scope() as session:
        for game in session.scalars(select(Game).order_by(Game.created_at)):
            if game.ruleset == fifty.RULESET_ID:
                state = fifty.fifty_state(game)
                out["fifty"] = {
                    "name": state.name,
                    "players": list(state.players),
                    "joker": state.joker,
                    "stop_after": state.stop_after,
                    "points": [[s.points for s in row.scores] for row in state.rows],
                    "entries": [hand.teams for hand in game.hands],
                    "totals": list(state.totals),
                    "winners": list(state.winners),
                }
            else:
                canasta = game_state(game)
                out["canasta"] = {
                    "name": canasta.name,
                    "ruleset": canasta.ruleset,
                    "sides": [c.name for c in canasta.columns],
                    "teams": [row.teams for row in canasta.hands],
                    "scores": [[s.score for s in row.scores] for row in canasta.hands],
                    "totals": [c.total for c in canasta.columns],
                    "winner": canasta.winner,
                }
    return out


def validate(data: Any) -> None:
    schema = stored_format_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)


def test_the_schema_is_json_schema_2020_12_and_refuses_what_is_not_the_format() -> None:
    schema = stored_format_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert {"StoredGame", "StoredHand", "StoredRevision", "BackupFile", "TableFile"} <= set(
        schema["$defs"]
    )
    validator = jsonschema.Draft202012Validator(schema)
    assert not validator.is_valid(old("table-v1.json"))  # a 3-ist-50 game of its own shape
    assert not validator.is_valid({"format": "scorekeeper-backup", "games": [{}]})
    # as an OpenAPI description's components: every reference points there
    components = json.dumps(stored_format_schema("#/components/schemas/"))
    assert "#/$defs/" not in components and '"#/components/schemas/StoredGame"' in components


def test_the_files_of_before_import_to_the_same_games(fresh: Any) -> None:
    """The Canasta game (German, with a correction and a concealed going out) is in all three
    files, the 3-ist-50 game in the backup and the table's export."""
    from_backup = fresh()
    answer = from_backup.test_client().post("/api/v1/games/import", json=old("backup-v1.json"))
    assert answer.status_code == 201, answer.json
    from_game = fresh()
    answer = from_game.test_client().post("/api/v1/games/import", json=old("game-api-v1.json"))
    assert answer.status_code == 201, answer.json
    from_table = fresh()
    answer = from_table.test_client().post("/api/v1/tables/import", json=old("table-v1.json"))
    assert answer.status_code == 201, answer.json

    backup_games = games_of(from_backup)
    assert set(backup_games) == {"canasta", "fifty"}
    canasta = backup_games["canasta"]
    assert len(canasta["teams"]) == 4 and any(
        team.get("concealed") for teams in canasta["teams"] for team in teams
    )
    assert games_of(from_game) == {"canasta": canasta}
    assert games_of(from_table) == backup_games
    # the trail of the backup came along (the game's answer counts the corrections)
    with from_backup.app_context(), session_scope() as session:
        game = session.scalars(select(Game).where(Game.ruleset == "german")).one()
        assert [r.kind for r in game.revisions] == ["corrected"]


def test_every_file_is_written_in_the_format_and_goes_round(fresh: Any, tmp_path: Path) -> None:
    source = fresh()
    client = source.test_client()
    table = client.post("/api/v1/tables/import", json=old("table-v1.json")).json
    assert table is not None
    before = games_of(source)

    exported = client.get(f"/api/v1/tables/{table['id']}/export").json
    assert exported["format"] == "scorekeeper-table"
    assert exported["format_version"] == FORMAT_VERSION
    validate(exported)
    kinds = {item["kind"]: item["game"] for item in exported["games"]}
    assert set(kinds) == {"canasta", "fifty"}
    # both kinds in one shape: the stored entries, nothing derived, no editing key
    assert set(kinds["canasta"]) == set(kinds["fifty"])
    assert "id" not in kinds["canasta"] and "totals" not in kinds["fifty"]

    with source.app_context(), session_scope() as session:
        whole = backup.dump(backup.all_games(session))
        whole["tables"] = backup.dump_tables(session)
        view_ids = [g.view_id for g in backup.all_games(session)]
    assert whole["format_version"] == FORMAT_VERSION
    validate(whole)
    for view_id in view_ids:  # one game's file, either kind, by its view key
        one = client.get(f"/games/{view_id}/export.json")
        if one.status_code == 200:
            validate(one.json)

    again = fresh()
    answer = again.test_client().post("/api/v1/tables/import", json=exported)
    assert answer.status_code == 201, answer.json
    assert games_of(again) == before
    restored = fresh()
    answer = restored.test_client().post("/api/v1/games/import", json=whole)
    assert answer.status_code == 201, answer.json
    assert games_of(restored) == before


def test_a_file_of_a_later_version_is_refused_with_a_clear_problem(fresh: Any) -> None:
    app = fresh()
    client = app.test_client()
    later = {**old("backup-v1.json"), "format_version": FORMAT_VERSION + 1}
    answer = client.post("/api/v1/games/import", json=later)
    assert answer.status_code == 400
    problem = answer.json["problems"][0]
    assert problem["code"] == "request.value" and problem["where"] == "format_version"
    table = {**old("table-v1.json"), "format_version": FORMAT_VERSION + 1}
    answer = client.post("/api/v1/tables/import", json=table)
    assert answer.status_code == 400
    assert answer.json["problems"][0]["where"] == "format_version"
    assert games_of(app) == {}


def test_a_file_without_games_says_so_without_a_limit(fresh: Any) -> None:
    """Found by schemathesis: the problem of an empty file carried the file's game limit."""
    client = fresh().test_client()
    answer = client.post("/api/v1/games/import", json={"format": "scorekeeper-backup", "games": []})
    assert answer.status_code == 400
    assert answer.json["problems"] == [
        {"code": "request.missing", "message": "“games” is missing.", "where": "games"}
    ]
