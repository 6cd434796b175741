"""Issue 16: a start on a database already at the newest revision reads its revision with one
query and does not import Alembic (a sixth of the start-up time); a new database is migrated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scorekeeper.store.db import head_revisions


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

    from scorekeeper.store.db import alembic_config

    assert head_revisions() == set(ScriptDirectory.from_config(alembic_config()).get_heads())
