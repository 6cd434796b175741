"""The PostgreSQL database of the tests: ``SCOREKEEPER_TEST_POSTGRES_URL`` (scripts/test starts a
throwaway cluster and sets it). Tests marked ``postgres`` are skipped without it (conftest.py),
and fail the run in CI (``SCOREKEEPER_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy import create_engine, text

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL", "").strip()


def empty_postgres() -> str:
    """Empty the test database (every table, the migration record too) and return its URL."""
    engine = create_engine(POSTGRES_URL)
    try:
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()
    return POSTGRES_URL


class Cluster:
    """A PostgreSQL server of its own, on a loopback port, for a test that stops and starts
    it (the shared test database stays untouched): ``initdb`` into a new folder under the
    system's temporary folder (PostgreSQL runs as the ``postgres`` user when the tests run
    as root, and must reach it), then :meth:`start` and :meth:`stop` as often as needed.
    ``binaries`` is None where PostgreSQL is not installed (the test then skips, or fails in
    CI: tests/loopback.py)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key)
        self.binaries = Path(found[-1]) if found else None
        self.port = _free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/scorekeeper"

    def _run(self, tool: str, *args: str) -> None:
        assert self.binaries is not None
        command = [str(self.binaries / tool), *args]
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def create(self) -> Cluster:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self._run("initdb", "-D", str(self.folder / "data"), "-U", "postgres", "-A", "trust")
        self.start()
        self._run(
            "createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "scorekeeper"
        )
        return self

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        log = str(self.folder / "log")
        self._run(
            "pg_ctl", "-D", str(self.folder / "data"), "-o", options, "-l", log, "-w", "start"
        )

    def stop(self) -> None:
        """A fast shutdown: every connection is cut, as when the database server restarts."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def _version_key(path: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", path))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
