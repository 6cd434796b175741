"""The sides' parts in the store (store/parts.py), on SQLite and PostgreSQL: stored, corrected
and taken back, each change moving the game's version on; the hand saved by the part that
completes it, the same hand changes.add_hand stores for the whole entry; parts of a hand
entered whole cleared; the side keys in backups, and files of before side keys still read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from sqlalchemy import text

from scorekeeper import store
from scorekeeper.cli import main
from scorekeeper.edge.games import read_hand, read_part
from scorekeeper.rules.scoring import Rejected
from scorekeeper.store import parts
from scorekeeper.store.db import session_scope, upgrade_schema, write_scope
from scorekeeper.store.errors import NotAllowed, PartConflict, VersionConflict

from .test_migrations import empty_url, engine  # noqa: F401 - the fixtures
from .test_store import GERMAN_SIDES, db_app  # noqa: F401 - the fixture

WE: dict[str, Any] = {"quick": {"natural_canastas": 1, "meld_points": 120, "hand_points": 0}}
YOU: dict[str, Any] = {"total": 350}


def new_game(players: int = 4, sides: Any = None) -> str:
    with write_scope() as session:
        ruleset = "german" if players == 4 else "classic"
        game = store.create_game(session, ruleset, players, sides or GERMAN_SIDES)
        return game.id


def put(key: str, side: int, part: Any, **extra: Any) -> parts.Outcome:
    with write_scope() as session:
        link = parts.find(session, key)
        assert link is not None
        read = read_part(part)
        if isinstance(read, Rejected):
            raise store.GameProblems(list(read.problems))
        return parts.put_part(session, link, side, read, **extra)


def shown(key: str) -> parts.Parts:
    with session_scope() as session:
        link = parts.find(session, key)
        assert link is not None
        return parts.read_parts(session, link.game)


def keys(game_id: str) -> list[str]:
    with session_scope() as session:
        return parts.side_keys(session, game_id)


def test_parts_are_kept_and_each_change_moves_the_version(db_app: Flask) -> None:  # noqa: F811
    game_id = new_game()
    we, you = keys(game_id)
    assert shown(we).version == 1 and [p.part for p in shown(we).parts] == [None, None]
    assert put(we, 0, {**WE, "went_out": True}).saved is None
    first = shown(you)
    assert first.version == 2 and first.sides_in == 1
    assert first.parts[0].score is not None and first.parts[0].score.items["going_out"] == 100
    put(we, 0, {**WE, "went_out": True, "red_threes": 1})  # corrected
    assert shown(we).version == 3 and shown(we).parts[0].part["red_threes"] == 1  # type: ignore[index]
    with write_scope() as session:
        link = parts.find(session, we)
        assert link is not None
        assert parts.withdraw_part(session, link, 0)
    assert shown(we).version == 4 and shown(we).sides_in == 0
    with pytest.raises(NotAllowed):
        put(we, 1, YOU)
    with pytest.raises(VersionConflict):
        put(we, 0, WE, version=1)  # its part changed since version 1


def test_the_last_part_saves_what_the_whole_entry_saves(db_app: Flask) -> None:  # noqa: F811
    game_id = new_game()
    we, you = keys(game_id)
    put(we, 0, {**WE, "went_out": True})
    outcome = put(you, 1, YOU)
    assert outcome.saved == 1
    whole = new_game()
    with write_scope() as session:
        game = store.get_game(session, whole)
        assert game is not None
        store.add_hand(session, game, 1, read_hand([{**WE, "went_out": True}, YOU]))
    with session_scope() as session:
        by_parts = store.game_state(store.get_game(session, game_id))  # type: ignore[arg-type]
        at_once = store.game_state(store.get_game(session, whole))  # type: ignore[arg-type]
    assert by_parts.hands[0].teams == at_once.hands[0].teams
    assert [c.total for c in by_parts.columns] == [c.total for c in at_once.columns]
    assert shown(we).hand == 2 and shown(we).sides_in == 0
    with pytest.raises(PartConflict):
        put(you, 1, YOU, hand=1)


def test_a_hand_entered_whole_clears_its_parts(db_app: Flask) -> None:  # noqa: F811
    game_id = new_game()
    we, _you = keys(game_id)
    put(we, 0, WE)
    with write_scope() as session:
        game = store.get_game(session, game_id)
        assert game is not None
        store.add_hand(session, game, 2, read_hand([{**WE, "went_out": True}, YOU]))
    after = shown(game_id)
    assert after.hand == 2 and after.sides_in == 0
    with pytest.raises(VersionConflict):  # a phone still holding the part sees it is stale
        put(we, 0, WE, version=2)


def test_two_sides_out_and_bad_parts_change_nothing(db_app: Flask) -> None:  # noqa: F811
    game_id = new_game()
    we, you = keys(game_id)
    put(we, 0, {**WE, "went_out": True})
    for bad in ({**WE, "went_out": True}, {"total": 333}, {"melds": [["7", "7"]]}):
        with pytest.raises(store.GameProblems) as refused:
            put(you, 1, bad)
        assert all(p.where.startswith("part") for p in refused.value.problems)
    assert shown(we).version == 2 and shown(we).parts[1].part is None


def test_cutthroat_and_fifty_have_no_side_keys(db_app: Flask) -> None:  # noqa: F811
    cut = new_game(3, [{"name": n, "players": [n]} for n in ("Ann", "Bob", "Cy")])
    assert keys(cut) == []
    six = new_game(6, [{"name": n, "players": [f"{n}1", f"{n}2"]} for n in "ABC"])
    assert len(keys(six)) == 3 and len(set(keys(six))) == 3


def test_a_backup_without_side_keys_still_imports(app: Flask, tmp_path: Path) -> None:
    client = app.test_client()
    game = client.post(
        "/api/v1/games", json={"ruleset": "german", "players": 4, "sides": GERMAN_SIDES}
    ).get_json()
    runner = CliRunner()
    file = tmp_path / "one.json"
    assert (
        runner.invoke(main, ["export", str(file), "--db", app.config["DATABASE_URL"]]).exit_code
        == 0
    )
    data = json.loads(file.read_text())
    assert data["games"][0]["side_ids"] == game["side_ids"]
    del data["games"][0]["side_ids"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    empty = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    result = runner.invoke(main, ["import", str(old), "--db", empty])
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.json"
    assert runner.invoke(main, ["export", str(again), "--db", empty]).exit_code == 0
    fresh = json.loads(again.read_text())["games"][0]["side_ids"]
    assert len(fresh) == 2 and not set(fresh) & set(game["side_ids"])
    data["games"][0]["side_ids"] = ["short"]
    old.write_text(json.dumps(data))
    refused = runner.invoke(
        main, ["import", str(old), "--db", f"sqlite:///{tmp_path / 'e2.sqlite3'}"]
    )
    assert refused.exit_code != 0


def test_the_migration_gives_existing_partnership_games_their_side_keys(
    engine: Any,  # noqa: F811
) -> None:
    """Games stored before side keys (revision 0008) get one per side on upgrade; 3-player
    cutthroat and 3 ist 50 none."""
    upgrade_schema(engine, "0008")
    now = "2026-12-01 20:00:00"
    rows = [
        ("fourplayersgame0001", "classic", 4, [{"name": "A"}, {"name": "B"}]),
        ("cutthroatgame000001", "classic", 3, [{"name": "A"}, {"name": "B"}, {"name": "C"}]),
        ("threeisfiftygame001", "three-is-fifty", 3, [{"name": "A"}, {"name": "B"}, {"name": "C"}]),
    ]
    with engine.begin() as connection:
        for game_id, ruleset, players, sides in rows:
            connection.execute(
                text(
                    "INSERT INTO games (id, view_id, ruleset, players, options, sides, target,"
                    " version, created_at, updated_at, first_dealer)"
                    " VALUES (:id, :view, :ruleset, :players, '{}', :sides, 5000, 1, :now, :now, 0)"
                ),
                {
                    "id": game_id,
                    "view": game_id[::-1],
                    "ruleset": ruleset,
                    "players": players,
                    "sides": json.dumps(sides),
                    "now": now,
                },
            )
    upgrade_schema(engine)
    with engine.connect() as connection:
        found = connection.execute(
            text("SELECT game_id, side, key FROM game_sides ORDER BY game_id, side")
        ).all()
    assert [(g, s) for g, s, _k in found] == [
        ("fourplayersgame0001", 0),
        ("fourplayersgame0001", 1),
    ]
    assert all(len(k) == 22 for _g, _s, k in found) and found[0][2] != found[1][2]
