"""A start on a database already at the newest revision reads its revision with one query,
runs no migration and does not import Alembic; a new database is migrated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.store import schema
from scorekeeper.store.db import head_revisions


def test_a_current_database_is_not_migrated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "SECRET_KEY": "x"}
    upgrades: list[Any] = []
    real = schema.command.upgrade

    def counting(*args: Any, **kwargs: Any) -> None:
        upgrades.append(args)
        real(*args, **kwargs)

    monkeypatch.setattr(schema.command, "upgrade", counting)
    first = create_app(config)
    assert first.test_client().get("/").status_code == 200
    assert len(upgrades) == 1  # the new file is migrated
    second = create_app(config)
    assert second.test_client().get("/").status_code == 200
    assert len(upgrades) == 1  # at the newest revision: nothing to do
    for app in (first, second):
        app.extensions["scorekeeper.engine"].dispose()


def test_alembic_is_imported_only_to_migrate(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from scorekeeper import create_app\n"
        f"app = create_app({{'DATABASE_URL': 'sqlite:///{tmp_path / 'db.sqlite3'}', "
        "'SECRET_KEY': 'x'})\n"
        "assert app.test_client().get('/').status_code == 200\n"
        "print('alembic' in sys.modules)\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], check=True, cwd=tmp_path, capture_output=True, text=True
        ).stdout.split()
        for _ in range(2)
    ]
    assert runs == [["True"], ["False"]]


def test_head_revisions_agrees_with_alembic() -> None:
    from alembic.script import ScriptDirectory

    from scorekeeper.store.schema import alembic_config

    assert head_revisions() == set(ScriptDirectory.from_config(alembic_config()).get_heads())
