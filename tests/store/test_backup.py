"""Complete backups: ``scorekeeper export`` / ``import`` carry every stored fact of both kinds
of game (hands, corrections, deletions, adjustments, versions, times, keys, evenings), and
export → import into an empty database → export gives the same bytes; ``scorekeeper db
backup`` copies a SQLite database consistently while a server writes."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.cli import main

from .postgres import POSTGRES_URL, empty_postgres

QUICK = {
    "natural_canastas": 1,
    "mixed_canastas": 0,
    "wild_canastas": 0,
    "meld_points": 120,
    "hand_points": 15,
    "black_threes_in_hand": 0,
    "melded": True,
}


def hand(points: int, adjust: int = 0) -> list[dict[str, Any]]:
    first: dict[str, Any] = {"quick": {**QUICK, "meld_points": points}, "went_out": True}
    if adjust:
        first["adjustments"] = [{"points": adjust, "note": "Tisch sagt so"}]
    return [first, {"quick": QUICK}]


def fill(client: FlaskClient) -> dict[str, Any]:
    """A game with a correction, a deletion, an adjustment and a following game (an
    evening), and a game of 3 ist 50 with a correction."""
    game = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "name": "Sonntag",
            "sides": [
                {"name": "Wir", "players": ["Anna", "Ben"]},
                {"name": "Ihr", "players": ["Cleo", "Dan"]},
            ],
        },
    ).json
    url = f"/api/v1/games/{game['id']}/hands"
    for points in (150, 90, 60):
        game = client.post(url, json={"version": game["version"], "teams": hand(points)}).json
    game = client.put(
        f"{url}/2", json={"version": game["version"], "teams": hand(95, adjust=-100)}
    ).json
    game = client.delete(f"{url}/3?version={game['version']}").json
    again = client.post(f"/games/{game['id']}/again")
    assert again.status_code == 303
    data = {"players": "3", "name-0": "Ola", "name-1": "Jan", "name-2": "Ewa", "joker": "10"}
    fifty = client.post("/fifty/new", data={**data, "action": "create"})
    assert fifty.status_code == 303
    return game


def export(runner: CliRunner, url: str, file: Path) -> bytes:
    result = runner.invoke(main, ["export", str(file), "--db", url])
    assert result.exit_code == 0, result.output
    return file.read_bytes()


def round_trip(app: Flask, empty_url: str, tmp_path: Path) -> None:
    runner = CliRunner()
    fill(app.test_client())
    first = export(runner, app.config["DATABASE_URL"], tmp_path / "one.json")
    text = first.decode()
    assert '"kind": "corrected"' in text and '"kind": "deleted"' in text
    assert '"previous_id": "' in text and "Tisch sagt so" in text and "three-is-fifty" in text
    assert text.count('"side_ids": [') == 2  # both Canasta games; 3 ist 50 has no sides' keys
    # the game after two hands goes on with the third seat dealing (the rotation continues)
    assert '"first_dealer": 2' in text
    result = runner.invoke(main, ["import", str(tmp_path / "one.json"), "--db", empty_url])
    assert result.exit_code == 0, result.output
    assert "3 games imported" in result.output
    second = export(runner, empty_url, tmp_path / "two.json")
    assert second == first  # byte for byte: ids, versions, times, the trail
    again = runner.invoke(main, ["import", str(tmp_path / "one.json"), "--db", empty_url])
    assert "0 games imported, 3 were there already" in again.output


def test_export_import_export_gives_the_same_file(app: Flask, tmp_path: Path) -> None:
    round_trip(app, f"sqlite:///{tmp_path / 'empty.sqlite3'}", tmp_path)


@pytest.mark.postgres
def test_export_import_export_on_postgresql(app: Flask, tmp_path: Path) -> None:
    round_trip(app, empty_postgres(), tmp_path)
    assert POSTGRES_URL


def test_an_import_with_a_bad_hand_stores_nothing(app: Flask, tmp_path: Path) -> None:
    runner = CliRunner()
    fill(app.test_client())
    text = export(runner, app.config["DATABASE_URL"], tmp_path / "one.json").decode()
    broken = tmp_path / "broken.json"
    broken.write_text(text.replace('"meld_points": 60', '"meld_points": "lots"'))
    empty = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    result = runner.invoke(main, ["import", str(broken), "--db", empty])
    assert result.exit_code == 1 and "revisions[1]" in result.output
    assert export(runner, empty, tmp_path / "none.json").decode().count('"view_id"') == 0


def test_db_backup_copies_every_committed_hand_while_the_server_writes(
    app: Flask, tmp_path: Path
) -> None:
    client = app.test_client()
    fill(client)
    game = client.post(
        "/api/v1/games",
        json={
            "ruleset": "classic",
            "players": 2,
            "target": 1_000_000,  # never finished: the writer keeps adding hands
            "sides": [{"name": "A", "players": ["a"]}, {"name": "B", "players": ["b"]}],
        },
    ).json
    url = f"/api/v1/games/{game['id']}/hands"
    committed: list[int] = []
    stop = threading.Event()

    def writer() -> None:
        version = game["version"]
        teams = [{"quick": QUICK}, {"quick": QUICK}]
        while not stop.is_set() and version < 400:
            answer = client.post(url, json={"version": version, "teams": teams})
            assert answer.status_code == 201, answer.json
            version = answer.json["version"]
            committed.append(answer.json["hand"])

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while len(committed) < 20 and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(committed) >= 20
        before = len(committed)
        copy = tmp_path / "copy.sqlite3"
        result = CliRunner().invoke(
            main, ["db", "backup", str(copy), "--db", app.config["DATABASE_URL"]]
        )
        assert result.exit_code == 0, result.output
    finally:
        stop.set()
        thread.join(timeout=30)
    with sqlite3.connect(copy) as db:
        numbers = [
            n
            for (n,) in db.execute(
                "SELECT number FROM hands WHERE game_id = ? ORDER BY number", (game["id"],)
            )
        ]
        (version,) = db.execute("SELECT version FROM games WHERE id = ?", (game["id"],)).fetchone()
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert len(numbers) >= before  # every hand committed before the copy began
    assert numbers == list(range(1, len(numbers) + 1))
    # a consistent copy: the game's version counts exactly the hands it holds
    assert version == game["version"] + len(numbers)
    assert len(committed) > len(numbers) or not thread.is_alive()


def test_db_backup_names_pg_dump_for_postgresql(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["db", "backup", str(tmp_path / "x"), "--db", "postgresql+psycopg://u@127.0.0.1/x"]
    )
    assert result.exit_code != 0


def test_the_whole_backup_holds_the_tables(app: Flask, tmp_path: Path) -> None:
    """``scorekeeper export`` holds whatever is stored, the tables of regular players too:
    their keys, people and who sat where; restored, it exports the same bytes."""
    client = app.test_client()
    table = client.post(
        "/api/v1/tables", json={"name": "Mittwoch", "players": ["Anna", "Ben", "Cleo", "Dan"]}
    ).json
    game = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "table": table["id"],
            "sides": [
                {"name": "Wir", "players": ["Ben", "Anna"]},
                {"name": "Ihr", "players": ["Dan", "Cleo"]},
            ],
        },
    ).json
    client.post(f"/api/v1/games/{game['id']}/hands", json={"version": 1, "teams": hand(150)})
    runner = CliRunner()
    first = export(runner, app.config["DATABASE_URL"], tmp_path / "one.json")
    text = first.decode()
    assert '"tables": [' in text and '"Mittwoch"' in text and table["id"] in text
    empty = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    result = runner.invoke(main, ["import", str(tmp_path / "one.json"), "--db", empty])
    assert result.exit_code == 0 and "1 of 1 tables imported" in result.output
    assert export(runner, empty, tmp_path / "two.json") == first
    restored = create_app_for(empty)
    read = restored.test_client().get(f"/api/v1/tables/{table['id']}").json
    assert [g["id"] for g in read["games"]] == [game["id"]]
    assert sorted(p["name"] for p in read["players"]) == ["Anna", "Ben", "Cleo", "Dan"]
    restored.extensions["scorekeeper.engine"].dispose()


def create_app_for(url: str) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": url})
