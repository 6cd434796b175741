"""Every statistic of a table equals a count made by hand from its exported games: the test
below walks the export's games, each as the games API answers it (each hand's per-side score,
canastas, going out and the entry's red threes; the export holds what is stored, the entries)
and each 3-ist-50 game's minus points, on its own and compares with the API's figures."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import fifty
from scorekeeper.store.db import session_scope
from scorekeeper.store.rating import START


def _blank() -> dict[str, Any]:
    return {
        "games": 0,
        "wins": 0,
        "hands": 0,
        "points": 0,
        "natural": 0,
        "mixed": 0,
        "wild": 0,
        "went_out": 0,
        "concealed": 0,
        "red_threes": 0,
        "red_threes_hands": 0,
        "best_hand": None,
        "highest_game": None,
        "lowest_game": None,
        "fifty_games": 0,
        "fifty_wins": 0,
        "fifty_decks": 0,
        "fifty_points": 0,
    }


def recount(export: dict[str, Any]) -> tuple[dict[str, Any], dict[tuple[str, ...], Any], Any]:
    """Per player name, per partnership (sorted names) and head-to-head, from the export."""
    names = {p["id"]: p["name"] for p in export["players"]}
    players: dict[str, Any] = defaultdict(_blank)
    pairs: dict[tuple[str, ...], Any] = defaultdict(_blank)
    met: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for item in export["games"]:
        game = item["game"]
        people = [[names[p] for p in column] for column in item["people"]]
        if item["kind"] == "fifty":
            for c, column in enumerate(people):
                for who in column:
                    f = players[who]
                    f["fifty_decks"] += len(game["points"])
                    f["fifty_points"] += sum(row[c] for row in game["points"])
                    if game["finished"]:
                        f["fifty_games"] += 1
                        f["fifty_wins"] += c in game["winners"]
            continue
        for c, column in enumerate(people):
            figures = [players[who] for who in column]
            if len(column) == 2:
                figures.append(pairs[tuple(sorted(column))])
            for f in figures:
                for hand in game["hands"]:
                    side = hand["sides"][c]
                    f["hands"] += 1
                    f["points"] += side["score"]
                    # every going out, the concealed ones included
                    f["went_out"] += side["went_out"] or side["concealed"]
                    f["concealed"] += side["concealed"]
                    entry = hand["teams"][side["team"]]
                    # a side entered as its total only says nothing of its red threes and
                    # canastas
                    threes = None if "total" in entry else entry.get("red_threes", 0)
                    if isinstance(threes, int):
                        f["red_threes"] += threes
                        f["red_threes_hands"] += 1
                        for kind in ("natural", "mixed", "wild"):
                            f[kind] += side["canastas"].get(kind, 0)
                    if f["best_hand"] is None or side["score"] > f["best_hand"]:
                        f["best_hand"] = side["score"]
                if game["finished"]:
                    total = game["sides"][c]["total"]
                    f["games"] += 1
                    f["wins"] += game["winner"] == c
                    f["highest_game"] = max(f["highest_game"] or total, total)
                    f["lowest_game"] = min(
                        total if f["lowest_game"] is None else f["lowest_game"], total
                    )
        if game["finished"]:
            for c, first in enumerate(people):
                for d, second in enumerate(people):
                    if d <= c:
                        continue
                    for p in first:
                        for q in second:
                            key, flip = ((p, q), False) if p < q else ((q, p), True)
                            met[key][0] += 1
                            winner_first = game["winner"] == (d if flip else c)
                            winner_second = game["winner"] == (c if flip else d)
                            met[key][1] += winner_first
                            met[key][2] += winner_second
    return players, pairs, met


def _compare(api: dict[str, Any], mine: dict[str, Any]) -> None:
    assert api["games"] == mine["games"]
    assert api["wins"] == mine["wins"]
    assert api["hands"] == mine["hands"]
    assert api["average_hand"] == (round(mine["points"] / mine["hands"]) if mine["hands"] else 0)
    assert api["canastas"] == {k: mine[k] for k in ("natural", "mixed", "wild")}
    assert api["went_out"] == mine["went_out"]
    assert api["concealed"] == mine["concealed"]
    assert api["red_threes"] == mine["red_threes"]
    assert api["red_threes_hands"] == mine["red_threes_hands"]
    assert api["canastas_hands"] == mine["red_threes_hands"]
    assert api["best_hand"] == mine["best_hand"]
    assert api["highest_game"] == mine["highest_game"]
    assert api["lowest_game"] == mine["lowest_game"]
    assert api["win_rate"] == (round(100 * mine["wins"] / mine["games"]) if mine["games"] else 0)


def derived(app: Flask, client: FlaskClient, export: dict[str, Any]) -> dict[str, Any]:
    """The export with each game as it is derived from its entries: a Canasta game as the games
    API answers it (by its view key), a 3-ist-50 game's minus points, winners and end."""
    games = []
    for item in export["games"]:
        view_id = item["game"]["view_id"]
        if item["kind"] == "canasta":
            game = client.get(f"/api/v1/games/{view_id}").json
        else:
            with app.app_context(), session_scope() as session:
                found = fifty.get_by_view(session, view_id)
                assert found is not None
                state = fifty.fifty_state(found)
                game = {
                    "ruleset": fifty.RULESET_ID,
                    "points": [[s.points for s in row.scores] for row in state.rows],
                    "winners": list(state.winners),
                    "finished": state.finished,
                }
        games.append({**item, "game": game})
    return {**export, "games": games}


def test_every_statistic_equals_a_count_from_the_exported_hands(
    app: Flask, client: FlaskClient, table: dict[str, Any]
) -> None:
    key = table["id"]
    stored = client.get(f"/api/v1/tables/{key}/export").json
    answer = client.get(f"/api/v1/tables/{key}").json
    assert stored is not None and answer is not None
    export = derived(app, client, stored)
    assert len(export["games"]) == 12
    kinds = {item["game"]["ruleset"] for item in export["games"]}
    assert kinds == {"german", "polish", "classic", "three-is-fifty"}
    assert any(not item["game"]["finished"] for item in export["games"])
    players, pairs, met = recount(export)
    stats = answer["stats"]
    # the figures are not trivially zero
    assert all(sum(p[k] for p in players.values()) > 0 for k in ("concealed", "red_threes", "wins"))
    assert sum(p["fifty_wins"] for p in players.values()) >= 2
    assert {p["name"] for p in stats["players"]} == set(players)
    for entry in stats["players"]:
        mine = players[entry["name"]]
        _compare(entry, mine)
        assert entry["fifty"]["games"] == mine["fifty_games"]
        assert entry["fifty"]["wins"] == mine["fifty_wins"]
        assert entry["fifty"]["played"] == mine["fifty_decks"]
        assert entry["fifty"]["average_minus"] == (
            round(mine["fifty_points"] / mine["fifty_decks"]) if mine["fifty_decks"] else 0
        )
    assert {tuple(p["players"]) for p in stats["partnerships"]} == {tuple(sorted(k)) for k in pairs}
    for entry in stats["partnerships"]:
        _compare(entry, pairs[tuple(sorted(entry["players"]))])
    h2h = {tuple(m["players"]): [m["games"], *m["wins"]] for m in stats["head_to_head"]["players"]}
    assert h2h == {k: v for k, v in met.items()}
    # Equal sides in every rated game: Elo moves points from side to side, never makes any.
    ratings = [p["rating"] for p in stats["players"]]
    assert abs(sum(ratings) - START * len(ratings)) <= len(ratings)
    assert len(set(ratings)) > 1


def test_the_games_come_newest_first_and_a_view_shows_no_key(
    client: FlaskClient, table: dict[str, Any]
) -> None:
    answer = client.get(f"/api/v1/tables/{table['id']}").json
    assert answer is not None
    created = [g["created"] for g in answer["games"]]
    assert created == sorted(created, reverse=True)
    assert {"id", "view_id", "ruleset", "created", "finished", "winner", "sides"} <= set(
        answer["games"][0]
    )
    view = client.get(f"/api/v1/tables/{table['view_id']}")
    assert view.status_code == 200
    body = view.get_data(as_text=True)
    assert table["id"] not in body
    assert all(g["id"] not in body for g in answer["games"])
    assert view.json is not None and view.json["stats"] == answer["stats"]


def test_records_name_the_game_they_come_from(client: FlaskClient, table: dict[str, Any]) -> None:
    answer = client.get(f"/api/v1/tables/{table['id']}").json
    assert answer is not None
    records = {r["kind"]: r for r in answer["stats"]["records"]}
    assert set(records) == {"best_hand", "highest_game", "lowest_game", "widest_margin"}
    best = records["best_hand"]
    game = client.get(f"/api/v1/games/{best['game']}").json
    assert game is not None
    scores = [s["score"] for s in game["hands"][best["hand"] - 1]["sides"]]
    assert best["value"] == max(scores)
    everything = [
        s["score"]
        for g in answer["games"]
        if g["kind"] == "canasta"
        for h in client.get(f"/api/v1/games/{g['view_id']}").json["hands"]  # type: ignore[index]
        for s in h["sides"]
    ]
    assert best["value"] == max(everything)
