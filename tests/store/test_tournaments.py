"""Club tournaments in the store (scorekeeper.store.tournaments): creating one, its rounds and
their games, when a table has reported, the kept view; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from click.testing import CliRunner
from flask import Flask
from sqlalchemy import event, func, inspect, select
from sqlalchemy.orm import Session

from scorekeeper import create_app, store
from scorekeeper.cli import main
from scorekeeper.edge.games import read_hand
from scorekeeper.edge.requests import Absence, NewTable, Swap
from scorekeeper.edge.tournaments import TournamentSetup, read_new_tournament
from scorekeeper.rules.scoring import Rejected
from scorekeeper.store import cache, tables, tournaments
from scorekeeper.store.db import engine, make_engine, session_scope, upgrade_schema
from scorekeeper.store.models import (
    Game,
    Hand,
    TableGame,
    Tournament,
    TournamentGame,
    TournamentParticipant,
    TournamentRound,
)
from scorekeeper.store.schema import alembic_config
from scorekeeper.tournaments.model import RoundEnd, RoundState, Seating, TableSeating
from tests.store.postgres import empty_postgres
from tests.store.test_migrations import differences
from tests.store.test_store import backend_app

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]

NAMES = [f"Player {i}" for i in range(12)]


@pytest.fixture(params=BACKENDS)
def db_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    with backend_app(request.param, tmp_path) as app, app.app_context():
        yield app


def body(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Club cup",
        "ruleset": "german",
        "options": {},
        "players": 4,
        "format": "individual",
        "scoring": "match_points",
        "round_end": {"hands": 2},
        "participants": list(NAMES),
    }
    data.update(changes)
    return data


def setup(data: dict[str, Any]) -> TournamentSetup:
    """The request read at the edge, as the API and the form read it."""
    read = read_new_tournament(data)
    if isinstance(read, Rejected):
        raise store.GameProblems(list(read.problems))
    return read


def create(**changes: Any) -> str:
    with session_scope() as session:
        return tournaments.create_tournament(session, setup(body(**changes))).id


def tournament(session: Session, key: str) -> Tournament:
    t = tournaments.get_tournament(session, key)
    assert t is not None
    return t


def start(key: str) -> int:
    with session_scope() as session:
        return tournaments.start_round(session, tournament(session, key)).number


def round_games(key: str, number: int) -> dict[int, str]:
    """Table number → game editing key."""
    with session_scope() as session:
        found = tournaments.round_of(session, tournament(session, key), number)
        rows = session.execute(
            select(TournamentGame.table, TournamentGame.game_id).where(
                TournamentGame.round_id == found.id
            )
        )
        return {table: game_id for table, game_id in rows}


def hand(game_id: str, *totals: int) -> None:
    """A hand entered as its totals (the first side went out)."""
    teams = [{"total": t, "went_out": i == 0} for i, t in enumerate(totals)]
    with session_scope() as session:
        game = store.get_game(session, game_id)
        assert game is not None
        store.add_hand(session, game, game.version, read_hand(teams))


def view(key: str, editing: bool = True) -> Any:
    with session_scope() as session:
        return tournaments.view(session, tournament(session, key), editing)


def problem_codes(data: dict[str, Any]) -> list[str]:
    with session_scope() as session, pytest.raises(store.GameProblems) as caught:
        tournaments.create_tournament(session, setup(data))
    return [p.code for p in caught.value.problems]


# ---- creating ----------------------------------------------------------------------------------


def test_create_and_read(db_app: Flask) -> None:
    key = create()
    with session_scope() as session:
        t = tournament(session, key)
        assert t.id != t.view_id and len(t.id) >= 22
        assert tournaments.get_by_view(session, t.view_id) is t
        assert tournaments.get_tournament(session, t.view_id) is None
        assert tournaments.get_tournament(session, "nonsense") is None
        people = tournaments.participants_of(session, t)
        assert [p.number for p in people] == list(range(12))
        assert [p.players for p in people] == [[n] for n in NAMES]
        assert t.points == {"win": 2, "draw": 1, "loss": 0}
        assert (t.round_end, t.round_end_value, t.odd) == ("hands", 2, "bye")
    shown = view(key)
    assert shown.id == key and shown.rounds == () and not shown.provisional
    assert [row.standing.rank for row in shown.standings] == [1] * 12
    assert view(key, editing=False).id is None


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"ruleset": "bridge"}, "ruleset.unknown"),
        ({"ruleset": "american", "players": 3}, "players.not_allowed"),
        ({"participants": ["Anna"]}, "tournament.participants"),
        ({"participants": [f"P{i}" for i in range(401)]}, "tournament.participants"),
        ({"participants": ["Anna", "Ben", "anna", "Dan"]}, "tournament.player_twice"),
        (
            {"format": "pairs", "participants": [["A", "B"], ["C", "D", "E"], ["F", "G"]]},
            "tournament.pair",
        ),
        ({"format": "pairs", "players": 3, "ruleset": "classic"}, "tournament.pairs_table"),
        ({"round_end": {"hands": 0}}, "tournament.round_end_value"),
        ({"round_end": {"laps": 3}}, "tournament.round_end"),
        ({"round_end": {"hands": 2, "minutes": 30}}, "tournament.round_end"),
        ({"round_end": "hands"}, "request.type"),
        ({"format": "teams"}, "request.value"),
        ({"name": ""}, "name.invalid"),
        ({"points": {"win": 1, "draw": 2, "loss": 0}}, "tournament.points_order"),
        ({"table": "nosuchtable0000000000"}, "table.not_found"),
    ],
)
def test_bad_input_stores_nothing(db_app: Flask, changes: dict[str, Any], code: str) -> None:
    assert code in problem_codes(body(**changes))
    with session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Tournament)) == 0
        assert session.scalar(select(func.count()).select_from(TournamentParticipant)) == 0


def test_participants_from_a_table(db_app: Flask) -> None:
    with session_scope() as session:
        table = tables.create_table(
            session, NewTable("Friday", ["Anna", "Ben", "Cleo", "Dan", "Eve"])
        )
        table_key = table.id
    key = create(participants=None, table=table_key)
    with session_scope() as session:
        people = tournaments.participants_of(session, tournament(session, key))
        assert [p.players for p in people] == [["Anna"], ["Ben"], ["Cleo"], ["Dan"], ["Eve"]]
        assert all(p.table_player_id is not None for p in people)
    # some of the table's people, spelled as the table does
    key = create(participants=["anna", "BEN", "Cleo", "Dan"], table=table_key)
    start(key)
    with session_scope() as session:
        people = tournaments.participants_of(session, tournament(session, key))
        assert [p.players[0] for p in people] == ["Anna", "Ben", "Cleo", "Dan"]
        # the table's history includes the tournament's game
        links = session.scalars(select(TableGame).where(TableGame.table_id == table_key)).all()
        assert len(links) == 1
    assert "table.player_unknown" in problem_codes(
        body(participants=["Anna", "Zed", "Cleo", "Dan"], table=table_key)
    )


# ---- rounds -------------------------------------------------------------------------------------


def test_a_round_is_proposed_swapped_and_confirmed(db_app: Flask) -> None:
    key = create()
    with session_scope() as session:
        t = tournament(session, key)
        proposed = tournaments.propose_round(session, t)
        assert proposed.number == 1 and proposed.state == RoundState.PROPOSED.value
        seating = tournaments.seating_of(proposed.seating)
        assert len(seating.tables) == 3 and seating.byes == ()
        a = seating.tables[0].sides[0][0]
        b = seating.tables[1].sides[1][1]
        tournaments.swap(session, t, 1, Swap(a, b))
        swapped = tournaments.seating_of(tournaments.round_of(session, t, 1).seating)
        assert swapped.tables[0].sides[0][0] == b and swapped.tables[1].sides[1][1] == a
    with session_scope() as session:
        t = tournament(session, key)
        # a seating that leaves someone out is refused with the engine's reason
        short = Seating(tables=swapped.tables[:2], byes=())
        with pytest.raises(store.GameProblems) as caught:
            tournaments.set_seating(session, t, 1, short)
        assert "seating.missing" in [p.code for p in caught.value.problems]
    with session_scope() as session:
        t = tournament(session, key)
        confirmed = tournaments.confirm_round(session, t, 1)
        assert confirmed.state == RoundState.PLAYING.value and confirmed.started_at is not None
        # a confirmed round takes no swap
        with pytest.raises(store.GameProblems) as caught:
            tournaments.swap(session, t, 1, Swap(a, b))
        assert caught.value.status == 409
    games = round_games(key, 1)
    assert sorted(games) == [1, 2, 3]
    with session_scope() as session:
        for number, game_id in games.items():
            game = store.get_game(session, game_id)
            assert game is not None and game.ruleset == "german" and game.name == "Club cup"
            seated = swapped.tables[number - 1]
            names = [[NAMES[p] for p in side] for side in seated.sides]
            assert [s["players"] for s in game.sides] == names
            assert 0 <= game.first_dealer < 4
            info = tournaments.game_tournament(session, game_id)
            assert info is not None and (info.round, info.table) == (1, number)
            assert info.round_end is RoundEnd.HANDS and info.round_end_value == 2
        assert tournaments.game_tournament(session, "nosuchgame00000000000") is None


def test_new_round_refused_while_tables_play(db_app: Flask) -> None:
    key = create()
    start(key)
    games = round_games(key, 1)
    hand(games[1], 500, 200)
    with session_scope() as session, pytest.raises(store.GameProblems) as caught:
        tournaments.start_round(session, tournament(session, key))
    assert caught.value.status == 409
    assert [p.code for p in caught.value.problems] == ["tournament.round_open"]
    with session_scope() as session:
        assert len(tournaments.rounds_of(session, tournament(session, key))) == 1
    for game_id in games.values():
        while len(store.game_state(_game(game_id)).hands) < 2:
            hand(game_id, 300, 100)
    assert not view(key).provisional
    assert start(key) == 2  # every table reported: the new round closes the first
    rounds = view(key).rounds
    assert [r.state for r in rounds] == [RoundState.CLOSED, RoundState.PLAYING]
    assert view(key).provisional


def _game(game_id: str) -> Game:
    with session_scope() as session:
        game = store.get_game(session, game_id)
        assert game is not None
        store.game_state(game)
        return game


def test_hands_mode_counts_the_first_hands_only(db_app: Flask) -> None:
    key = create()
    start(key)
    games = round_games(key, 1)
    hand(games[1], 500, 200)
    table = view(key).rounds[0].tables[0]
    assert table.totals == (500, 200) and not table.reported and table.hands == 1
    hand(games[1], 600, 100)
    hand(games[1], 1000, 0)  # a third hand is not the round's
    table = view(key).rounds[0].tables[0]
    assert table.totals == (1100, 300) and table.reported and table.hands == 3


def test_target_mode(db_app: Flask) -> None:
    key = create(round_end={"target": 1000})
    start(key)
    games = round_games(key, 1)
    with session_scope() as session:
        assert {store.get_game(session, g).target for g in games.values()} == {1000}  # type: ignore[union-attr]
    hand(games[1], 600, 100)
    hand(games[2], 300, 100)
    shown = view(key).rounds[0]
    assert shown.ending_at is None and not any(t.reported for t in shown.tables)
    hand(games[1], 500, 100)  # table 1 reaches the target: its game has a winner
    shown = view(key).rounds[0]
    assert shown.ending_at is not None
    assert [t.reported for t in shown.tables] == [True, False, False]
    hand(games[2], 200, 100)  # table 2 finishes the hand it was playing
    shown = view(key).rounds[0]
    assert [t.reported for t in shown.tables] == [True, True, False]
    assert view(key).provisional
    with session_scope() as session:
        t = tournament(session, key)
        with pytest.raises(store.GameProblems) as caught:
            tournaments.call_time(session, t, 1)
        assert [p.code for p in caught.value.problems] == ["tournament.no_time"]
        tournaments.close_round(session, t, 1)
    shown = view(key)
    assert all(t.reported for t in shown.rounds[0].tables) and not shown.provisional


def test_minutes_mode(db_app: Flask) -> None:
    key = create(round_end={"minutes": 45})
    start(key)
    games = round_games(key, 1)
    hand(games[1], 600, 100)
    assert not view(key).rounds[0].tables[0].reported
    with session_scope() as session:
        called = tournaments.call_time(session, tournament(session, key), 1).ending_at
        assert called is not None
    with session_scope() as session:  # the clock of this hand: just after time was called
        hand_row = session.scalars(select(Hand).where(Hand.game_id == games[1])).one()
        hand_row.created_at = called - timedelta(seconds=1)
    hand(games[2], 300, 100)
    shown = view(key).rounds[0]
    assert [t.reported for t in shown.tables] == [False, True, False]
    assert shown.ending_at is not None


def test_absent_participants_sit_out(db_app: Flask) -> None:
    key = create(participants=NAMES[:9])
    with session_scope() as session:
        t = tournament(session, key)
        tournaments.set_absent(session, t, 8, Absence(True))
        with pytest.raises(store.GameProblems):
            tournaments.set_absent(session, t, 99, Absence(True))
    start(key)
    shown = view(key)
    seated = {p for table in shown.rounds[0].tables for side in table.participants for p in side}
    assert 8 not in seated and shown.participants[8].absent
    assert len(shown.rounds[0].tables) == 2 and shown.rounds[0].byes == ()


# ---- the kept view ------------------------------------------------------------------------------


def statements(app: Flask) -> list[str]:
    seen: list[str] = []

    @event.listens_for(engine(), "before_cursor_execute")
    def _seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    return seen


def test_an_unchanged_view_costs_one_light_read(db_app: Flask) -> None:
    key = create()
    start(key)
    games = round_games(key, 1)
    hand(games[1], 500, 200)
    cache.forget()
    first = view(key)
    with session_scope() as session:
        t = tournament(session, key)
        seen = statements(db_app)
        again = tournaments.view(session, t, True)
        assert len(seen) == 1, seen
        assert again is first or again == first
    hand(games[2], 700, 100)  # a hand at another table: the next view shows it
    fresh = view(key)
    assert fresh.rounds[0].tables[1].totals == (700, 100)
    assert fresh != first
    # a change of the tournament itself (an absence) moves the view on too
    with session_scope() as session:
        tournaments.set_absent(session, tournament(session, key), 3, Absence(True))
    assert view(key).participants[3].absent


def test_a_corrected_hand_moves_the_standings(db_app: Flask) -> None:
    key = create()
    start(key)
    games = round_games(key, 1)
    hand(games[1], 500, 200)
    before = {row.standing.participant: row.standing for row in view(key).standings}
    with session_scope() as session:
        game = store.get_game(session, games[1])
        assert game is not None
        store.replace_hand(
            session,
            game,
            1,
            game.version,
            read_hand([{"total": 100, "went_out": True}, {"total": 900}]),
        )
    after = {row.standing.participant: row.standing for row in view(key).standings}
    seated = view(key).rounds[0].tables[0].participants
    for p in seated[0]:
        assert (before[p].points, after[p].points) == (500, 100)
    for p in seated[1]:
        assert (before[p].points, after[p].points) == (200, 900)


def test_deleting_a_tournament_round_removes_its_links(db_app: Flask) -> None:
    key = create()
    start(key)
    with session_scope() as session:
        session.delete(tournament(session, key))
    with session_scope() as session:
        for model in (TournamentParticipant, TournamentRound, TournamentGame):
            assert session.scalar(select(func.count()).select_from(model)) == 0
        # the games stay (a game is its table's)
        assert session.scalar(select(func.count()).select_from(Game)) == 3


def test_seating_values_round_trip() -> None:
    seating = Seating(tables=(TableSeating(1, ((0, 2), (1, 3))),), byes=(4,))
    assert tournaments.seating_of(tournaments.seating_json(seating)) == seating


# ---- the migration -------------------------------------------------------------------------------

TOURNAMENT_TABLES = {
    "tournaments",
    "tournament_participants",
    "tournament_rounds",
    "tournament_games",
}


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_migration_goes_down_and_up_again(backend: str, tmp_path: Path) -> None:
    url = empty_postgres() if backend == "postgres" else f"sqlite:///{tmp_path / 'm.sqlite3'}"
    db = make_engine(url)
    try:
        upgrade_schema(db)
        assert set(inspect(db).get_table_names()) >= TOURNAMENT_TABLES
        before = ScriptDirectory.from_config(alembic_config()).get_revision("0008").down_revision
        assert isinstance(before, str)
        with db.begin() as connection:
            command.downgrade(alembic_config(connection), before)
        left = set(inspect(db).get_table_names())
        assert not TOURNAMENT_TABLES & left and {"games", "tables"} <= left
        upgrade_schema(db)
        assert set(inspect(db).get_table_names()) >= TOURNAMENT_TABLES
        assert differences(db) == []
    finally:
        db.dispose()
        if backend == "postgres":
            empty_postgres()


# ---- the whole backup ----------------------------------------------------------------------------


def test_the_whole_backup_holds_the_tournaments(tmp_path: Path) -> None:
    """docs/api.md §5: ``scorekeeper export`` holds the tournaments too (settings, seed,
    participants, rounds, the game of each table, the link to a table's people); restored into
    an empty database it shows the same tournament and exports the same bytes."""
    url = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    with backend_app("sqlite", tmp_path) as app, app.app_context():
        url = app.config["DATABASE_URL"]
        with session_scope() as session:
            table_key = tables.create_table(session, NewTable("Friday", NAMES[:8])).id
        key = create(participants=NAMES[:8], table=table_key, round_end={"minutes": 30})
        typed = create(format="pairs", participants=[NAMES[i : i + 2] for i in range(0, 8, 2)])
        start(key)
        hand(round_games(key, 1)[1], 500, 200)
        with session_scope() as session:
            t = tournament(session, key)
            tournaments.call_time(session, t, 1)
            tournaments.set_absent(session, t, 2, Absence(True))
            tournaments.propose_round(session, tournament(session, typed))
        before = (view(key), view(typed, editing=False))
    runner = CliRunner()
    first = tmp_path / "one.json"
    result = runner.invoke(main, ["export", str(first), "--db", url])
    assert result.exit_code == 0, result.output
    assert '"tournaments": [' in first.read_text() and key in first.read_text()
    empty = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    result = runner.invoke(main, ["import", str(first), "--db", empty])
    assert result.exit_code == 0 and "2 of 2 tournaments imported" in result.output
    second = tmp_path / "two.json"
    assert runner.invoke(main, ["export", str(second), "--db", empty]).exit_code == 0
    assert second.read_bytes() == first.read_bytes()
    restored = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": empty})
    try:
        with restored.app_context():
            assert (view(key), view(typed, editing=False)) == before
            with session_scope() as session:
                people = tournaments.participants_of(session, tournament(session, key))
                assert all(p.table_player_id is not None for p in people)
    finally:
        restored.extensions["scorekeeper.engine"].dispose()


def test_a_backup_with_a_broken_tournament_stores_nothing(tmp_path: Path) -> None:
    with backend_app("sqlite", tmp_path) as app, app.app_context():
        url = app.config["DATABASE_URL"]
        start(create(participants=NAMES[:4]))
    runner = CliRunner()
    file = tmp_path / "one.json"
    assert runner.invoke(main, ["export", str(file), "--db", url]).exit_code == 0
    data = json.loads(file.read_text())
    data["tournaments"][0]["rounds"] = [{"number": 1, "state": "playing", "seating": {"x": 1}}]
    data["tournaments"][0]["round_end"] = {"hands": 10**6}
    file.write_text(json.dumps(data))
    empty = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    result = runner.invoke(main, ["import", str(file), "--db", empty])
    assert result.exit_code == 1
    assert "tournaments[0].round_end" in result.output
    assert "tournaments[0].rounds[0].seating" in result.output
    restored = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": empty})
    try:
        with restored.app_context(), session_scope() as session:
            assert session.scalar(select(func.count()).select_from(Tournament)) == 0
    finally:
        restored.extensions["scorekeeper.engine"].dispose()


def test_forty_tables_over_six_rounds_cost_one_read_when_unchanged(tmp_path: Path) -> None:
    """A big club tournament: 160 players at 40 tables over 6 rounds. The kept view is proven
    current by one statement; a hand at one table makes the next view fresh."""
    with backend_app("sqlite", tmp_path) as app, app.app_context():
        key = create(participants=[f"Player {i}" for i in range(160)])
        for number in range(1, 7):
            assert start(key) == number
            games = round_games(key, number)
            assert len(games) == 40
            if number < 6:
                with session_scope() as session:
                    tournaments.close_round(session, tournament(session, key), number)
        hand(games[17], 900, 100)
        first = view(key)
        assert len(first.rounds) == 6 and first.provisional
        assert sum(len(r.tables) for r in first.rounds) == 240
        with session_scope() as session:
            t = tournament(session, key)
            seen = statements(app)
            assert tournaments.view(session, t, True) is first
            assert len(seen) == 1
        hand(games[40], 300, 700)
        fresh = view(key)
        assert fresh is not first
        assert fresh.rounds[5].tables[39].totals == (300, 700)
        assert fresh.rounds[5].tables[16].totals == (900, 100)


def test_a_view_made_while_the_round_closes_is_not_kept_older_than_its_stamp(
    db_app: Flask,
) -> None:
    """A page read the tournament, the director closed the round, then the page made its view:
    the view is of the tournament as its stamp says (after the close), so the next page does
    not show the old version forever (its forms would be refused as out of date)."""
    key = create()
    start(key)
    with session_scope() as reader:
        loaded = tournament(reader, key)
        before = loaded.version
        with session_scope() as director:
            tournaments.close_round(director, tournament(director, key), 1)
        made = tournaments.view(reader, loaded, True)
    later = view(key)
    assert later.version == made.version > before
    assert [r.state for r in later.rounds] == [RoundState.CLOSED]
