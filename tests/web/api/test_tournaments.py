"""Club tournaments through the JSON API (docs/api.md, tournaments): whole tournaments
played table by table through ``/api/v1/games``, every standing held to a count the test makes
itself from the totals it entered; bad input, rounds still playing, round ends."""

from __future__ import annotations

import itertools
import json
import random
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.store.db import session_scope
from scorekeeper.store.models import Game, Tournament, TournamentParticipant
from tests.store.test_store import BACKENDS, backend_app
from tests.web.play.test_page_fast_path import statements

TOURNAMENTS = "/api/v1/tournaments"
GAMES = "/api/v1/games"


@pytest.fixture(params=BACKENDS)
def any_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """An app on SQLite, and on PostgreSQL when SCOREKEEPER_TEST_POSTGRES_URL is set."""
    with backend_app(request.param, tmp_path) as app:
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
        "participants": [f"Player {i + 1}" for i in range(12)],
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def create(client: FlaskClient, **changes: Any) -> dict[str, Any]:
    response = client.post(TOURNAMENTS, json=body(**changes))
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    assert set(answer) == {"id", "view_id"}
    assert response.headers["Location"].endswith(f"{TOURNAMENTS}/{answer['id']}")
    return answer  # type: ignore[no-any-return]


def start(client: FlaskClient, key: str) -> dict[str, Any]:
    response = client.post(f"{TOURNAMENTS}/{key}/rounds", json={})
    assert response.status_code == 201, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def detail(client: FlaskClient, key: str) -> dict[str, Any]:
    response = client.get(f"{TOURNAMENTS}/{key}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def teams(totals: tuple[int, ...]) -> list[dict[str, Any]]:
    return [{"total": t, "went_out": i == 0} for i, t in enumerate(totals)]


def enter(client: FlaskClient, game_id: str, totals: tuple[int, ...]) -> None:
    version = client.get(f"{GAMES}/{game_id}").get_json()["version"]
    response = client.post(
        f"{GAMES}/{game_id}/hands", json={"version": version, "teams": teams(totals)}
    )
    assert response.status_code == 201, response.get_json()


def codes(response: Any) -> list[str]:
    return [p["code"] for p in response.get_json()["problems"]]


class Tally:
    """The standings counted by hand: per participant name, match points (2/1/0), points
    and tables played, from the totals the test entered."""

    def __init__(self) -> None:
        self.tables: dict[tuple[int, int], tuple[list[list[str]], list[int]]] = {}
        #: per (round, table), the totals of each hand entered
        self.hands: dict[tuple[int, int], list[tuple[int, ...]]] = {}

    def record(self, number: int, table: int, sides: list[list[str]], totals: list[int]) -> None:
        self.tables[(number, table)] = (sides, totals)

    def counts(self) -> dict[str, tuple[int, int, int]]:
        out: dict[str, list[int]] = {}
        for sides, totals in self.tables.values():
            best = max(totals)
            leaders = totals.count(best)
            for side, total in zip(sides, totals, strict=True):
                got = (2 if leaders == 1 else 1) if total == best else 0
                for name in side:
                    row = out.setdefault(name, [0, 0, 0])
                    row[0] += got
                    row[1] += total
                    row[2] += 1
        return {name: (a, b, c) for name, (a, b, c) in out.items()}


def check_standings(shown: dict[str, Any], tally: Tally, pairs: bool) -> None:
    """Every row's figures are the tally's; the order follows the scoring's measure, then
    points (equal figures may share a rank or be parted by head-to-head, never put behind a
    worse participant)."""
    names = {p["number"]: p for p in shown["participants"]}
    counted = tally.counts()
    rows = shown["standings"]
    assert sorted(r["participant"] for r in rows) == sorted(names)
    for row in rows:
        players = names[row["participant"]]["players"]
        # in pairs both players of a pair have the pair's figures: take the first
        mp, points, played = counted.get(players[0], (0, 0, 0))
        assert (row["match_points"], row["points"], row["played"]) == (mp, points, played), row
        if pairs:
            assert counted.get(players[1], (0, 0, 0)) == (mp, points, played)
    ranks = [r["rank"] for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1

    def measure(row: dict[str, Any]) -> tuple[int, ...]:
        if shown["scoring"] == "points":
            return (row["points"],)
        return (row["match_points"], row["points"])

    for a, b in itertools.combinations(rows, 2):
        if measure(a) > measure(b):
            assert a["rank"] < b["rank"], (a, b)
        elif measure(a) < measure(b):
            raise AssertionError(f"{a} ranked before the better {b}")


def play_round(
    client: FlaskClient, key: str, tally: Tally, rng: random.Random, hands: int
) -> dict[str, Any]:
    started = start(client, key)
    for table in started["tables"]:
        sums = [0] * len(table["sides"])
        for _ in range(hands):
            totals = tuple(5 * rng.randrange(-20, 300) for _ in table["sides"])
            enter(client, table["game_id"], totals)
            tally.hands.setdefault((started["number"], table["table"]), []).append(totals)
            sums = [s + t for s, t in zip(sums, totals, strict=True)]
        tally.record(started["number"], table["table"], table["sides"], sums)
    return started


# ---- whole tournaments ---------------------------------------------------------------------------


def test_twelve_players_individual_three_rounds(any_app: Flask) -> None:
    client = any_app.test_client()
    made = create(client)
    key = made["id"]
    tally = Tally()
    rng = random.Random(12)
    partners: Counter[frozenset[str]] = Counter()
    rounds = []
    for number in (1, 2, 3):
        started = play_round(client, key, tally, rng, hands=2)
        assert started["number"] == number and started["byes"] == []
        assert len(started["tables"]) == 3
        seated = [n for t in started["tables"] for side in t["sides"] for n in side]
        assert sorted(seated) == sorted(f"Player {i + 1}" for i in range(12))
        for table in started["tables"]:
            assert [len(side) for side in table["sides"]] == [2, 2]
            partners.update(frozenset(side) for side in table["sides"])
        rounds.append(started)
        shown = detail(client, key)
        assert shown["provisional"] is False  # every table has its two hands
        check_standings(shown, tally, pairs=False)
    assert max(partners.values()) == 1  # nobody partners anyone twice
    shown = detail(client, key)
    assert [r["state"] for r in shown["rounds"]] == ["closed", "closed", "playing"]
    assert all(t["reported"] for r in shown["rounds"] for t in r["tables"])

    # a mistyped hand corrected by the director moves the standings
    table = rounds[1]["tables"][0]
    game = client.get(f"{GAMES}/{table['game_id']}").get_json()
    old = tally.tables[(2, table["table"])]
    hand_one = tally.hands[(2, table["table"])][0]
    corrected = (hand_one[0] + 1000, hand_one[1])
    response = client.put(
        f"{GAMES}/{table['game_id']}/hands/1",
        json={"version": game["version"], "teams": teams(corrected)},
    )
    assert response.status_code == 200, response.get_json()
    tally.record(2, table["table"], old[0], [old[1][0] + 1000, old[1][1]])
    moved = detail(client, key)
    check_standings(moved, tally, pairs=False)
    before = {r["participant"]: r["points"] for r in shown["standings"]}
    after = {r["participant"]: r["points"] for r in moved["standings"]}
    assert sum(after.values()) - sum(before.values()) == 2 * 1000  # both partners of side 1

    # the read-only view: the same tournament without any editing key
    public = client.get(f"{TOURNAMENTS}/{made['view_id']}")
    assert public.status_code == 200
    text = public.get_data(as_text=True)
    assert key not in text and "game_id" not in text and '"id"' not in text
    for started in rounds:
        for t in started["tables"]:
            assert t["game_id"] not in text and t["view_id"] in text
    assert json.loads(text)["standings"] == moved["standings"]


def test_sixteen_players_in_pairs_three_rounds(any_app: Flask) -> None:
    client = any_app.test_client()
    couples = [[f"A{i}", f"B{i}"] for i in range(8)]
    made = create(client, format="pairs", participants=couples, scoring="points")
    key = made["id"]
    tally = Tally()
    rng = random.Random(16)
    opponents: Counter[frozenset[str]] = Counter()
    for _number in (1, 2, 3):
        started = play_round(client, key, tally, rng, hands=2)
        assert len(started["tables"]) == 4 and started["byes"] == []
        for table in started["tables"]:
            sides = [tuple(side) for side in table["sides"]]
            assert all(list(side) in couples for side in sides)  # pairs stay together
            opponents[frozenset(sides)] += 1
        check_standings(detail(client, key), tally, pairs=True)
    assert max(opponents.values()) == 1  # no pair meets another twice
    shown = detail(client, key)
    # scoring by points: the first ranks by points
    assert shown["standings"][0]["points"] == max(r["points"] for r in shown["standings"])


# ---- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "status", "code"),
    [
        ({"ruleset": "bridge"}, 422, "ruleset.unknown"),
        ({"ruleset": None}, 400, "request.missing"),
        ({"ruleset": "american", "players": 3}, 422, "players.not_allowed"),
        ({"players": 5}, 422, "players.not_allowed"),
        ({"participants": ["Anna"]}, 422, "tournament.participants"),
        ({"participants": [f"P{i}" for i in range(401)]}, 422, "tournament.participants"),
        ({"participants": ["Anna", "Ben", "Cleo", "ANNA "]}, 422, "tournament.player_twice"),
        (
            {"format": "pairs", "participants": [["A", "B"], ["C", "D", "E"]]},
            422,
            "tournament.pair",
        ),
        (
            {"format": "pairs", "participants": [["A", "B"], ["C", "D"], "E"]},
            422,
            "tournament.pair",
        ),
        ({"round_end": {"hands": 0}}, 422, "tournament.round_end_value"),
        ({"round_end": {"minutes": 100000}}, 422, "tournament.round_end_value"),
        ({"round_end": {"rounds": 3}}, 422, "tournament.round_end"),
        ({"round_end": 3}, 400, "request.type"),
        ({"round_end": None}, 400, "request.missing"),
        ({"participants": "Anna, Ben"}, 400, "request.type"),
        ({"scoring": "goals"}, 400, "request.value"),
        ({"points": {"win": -1}}, 422, "tournament.points"),
        ({"name": "x" * 41}, 422, "name.invalid"),
    ],
)
def test_bad_input_is_refused_and_stores_nothing(
    app: Flask, client: FlaskClient, changes: dict[str, Any], status: int, code: str
) -> None:
    response = client.post(TOURNAMENTS, json=body(**changes))
    assert response.status_code == status, response.get_json()
    assert code in codes(response)
    problem = response.get_json()["problems"][0]
    assert problem["message"] and problem["message"] != problem["code"]
    with app.app_context(), session_scope() as session:
        for model in (Tournament, TournamentParticipant, Game):
            assert session.scalar(select(func.count()).select_from(model)) == 0


@pytest.mark.parametrize("lang", ["de", "pl", "en"])
def test_problems_are_translated(client: FlaskClient, lang: str) -> None:
    response = client.post(
        TOURNAMENTS,
        json=body(participants=["Anna", "Ben", "anna"]),
        headers={"Accept-Language": lang},
    )
    messages = [p["message"] for p in response.get_json()["problems"]]
    expected = {
        "de": "Ein Turnier hat 4 bis 400 Teilnehmer.",
        "pl": "Turniej ma od 4 do 400 uczestników.",
        "en": "A tournament has 4 to 400 participants.",
    }[lang]
    assert expected in messages, messages
    new_round = client.post(
        f"{TOURNAMENTS}/nonsense-key-0000000000/rounds",
        json={},
        headers={"Accept-Language": lang},
    )
    assert new_round.status_code == 404
    assert codes(new_round) == ["tournament.not_found"]
    words = {"de": "Turnier", "pl": "turnieju", "en": "tournament"}[lang]
    assert words in new_round.get_json()["problems"][0]["message"]


@pytest.mark.parametrize(
    ("method", "path", "sent", "code", "where"),
    [
        ("put", "participants/0", {}, "request.missing", "absent"),
        ("put", "participants/0", {"absent": "yes"}, "request.type", "absent"),
        ("post", "rounds/1/swap", {"a": "one", "b": 2}, "seating.unknown", "a"),
        ("put", "rounds/1/seating", {"tables": [{"number": 1}]}, "request.type", "seating"),
    ],
)
def test_a_directors_change_is_read_at_the_edge_once_the_tournament_is_found(
    client: FlaskClient, method: str, path: str, sent: dict[str, Any], code: str, where: str
) -> None:
    """A body of the wrong shape is refused with its problem (and nothing changes); for a
    tournament that is not there, the answer is that it is not there (docs/api.md §3)."""
    unknown = getattr(client, method)(f"{TOURNAMENTS}/nonsense-key-0000000000/{path}", json=sent)
    assert unknown.status_code == 404 and codes(unknown) == ["tournament.not_found"]
    key = create(client)["id"]
    assert client.post(f"{TOURNAMENTS}/{key}/rounds/proposal", json={}).status_code == 200
    before = detail(client, key)
    refused = getattr(client, method)(f"{TOURNAMENTS}/{key}/{path}", json=sent)
    assert refused.status_code == (422 if code.startswith("seating") else 400)
    problem = refused.get_json()["problems"][0]
    assert (problem["code"], problem["where"]) == (code, where)
    assert detail(client, key) == before


def test_not_json_and_unknown_keys(client: FlaskClient) -> None:
    response = client.post(TOURNAMENTS, data="{", content_type="application/json")
    assert response.status_code == 400 and codes(response) == ["request.invalid_json"]
    assert client.get(f"{TOURNAMENTS}/nope").status_code == 404


# ---- rounds -------------------------------------------------------------------------------------


def test_a_new_round_waits_for_every_table(client: FlaskClient) -> None:
    key = create(client)["id"]
    started = start(client, key)
    for table in started["tables"][:2]:
        enter(client, table["game_id"], (500, 100))
        enter(client, table["game_id"], (500, 100))
    last = started["tables"][2]
    enter(client, last["game_id"], (500, 100))
    shown = detail(client, key)
    assert shown["provisional"] is True
    assert [t["reported"] for t in shown["rounds"][0]["tables"]] == [True, True, False]
    response = client.post(f"{TOURNAMENTS}/{key}/rounds", json={})
    assert response.status_code == 409 and codes(response) == ["tournament.round_open"]
    assert len(detail(client, key)["rounds"]) == 1
    enter(client, last["game_id"], (100, 500))
    assert start(client, key)["number"] == 2


def test_the_director_closes_a_round(client: FlaskClient) -> None:
    key = create(client)["id"]
    started = start(client, key)
    enter(client, started["tables"][0]["game_id"], (500, 100))
    response = client.post(f"{TOURNAMENTS}/{key}/rounds/1/close", json={})
    assert response.status_code == 200
    shown = response.get_json()
    assert shown["rounds"][0]["state"] == "closed" and shown["provisional"] is False
    # a closed round: its tables count as they stand (a table with no hand: a draw at 0)
    rows = {r["participant"]: r for r in shown["standings"]}
    assert sum(r["played"] for r in rows.values()) == 12
    assert client.post(f"{TOURNAMENTS}/{key}/rounds/7/close", json={}).status_code == 404
    assert start(client, key)["number"] == 2


def test_target_mode(client: FlaskClient) -> None:
    key = create(client, round_end={"target": 1000}, participants=[f"P{i}" for i in range(8)])["id"]
    started = start(client, key)
    one, two = (t["game_id"] for t in started["tables"])
    assert client.get(f"{GAMES}/{one}").get_json()["target"] == 1000
    enter(client, one, (600, 100))
    enter(client, two, (300, 100))
    shown = detail(client, key)["rounds"][0]
    assert shown["ending_at"] is None and not any(t["reported"] for t in shown["tables"])
    enter(client, one, (500, 100))  # table 1 reaches the target
    shown = detail(client, key)["rounds"][0]
    assert shown["ending_at"] is not None
    assert [t["reported"] for t in shown["tables"]] == [True, False]
    assert client.post(f"{TOURNAMENTS}/{key}/rounds", json={}).status_code == 409
    enter(client, two, (200, 100))  # table 2 finishes the hand it was playing
    shown = detail(client, key)
    assert [t["reported"] for t in shown["rounds"][0]["tables"]] == [True, True]
    assert shown["provisional"] is False
    response = client.post(f"{TOURNAMENTS}/{key}/rounds/1/time", json={})
    assert response.status_code == 422 and codes(response) == ["tournament.no_time"]
    assert start(client, key)["number"] == 2


def test_minutes_mode(client: FlaskClient) -> None:
    key = create(client, round_end={"minutes": 30}, participants=[f"P{i}" for i in range(8)])["id"]
    started = start(client, key)
    one, two = (t["game_id"] for t in started["tables"])
    enter(client, one, (600, 100))
    enter(client, two, (600, 100))
    shown = detail(client, key)
    assert not any(t["reported"] for t in shown["rounds"][0]["tables"])
    assert client.post(f"{TOURNAMENTS}/{key}/rounds", json={}).status_code == 409
    response = client.post(f"{TOURNAMENTS}/{key}/rounds/1/time", json={})
    assert response.status_code == 200
    assert response.get_json()["rounds"][0]["ending_at"] is not None
    enter(client, two, (100, 300))  # the hand after time was called
    shown = detail(client, key)
    assert [t["reported"] for t in shown["rounds"][0]["tables"]] == [False, True]
    assert shown["provisional"] is True
    enter(client, one, (100, 300))
    assert detail(client, key)["provisional"] is False
    assert start(client, key)["number"] == 2


def test_an_absent_participant_sits_out(client: FlaskClient) -> None:
    key = create(client, participants=[f"P{i}" for i in range(9)])["id"]
    response = client.put(f"{TOURNAMENTS}/{key}/participants/8", json={"absent": True})
    assert response.status_code == 200
    assert response.get_json()["participants"][8]["absent"] is True
    started = start(client, key)
    seated = {n for t in started["tables"] for side in t["sides"] for n in side}
    assert "P8" not in seated and len(seated) == 8 and started["byes"] == []
    wrong = client.put(f"{TOURNAMENTS}/{key}/participants/8", json={"absent": "yes"})
    assert wrong.status_code == 400
    assert (
        client.put(f"{TOURNAMENTS}/{key}/participants/99", json={"absent": True}).status_code == 404
    )


def test_odd_count_gives_byes(client: FlaskClient) -> None:
    key = create(client, participants=[f"P{i}" for i in range(10)])["id"]
    started = start(client, key)
    assert len(started["tables"]) == 2 and len(started["byes"]) == 2


def test_proposal_swap_and_confirm(client: FlaskClient) -> None:
    key = create(client, participants=[f"P{i}" for i in range(8)])["id"]
    response = client.post(f"{TOURNAMENTS}/{key}/rounds/proposal", json={})
    assert response.status_code == 200
    proposed = response.get_json()["rounds"][0]
    assert proposed["state"] == "proposed" and "game_id" not in json.dumps(proposed)
    a = proposed["tables"][0]["participants"][0][0]
    b = proposed["tables"][1]["participants"][0][0]
    swapped = client.post(f"{TOURNAMENTS}/{key}/rounds/1/swap", json={"a": a, "b": b})
    assert swapped.status_code == 200
    tables = swapped.get_json()["rounds"][0]["tables"]
    assert tables[0]["participants"][0][0] == b and tables[1]["participants"][0][0] == a
    seating = {
        "tables": [{"number": 1, "sides": [[0, 1], [2, 3]]}, {"number": 2, "sides": [[4, 5], [6]]}],
        "byes": [],
    }
    refused = client.put(f"{TOURNAMENTS}/{key}/rounds/1/seating", json=seating)
    assert refused.status_code == 422
    assert all(c.startswith("seating.") for c in codes(refused))
    assert (
        client.put(f"{TOURNAMENTS}/{key}/rounds/1/seating", json={"tables": 3}).status_code == 400
    )
    seating["tables"][1]["sides"] = [[4, 5], [6, 7]]
    assert client.put(f"{TOURNAMENTS}/{key}/rounds/1/seating", json=seating).status_code == 200
    confirmed = client.post(f"{TOURNAMENTS}/{key}/rounds/1/confirm", json={})
    assert confirmed.status_code == 200
    first = confirmed.get_json()["rounds"][0]
    assert first["state"] == "playing"
    assert first["tables"][0]["sides"] == [["P0", "P1"], ["P2", "P3"]]
    game = client.get(f"{GAMES}/{first['tables'][0]['game_id']}").get_json()
    assert [s["players"] for s in game["sides"]] == [["P0", "P1"], ["P2", "P3"]]
    again = client.post(f"{TOURNAMENTS}/{key}/rounds/1/swap", json={"a": 0, "b": 4})
    assert again.status_code == 409 and codes(again) == ["tournament.round_state"]


# ---- polled by many phones -----------------------------------------------------------------------


def test_an_unchanged_tournament_costs_one_read(
    app: Flask, client: FlaskClient, other_process: Flask
) -> None:
    made = create(client)
    started = start(client, made["id"])
    first = client.get(f"{TOURNAMENTS}/{made['view_id']}")
    for key in (made["view_id"], made["id"]):
        client.get(f"{TOURNAMENTS}/{key}")
        with statements(app) as seen:
            again = client.get(f"{TOURNAMENTS}/{key}")
        assert again.status_code == 200
        assert len(seen) == 1 and seen[0].lstrip().upper().startswith("SELECT"), seen
    assert again.get_json()["id"] == made["id"]
    # a hand entered at one table (here by another server process) shows at the next poll
    game_id = started["tables"][1]["game_id"]
    other = other_process.test_client()
    version = other.get(f"{GAMES}/{game_id}").get_json()["version"]
    response = other.post(
        f"{GAMES}/{game_id}/hands", json={"version": version, "teams": teams((700, 100))}
    )
    assert response.status_code == 201
    fresh = client.get(f"{TOURNAMENTS}/{made['view_id']}").get_json()
    assert fresh["rounds"][0]["tables"][1]["totals"] == [700, 100]
    assert fresh != first.get_json()
    # so does a change of the tournament itself
    client.put(f"{TOURNAMENTS}/{made['id']}/participants/0", json={"absent": True})
    assert client.get(f"{TOURNAMENTS}/{made['view_id']}").get_json()["participants"][0]["absent"]


def test_a_repeated_new_round_is_not_doubled(app: Flask, client: FlaskClient) -> None:
    key = create(client)["id"]
    start(client, key)
    again = client.post(f"{TOURNAMENTS}/{key}/rounds", json={})
    assert again.status_code == 409 and codes(again) == ["tournament.round_open"]
    assert len(detail(client, key)["rounds"]) == 1
    with app.app_context(), session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 3


def test_a_larger_table_seats_everyone(client: FlaskClient) -> None:
    # classic allows 2, 3, 4 and 6 players (docs/rulebook.md §4): 10 players at tables of 4 and 6
    key = create(
        client, ruleset="classic", odd="larger", participants=[f"P{i}" for i in range(10)]
    )["id"]
    started = start(client, key)
    assert started["byes"] == []
    assert sorted(sum(len(side) for side in t["sides"]) for t in started["tables"]) == [4, 6]
    six = next(t for t in started["tables"] if sum(len(s) for s in t["sides"]) == 6)
    game = client.get(f"{GAMES}/{six['game_id']}").get_json()
    assert game["players"] == 6 and len(game["sides"]) == 3


def test_nobody_present_and_absent_swaps(client: FlaskClient) -> None:
    key = create(client, participants=[f"P{i}" for i in range(6)])["id"]
    url = f"{TOURNAMENTS}/{key}/participants"

    def seated(answer: Any) -> set[int]:
        tables = answer.get_json()["rounds"][0]["tables"]
        return {p for t in tables for side in t["participants"] for p in side}

    for number in (4, 5):
        client.put(f"{url}/{number}", json={"absent": True})
    proposal = client.post(f"{TOURNAMENTS}/{key}/rounds/proposal", json={})
    assert proposal.status_code == 200 and seated(proposal) == {0, 1, 2, 3}
    # an absence marked while a proposal is open draws it again without the absent one
    client.put(f"{url}/4", json={"absent": False})
    assert seated(client.put(f"{url}/3", json={"absent": True})) == {0, 1, 2, 4}
    gone = client.put(f"{url}/4", json={"absent": True})  # three left: no table, no proposal
    assert gone.status_code == 200 and gone.get_json()["rounds"] == []
    client.put(f"{url}/3", json={"absent": False})
    client.post(f"{TOURNAMENTS}/{key}/rounds/proposal", json={})
    both_absent = client.post(f"{TOURNAMENTS}/{key}/rounds/1/swap", json={"a": 4, "b": 5})
    assert both_absent.status_code == 422 and codes(both_absent)[0].startswith("seating.")
    for number in (1, 2, 3):
        client.put(f"{url}/{number}", json={"absent": True})
    again = client.post(f"{TOURNAMENTS}/{key}/rounds/proposal", json={})
    assert again.status_code == 422 and codes(again) == ["tournament.nobody"]


def test_two_directors_starting_a_round_at_once(any_app: Flask) -> None:
    """Two requests for the first round at the same moment: one round, one 201, one 409."""
    client = any_app.test_client()
    key = create(client)["id"]
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def post() -> None:
        own = any_app.test_client()
        barrier.wait(timeout=10)
        statuses.append(own.post(f"{TOURNAMENTS}/{key}/rounds", json={}).status_code)

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [201, 409]
    shown = detail(client, key)
    assert [r["number"] for r in shown["rounds"]] == [1]
    with any_app.app_context(), session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 3


def test_creating_tournaments_and_rounds_is_rate_limited(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'limits.sqlite3'}",
            "RATELIMIT_ENABLED": True,
            "LIMIT_CREATE": "3 per minute",
            "LIMIT_WRITE": "2 per minute",
        }
    )
    try:
        client = app.test_client()
        key = create(client)["id"]
        assert client.post(TOURNAMENTS, json=body(ruleset="bridge")).status_code == 422  # free
        start(client, key)
        assert client.post(TOURNAMENTS, json=body()).status_code == 201
        limited = client.post(TOURNAMENTS, json=body())
        assert limited.status_code == 429 and codes(limited) == ["request.rate_limited"]
        url = f"{TOURNAMENTS}/{key}/participants/0"
        assert client.put(url, json={"absent": True}).status_code == 200
        assert client.put(url, json={"absent": False}).status_code == 200
        assert client.put(url, json={"absent": True}).status_code == 429
    finally:
        app.extensions["scorekeeper.engine"].dispose()
