"""The game page's statistics, the table's statistics and the season sheet count from one fold
(scorekeeper.store.fold) and agree on the same games: "went out" counts every going out, the
concealed ones included, and "of them concealed" says how many were concealed
(docs/using.md, the statistics)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from flask import Flask
from sqlalchemy import select

from scorekeeper import store
from scorekeeper.store.db import session_scope
from scorekeeper.store.models import Table, TableGame, TablePlayer
from scorekeeper.store.table_stats import table_stats
from scorekeeper.web.games.stats import side_stats
from scorekeeper.web.tables.season import season_sheet
from scorekeeper.web.words.i18n import number, signed


def _from_the_game_pages(key: str) -> tuple[dict[int, dict[str, Any]], Any]:
    """Per player id, the game page's figures (side_stats) summed over the player's sides."""
    mine: dict[int, dict[str, Any]] = defaultdict(
        lambda: {
            "hands": 0,
            "went_out": 0,
            "concealed": 0,
            "canastas": 0,
            "red_threes": 0,
            "best": None,
            "points": 0,
        }
    )
    with session_scope() as session:
        rows = session.execute(
            select(TableGame.game_id, TableGame.players).where(TableGame.table_id == key)
        ).all()
        for game_id, people in rows:
            game = store.get_game(session, game_id)
            if game is None:  # 3 ist 50: no Canasta statistics
                continue
            state = store.game_state(game)
            for stats, column, players in zip(
                side_stats(state), state.columns, people, strict=True
            ):
                for p in players:
                    f = mine[p]
                    f["hands"] += stats.hands
                    f["went_out"] += stats.went_out
                    f["concealed"] += stats.concealed
                    f["canastas"] += sum(stats.canastas.values())
                    f["red_threes"] += stats.red_threes
                    f["points"] += sum(
                        row.scores[state.columns.index(column)].score for row in state.hands
                    )
                    if stats.best is not None:
                        f["best"] = stats.best if f["best"] is None else max(f["best"], stats.best)
        table = session.get(Table, key)
        assert table is not None
        people_rows = list(session.scalars(select(TablePlayer).where(TablePlayer.table_id == key)))
        figures = table_stats(session, table)
        sheet = season_sheet(table, people_rows, figures)
        names = {p.id: p.name for p in people_rows}
    return mine, (figures, sheet, names)


def test_game_table_and_season_sheet_count_going_out_alike(
    app: Flask, table: dict[str, Any]
) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        _agree(*_from_the_game_pages(table["id"]))


def _agree(mine: dict[int, dict[str, Any]], told: Any) -> None:
    figures, sheet, names = told
    assert sum(f["concealed"] for f in mine.values()) > 0  # the fixture goes out concealed
    standings = sheet.sections[0]
    column = {title: i for i, title in enumerate(standings.head)}
    rows = {row[0]: row for row in standings.rows}
    for pid, f in mine.items():
        table = figures.players[pid]
        # went out includes the concealed ones on every page
        assert f["went_out"] >= f["concealed"]
        assert table.went_out == f["went_out"], names[pid]
        assert table.concealed == f["concealed"], names[pid]
        assert table.hands == f["hands"]
        assert table.canastas == f["canastas"]
        assert table.red_threes == f["red_threes"]
        assert table.best_hand == f["best"]
        assert table.points == f["points"]
        row = rows[names[pid]]
        assert row[column["Went out"]] == number(f["went_out"])
        assert row[column["Canastas"]] == number(f["canastas"])
        assert row[column["Best hand"]] == number(f["best"])
        average = round(f["points"] / f["hands"])
        assert row[column["Average per hand"]] == signed(average)


def test_the_table_page_says_of_them_concealed(client: Any, table: dict[str, Any]) -> None:
    """The table page words the concealed count as the game page does: part of "Went out"."""
    page = client.get(f"/tables/{table['id']}", headers={"Accept-Language": "en"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "of them concealed" in html
    assert "Went out concealed" not in html
