"""A start: the database migrated before any request, this machine's addresses read when a
request names one, rate limits, compiled templates kept for every process; and no request
racing the start (a save right after the first page)."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask
from jinja2 import Environment, FileSystemLoader

from scorekeeper import create_app, net
from scorekeeper.web.app.security import host_policy
from tests.test_serve import start, stop


def make(tmp_path: Path, **config: object) -> Flask:
    return create_app(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "SECRET_KEY": "start",
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )


def test_a_new_database_is_migrated_before_any_request(tmp_path: Path) -> None:
    app = make(tmp_path)
    app.extensions["scorekeeper.engine"].dispose()
    with sqlite3.connect(tmp_path / "db.sqlite3") as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert {"games", "hands", "alembic_version"} <= tables


def test_machine_addresses_are_read_when_a_request_names_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    here = net.as_address("192.0.2.7")

    def addresses() -> tuple[net.Address, ...]:
        asked.append("addresses")
        return (here,) if here else ()

    monkeypatch.setattr(net, "machine_addresses", addresses)
    monkeypatch.setattr(net, "machine_names", lambda: ("tablehost", "tablehost.local"))
    app = make(tmp_path)
    client = app.test_client()
    assert client.get("/", headers={"Host": "127.0.0.1:5000"}).status_code == 200
    assert asked == []  # a start and a loopback request never enumerate the interfaces
    assert client.get("/", headers={"Host": "192.0.2.7:5000"}).status_code == 200
    assert asked == ["addresses"]
    assert client.get("/", headers={"Host": "tablehost.local:5000"}).status_code == 200
    assert client.get("/", headers={"Host": "192.0.2.8:5000"}).status_code == 400
    assert client.get("/", headers={"Host": "evil.example:5000"}).status_code == 400

    listed = Flask(__name__)
    listed.config["SCOREKEEPER_TRUSTED_HOSTS"] = "games.example.org"
    policy = host_policy(listed)  # an operator's list replaces this machine's own
    assert policy.allows("games.example.org") and not policy.allows("192.0.2.7")
    assert not policy.allows("tablehost.local")


def test_rate_limits_on_still_answer_429(tmp_path: Path) -> None:
    app = make(tmp_path, RATELIMIT_ENABLED=True, LIMIT_ANY="2 per minute")
    client = app.test_client()
    assert [client.get("/").status_code for _ in range(3)] == [200, 200, 429]
    assert "scorekeeper.limiter" in app.extensions
    off = make(tmp_path, RATELIMIT_ENABLED=False, LIMIT_ANY="2 per minute")
    assert {off.test_client().get("/").status_code for _ in range(3)} == {200}
    assert "scorekeeper.limiter" not in off.extensions


def test_templates_are_compiled_once_for_every_process(tmp_path: Path) -> None:
    app = make(tmp_path)
    cache = app.jinja_env.bytecode_cache
    assert cache is not None
    folder = Path(app.instance_path) / "cache" / "templates"
    page = app.test_client().get("/", headers={"Accept-Language": "de"})
    assert page.status_code == 200
    assert list(folder.glob("*.cache"))
    # Another process loads them: the same page, in the reader's language.
    again = make(tmp_path).test_client().get("/", headers={"Accept-Language": "pl"})
    assert b'lang="pl"' in again.get_data()
    assert again.get_data() != page.get_data()

    # An edited template is compiled afresh (Jinja compares a checksum of the source).
    source = tmp_path / "templates"
    source.mkdir()
    (source / "t.html").write_text("one {{ x }}")
    first = Environment(loader=FileSystemLoader(source), bytecode_cache=cache)
    assert first.get_template("t.html").render(x=1) == "one 1"
    (source / "t.html").write_text("two {{ x }}")
    second = Environment(loader=FileSystemLoader(source), bytecode_cache=cache)
    assert second.get_template("t.html").render(x=2) == "two 2"
    # Nowhere to write: rendered all the same.
    nowhere = type(cache)(str(tmp_path / "no such folder"))
    third = Environment(loader=FileSystemLoader(source), bytecode_cache=nowhere)
    assert third.get_template("t.html").render(x=3) == "two 3"

    assert make(tmp_path, TEMPLATE_BYTECODE_CACHE=False).jinja_env.bytecode_cache is None


STARTS = 30
GAME = {
    "ruleset": "classic",
    "players": 4,
    "sides": [{"name": "Us", "players": ["A", "B"]}, {"name": "Them", "players": ["C", "D"]}],
}
HAND = [
    {"melds": [["K", "K", "K", "K", "K", "K", "K"]], "went_out": True},
    {"melds": [["5", "5", "5"]]},
]


def _post(port: int, path: str, body: object) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, {"body": error.read().decode(errors="replace")}


def _start_and_save(folder: Path) -> list[int]:
    """A server started, its first page, a save at once, and the game read back."""
    folder.mkdir()
    server, port = start(folder, "--host", "127.0.0.1")
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as first:
            statuses = [int(first.status)]
        created, game = _post(port, "/api/v1/games", GAME)
        statuses.append(created)
        if created == 201:
            saved, _ = _post(
                port, f"/api/v1/games/{game['id']}/hands", {"version": 1, "teams": HAND}
            )
            statuses.append(saved)
            with urllib.request.urlopen(
                f"http://127.0.0.1:{port}/api/v1/games/{game['id']}", timeout=10
            ) as read:
                statuses.append(len(json.loads(read.read())["hands"]))
        return statuses
    finally:
        stop(server)


def test_no_start_breaks_a_save_sent_right_after_its_first_page(tmp_path: Path) -> None:
    """A save that arrives right after the first response once raced a background import and
    left every later database request of that server answering 500; the store is imported
    before the server listens now, so every one of 30 starts saves and reads back."""
    with ThreadPoolExecutor(max_workers=3) as pool:
        runs = list(pool.map(_start_and_save, [tmp_path / f"s{i}" for i in range(STARTS)]))
    assert runs == [[200, 201, 201, 1]] * STARTS


def test_the_start_benchmark_reaches_a_first_200_on_both_sides(tmp_path: Path) -> None:
    """benchmarks/first_200.py, what bench_start_instructions.py counts: serve's own command
    line to its first 200, the modules it loaded by then, and the floor loading their
    libraries before its own first 200."""
    import subprocess
    import sys

    from benchmarks.bench_start_instructions import PROBE, ROOT, third_party

    db = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    listed = tmp_path / "loaded.txt"
    for _ in range(2):  # the first run makes the database
        done = subprocess.run(
            [sys.executable, PROBE, "app", db, "--modules", str(listed)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-2000:]
    loaded = listed.read_text().split()
    assert "flask" in loaded and "sqlalchemy.orm" in loaded
    assert not any(name.startswith("scorekeeper") for name in loaded)
    assert "alembic" not in loaded  # the schema is current: Alembic is not loaded
    libraries = third_party(loaded)
    assert "waitress" in libraries and "json" not in libraries  # not the standard library
    floor = tmp_path / "floor.txt"
    floor.write_text("\n".join(libraries))
    for args in (["floor", str(floor)], ["bare"]):
        done = subprocess.run(
            [sys.executable, PROBE, *args], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr[-2000:]


def _run(tmp_path: Path, script: str) -> None:
    """``script`` in a process of its own (its mappers not configured by another test)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", script, f"sqlite:///{tmp_path / 'f.sqlite3'}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]


APP = (
    "import sys, time\n"
    "from scorekeeper import create_app\n"
    "from scorekeeper.store.db import Base\n"
    "app = create_app({'DATABASE_URL': sys.argv[1], 'SECRET_KEY': 's', 'TESTING': True})\n"
    "assert Base.registry._new_mappers, 'configured by the start'\n"
    "client = app.test_client()\n"
)


def test_mappers_are_configured_once_the_first_answer_is_out(tmp_path: Path) -> None:
    """The models are mapped at import; configuring them waits until the first answer has been
    sent, in a thread of its own (store/db.py)."""
    _run(
        tmp_path,
        APP + "answer = client.get('/')\n"
        "assert answer.status_code == 200\n"
        "assert Base.registry._new_mappers, 'configured by the first answer'\n"
        "answer.close()  # sent: the thread starts\n"
        "deadline = time.monotonic() + 10\n"
        "while Base.registry._new_mappers and time.monotonic() < deadline:\n"
        "    time.sleep(0.02)\n"
        "assert not Base.registry._new_mappers, 'not configured after the first answer'\n",
    )


def test_a_first_request_reading_games_configures_the_mappers_itself(tmp_path: Path) -> None:
    """A save and a read as the first requests of a start: SQLAlchemy configures the mappers
    for them (under its own lock), and they answer as always."""
    _run(
        tmp_path,
        APP + "made = client.post('/api/v1/games', json={'ruleset': 'classic', 'players': 2,"
        " 'sides': [{'name': 'A', 'players': ['A']}, {'name': 'B', 'players': ['B']}]})\n"
        "assert made.status_code == 201, made.get_data()\n"
        "assert client.get('/api/v1/games/' + made.json['id']).status_code == 200\n"
        "assert not Base.registry._new_mappers\n",
    )
