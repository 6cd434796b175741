"""Waitress exposed directly (``--lan``, ``docker run -p``) stays usable. One
client (127.0.0.2) opens 300 connections that send half a request and stop (slow headers) or
nothing at all (idle); a phone on another address (127.0.0.3) is still answered at once, because
``--connections-per-address`` (default 32) closes that client's connections beyond its share.
The server's ``--connection-limit`` is set below the attack (250), as the finding's 520 sockets
were above its 500: without the cap (``--connections-per-address 0``, the control case) the
phone gets no answer at all. Everything stays on loopback."""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from pathlib import Path

import pytest

from tests.loopback import stack

pytestmark = pytest.mark.stack

ATTACKER, PHONE = "127.0.0.2", "127.0.0.3"
SOCKETS = 300


def open_sockets(port: int, slow: bool) -> list[socket.socket]:
    """SOCKETS connections from ATTACKER; ``slow``: each sends headers that never end."""
    opened = []
    deadline = time.monotonic() + 20
    for _ in range(SOCKETS):
        if time.monotonic() > deadline:
            break
        try:
            connection = socket.create_connection(
                ("127.0.0.1", port), timeout=2, source_address=(ATTACKER, 0)
            )
        except OSError:
            continue
        if slow:
            with contextlib.suppress(OSError):
                connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
        opened.append(connection)
    return opened


def still_open(sockets: list[socket.socket]) -> int:
    """How many the server has not closed."""
    count = 0
    for connection in sockets:
        connection.setblocking(False)
        try:
            if connection.recv(1, socket.MSG_PEEK):
                count += 1  # an answer waiting: open
        except BlockingIOError:
            count += 1
        except OSError:
            pass
    return count


def phone_status(port: int, timeout: float = 3) -> int | None:
    """The phone's GET / from PHONE, or None when no answer came within ``timeout``."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(PHONE, 0)
    )
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        connection.close()


def serve(tmp_path: Path, *args: str) -> stack.Process:
    env = {
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'cap.sqlite3'}",
        "SCOREKEEPER_SECRET_KEY": "connection-cap",
        "SCOREKEEPER_RATELIMIT_ENABLED": "0",
    }
    server = stack.start_app(
        tmp_path, "app", env, "--connection-limit", "250", "--channel-timeout", "30", *args
    )
    assert phone_status(server.port) == 200  # warm: the first page builds the database
    return server


@pytest.mark.parametrize("slow", [True, False], ids=["slow-headers", "idle"])
def test_one_clients_300_sockets_do_not_lock_out_a_phone(tmp_path: Path, slow: bool) -> None:
    server = serve(tmp_path)
    sockets: list[socket.socket] = []
    try:
        sockets = open_sockets(server.port, slow)
        assert len(sockets) >= SOCKETS - 5  # the kernel accepted them all
        time.sleep(0.5)
        started = time.monotonic()
        answers = [phone_status(server.port) for _ in range(3)]
        took = time.monotonic() - started
        assert answers == [200, 200, 200], answers
        assert took < 3, took
        assert still_open(sockets) <= 32
    finally:
        for connection in sockets:
            connection.close()
        server.stop()


def test_without_the_cap_the_same_sockets_lock_the_phone_out(tmp_path: Path) -> None:
    """The control case: the finding replayed with the cap off."""
    server = serve(tmp_path, "--connections-per-address", "0")
    sockets: list[socket.socket] = []
    try:
        sockets = open_sockets(server.port, slow=True)
        time.sleep(0.5)
        assert still_open(sockets) >= 240
        assert phone_status(server.port, timeout=2) is None
    finally:
        for connection in sockets:
            connection.close()
        server.stop()
