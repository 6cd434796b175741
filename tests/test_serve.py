"""The waitress hardening findings replayed against the real ``scorekeeper serve`` started as a
subprocess on loopback (nothing is ever sent to another address): a huge ``Content-Length`` is
refused before it is read, idle connections do not lock the phones out, and ``--lan`` prints
the address and a QR code for the phones."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import net

SCOREKEEPER = Path(sys.executable).with_name("scorekeeper")


_LOGS: dict[int, Path] = {}  # server pid -> the folder of its server.log


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 's.sqlite3'}",
        "SCOREKEEPER_SECRET_KEY": "serve-test",
    }
    # A file, not a pipe: under load waitress logs a line per queued task, and once a pipe
    # nobody reads is full (64 KB) the server's main loop blocks on the write and every
    # client times out (the drill below failed so in CI).
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [str(SCOREKEEPER), "serve", "--port", str(port), *args],
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    log.close()  # the server holds its own copy
    _LOGS[server.pid] = tmp_path
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                pass
        except OSError:
            if server.poll() is not None:
                raise AssertionError(output(tmp_path)) from None
            time.sleep(0.1)
            continue
        # The socket is bound before the start-up lines are printed (a port taken says so
        # first): wait for them too, or a test stopping the server at once finds none.
        while "scorekeeper on " not in output(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.05)
        return server, port
    server.kill()
    raise AssertionError("the server did not start")


def output(tmp_path: Path) -> str:
    return (tmp_path / "server.log").read_text(encoding="utf-8", errors="replace")


def stop(server: subprocess.Popen[str]) -> str:
    """Stop the server; what it printed."""
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    return output(_LOGS.pop(server.pid))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[int]:
    server, port = start(tmp_path, "--host", "127.0.0.1", "--channel-timeout", "5")
    yield port
    stop(server)


def get(port: int, path: str = "/", timeout: float = 5) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as answer:
        return int(answer.status)


def test_a_600_mb_body_is_refused_without_being_read(served: int) -> None:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", served), timeout=10) as connection:
        connection.sendall(
            b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\n"
            b"Content-Length: 600000000\r\n\r\n" + b"{" * 1024
        )
        answer = connection.recv(4096).decode("latin-1")
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    assert time.monotonic() - started < 5


def test_a_phone_is_answered_with_200_idle_connections_open(served: int) -> None:
    idle = []
    try:
        for _ in range(200):
            idle.append(socket.create_connection(("127.0.0.1", served), timeout=5))
        for _ in range(3):  # a phone polling the view
            assert get(served, "/", timeout=5) == 200
    finally:
        for connection in idle:
            connection.close()


def test_idle_connections_are_closed_after_the_channel_timeout(served: int) -> None:
    with socket.create_connection(("127.0.0.1", served), timeout=15) as connection:
        started = time.monotonic()
        assert connection.recv(1) == b""  # closed by the server
        assert time.monotonic() - started < 14


def test_lan_prints_this_machines_address_and_a_qr_code(tmp_path: Path) -> None:
    # Listening on loopback only: the LAN address is checked as text, never contacted.
    server, port = start(tmp_path, "--lan", "--host", "127.0.0.1")
    assert get(port) == 200
    out = stop(server)
    expected = net.lan_addresses()
    if expected:
        assert f"Phones at the table: open http://{net.url_host(expected[0])}:{port}/" in out
        assert "█" in out  # the QR code, drawn with block characters
    else:
        assert "No network address found" in out


def test_lan_address_is_linked_on_the_game_page(tmp_path: Path) -> None:
    import json

    server, port = start(tmp_path, "--lan", "--host", "127.0.0.1", "--lan-address", "127.0.0.2")
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/games",
            method="POST",
            data=json.dumps(
                {
                    "ruleset": "german",
                    "players": 4,
                    "sides": [
                        {"name": "A", "players": ["a", "b"]},
                        {"name": "B", "players": ["c", "d"]},
                    ],
                }
            ).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            game = json.load(answer)
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/games/{game['id']}", timeout=5
        ) as answer:
            page = answer.read().decode()
    finally:
        out = stop(server)
    assert f'href="http://127.0.0.2:{port}/view/{game["view_id"]}"' in page
    assert f"open http://127.0.0.2:{port}/" in out


def test_without_lan_it_says_how_to_let_the_phones_in(tmp_path: Path) -> None:
    server, port = start(tmp_path)
    out = stop(server)
    assert f"scorekeeper on http://127.0.0.1:{port}/" in out
    assert "scorekeeper serve --lan" in out


def test_saves_only_load_gives_no_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The finding's drill, shortened: many clients saving at once on one SQLite file get
    201 (or 409 for a stale version), never a 5xx (scripts/load_drill.py; 50 clients for 30 s
    is the full one, see docs/cli.md)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import load_drill

    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_ENABLED", "0")
    server, port = start(tmp_path, "--host", "127.0.0.1")
    try:
        counts = load_drill.drill(f"http://127.0.0.1:{port}", clients=20, seconds=5)
    finally:
        stop(server)
    assert load_drill.errors(counts) == 0, counts
    assert counts["201"] > 100


def test_the_drill_talks_to_loopback_only() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import load_drill

    with pytest.raises(SystemExit):
        load_drill.loopback_only("http://192.0.2.1:5000")
    load_drill.loopback_only("http://127.0.0.2:5000")


class _Task:
    """A waitress task that holds its thread until let go."""

    def __init__(self, done: list[str], name: str) -> None:
        import threading

        self.started = threading.Event()
        self.go = threading.Event()
        self.done, self.name = done, name

    def service(self) -> None:
        self.started.set()
        assert self.go.wait(10)
        self.done.append(self.name)


def test_the_stream_pool_starts_its_threads_as_they_are_needed() -> None:
    """The streams' pool (scorekeeper/serving.py) starts no thread before a stream asks for
    one, a thread per stream that finds none idle up to its bound, re-uses an idle one, and
    queues beyond the bound."""
    from scorekeeper.serving import GrowingPool

    pool = GrowingPool(3)
    done: list[str] = []
    try:
        assert pool.threads == set()
        first = _Task(done, "first")
        pool.add_task(first)
        assert first.started.wait(10) and len(pool.threads) == 1
        first.go.set()
        deadline = time.monotonic() + 10
        while (done != ["first"] or pool.active_count) and time.monotonic() < deadline:
            time.sleep(0.01)
        second = _Task(done, "second")
        pool.add_task(second)  # the first thread is idle again: no new one
        assert second.started.wait(10) and len(pool.threads) == 1
        more = [_Task(done, f"more{i}") for i in range(3)]
        for task in more:
            pool.add_task(task)
        assert more[0].started.wait(10) and more[1].started.wait(10)
        assert len(pool.threads) == 3  # the bound: the last one waits in the queue
        assert not more[2].started.wait(0.2)
        second.go.set()
        assert more[2].started.wait(10)
        for task in more:
            task.go.set()
        while len(done) < 5 and time.monotonic() < deadline + 10:
            time.sleep(0.01)
        assert sorted(done) == ["first", "more0", "more1", "more2", "second"]
    finally:
        pool.shutdown(timeout=5)
    assert pool.threads == set()
