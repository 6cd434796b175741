"""A start on a database already at the newest revision reads its revision with one query and
runs no migration; a new database is migrated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.store import db
from scorekeeper.store.db import head_revisions


def test_a_current_database_is_not_migrated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "SECRET_KEY": "x"}
    upgrades: list[Any] = []
    real = db.command.upgrade

    def counting(*args: Any, **kwargs: Any) -> None:
        upgrades.append(args)
        real(*args, **kwargs)

    monkeypatch.setattr(db.command, "upgrade", counting)
    first = create_app(config)
    assert first.test_client().get("/").status_code == 200
    assert len(upgrades) == 1  # the new file is migrated
    second = create_app(config)
    assert second.test_client().get("/").status_code == 200
    assert len(upgrades) == 1  # at the newest revision: nothing to do
    for app in (first, second):
        app.extensions["scorekeeper.engine"].dispose()


def test_head_revisions_agrees_with_alembic() -> None:
    from alembic.script import ScriptDirectory

    from scorekeeper.store.db import alembic_config

    assert head_revisions() == set(ScriptDirectory.from_config(alembic_config()).get_heads())
