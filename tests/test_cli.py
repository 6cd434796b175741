"""``scorekeeper score FILE.json`` (docs/api.md §1): the installed command, run as a user runs it.

Prints the JSON answer of ``POST /api/v1/score``; exit 0 on a valid hand, 1 on rule problems,
2 on unreadable input; ``-`` reads standard input.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.web.examples import CONTRACT_EXAMPLE

ROOT = Path(__file__).resolve().parents[1]
SCOREKEEPER = Path(sys.executable).parent / "scorekeeper"

VALID = CONTRACT_EXAMPLE
TWO_SIDES_OUT = {
    "ruleset": "german",
    "players": 4,
    "teams": [
        {"melds": [["K"] * 7], "hands": [[], []], "went_out": True},
        {"melds": [["Q"] * 7], "hands": [[], []], "went_out": True},
    ],
}


def run(
    args: list[str], stdin: bytes | None = None, tmp_path: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, SCOREKEEPER_SECRET_KEY="cli-test")
    env.pop("SCOREKEEPER_DATABASE_URL", None)
    return subprocess.run(
        [str(SCOREKEEPER), *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        env=env,
        cwd=tmp_path or ROOT,
    )


def answer(result: subprocess.CompletedProcess[bytes]) -> Any:
    return json.loads(result.stdout.decode("utf-8"))


@pytest.fixture(scope="module", autouse=True)
def installed() -> None:
    assert SCOREKEEPER.exists(), f"the console script is not installed at {SCOREKEEPER}"


def test_valid_hand_prints_the_answer_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(VALID), "utf-8")
    result = run(["score", str(path)], tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    body = answer(result)
    assert [t["score"] for t in body["teams"]] == [690, 415]
    assert body["teams"][0]["items"]["in_hand"] == -15


def test_rule_problems_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(TWO_SIDES_OUT), "utf-8")
    result = run(["score", str(path)], tmp_path=tmp_path)
    assert result.returncode == 1, result.stderr.decode()
    codes = [p["code"] for p in answer(result)["problems"]]
    assert "going_out.two_sides" in codes
    assert all(p["message"] for p in answer(result)["problems"])


@pytest.mark.parametrize(
    "content",
    [b"{", b"", b"not json", b"\xff\xfe", b"[]", b"null"],
    ids=["open-brace", "empty", "text", "bytes", "list", "null"],
)
def test_unreadable_input_exits_2(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "hand.json"
    path.write_bytes(content)
    result = run(["score", str(path)], tmp_path=tmp_path)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert answer(result)["problems"]


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = run(["score", str(tmp_path / "nothing.json")], tmp_path=tmp_path)
    assert result.returncode == 2


def test_dash_reads_standard_input(tmp_path: Path) -> None:
    result = run(["score", "-"], stdin=json.dumps(VALID).encode(), tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert [t["score"] for t in answer(result)["teams"]] == [690, 415]


def test_dash_with_rule_problems_exits_1(tmp_path: Path) -> None:
    result = run(["score", "-"], stdin=json.dumps(TWO_SIDES_OUT).encode(), tmp_path=tmp_path)
    assert result.returncode == 1


def test_dash_with_unreadable_input_exits_2(tmp_path: Path) -> None:
    result = run(["score", "-"], stdin=b"{{{", tmp_path=tmp_path)
    assert result.returncode == 2
    assert answer(result)["problems"][0]["code"] == "request.invalid_json"


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_messages_in_the_asked_language(tmp_path: Path, lang: str) -> None:
    result = run(
        ["score", "--lang", lang, "-"], stdin=json.dumps(TWO_SIDES_OUT).encode(), tmp_path=tmp_path
    )
    assert result.returncode == 1
    assert all(p["message"].strip() for p in answer(result)["problems"])


# ---- scorekeeper db upgrade (migrations) ---------------------------------------------------------


def tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as connection:
        return {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }


def test_db_upgrade_makes_the_schema_and_can_run_again(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    for _ in range(2):
        result = run(["db", "upgrade", "--db", f"sqlite:///{database}"], tmp_path=tmp_path)
        assert result.returncode == 0, result.stderr.decode()
    assert {"games", "hands", "alembic_version"} <= tables(database)


def test_db_upgrade_reads_the_database_from_the_environment(tmp_path: Path) -> None:
    database = tmp_path / "from-env.sqlite3"
    env = dict(
        os.environ,
        SCOREKEEPER_SECRET_KEY="cli-test",
        SCOREKEEPER_DATABASE_URL=f"sqlite:///{database}",
    )
    result = subprocess.run(
        [str(SCOREKEEPER), "db", "upgrade"], capture_output=True, timeout=120, env=env, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr.decode()
    assert {"games", "hands", "alembic_version"} <= tables(database)


@pytest.mark.parametrize(
    ("name", "value"),
    [("SCOREKEEPER_TIMEZONE", "Europe/Atlantis"), ("SCOREKEEPER_BEHIND_PROXY", "abc")],
)
def test_a_setting_the_app_cannot_read_is_said_in_one_line(
    tmp_path: Path, name: str, value: str
) -> None:
    database = tmp_path / "never.sqlite3"
    env = dict(os.environ, SCOREKEEPER_SECRET_KEY="cli-test", **{name: value})
    result = subprocess.run(
        [str(SCOREKEEPER), "serve", "--db", f"sqlite:///{database}", "--port", "1"],
        capture_output=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 1
    said = result.stderr.decode().strip()
    assert said.startswith(f"Error: {name}: ") and "Traceback" not in said, said
    assert value in said and len(said.splitlines()) == 1
    assert not database.exists()  # nothing was started or made


# ---- --db takes a file path or a URL; every misuse is one line, no traceback ----------------


def one_line_error(result: subprocess.CompletedProcess[bytes]) -> str:
    said = result.stderr.decode().strip()
    assert result.returncode != 0, said
    assert "Traceback" not in said and len(said.splitlines()) == 1, said
    assert said.startswith("Error: "), said
    return said


def test_db_takes_the_path_of_an_sqlite_file(tmp_path: Path) -> None:
    (tmp_path / "here").mkdir()
    # relative to where the command runs, and absolute
    for given, database in (
        ("here/games.db", tmp_path / "here" / "games.db"),
        (str(tmp_path / "other.db"), tmp_path / "other.db"),
    ):
        result = run(["db", "upgrade", "--db", given], tmp_path=tmp_path)
        assert result.returncode == 0, result.stderr.decode()
        assert f"sqlite:///{database}" in result.stdout.decode()
        assert {"games", "hands", "alembic_version"} <= tables(database)
    # export and import read the same file: an empty database exports no game
    exported = run(["export", "-", "--db", "here/games.db"], tmp_path=tmp_path)
    assert exported.returncode == 0 and json.loads(exported.stdout)["games"] == []


@pytest.mark.parametrize(
    ("db", "expected"),
    [
        ("missing-folder/games.db", "the folder"),
        (".", "is a folder"),
        ("sqlite:///missing-folder/games.db", "the folder"),
        ("nosuchdatabase://somewhere/x", "no database driver"),
        ("postgresql+psycopg://u:secret@127.0.0.1:notaport/x", "is not a database URL"),
    ],
)
@pytest.mark.parametrize("command", [["serve", "--port", "1"], ["db", "upgrade"]])
def test_a_db_that_cannot_be_used_is_said_in_one_line(
    tmp_path: Path, db: str, expected: str, command: list[str]
) -> None:
    result = run([*command, "--db", db], tmp_path=tmp_path)
    said = one_line_error(result)
    assert said.startswith("Error: --db: ") and expected in said, said
    assert "secret" not in said  # a password is never shown
    assert list(tmp_path.iterdir()) == []  # nothing was made


def test_a_database_that_does_not_answer_is_said_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port on loopback where nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql+psycopg://ann:secret@127.0.0.1:{port}/games"
    said = one_line_error(run(["serve", "--port", "1", "--db", url], tmp_path=tmp_path))
    assert said.startswith(
        f"Error: cannot use the database postgresql+psycopg://ann:***@127.0.0.1:{port}/games: "
    )
    assert "secret" not in said


def test_a_port_that_is_taken_is_said_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run(
            ["serve", "--port", str(port), "--db", str(tmp_path / "games.db")], tmp_path=tmp_path
        )
    said = one_line_error(result)
    assert said == f"Error: cannot listen on 127.0.0.1:{port}: Address already in use", said
    assert result.stdout == b""  # no start-up lines for a server that never started


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["serve", "--port", "99999"], "--port"),
        (["serve", "--port", "many"], "--port"),
        (["serve", "--no-such-option"], "--no-such-option"),
        (["import", "no-such-file.json"], "no-such-file.json"),
        (["score"], "FILE"),
    ],
)
def test_a_misused_command_line_is_said_in_one_line(
    tmp_path: Path, args: list[str], expected: str
) -> None:
    result = run(args, tmp_path=tmp_path)
    said = one_line_error(result)
    assert result.returncode == 2 and expected in said, said
