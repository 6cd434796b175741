"""Two writes at the same moment through two ``scorekeeper serve`` processes on one database:
every write endpoint that two phones (or two directors) can race, on PostgreSQL and on SQLite.

Each race starts two requests together (a ``threading.Barrier``: both connections are open
and both requests written at once), one to each process, many rounds; afterwards what is
stored is read back and checked: the people, the sides of every game, the totals, and the
table's statistics against the stored games and hands. docs/concurrency.md says which lock
or version serialises each write.
"""

from __future__ import annotations

import http.client
import json
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest

from tests.loopback import stack
from tests.store.postgres import empty_postgres

pytestmark = pytest.mark.stack

ROUNDS = 5
Answer = tuple[int, Any]


@dataclass
class Servers:
    ports: tuple[int, int]

    def call(self, which: int, method: str, path: str, body: object = None) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.ports[which], timeout=30)
        try:
            return _send(connection, method, path, body)
        finally:
            connection.close()

    def race(
        self, first: tuple[str, str, object], second: tuple[str, str, object]
    ) -> tuple[Answer, Answer]:
        """The two requests, ``first`` to one process and ``second`` to the other, released
        together by a barrier once both connections are open."""
        barrier = threading.Barrier(2, timeout=30)

        def run(which: int, request: tuple[str, str, object]) -> Answer:
            connection = http.client.HTTPConnection("127.0.0.1", self.ports[which], timeout=30)
            connection.connect()
            try:
                barrier.wait()
                return _send(connection, *request)
            finally:
                connection.close()

        with ThreadPoolExecutor(2) as pool:
            one = pool.submit(run, 0, first)
            two = pool.submit(run, 1, second)
            return one.result(), two.result()


def _send(connection: http.client.HTTPConnection, method: str, path: str, body: object) -> Answer:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Accept-Language": "de"} if data else {}
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    raw = response.read()
    try:
        return response.status, json.loads(raw)
    except ValueError:
        return response.status, raw.decode("utf-8", "replace")


BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


def two_servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, name: str
) -> Iterator[Servers]:
    """Two real ``scorekeeper serve`` processes on one database (the fixture's backend)."""
    folder = tmp_path_factory.mktemp(f"{name}-{request.param}")
    if request.param == "postgres":
        url = empty_postgres()
    else:
        url = f"sqlite:///{folder / 'race.sqlite3'}"
    env = {
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": name,
        "SCOREKEEPER_RATELIMIT_ENABLED": "false",
    }
    # The first process brings the schema up to date before the second starts.
    first = stack.start_app(folder, "one", env)
    try:
        second = stack.start_app(folder, "two", env)
    except BaseException:
        first.stop()
        raise
    try:
        yield Servers((first.port, second.port))
    finally:
        second.stop()
        first.stop()
        for process in (first, second):
            assert "Traceback" not in process.output(), process.output()
    if request.param == "postgres":
        empty_postgres()


@pytest.fixture(scope="module", params=BACKENDS)
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Servers]:
    yield from two_servers(request, tmp_path_factory, "race")


# ---- what is stored afterwards ------------------------------------------------------------------


def table_of(servers: Servers, key: str) -> dict[str, Any]:
    status, body = servers.call(0, "GET", f"/api/v1/tables/{key}")
    assert status == 200, body
    return body  # type: ignore[no-any-return]


def consistent(servers: Servers, key: str) -> dict[str, Any]:
    """The table read back, checked: every player of every game is a person of the table
    (none deleted, none empty), a side's name made from its players follows them, and each
    person's statistics count exactly the (finished) games and the hands that name them."""
    table = table_of(servers, key)
    people = {p["name"] for p in table["players"]}
    assert len(people) == len(table["players"])
    assert len({name.casefold() for name in people}) == len(people), people
    games, hands = dict.fromkeys(people, 0), dict.fromkeys(people, 0)
    for game in table["games"]:
        for side in game["sides"]:
            assert side["players"], game
            for name in side["players"]:
                assert name in people, (name, people, game)
                games[name] += 1 if game["finished"] else 0  # the statistics count finished
                hands[name] += game["hands"]
            if len(side["players"]) > 1:
                assert side["name"] == " & ".join(side["players"]), side
    stats = {p["name"]: p for p in table["stats"]["players"]}
    assert set(stats) == people
    for name in people:
        assert stats[name]["games"] == games[name], (name, stats[name], games)
        assert stats[name]["hands"] == hands[name], (name, stats[name], hands)
    return table


def new_table(servers: Servers, *names: str) -> tuple[str, dict[str, int]]:
    status, body = servers.call(
        0, "POST", "/api/v1/tables", {"name": "Race", "players": list(names)}
    )
    assert status == 201, body
    return body["id"], {p["name"]: p["id"] for p in body["players"]}


def game_body(key: str, first: list[str], second: list[str]) -> dict[str, Any]:
    return {
        "ruleset": "german",
        "players": 4,
        "table": key,
        "sides": [
            {"name": " & ".join(first), "players": first},
            {"name": " & ".join(second), "players": second},
        ],
    }


def new_game(servers: Servers, key: str, first: list[str], second: list[str]) -> str:
    status, body = servers.call(0, "POST", "/api/v1/games", game_body(key, first, second))
    assert status == 201, body
    return body["id"]  # type: ignore[no-any-return]


# small enough that no game of the races is won (German target 5,000) in 20 rounds
HAND = {"teams": [{"total": 200, "went_out": True}, {"total": 120, "went_out": False}]}


def hand(servers: Servers, game: str) -> None:
    status, body = servers.call(0, "GET", f"/api/v1/games/{game}")
    status, body = servers.call(
        0, "POST", f"/api/v1/games/{game}/hands", {**HAND, "version": body["version"]}
    )
    assert status == 201, body


def problem_codes(answer: Answer) -> list[str]:
    body = answer[1]
    problems = body.get("problems", []) if isinstance(body, dict) else []
    for problem in problems:
        assert problem["message"] and problem["message"] != problem["code"], problem
    return [p["code"] for p in problems]


def played_in(table: dict[str, Any], game_id: str) -> list[list[str]]:
    game = next(g for g in table["games"] if g["id"] == game_id)
    return [side["players"] for side in game["sides"]]


# ---- the races ----------------------------------------------------------------------------------


def test_crossed_merges_one_wins_the_other_is_a_conflict(servers: Servers) -> None:
    for _ in range(ROUNDS):
        key, ids = new_table(servers, "Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
        ann_game = new_game(servers, key, ["Ann", "Cid"], ["Dan", "Eve"])
        bob_game = new_game(servers, key, ["Bob", "Fay"], ["Dan", "Eve"])
        hand(servers, ann_game)
        merge = f"/api/v1/tables/{key}/merge"
        one, two = servers.race(
            ("POST", merge, {"keep": ids["Bob"], "merge": ids["Ann"]}),
            ("POST", merge, {"keep": ids["Ann"], "merge": ids["Bob"]}),
        )
        assert sorted([one[0], two[0]]) == [200, 409], (one, two)
        loser = one if one[0] == 409 else two
        assert problem_codes(loser) == ["table.player_merged"]
        table = consistent(servers, key)
        people = {p["name"] for p in table["players"]}
        kept = "Bob" if one[0] == 200 else "Ann"
        assert people == {kept, "Cid", "Dan", "Eve", "Fay"}
        assert played_in(table, ann_game)[0] == [kept, "Cid"]
        assert played_in(table, bob_game)[0] == [kept, "Fay"]


def test_one_person_merged_into_two_at_once(servers: Servers) -> None:
    for _ in range(ROUNDS):
        key, ids = new_table(servers, "Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
        new_game(servers, key, ["Ann", "Bob"], ["Cid", "Dan"])
        game = new_game(servers, key, ["Eve", "Cid"], ["Dan", "Fay"])
        merge = f"/api/v1/tables/{key}/merge"
        # Ann and Bob are two people (they played together): Eve is one of them, not both.
        one, two = servers.race(
            ("POST", merge, {"keep": ids["Ann"], "merge": ids["Eve"]}),
            ("POST", merge, {"keep": ids["Bob"], "merge": ids["Eve"]}),
        )
        assert sorted([one[0], two[0]]) == [200, 409], (one, two)
        table = consistent(servers, key)
        assert {p["name"] for p in table["players"]} == {"Ann", "Bob", "Cid", "Dan", "Fay"}
        assert played_in(table, game)[0] == ["Ann" if one[0] == 200 else "Bob", "Cid"]


def test_a_merge_racing_a_new_game_naming_both(servers: Servers) -> None:
    outcomes = set()
    for _ in range(ROUNDS):
        key, ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
        first = new_game(servers, key, ["Ann", "Cid"], ["Dan", "Eve"])
        # Cid and Bob never met: merging them is allowed until a game names both.
        merged, made = servers.race(
            ("POST", f"/api/v1/tables/{key}/merge", {"keep": ids["Bob"], "merge": ids["Cid"]}),
            ("POST", "/api/v1/games", game_body(key, ["Cid", "Ann"], ["Bob", "Dan"])),
        )
        outcome = (merged[0], made[0])
        outcomes.add(outcome)
        assert outcome in {(200, 409), (422, 201)}, (merged, made)
        if made[0] == 409:
            assert problem_codes(made) == ["table.player_merged"]
        else:
            assert problem_codes(merged) == ["table.merge_together"]
        table = consistent(servers, key)
        people = {p["name"] for p in table["players"]}
        assert ("Cid" in people) == (made[0] == 201)
        assert played_in(table, first)[0] == ["Ann", "Cid" if made[0] == 201 else "Bob"]
        # a game made after the merge names the person kept
        if merged[0] == 200:
            later = new_game(servers, key, ["Cid", "Ann"], ["Eve", "Dan"])
            assert played_in(consistent(servers, key), later)[0] == ["Bob", "Ann"]
    assert outcomes


def test_two_renames_to_one_name(servers: Servers) -> None:
    for _ in range(ROUNDS):
        key, ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
        new_game(servers, key, ["Ann", "Cid"], ["Bob", "Dan"])
        one, two = servers.race(
            ("PUT", f"/api/v1/tables/{key}/players/{ids['Ann']}", {"name": "Zoe"}),
            ("PUT", f"/api/v1/tables/{key}/players/{ids['Bob']}", {"name": "Zoe"}),
        )
        assert sorted([one[0], two[0]]) == [200, 422], (one, two)
        assert problem_codes(one if one[0] == 422 else two) == ["table.player_twice"]
        table = consistent(servers, key)
        assert sorted(p["name"] for p in table["players"]) == sorted(
            ["Zoe", "Bob" if one[0] == 200 else "Ann", "Cid", "Dan"]
        )


def test_two_renames_differing_in_case(servers: Servers) -> None:
    for _ in range(ROUNDS):
        key, ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
        one, two = servers.race(
            ("PUT", f"/api/v1/tables/{key}/players/{ids['Ann']}", {"name": "Quinn"}),
            ("PUT", f"/api/v1/tables/{key}/players/{ids['Bob']}", {"name": "quinn"}),
        )
        assert sorted([one[0], two[0]]) == [200, 422], (one, two)
        names = [p["name"].casefold() for p in consistent(servers, key)["players"]]
        assert names.count("quinn") == 1


def test_two_new_games_naming_one_new_person(servers: Servers) -> None:
    for n in range(ROUNDS):
        key, _ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
        newcomer = f"Newt{n}"
        one, two = servers.race(
            ("POST", "/api/v1/games", game_body(key, ["Ann", newcomer], ["Bob", "Cid"])),
            ("POST", "/api/v1/games", game_body(key, [newcomer.upper(), "Dan"], ["Bob", "Cid"])),
        )
        assert (one[0], two[0]) == (201, 201), (one, two)
        table = consistent(servers, key)
        found = [p["name"] for p in table["players"] if p["name"].casefold() == newcomer.casefold()]
        assert len(found) == 1, table["players"]
        assert len(table["games"]) == 2
        for game in table["games"]:  # both name that one person, spelled as the table does
            assert found[0] in [name for side in game["sides"] for name in side["players"]]


def test_two_hands_into_one_game_at_once(servers: Servers) -> None:
    key, _ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
    game = new_game(servers, key, ["Ann", "Cid"], ["Bob", "Dan"])
    for _ in range(ROUNDS):
        version = servers.call(0, "GET", f"/api/v1/games/{game}")[1]["version"]
        path = f"/api/v1/games/{game}/hands"
        one, two = servers.race(
            ("POST", path, {**HAND, "version": version}),
            ("POST", path, {**HAND, "version": version}),
        )
        assert sorted([one[0], two[0]]) == [201, 409], (one, two)
    stored = servers.call(0, "GET", f"/api/v1/games/{game}")[1]
    assert len(stored["hands"]) == ROUNDS
    assert [side["total"] for side in stored["sides"]] == [200 * ROUNDS, 120 * ROUNDS]
    consistent(servers, key)


def test_two_entries_racing_one_entry_id_store_one_hand(servers: Servers) -> None:
    key, _ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
    game = new_game(servers, key, ["Ann", "Cid"], ["Bob", "Dan"])
    for _ in range(ROUNDS):
        version = servers.call(0, "GET", f"/api/v1/games/{game}")[1]["version"]
        body = {**HAND, "version": version, "entry_id": uuid.uuid4().hex}
        one, two = servers.race(
            ("POST", f"/api/v1/games/{game}/hands", body),
            ("POST", f"/api/v1/games/{game}/hands", body),
        )
        # the repeat is answered as the first (201), never stored twice
        assert (one[0], two[0]) == (201, 201), (one, two)
    stored = servers.call(0, "GET", f"/api/v1/games/{game}")[1]
    assert len(stored["hands"]) == ROUNDS
    consistent(servers, key)


def test_a_rename_racing_a_hand(servers: Servers) -> None:
    """A rename of the person kept while a hand is saved into their game: both succeed, and
    the game and the statistics name the new name."""
    for n in range(ROUNDS):
        key, ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
        game = new_game(servers, key, ["Ann", "Cid"], ["Bob", "Dan"])
        version = servers.call(0, "GET", f"/api/v1/games/{game}")[1]["version"]
        renamed, saved = servers.race(
            ("PUT", f"/api/v1/tables/{key}/players/{ids['Ann']}", {"name": f"Anna{n}"}),
            ("POST", f"/api/v1/games/{game}/hands", {**HAND, "version": version}),
        )
        assert renamed[0] == 200, renamed
        # the rename moves the game's version on: a hand sent with the old one may be late
        assert saved[0] in (201, 409), saved
        # each change its own version: the rename counts on from the hand's, never shares it
        stored = servers.call(1, "GET", f"/api/v1/games/{game}")[1]
        assert stored["version"] == version + (2 if saved[0] == 201 else 1), (stored, saved)
        assert len(stored["hands"]) == (1 if saved[0] == 201 else 0)
        table = consistent(servers, key)
        assert played_in(table, game)[0] == [f"Anna{n}", "Cid"]
        assert table["games"][0]["sides"][0]["name"] == f"Anna{n} & Cid"


TOURNAMENT = {
    "name": "Cup",
    "ruleset": "german",
    "players": 4,
    "format": "individual",
    "scoring": "match_points",
    "round_end": {"hands": 2},
    "participants": ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"],
}


def test_tournament_rounds_racing(servers: Servers) -> None:
    for _ in range(max(2, ROUNDS // 2)):
        status, made = servers.call(0, "POST", "/api/v1/tournaments", TOURNAMENT)
        assert status == 201, made
        key = made["id"]
        rounds = f"/api/v1/tournaments/{key}/rounds"
        one, two = servers.race(("POST", rounds, {}), ("POST", rounds, {}))
        assert sorted([one[0], two[0]]) == [201, 409], (one, two)
        shown = servers.call(0, "GET", f"/api/v1/tournaments/{key}")[1]
        assert [r["number"] for r in shown["rounds"]] == [1]
        games = [t["game_id"] for t in (one if one[0] == 201 else two)[1]["tables"]]
        assert len(games) == 2
        close = f"/api/v1/tournaments/{key}/rounds/1/close"
        one, two = servers.race(("POST", close, {}), ("POST", close, {}))
        assert {one[0], two[0]} <= {200, 409} and 200 in (one[0], two[0]), (one, two)
        shown = servers.call(0, "GET", f"/api/v1/tournaments/{key}")[1]
        assert [r["state"] for r in shown["rounds"]] == ["closed"]
        # a closed round's games take no new hand, from either process
        version = servers.call(1, "GET", f"/api/v1/games/{games[0]}")[1]["version"]
        late = servers.call(
            1, "POST", f"/api/v1/games/{games[0]}/hands", {**HAND, "version": version}
        )
        assert late[0] == 409 and problem_codes(late) == ["tournament.round_closed"]


def test_a_table_import_racing_a_write(servers: Servers) -> None:
    key, ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
    game = new_game(servers, key, ["Ann", "Cid"], ["Bob", "Dan"])
    hand(servers, game)
    exported = servers.call(0, "GET", f"/api/v1/tables/{key}/export")[1]
    for n in range(ROUNDS):
        imported, renamed = servers.race(
            ("POST", "/api/v1/tables/import", exported),
            ("PUT", f"/api/v1/tables/{key}/players/{ids['Ann']}", {"name": f"Ann{n}"}),
        )
        assert imported[0] == 201 and renamed[0] == 200, (imported, renamed)
        copy = consistent(servers, imported[1]["id"])
        assert {p["name"] for p in copy["players"]} == {"Ann", "Bob", "Cid", "Dan"}
        assert [g["hands"] for g in copy["games"]] == [1]
    consistent(servers, key)


def test_a_table_deleted_while_a_game_joins_it(servers: Servers) -> None:
    for _ in range(ROUNDS):
        key, _ids = new_table(servers, "Ann", "Bob", "Cid", "Dan")
        game = new_game(servers, key, ["Ann", "Cid"], ["Bob", "Dan"])
        deleted, made = servers.race(
            ("DELETE", f"/api/v1/tables/{key}", None),
            ("POST", "/api/v1/games", game_body(key, ["Ann", "Bob"], ["Cid", "Eve"])),
        )
        assert deleted[0] == 204, deleted
        # the game either joined before (and went with the table) or found no table
        assert made[0] in (201, 404, 422), made
        if made[0] != 201:  # no table any more, or the game went with it before the answer
            assert problem_codes(made) in (["table.not_found"], ["game.not_found"])
        for gone in [game] + ([made[1]["id"]] if made[0] == 201 else []):
            assert servers.call(1, "GET", f"/api/v1/games/{gone}")[0] == 404
        assert servers.call(1, "GET", f"/api/v1/tables/{key}")[0] == 404


def test_two_phones_at_one_table(servers: Servers) -> None:
    """One phone renames, merges and undoes merges while the other starts games and enters
    hands, each through its own process, without waiting for each other; afterwards the
    statistics agree with the stored games and hands, and no answer was a 500."""
    key, _ids = new_table(servers, "Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal")
    statuses: list[int] = []
    chosen = __import__("random").Random(34)
    lot = threading.Lock()

    def sample(items: list[Any], k: int) -> list[Any]:
        with lot:
            return chosen.sample(items, k)

    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]

    def organiser() -> None:
        for n in range(4 * ROUNDS):
            people = table_of(servers, key)["players"]
            a, b = sample(people, 2)
            if n % 3 == 0:
                answer = servers.call(
                    0,
                    "PUT",
                    f"/api/v1/tables/{key}/players/{a['id']}",
                    {"name": f"{a['name'][:3]}{n}"},
                )
            elif n % 3 == 1:
                answer = servers.call(
                    0, "POST", f"/api/v1/tables/{key}/merge", {"keep": a["id"], "merge": b["id"]}
                )
                if answer[0] == 200 and answer[1]["merges"][0]["undoable"]:
                    merge_id = answer[1]["merges"][0]["id"]
                    answer = servers.call(
                        0, "POST", f"/api/v1/tables/{key}/merges/{merge_id}/undo", {}
                    )
            else:
                answer = servers.call(0, "GET", f"/api/v1/tables/{key}")
            statuses.append(answer[0])

    def player() -> None:
        for _ in range(2 * ROUNDS):
            four = sample(names, 4)
            answer = servers.call(1, "POST", "/api/v1/games", game_body(key, four[:2], four[2:]))
            statuses.append(answer[0])
            if answer[0] != 201:
                continue
            for _ in range(2):
                version = servers.call(1, "GET", f"/api/v1/games/{answer[1]['id']}")[1]["version"]
                saved = servers.call(
                    1,
                    "POST",
                    f"/api/v1/games/{answer[1]['id']}/hands",
                    {**HAND, "version": version},
                )
                statuses.append(saved[0])

    with ThreadPoolExecutor(2) as pool:
        for done in [pool.submit(organiser), pool.submit(player)]:
            done.result()
    assert 500 not in statuses and statuses.count(201) >= 2 * ROUNDS, statuses
    assert set(statuses) <= {200, 201, 409, 422}, statuses
    table = consistent(servers, key)
    assert table["games_total"] == len(table["games"])  # one page: every game is checked
    assert sum(g["hands"] for g in table["games"]) == statuses.count(201) - len(table["games"])
