"""The command's entry point (scorekeeper/start.py) and ``serve`` pause Python's cyclic garbage
collector only while the app's modules are imported and the app is built, and always start it
again: a server that never collected would grow with every cycle of garbage it makes."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from scorekeeper import cli, start


@pytest.fixture
def freezes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """``gc.freeze`` recorded (whether the collector was running then), not done: the test
    process keeps collecting its own garbage."""
    calls: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(gc.isenabled()))
    return calls


def test_the_entry_point_runs_the_command_line_and_leaves_the_collector_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], freezes: list[bool]
) -> None:
    monkeypatch.setattr(sys, "argv", ["scorekeeper", "--help"])
    with pytest.raises(SystemExit) as ended:
        start.main()
    assert ended.value.code == 0
    assert "serve" in capsys.readouterr().out  # the command line itself answered
    assert gc.isenabled()
    assert freezes == [False]  # what the import made was frozen before collecting again


def test_the_entry_point_starts_the_collector_again_when_the_import_fails(
    monkeypatch: pytest.MonkeyPatch, freezes: list[bool]
) -> None:
    monkeypatch.setitem(sys.modules, "scorekeeper.cli", None)  # importing it raises
    with pytest.raises(ImportError):
        start.main()
    assert gc.isenabled()


def test_serve_builds_the_app_with_the_collector_paused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, freezes: list[bool]
) -> None:
    built: list[bool] = []
    real_create_app = cli.create_app

    def create_app(config: Any = None) -> Any:
        built.append(gc.isenabled())
        return real_create_app(config)

    def no_port(*args: Any, **kwargs: Any) -> Any:
        raise OSError(98, "Address already in use")

    monkeypatch.setattr(cli, "create_app", create_app)
    monkeypatch.setattr(cli.serving, "make_server", no_port)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "start-test")
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    result = CliRunner().invoke(cli.main, ["serve", "--port", "8123", "--db", url])
    assert result.exit_code == 1, result.output
    assert "cannot listen" in result.output
    assert built == [False]
    assert freezes == [False]
    assert gc.isenabled()
