"""The findings behind the proxy, replayed through the real stack on loopback: Debian's ``caddy``
(deploy/Caddyfile itself, TLS from Caddy's internal CA, only its root trusted) in front of two
``scorekeeper serve --behind-proxy`` processes sharing PostgreSQL and a real ``redis-server``.
Clients are told apart by their loopback source address (127.0.0.2, 127.0.0.3, …).

Before the fix every client shared the proxy's bucket, no HSTS was sent, cookies lacked
``Secure``, and killing one process answered half the saves with 502."""

from __future__ import annotations

import http.client
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.loopback import require, stack
from tests.store.postgres import POSTGRES_URL, empty_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.stack]

GAME = {
    "ruleset": "german",
    "players": 4,
    "sides": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
}


class Stack:
    def __init__(self, folder: Path) -> None:
        self.redis = stack.start_redis(folder / "redis")
        env = {
            "SCOREKEEPER_DATABASE_URL": POSTGRES_URL,
            "SCOREKEEPER_SECRET_KEY": "proxy-stack-" + "k" * 32,
            "SCOREKEEPER_RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{self.redis.port}/0",
            "SCOREKEEPER_LIMIT_CREATE": "3 per minute",
            # the failover phones save fast: only creation is limited tightly here
            "SCOREKEEPER_LIMIT_WRITE": "100000 per minute",
            "SCOREKEEPER_LIMIT_ANY": "100000 per minute",
        }
        self.apps = [
            stack.start_app(folder / name, "app", env, "--behind-proxy") for name in ("a", "b")
        ]
        self.caddy = stack.start_caddy(folder / "caddy", [app.port for app in self.apps])

    def stop(self) -> None:
        for process in (self.caddy, *self.apps, self.redis):
            process.stop()


def test_the_stack_runs_the_caddy_release_the_deployment_pins() -> None:
    """What the drills below show holds for deploy/compose.yaml only with its Caddy release:
    Debian's 2.6 sends a retried POST without its body and then takes the healthy process
    out too (docs/deployment.md "Which Caddy")."""
    require("caddy")
    binary = stack.caddy_binary()
    assert binary is not None
    printed = subprocess.run([binary, "version"], capture_output=True, text=True, check=True)
    compose = yaml.safe_load((stack.ROOT / "deploy" / "compose.yaml").read_text())
    pinned = compose["services"]["caddy"]["image"].split(":")[1]
    assert printed.stdout.split()[0] == f"v{pinned}", (binary, printed.stdout)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require("caddy", "redis-server")
    if not POSTGRES_URL:
        pytest.skip("PostgreSQL: SCOREKEEPER_TEST_POSTGRES_URL is not set")
    empty_postgres()
    running = Stack(tmp_path_factory.mktemp("stack"))
    try:
        yield running
    finally:
        running.stop()


def test_over_caddy_hsts_is_sent_and_cookies_are_secure(served: Stack) -> None:
    status, _, response = stack.call(served.caddy, "GET", "/games/new", source="127.0.0.2")
    assert status == 200
    assert response.getheader("Strict-Transport-Security", "").startswith("max-age=")
    cookies = response.msg.get_all("Set-Cookie") or []
    assert any(c.startswith("session=") for c in cookies)
    assert all("; Secure" in c for c in cookies), cookies
    # the app builds its links from the host and scheme the phone used
    status, body, _ = stack.call(served.caddy, "POST", "/api/v1/games", GAME, source="127.0.0.2")
    assert status == 201, body
    _, page, _ = stack.call(served.caddy, "GET", f"/games/{body['id']}", source="127.0.0.2")
    assert f"https://127.0.0.1:{served.caddy.port}/view/{body['view_id']}" in page


def test_each_client_address_has_its_own_limits_in_both_processes(served: Stack) -> None:
    import redis

    spoofed = {"X-Forwarded-For": "203.0.113.7"}  # Caddy replaces it with the real address
    answers = [
        stack.call(served.caddy, "POST", "/api/v1/games", GAME, spoofed, source="127.0.0.3")[0]
        for _ in range(4)
    ]
    assert answers == [201, 201, 201, 429]
    # Both processes hold that phone's count (Redis), whichever of them Caddy chose: asked
    # directly, as Caddy asks them, each refuses the phone's next game.
    for app in served.apps:
        direct = http.client.HTTPConnection("127.0.0.1", app.port, timeout=10)
        forwarded = {"X-Forwarded-For": "127.0.0.3", "X-Forwarded-Proto": "https"}
        try:
            assert stack.call(direct, "POST", "/api/v1/games", GAME, forwarded)[0] == 429
        finally:
            direct.close()
    for source in ("127.0.0.4", "127.0.0.5"):  # other phones are not held up by that one
        status, _, _ = stack.call(served.caddy, "POST", "/api/v1/games", GAME, source=source)
        assert status == 201, source
    keys = [
        key.decode()
        for key in redis.Redis(port=served.redis.port, socket_timeout=2).keys("*create*")
    ]
    clients = {key.split("/")[2] for key in keys}
    assert {"127.0.0.3", "127.0.0.4", "127.0.0.5"} <= clients, keys
    assert "127.0.0.1" not in clients and "203.0.113.7" not in clients  # not the proxy


def test_killing_one_process_mid_load_loses_no_save(served: Stack) -> None:
    """The failover drill, short (scripts/failover_drill.py runs the long one): 8 phones
    saving for 8 s, one process killed with SIGKILL after 3 s. Only a save in flight in the
    killed process may fail; every acknowledged save is stored."""
    sys.path.insert(0, str(stack.ROOT / "scripts"))
    import failover_drill

    victim, survivor = served.apps
    figures = failover_drill.drill(served.caddy, victim, clients=8, seconds=8, kill_after=3)
    assert victim.popen.poll() is not None and survivor.popen.poll() is None
    assert figures["lost"] == 0, figures
    assert figures["acknowledged"] > 200, figures
    # at most the saves in flight at the kill (one per phone), and under 1 % of them all
    assert figures["errors"] <= 8 and figures["error_rate"] < 0.01, figures
    # and afterwards every save is answered by the survivor
    status, body, _ = stack.call(served.caddy, "POST", "/api/v1/games", GAME)
    assert status == 201, body
    assert stack.call(served.caddy, "GET", "/healthz")[0] == 200


def test_a_process_dying_on_a_quiet_site_costs_no_save(tmp_path: Path) -> None:
    """One phone, a process killed between two saves (nothing in flight): Caddy finds the
    process gone when it connects and sends the save to the other one. Every save is stored
    and none waits long. With Debian's Caddy 2.6 the first save after the kill answered 502
    and every later one 503 for 10 s: the resent POST had lost its body, which marked the
    healthy process as failed too (docs/deployment.md "Which Caddy")."""
    require("caddy")
    env = {
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'quiet.sqlite3'}",
        "SCOREKEEPER_SECRET_KEY": "quiet-site-" + "k" * 32,
        "SCOREKEEPER_RATELIMIT_ENABLED": "0",
    }
    apps = [stack.start_app(tmp_path / name, "app", env, "--behind-proxy") for name in "ab"]
    caddy = stack.start_caddy(tmp_path / "caddy", [app.port for app in apps])
    try:
        apps[0].popen.kill()
        apps[0].popen.wait()
        answers = []
        for _ in range(12):  # each has an even chance of being sent to the dead process first
            started = time.monotonic()
            status, body, _ = stack.call(caddy, "POST", "/api/v1/games", GAME)
            answers.append((status, round(time.monotonic() - started, 2)))
            time.sleep(0.2)
        assert all(status == 201 for status, _ in answers), answers
        assert max(seconds for _, seconds in answers) < 1.0, answers
    finally:
        for process in (caddy, *apps):
            process.stop()
