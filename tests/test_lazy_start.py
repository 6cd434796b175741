"""Issue 16, start-up time: what a start leaves for later, and that it is still all there when
needed -- the database engine (built at its first use, schema checked with sqlite3 at start),
this machine's addresses (read at the first request that names one), Flask-Limiter (only when
limits are on), Babel's catalogue tools (only to compile), compiled templates (cached)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import make_url

from scorekeeper import create_app, net
from scorekeeper.store.db import head_revisions, sqlite_file, sqlite_schema_is_current
from scorekeeper.web.security import host_policy


def make(tmp_path: Path, **config: object) -> Flask:
    return create_app(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "SECRET_KEY": "lazy",
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///relative.sqlite3",
        "sqlite:////tmp/absolute.sqlite3",
        "sqlite+pysqlite:////tmp/with driver.sqlite3",
        "sqlite:///./dot/relative.sqlite3",
    ],
)
def test_sqlite_file_is_the_file_sqlalchemy_opens(url: str) -> None:
    assert sqlite_file(url) == make_url(url).database


@pytest.mark.parametrize(
    "url",
    [
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///file:x.db?mode=ro&uri=true",
        "sqlite:////tmp/a.sqlite3?timeout=3",
        "sqlite:////tmp/a%20b.sqlite3",
        "postgresql+psycopg://u:p@localhost/db",
        "sqlite+aiosqlite:////tmp/a.sqlite3",
    ],
)
def test_other_urls_are_left_to_sqlalchemy(url: str) -> None:
    assert sqlite_file(url) is None
    assert not sqlite_schema_is_current(url)


def test_schema_check_with_sqlite3(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite3"
    assert not sqlite_schema_is_current(f"sqlite:///{missing}")
    assert not missing.exists()  # the check never creates a database

    app = make(tmp_path)  # a new file: migrated at start
    url = app.config["DATABASE_URL"]
    app.extensions["scorekeeper.engine"].dispose()
    assert sqlite_schema_is_current(url)

    (head,) = head_revisions()
    with sqlite3.connect(tmp_path / "db.sqlite3") as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'older'")
    assert not sqlite_schema_is_current(url)
    with sqlite3.connect(tmp_path / "db.sqlite3") as connection:
        connection.execute("UPDATE alembic_version SET version_num = ?", (head,))
        connection.execute("DROP TABLE alembic_version")
    assert not sqlite_schema_is_current(url)


def test_a_new_database_is_migrated_before_any_request(tmp_path: Path) -> None:
    app = make(tmp_path)
    assert "scorekeeper.engine" in app.extensions  # built to migrate
    app.extensions["scorekeeper.engine"].dispose()
    with sqlite3.connect(tmp_path / "db.sqlite3") as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert {"games", "hands", "alembic_version"} <= tables


def test_a_current_database_gets_its_engine_at_first_use(tmp_path: Path) -> None:
    make(tmp_path).extensions["scorekeeper.engine"].dispose()  # migrated
    app = make(tmp_path)
    assert "scorekeeper.engine" not in app.extensions
    assert app.extensions.get("scorekeeper.engine") is None  # nothing to dispose yet
    client = app.test_client()
    assert client.get("/").status_code == 200  # no games cookie: no database
    created = client.post(
        "/api/v1/games",
        json={
            "ruleset": "classic",
            "players": 4,
            "sides": [
                {"name": "Us", "players": ["A", "B"]},
                {"name": "Them", "players": ["C", "D"]},
            ],
        },
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    engine = app.extensions["scorekeeper.engine"]
    assert app.extensions["scorekeeper.sessions"].kw["bind"] is engine
    assert app.extensions.get("scorekeeper.engine") is engine
    key = created.get_json()["id"]
    assert client.get(f"/api/v1/games/{key}").status_code == 200
    engine.dispose()


def test_two_first_requests_at_once_build_one_engine(tmp_path: Path) -> None:
    make(tmp_path).extensions["scorekeeper.engine"].dispose()
    app = make(tmp_path)
    start = threading.Barrier(8)
    found: list[object] = []

    def use() -> None:
        start.wait()
        found.append(app.extensions["scorekeeper.engine"])

    threads = [threading.Thread(target=use) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and len({id(engine) for engine in found}) == 1
    found[0].dispose()  # type: ignore[attr-defined]
    with pytest.raises(KeyError):
        app.extensions["no.such.extension"]


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


def test_a_start_imports_only_what_its_first_page_needs(tmp_path: Path) -> None:
    make(tmp_path).extensions["scorekeeper.engine"].dispose()
    code = (
        "import sys\n"
        "from scorekeeper import create_app\n"
        f"app = create_app({{'DATABASE_URL': 'sqlite:///{tmp_path / 'db.sqlite3'}', "
        "'SECRET_KEY': 'x', 'RATELIMIT_ENABLED': False})\n"
        "assert app.test_client().get('/').status_code == 200\n"
        "print(*sorted(m for m in ('flask_limiter', 'ifaddr', 'babel.messages.frontend',"
        " 'babel.messages.pofile', 'alembic', 'sqlalchemy', 'segno', 'scorekeeper.store.models',"
        " 'scorekeeper.store.games', 'scorekeeper.store.stamps', 'scorekeeper.store.fifty',"
        " 'scorekeeper.store.evening', 'scorekeeper.sheets.model') if m in sys.modules))\n"
        "print('scorekeeper.engine' in app.extensions)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, cwd=tmp_path, capture_output=True, text=True
    ).stdout.splitlines()
    # SQLAlchemy is about 40% of a start's imports: a module-level import of it (or of a store
    # module but db) anywhere in the web layer would bring it back
    assert out == ["", "False"]


def run_python(tmp_path: Path, code: str) -> list[str]:
    return subprocess.run(
        [sys.executable, "-c", code], check=True, cwd=tmp_path, capture_output=True, text=True
    ).stdout.splitlines()


WARM_UP = (
    "import sys, threading\n"
    "import scorekeeper.store as store\n"
    "from scorekeeper import create_app\n"
    "from scorekeeper.store.db import warm_up\n"
    "loads = []\n"
    "load = store.load\n"
    "store.load = lambda: (loads.append(1), load())[1]\n"
    "app = create_app({{'DATABASE_URL': 'sqlite:///{db}', 'SECRET_KEY': 'x',"
    " 'RATELIMIT_ENABLED': False}})\n"
    "warm_up(app, idle={idle})\n"
    "client = app.test_client()\n"
    "def settle():\n"
    "    for t in threading.enumerate():\n"
    "        if t.name == 'scorekeeper-warm-up':\n"
    "            t.join(60)\n"
    "def show():\n"
    "    print('sqlalchemy' in sys.modules, 'scorekeeper.store.games' in sys.modules,"
    " 'scorekeeper.engine' in app.extensions, len(loads))\n"
)


def test_serve_warms_the_database_layer_after_its_first_response(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    make(tmp_path).extensions["scorekeeper.engine"].dispose()
    code = WARM_UP.format(db=db, idle=600) + (
        "first = client.get('/')\n"
        "print(first.status_code)\n"
        "show()  # nothing before it is sent\n"
        "first.close()\n"
        "settle()\n"
        "show()\n"
        "client.get('/').close()\n"
        "show()  # once per process\n"
        "app.extensions['scorekeeper.engine'].dispose()\n"
    )
    assert run_python(tmp_path, code) == [
        "200",
        "False False False 0",
        "True True True 1",
        "True True True 1",
    ]
    # a server nobody has asked anything yet warms up after a while
    code = WARM_UP.format(db=db, idle=0.01) + "settle()\nshow()\n"
    assert run_python(tmp_path, code) == ["True True True 1"]


def test_store_handles_import_their_module_once_from_many_threads(tmp_path: Path) -> None:
    code = (
        "import sys, threading\n"
        "from scorekeeper.store import lazy\n"
        "games, stamps, fifty = lazy('games'), lazy('stamps'), lazy('fifty')\n"
        "print(repr(games), 'sqlalchemy' in sys.modules)\n"
        "start = threading.Barrier(8)\n"
        "found, failed = [], []\n"
        "def use(i):\n"
        "    start.wait()\n"
        "    try:\n"
        "        handle, name = [(games, 'game_state'), (stamps, 'game_stamp'),"
        " (fifty, 'fifty_state')][i % 3]\n"
        "        found.append((name, getattr(handle, name)))\n"
        "    except Exception as error:\n"
        "        failed.append(repr(error))\n"
        "threads = [threading.Thread(target=use, args=(i,)) for i in range(8)]\n"
        "for t in threads: t.start()\n"
        "for t in threads: t.join()\n"
        "from scorekeeper.store import fifty as real_fifty, games as real_games\n"
        "from scorekeeper.store import stamps as real_stamps\n"
        "real = {'game_state': real_games.game_state, 'game_stamp': real_stamps.game_stamp,"
        " 'fifty_state': real_fifty.fifty_state}\n"
        "print(failed, len(found), all(f is real[n] for n, f in found))\n"
        "try:\n"
        "    lazy('db')\n"
        "except ValueError:\n"
        "    print('db is imported directly')\n"
    )
    assert run_python(tmp_path, code) == [
        "<lazy scorekeeper.store.games> False",
        "[] 8 True",
        "db is imported directly",
    ]


def test_rate_limits_on_still_answer_429(tmp_path: Path) -> None:
    app = make(tmp_path, RATELIMIT_ENABLED=True, LIMIT_ANY="2 per minute")
    client = app.test_client()
    assert [client.get("/").status_code for _ in range(3)] == [200, 200, 429]
    assert "scorekeeper.limiter" in app.extensions
    off = make(tmp_path, RATELIMIT_ENABLED=False, LIMIT_ANY="2 per minute")
    assert {off.test_client().get("/").status_code for _ in range(3)} == {200}
    assert "scorekeeper.limiter" not in off.extensions


def test_templates_are_compiled_once_for_every_process(tmp_path: Path) -> None:
    from jinja2 import Environment, FileSystemLoader

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
