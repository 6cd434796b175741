"""A big table restores: what a table's export gives, its import takes back, at any size the
export makes (a table of 1,000 games is some 3.2 MB), through the API, the tables page and
``scorekeeper import``; export → import → export gives the same bytes. The body of an import
is bounded (``TABLE_IMPORT_MAX``, docs/limits.md) and every other route keeps its own limit."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import MAX_CONTENT_LENGTH, create_app
from scorekeeper.web.app import security
from tests.web.tables.conftest import make_table

GAMES = 1000
SCOREKEEPER = Path(sys.executable).with_name("scorekeeper")


def fresh(path: Path) -> Flask:
    """An app on an empty database of its own (the ids of a restored table are its own)."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{path}",
            "WTF_CSRF_ENABLED": False,
        }
    )


@pytest.fixture(scope="module")
def big_export(tmp_path_factory: pytest.TempPathFactory) -> Iterator[bytes]:
    """The export of a table of 1,000 games: the twelve games of the tables' fixture (Canasta
    of three rulesets, 2 to 6 players, hands in detail, as totals, quick; 3 ist 50), each
    played again and again, restored into an empty database and exported from there."""
    folder = tmp_path_factory.mktemp("big")
    small_app = fresh(folder / "small.sqlite3")
    small = small_app.test_client()
    table = make_table(small_app, small)
    model = small.get(f"/api/v1/tables/{table['id']}/export").get_json()
    small_app.extensions["scorekeeper.engine"].dispose()
    games = []
    for i in range(GAMES):
        item = json.loads(json.dumps(model["games"][i % len(model["games"])]))
        item["game"].pop("view_id", None)  # each copy a game of its own
        # … started on a day of its own, as the games of a season are (the export lists them
        # by when they started)
        started = datetime.fromisoformat(item["game"]["created_at"])
        item["game"]["created_at"] = (started - timedelta(days=GAMES - i)).isoformat()
        games.append(item)
    big = {**model, "games": games}
    big_app = fresh(folder / "big.sqlite3")
    client = big_app.test_client()
    started = time.monotonic()
    made = client.post("/api/v1/tables/import", json=big)
    assert made.status_code == 201, made.get_json()
    print(f"\n{GAMES} games imported through the API in {time.monotonic() - started:.1f} s")
    exported = client.get(f"/tables/{made.get_json()['id']}/export.json")
    assert exported.status_code == 200
    big_app.extensions["scorekeeper.engine"].dispose()
    yield exported.data


def upload(client: FlaskClient, data: bytes) -> Any:
    """The tables page's import form with ``data`` as its file. The body is encoded here, in
    memory: the test client would spool a body this large to a temporary file it never
    closes."""
    boundary, body = encode_multipart({"backup": FileStorage(io.BytesIO(data), "table.json")})
    return client.post(
        "/tables/import", data=body, content_type=f"multipart/form-data; boundary={boundary}"
    )


def export_of(app: Flask, table_id: str) -> bytes:
    answer = app.test_client().get(f"/tables/{table_id}/export.json")
    assert answer.status_code == 200
    return answer.data


def test_the_export_of_1000_games_is_large(big_export: bytes) -> None:
    body: dict[str, Any] = json.loads(big_export)
    assert len(body["games"]) == GAMES
    # the imports took a sixth of it before (the stored-game format holds no derived scores)
    assert len(big_export) > 6 * MAX_CONTENT_LENGTH
    print(f"\nthe export of {GAMES} games: {len(big_export) / 1e6:.1f} MB")


def test_the_tables_page_restores_it_byte_for_byte(big_export: bytes, tmp_path: Path) -> None:
    app = fresh(tmp_path / "restored.sqlite3")
    started = time.monotonic()
    answer = upload(app.test_client(), big_export)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    print(f"\nrestored through the tables page in {time.monotonic() - started:.1f} s")
    table_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert export_of(app, table_id) == big_export
    app.extensions["scorekeeper.engine"].dispose()


def test_the_api_restores_it_byte_for_byte(big_export: bytes, tmp_path: Path) -> None:
    app = fresh(tmp_path / "restored.sqlite3")
    answer = app.test_client().post(
        "/api/v1/tables/import", data=big_export, content_type="application/json"
    )
    assert answer.status_code == 201, answer.get_json()
    assert export_of(app, answer.get_json()["id"]) == big_export
    app.extensions["scorekeeper.engine"].dispose()


def test_scorekeeper_import_restores_it_byte_for_byte(big_export: bytes, tmp_path: Path) -> None:
    file = tmp_path / "table.json"
    file.write_bytes(big_export)
    database = tmp_path / "cli.sqlite3"
    env = dict(os.environ, SCOREKEEPER_SECRET_KEY="cli-test")
    env.pop("SCOREKEEPER_DATABASE_URL", None)
    done = subprocess.run(
        [str(SCOREKEEPER), "import", str(file), "--db", str(database)],
        capture_output=True,
        timeout=600,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert f"as a new table, {GAMES} games" in done.stderr.decode()
    app = fresh(database)
    from sqlalchemy import select

    from scorekeeper.store.db import session_scope
    from scorekeeper.store.models import Table

    with app.app_context(), session_scope() as session:
        (table_id,) = session.scalars(select(Table.id)).all()
    assert export_of(app, table_id) == big_export
    app.extensions["scorekeeper.engine"].dispose()


def test_an_import_beyond_its_limit_is_refused_and_stores_nothing(
    big_export: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = fresh(tmp_path / "small-limit.sqlite3")
    client = app.test_client()
    monkeypatch.setattr(security, "TABLE_IMPORT_MAX", len(big_export) - 1)
    refused = client.post("/api/v1/tables/import", data=big_export, content_type="application/json")
    assert refused.status_code in (400, 413)
    (problem,) = refused.get_json()["problems"]
    assert problem["code"] == "request.too_large"
    assert problem["params"]["limit"] == len(big_export) - 1
    page = upload(client, big_export)
    assert page.status_code == 413
    # every other route keeps the app's own limit
    other = client.post(
        "/api/v1/games", data=b" " * (MAX_CONTENT_LENGTH + 1), content_type="application/json"
    )
    assert other.status_code in (400, 413)
    assert other.get_json()["problems"][0]["params"]["limit"] == MAX_CONTENT_LENGTH
    assert client.get("/api/v1/tables/x").status_code == 404
    with app.app_context():
        from sqlalchemy import func, select

        from scorekeeper.store.db import session_scope
        from scorekeeper.store.models import Game, Table

        with session_scope() as session:
            assert session.scalar(select(func.count()).select_from(Table)) == 0
            assert session.scalar(select(func.count()).select_from(Game)) == 0
    app.extensions["scorekeeper.engine"].dispose()


def test_a_file_cut_short_stores_nothing(big_export: bytes, tmp_path: Path) -> None:
    app = fresh(tmp_path / "cut.sqlite3")
    client = app.test_client()
    cut = big_export[: len(big_export) // 2]
    refused = client.post("/api/v1/tables/import", data=cut, content_type="application/json")
    assert refused.status_code == 400
    assert [p["code"] for p in refused.get_json()["problems"]] == ["request.invalid_json"]
    page = upload(client, cut)
    assert page.status_code == 422
    with app.app_context():
        from sqlalchemy import func, select

        from scorekeeper.store.db import session_scope
        from scorekeeper.store.models import Game, Table

        with session_scope() as session:
            assert session.scalar(select(func.count()).select_from(Table)) == 0
            assert session.scalar(select(func.count()).select_from(Game)) == 0
    app.extensions["scorekeeper.engine"].dispose()


@pytest.mark.postgres
def test_postgresql_restores_it_byte_for_byte(big_export: bytes) -> None:
    """The same round trip on PostgreSQL (its own ids, times with their zone)."""
    from tests.store.postgres import empty_postgres

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": empty_postgres(),
            "WTF_CSRF_ENABLED": False,
        }
    )
    try:
        started = time.monotonic()
        answer = app.test_client().post(
            "/api/v1/tables/import", data=big_export, content_type="application/json"
        )
        assert answer.status_code == 201, answer.get_json()
        print(f"\nrestored on PostgreSQL in {time.monotonic() - started:.1f} s")
        assert export_of(app, answer.get_json()["id"]) == big_export
    finally:
        app.extensions["scorekeeper.engine"].dispose()
