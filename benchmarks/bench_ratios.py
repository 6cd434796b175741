"""What each request costs, as a ratio to a bare Flask app on the same server.

Both apps run as their own processes under waitress with the same settings (8 threads,
loopback, free ports): ``scorekeeper serve`` and ``benchmarks/baseline_app.py``. Every timed
request to the scorekeeper is followed by one to the baseline that answers the same number of
bytes, so drift of a shared machine hits both alike; each figure is the median of its samples,
and the ratio is scorekeeper median / baseline median.

Users' conditions: the games are built beforehand through the store (the same ``add_hand`` a
save uses) with varied hands, detailed and quick, in a fresh SQLite file; the server process
starts after that, so the first request to each game is a cold one (nothing of it cached), and
the cold figures are exactly those first requests. Warm figures rotate over several games.
The rate limits are on, as a server runs by default: every limit with its windows, its counts
raised so that the benchmark's one client is never refused (``RAISED_LIMITS``).

Figures (the table in docs/measurements.md, each with its goal):

* game page, 60 hands (warm and cold), 500 and 1,000 hands; live preview in a 60-hand game;
  ``POST /api/v1/score``; API save into games of 1 / 10 / 60 / 200 / 500 hands, cold and warm;
* PDF score sheet at 60 and 1,000 hands, per hand;
* ``serve`` to first 200; RSS idle and after 1,000 games x 10 hands;
* 16 clients on the game page (requests per second);
* phone (``--phone``, on by default): Chromium with slow 3G and 4x CPU throttling,
  DOMContentLoaded of each page against a minimal page, and tap-to-preview against one round
  trip.

Run: ``.venv/bin/python benchmarks/bench_ratios.py [--quick] [--no-phone] [--json FILE]``;
``--only serve`` or ``--only pages`` measures one group of figures (``--starts N``: how many
starts "serve to first 200" takes the median of; ``--rounds N``: samples of each warm figure).
``--quick`` uses tiny sizes (the smoke test runs it); the default run takes about 2.5 minutes on
2 cores (20 s to build the games, a minute and a half in the throttled browser).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PYTHON = sys.executable
BASELINE = str(Path(__file__).resolve().parent / "baseline_app.py")

RULESET = "classic"
SIDES = [{"name": "Wir", "players": ["Anna", "Ben"]}, {"name": "Ihr", "players": ["Cleo", "Dan"]}]
RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


# ---- varied hands -----------------------------------------------------------------------------


def varied_hand(rng: random.Random) -> list[dict[str, Any]]:
    """One legal classic 4-player hand: one side went out with a canasta, the other did not;
    either side may be counted quickly. Ranks are drawn without replacement, so no rank is
    used more often than two decks hold."""
    ranks = rng.sample(RANKS, 7)
    out = rng.randrange(2)
    natural = rng.random() < 0.5
    canasta = [ranks[0]] * (7 if natural else 6) + ([] if natural else ["2"])
    winner: dict[str, Any] = {
        "melds": [canasta, [ranks[1]] * rng.randint(3, 5), [ranks[2]] * 3 + ["X"]],
        "hands": [[], [ranks[6]] * rng.randint(0, 2)],
        "red_threes": rng.randint(0, 2),
        "went_out": True,
        "concealed": False,
    }
    if rng.random() < 0.4:
        other: dict[str, Any] = {
            "quick": {
                "natural_canastas": 0,
                "mixed_canastas": 0,
                "wild_canastas": 0,
                "meld_points": 5 * rng.randint(10, 60),
                "hand_points": 5 * rng.randint(2, 20),
                "black_threes_in_hand": 0,
                "melded": True,
            },
            "red_threes": rng.randint(0, 1),
            "went_out": False,
            "concealed": False,
        }
    else:
        other = {
            "melds": [[ranks[3]] * rng.randint(3, 4), [ranks[4]] * 3],
            "hands": [[ranks[5], ranks[6]], ["2", ranks[5]][: rng.randint(1, 2)]],
            "red_threes": rng.randint(0, 1),
            "went_out": False,
            "concealed": False,
        }
    return [winner, other] if out == 0 else [other, winner]


def preview_form(rng: random.Random, version: int) -> dict[str, Any]:
    """The hand-entry form as the browser posts it for the live preview (varied cards)."""
    ranks = rng.sample(RANKS, 5)
    return {
        "version": str(version),
        "out": "t0",
        "t0-mode": "detail",
        "t0-meld": [" ".join([ranks[0]] * 6 + ["2"]), " ".join([ranks[1]] * 3), ""],
        "t0-hand": ["", f"{ranks[2]} {ranks[2]}"],
        "t0-red": str(rng.randint(0, 2)),
        "t1-mode": "quick",
        "t1-mixed_canastas": "0",
        "t1-meld_points": str(5 * rng.randint(10, 40)),
        "t1-hand_points": str(5 * rng.randint(2, 20)),
        "t1-red": "0",
    }


# ---- building the games ------------------------------------------------------------------------


@dataclass
class Games:
    by_size: dict[int, list[tuple[str, str]]] = field(default_factory=dict)  # (id, view_id)
    many: list[str] = field(default_factory=list)  # the 1,000 games of the RSS figure


def build(url: str, sizes: dict[int, int], many: int, many_hands: int, seed: int = 16) -> Games:
    """Games of each size (``{hands: how many games}``) and ``many`` games of ``many_hands``,
    through the store's own create_game and add_hand, one transaction per hand (as saves)."""
    from scorekeeper import create_app, store
    from scorekeeper.edge.games import read_hand
    from scorekeeper.store import changes
    from scorekeeper.store.db import session_scope

    changes.MAX_HANDS = max(changes.MAX_HANDS, 2000)  # 1,000-hand games: beyond the store's cap
    rng = random.Random(seed)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench"})
    out = Games()
    with app.app_context():

        def one(hands: int, per_transaction: int) -> tuple[str, str]:
            with session_scope() as session:
                game = store.create_game(session, RULESET, 4, SIDES, target=1_000_000)
                key, view = game.id, game.view_id
            done = 0
            while done < hands:
                with session_scope() as session:
                    game = store.get_game(session, key)
                    assert game is not None
                    for _ in range(min(per_transaction, hands - done)):
                        teams = varied_hand(rng)
                        store.add_hand(session, game, game.version, read_hand(teams))
                        done += 1
            return key, view

        for hands, count in sizes.items():
            out.by_size[hands] = [one(hands, 1 if hands <= 60 else 20) for _ in range(count)]
        out.many = [one(many_hands, many_hands)[0] for _ in range(many)]
    app.extensions["scorekeeper.engine"].dispose()
    return out


# ---- servers and clients -----------------------------------------------------------------------

RAISED = "raised"
#: the default limits (scorekeeper/web/app/limits.py) with their windows, counts raised
RAISED_LIMITS = {
    "SCOREKEEPER_LIMIT_CREATE": "100000 per minute;1000000 per hour",
    "SCOREKEEPER_LIMIT_WRITE": "100000 per minute;1000000 per hour",
    "SCOREKEEPER_LIMIT_ANY": "1000000 per minute",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A server process on loopback; ``started`` is the seconds from spawn to its first 200."""

    def __init__(
        self,
        kind: str,
        db_url: str = "",
        limits: bool | str = RAISED,
        serve_args: Sequence[str] = (),
    ) -> None:
        self.port = free_port()
        env = dict(os.environ)
        if kind == "app":
            env["SCOREKEEPER_DATABASE_URL"] = db_url
            env["SCOREKEEPER_SECRET_KEY"] = "bench"
            # The rate limits are on, as a server starts by default. One client on loopback
            # makes thousands of requests here, which the per-address counts would answer with
            # 429: RAISED keeps every limit and its windows (the limiter does all its work per
            # request) with counts no client of the benchmark reaches. True: the defaults (the
            # start); False: off.
            env["SCOREKEEPER_RATELIMIT_ENABLED"] = "1" if limits else "0"
            if limits == RAISED:
                env.update(RAISED_LIMITS)
            cmd = [
                PYTHON,
                "-c",
                "from scorekeeper.cli import main; main()",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                *serve_args,
            ]
        else:
            cmd = [PYTHON, BASELINE, str(self.port)]
        begin = time.perf_counter()
        # a file, not a pipe: waitress logs a line per queued task under load, and a full
        # pipe nobody reads would stop the server
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(
            cmd, env=env, cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=self.log
        )
        self.started = self._wait(begin)

    def _wait(self, begin: float) -> float:
        while time.perf_counter() - begin < 60:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(self.log.read().decode()[-2000:])
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/")
                if conn.getresponse().status == 200:
                    return time.perf_counter() - begin
            except OSError:
                time.sleep(0.002)
        raise RuntimeError("server did not start")

    def rss_mib(self) -> float:
        text = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", text)[1]) / 1024  # type: ignore[index]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


class Client:
    """One keep-alive connection, with the cookies its server set."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.cookies: dict[str, str] = {}

    def call(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, float]:
        head = dict(headers or {})
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        start = time.perf_counter()
        self.conn.request(method, path, body=body, headers=head)
        response = self.conn.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - start
        for raw in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = raw.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response.status, data, elapsed


def form_body(data: dict[str, Any]) -> bytes:
    return urllib.parse.urlencode(data, doseq=True).encode()


FORM = {"Content-Type": "application/x-www-form-urlencoded"}
JSON = {"Content-Type": "application/json"}


# ---- figures -----------------------------------------------------------------------------------


@dataclass
class Figure:
    name: str
    app: float  # median, ms (or the unit)
    base: float | None
    unit: str = "ms"
    goal: str = ""
    ok: bool | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        return self.app / self.base if self.base else None


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


class Pair:
    """The scorekeeper and the baseline, one client each; ``measure`` interleaves them."""

    def __init__(self, app: Server, base: Server) -> None:
        self.app, self.base = app, base
        self.a, self.b = Client(app.port), Client(base.port)

    def measure(
        self,
        calls: list[Callable[[Client], tuple[int, bytes, float]]],
        expect: tuple[int, ...] = (200,),
        json_body: bool = False,
        form: bool = False,
    ) -> tuple[float, float, list[float]]:
        """Run each app call, then the baseline call answering as many bytes; medians in ms."""
        mine, theirs = [], []
        for call in calls:
            status, body, took = call(self.a)
            assert status in expect, (status, body[:300])
            mine.append(took)
            if json_body or form:
                payload = b'{"x": 1}' if json_body else b"x=1"
                _, _, took = self.b.call(
                    "POST", f"/echo/{len(body)}", payload, JSON if json_body else FORM
                )
            else:
                _, _, took = self.b.call("GET", f"/bytes/{len(body)}")
            theirs.append(took)
        return median_ms(mine), median_ms(theirs), mine


def csrf_token(html: bytes) -> str:
    m = re.search(rb'X-CSRFToken&#34;: &#34;([^&]+)&#34;|"X-CSRFToken": "([^"]+)"', html)
    assert m, "no CSRF token on the page"
    return (m[1] or m[2]).decode()


def pages_and_saves(pair: Pair, games: Games, rounds: int, rng: random.Random) -> list[Figure]:
    out: list[Figure] = []
    sixty = games.by_size[60]
    half = len(sixty) // 2
    page_games, save_games = sixty[:half], sixty[half:]

    # The server has served a little (templates compiled, statements prepared) but nothing
    # of the games measured: a 1-hand game viewed, read and saved into.
    warm = games.by_size[1][-1][0]
    for path in (f"/games/{warm}", f"/api/v1/games/{warm}", f"/games/{warm}/hands/new"):
        pair.a.call("GET", path)
    pair.a.call(
        "POST",
        f"/api/v1/games/{warm}/hands",
        json.dumps({"version": 2, "teams": varied_hand(rng)}).encode(),
        JSON,
    )
    # cold: the first request to each game since the server started
    app_ms, base_ms, _ = pair.measure(
        [lambda c, g=g: c.call("GET", f"/games/{g}") for g, _ in page_games]
    )
    out.append(Figure("game page, 60 hands, cold (first view since start)", app_ms, base_ms))
    calls = [lambda c, g=g: c.call("GET", f"/games/{g}") for g, _ in page_games] * max(
        1, rounds // len(page_games)
    )
    app_ms, base_ms, _ = pair.measure(calls)
    page60 = Figure("game page, 60 hands", app_ms, base_ms, goal="<= 2.5x bare Flask")
    page60.ok = page60.ratio is not None and page60.ratio <= 2.5
    out.append(page60)
    for size in (1, 499, 1000):
        if size not in games.by_size:
            continue
        g = games.by_size[size][0][0]
        pair.a.call("GET", f"/games/{g}")
        app_ms, base_ms, _ = pair.measure([lambda c, g=g: c.call("GET", f"/games/{g}")] * rounds)
        fig = Figure(f"game page, {size:,} hands", app_ms, base_ms)
        if size == 499:
            fig.goal = "<= 1.5x the 60-hand page"
            fig.note = f"{app_ms / page60.app:.2f}x the 60-hand page"
            fig.ok = app_ms <= 1.5 * page60.app
        if size == 1000:
            fig.note = f"{app_ms / page60.app:.2f}x the 60-hand page"
        out.append(fig)

    # live preview in a 60-hand game (the form as typed: varied cards)
    g = page_games[0][0]
    status, html, _ = pair.a.call("GET", f"/games/{g}/hands/new")
    assert status == 200, status
    token = csrf_token(html)
    version = int(re.search(rb'name="version" value="(\d+)"', html)[1])  # type: ignore[index]
    head = {**FORM, "X-CSRFToken": token, "HX-Request": "true"}
    forms = [form_body(preview_form(rng, version)) for _ in range(rounds)]
    calls = [lambda c, d=d: c.call("POST", f"/games/{g}/preview", d, head) for d in forms]
    app_ms, base_ms, _ = pair.measure(calls, form=True)
    fig = Figure("live preview, 60-hand game", app_ms, base_ms, goal="<= 2.5x bare Flask")
    fig.ok = fig.ratio is not None and fig.ratio <= 2.5
    out.append(fig)

    # POST /api/v1/score with varied hands
    bodies = [
        json.dumps({"ruleset": RULESET, "players": 4, "teams": varied_hand(rng)}).encode()
        for _ in range(rounds * 2)
    ]
    calls = [lambda c, b=b: c.call("POST", "/api/v1/score", b, JSON) for b in bodies]
    app_ms, base_ms, _ = pair.measure(calls, json_body=True)
    fig = Figure("POST /api/v1/score", app_ms, base_ms, goal="<= 2x bare Flask")
    fig.ok = fig.ratio is not None and fig.ratio <= 2
    out.append(fig)

    # API saves: cold (first request to an untouched 60-hand game), then warm, then growth
    versions: dict[str, int] = {}

    def save(c: Client, key: str) -> tuple[int, bytes, float]:
        if key not in versions:
            versions[key] = json.loads(c.call("GET", f"/api/v1/games/{key}")[1])["version"]
        body = json.dumps({"version": versions[key], "teams": varied_hand(rng)}).encode()
        status, data, took = c.call("POST", f"/api/v1/games/{key}/hands", body, JSON)
        if status == 201:  # taken back, untimed: every save meets a game of the same size
            answer = json.loads(data)
            gone = c.call(
                "DELETE", f"/api/v1/games/{key}/hands/{answer['hand']}?version={answer['version']}"
            )
            versions[key] = json.loads(gone[1])["version"]
        return status, data, took

    def cold_save(c: Client, key: str) -> tuple[int, bytes, float]:
        # the version from the page the phone showed before the restart: no read first
        body = json.dumps({"version": 60 + 1, "teams": varied_hand(rng)}).encode()
        status, data, took = c.call("POST", f"/api/v1/games/{key}/hands", body, JSON)
        versions[key] = json.loads(data)["version"]
        return status, data, took

    app_ms, base_ms, _ = pair.measure(
        [lambda c, g=g: cold_save(c, g) for g, _ in save_games], expect=(201,), json_body=True
    )
    cold = Figure("API save, 60-hand game, cold (first request since start)", app_ms, base_ms)
    app_ms, base_ms, _ = pair.measure(
        [lambda c, g=g: save(c, g) for g, _ in save_games] * max(1, rounds // len(save_games)),
        expect=(201,),
        json_body=True,
    )
    warm = Figure("API save, 60-hand game", app_ms, base_ms)
    cold.goal, cold.note = "<= 1.5x a warm save", f"{cold.app / warm.app:.2f}x the warm save"
    cold.ok = cold.app <= 1.5 * warm.app
    out += [warm, cold]
    for size in (1, 10, 200, 499):
        if size not in games.by_size:
            continue
        # as many saves per game as at 60 hands: each save is taken back, and each take-back
        # leaves a deletion record that every later read of the game loads
        keys = [g for g, _ in games.by_size[size]]
        per_game = max(1, rounds // max(1, len(save_games)))
        app_ms, base_ms, _ = pair.measure(
            [lambda c, g=g: save(c, g) for g in keys] * per_game, expect=(201,), json_body=True
        )
        fig = Figure(f"API save, {size}-hand game", app_ms, base_ms)
        if size == 499:  # the store takes at most 500 hands
            fig.goal = "<= 1.5x the save at 60 hands"
            fig.note = f"{app_ms / warm.app:.2f}x the save at 60 hands"
            fig.ok = app_ms <= 1.5 * warm.app
        out.append(fig)
    return out


def pdfs(pair: Pair, games: Games, rounds: int) -> list[Figure]:
    out: list[Figure] = []
    per_hand: dict[int, float] = {}
    for size in (60, 1000):
        if size not in games.by_size:
            continue
        g = games.by_size[size][0][0]
        pair.a.call("GET", f"/games/{g}/sheet.pdf?lang=de")  # fonts registered, state derived
        app_ms, base_ms, _ = pair.measure(
            [lambda c, g=g: c.call("GET", f"/games/{g}/sheet.pdf?lang=de")] * rounds
        )
        per_hand[size] = app_ms / size
        fig = Figure(
            f"PDF score sheet, {size:,} hands",
            app_ms,
            base_ms,
            note=f"{per_hand[size]:.2f} ms per hand",
        )
        out.append(fig)
    if len(per_hand) == 2:
        out[-1].goal = "per hand <= per hand at 60"
        out[-1].ok = per_hand[1000] <= per_hand[60]
    return out


def throughput(pair: Pair, games: Games, seconds: float, clients: int = 16) -> Figure:
    g = games.by_size[60][0][0]
    size = len(pair.a.call("GET", f"/games/{g}")[1])

    def hammer(port: int, path: str) -> float:
        stop = time.perf_counter() + seconds
        counts = [0] * clients

        def worker(i: int) -> None:
            c = Client(port)
            while time.perf_counter() < stop:
                c.call("GET", path)
                counts[i] += 1

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
        begin = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return sum(counts) / (time.perf_counter() - begin)

    mine = hammer(pair.app.port, f"/games/{g}")
    theirs = hammer(pair.base.port, f"/bytes/{size}")
    fig = Figure(
        f"game page, {clients} clients (requests/s)",
        mine,
        theirs,
        unit="req/s",
        goal=">= 25% of bare Flask",
    )
    fig.ok = mine >= 0.25 * theirs
    return fig


def startup(db_url: str, runs: int) -> Figure:
    # As an installed app starts: with its modules compiled (pip compiles a wheel's at install;
    # a checkout writes them on the first start, unless PYTHONDONTWRITEBYTECODE forbids it, as
    # on this machine). Flask and waitress are compiled in site-packages either way.
    subprocess.run(
        [PYTHON, "-m", "compileall", "-q", str(ROOT / "scorekeeper")], check=True, cwd=str(ROOT)
    )
    mine, theirs = [], []
    for _ in range(runs):
        for kind, into in (("app", mine), ("base", theirs)):
            server = Server(kind, db_url, limits=True)
            into.append(server.started)
            server.stop()
    fig = Figure("serve to first 200", median_ms(mine), median_ms(theirs), goal="<= 2x bare Flask")
    fig.ok = fig.ratio is not None and fig.ratio <= 2
    return fig


def memory(db_url: str, games: Games, rng: random.Random) -> list[Figure]:
    """RSS of a fresh server: idle (after one request of each kind), then after viewing each of
    the many games and saving one more hand into each."""
    app, base = Server("app", db_url), Server("base")
    try:
        pair = Pair(app, base)
        warm_up = games.by_size[60][0][0]
        for path in (
            "/",
            f"/games/{warm_up}",
            f"/games/{warm_up}/hands/new",
            f"/api/v1/games/{warm_up}",
        ):
            pair.a.call("GET", path)
        pair.a.call(
            "POST",
            "/api/v1/score",
            json.dumps({"ruleset": RULESET, "players": 4, "teams": varied_hand(rng)}).encode(),
            JSON,
        )
        idle, base_idle = app.rss_mib(), base.rss_mib()
        for key in games.many:
            status, html, _ = pair.a.call("GET", f"/api/v1/games/{key}")
            version = json.loads(html)["version"]
            pair.a.call(
                "POST",
                f"/api/v1/games/{key}/hands",
                json.dumps({"version": version, "teams": varied_hand(rng)}).encode(),
                JSON,
            )
            pair.a.call("GET", f"/games/{key}")
            pair.b.call("GET", "/bytes/20000")
        after, base_after = app.rss_mib(), base.rss_mib()
    finally:
        app.stop()
        base.stop()
    n = len(games.many)
    fig = Figure(
        f"RSS after {n:,} games x 11 hands (viewed and saved)",
        after,
        base_after,
        unit="MiB",
        goal="<= 1.5x idle",
        note=f"idle {idle:.1f} MiB (bare Flask {base_idle:.1f}); {after / idle:.2f}x idle",
    )
    fig.ok = after <= 1.5 * idle
    return [Figure("RSS idle", idle, base_idle, unit="MiB"), fig]


# ---- the phone ---------------------------------------------------------------------------------

SLOW_3G = {
    "offline": False,
    "latency": 2000,
    "downloadThroughput": 50_000,
    "uploadThroughput": 50_000,
}  # Chrome DevTools' "Slow 3G" preset


def phone(app: Server, base: Server, games: Games, runs: int) -> list[Figure]:
    from playwright.sync_api import sync_playwright

    g, view = games.by_size[60][0]
    pages = [
        ("start page", "/"),
        ("game page, 60 hands", f"/games/{g}"),
        ("hand entry page", f"/games/{g}/hands/new"),
        ("view page", f"/view/{view}"),
        ("new game page", "/games/new"),
        ("referee", "/referee"),
        ("rules page", "/rules/german"),
    ]
    out: list[Figure] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")

        @contextmanager
        def throttled() -> Iterator[Any]:
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", SLOW_3G)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            try:
                yield page
            finally:
                context.close()

        def dcl(port: int, path: str) -> float:
            with throttled() as page:
                page.goto(
                    f"http://127.0.0.1:{port}{path}", wait_until="domcontentloaded", timeout=120_000
                )
                return float(
                    page.evaluate(
                        "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"
                    )
                )

        minimal = [dcl(base.port, "/minimal") for _ in range(runs)]
        base_ms = statistics.median(minimal)
        for name, path in pages:
            app_ms = statistics.median([dcl(app.port, path) for _ in range(runs)])
            fig = Figure(
                f"phone: {name}, DOMContentLoaded", app_ms, base_ms, goal="<= 1.5x a minimal page"
            )
            fig.ok = app_ms <= 1.5 * base_ms
            out.append(fig)

        # the same pages when the phone has been on the site before (CSS and scripts cached:
        # the game page, then the page measured, as when one goes from page to page)
        def dcl_after(path: str) -> float:
            with throttled() as page:
                page.goto(
                    f"http://127.0.0.1:{app.port}/games/{g}", wait_until="load", timeout=120_000
                )
                page.goto(
                    f"http://127.0.0.1:{app.port}{path}",
                    wait_until="domcontentloaded",
                    timeout=120_000,
                )
                return float(
                    page.evaluate(
                        "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"
                    )
                )

        # when the page's scripts have run (htmx started: boot.js runs them once the page is
        # complete, so that they never hold up its first view), first visit
        def ready(path: str) -> float:
            with throttled() as page:
                page.goto(f"http://127.0.0.1:{app.port}{path}", wait_until="commit")
                page.wait_for_selector("html[data-ready='1']", state="attached", timeout=120_000)
                return float(
                    page.evaluate("performance.getEntriesByName('scorekeeper-ready')[0].startTime")
                )

        for name, path in pages[1:3]:
            app_ms = statistics.median([ready(path) for _ in range(runs)])
            out.append(
                Figure(
                    f"phone: {name}, scripts running (first visit)",
                    app_ms,
                    base_ms,
                    goal="(no goal: when htmx has started)",
                )
            )

        for name, path in pages[1:3]:
            app_ms = statistics.median([dcl_after(path) for _ in range(runs)])
            out.append(
                Figure(
                    f"phone: {name}, DOMContentLoaded, scripts and CSS cached",
                    app_ms,
                    base_ms,
                    goal="(no goal: for comparison)",
                )
            )

        # tap-to-preview: a tap on the card pad until the preview shows it, against one round
        # trip of a tiny request on the same throttled connection
        with throttled() as page:
            page.goto(
                f"http://127.0.0.1:{app.port}/games/{g}/hands/new",
                wait_until="load",
                timeout=120_000,
            )
            # htmx starts right after the load event (boot.js), then the page is usable
            page.wait_for_selector("html[data-ready='1']", state="attached", timeout=120_000)
            # /healthz: a few bytes from the server. Not a file under /static/: once the
            # service worker controls the page it answers those from the phone's cache, and
            # the "round trip" would then be a few milliseconds or two seconds by chance.
            rtt = page.evaluate("""async () => { const t = performance.now();
                await fetch('/healthz?rtt=' + Math.random(), {cache: 'no-store'});
                return performance.now() - t; }""")
            page.evaluate("""async () => {  // card by card: the form is redrawn first
                const done = new Promise(r => { document.body.addEventListener(
                    'htmx:afterSettle', r, {once: true}); setTimeout(r, 15000); });
                document.querySelector("input[name='t0-mode'][value='detail']").click();
                await done; }""")
            page.wait_for_selector(".cardfield", timeout=120_000)
            page.locator(".cardfield").first.focus()
            taps = []
            for _ in range(max(3, runs)):
                # a tap on a card of the card pad, until the preview has settled
                taps.append(
                    page.evaluate("""async () => {
                    const key = document.querySelector('#pad button[data-card]');
                    const done = new Promise(r => document.body.addEventListener(
                        'htmx:afterSettle', r, {once: true}));
                    const t = performance.now();
                    key.click();
                    await done; return performance.now() - t; }""")
                )
            tap = statistics.median(taps)
            fig = Figure(
                "phone: tap to preview",
                tap,
                rtt,
                goal="<= one round trip + 100 ms",
                note=f"one round trip {rtt:.0f} ms",
            )
            fig.ok = tap <= rtt + 100
            out.append(fig)
        browser.close()
    return out


# ---- the report --------------------------------------------------------------------------------


def report(figures: list[Figure]) -> str:
    lines = [f"{'what':58} {'scorekeeper':>12} {'bare Flask':>11} {'ratio':>7}  goal"]
    for f in figures:
        base = f"{f.base:,.1f}" if f.base is not None else "-"
        ratio = f"{f.ratio:.2f}x" if f.ratio is not None else "-"
        mark = "" if f.ok is None else (" ok" if f.ok else " MISSED")
        goal = f"{f.goal}{mark}" + (f"  ({f.note})" if f.note else "")
        lines.append(f"{f.name:58} {f.app:>9,.1f} {f.unit:<3}{base:>10} {ratio:>7}  {goal}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes (smoke test)")
    parser.add_argument("--no-phone", action="store_true", help="skip the browser figures")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--only",
        choices=["serve", "pages"],
        help="only one group of figures: 'serve' (to first 200), 'pages' (game pages, preview, "
        "score and saves; 60-hand games and smaller)",
    )
    parser.add_argument("--starts", type=int, help="how many starts 'serve to first 200' times")
    parser.add_argument(
        "--rounds", type=int, help="samples per warm figure (default 40; more on a busy machine)"
    )
    args = parser.parse_args()
    rng = random.Random(1616)
    if args.quick:
        sizes, many, many_hands, rounds, seconds, starts, phone_runs = (
            {1: 2, 10: 1, 60: 4},
            5,
            3,
            6,
            0.5,
            1,
            1,
        )
    else:
        sizes, many, many_hands, rounds, seconds, starts, phone_runs = (
            {1: 2, 10: 2, 60: 16, 200: 3, 499: 3, 1000: 1},
            1000,
            10,
            40,
            3.0,
            3,
            1,
        )
    if args.starts:
        starts = args.starts
    if args.rounds:
        rounds = args.rounds
    if args.only == "serve":  # an up-to-date database file is all a start needs
        sizes, many = {1: 1}, 0
    elif args.only == "pages":
        sizes, many = {size: n for size, n in sizes.items() if size <= 60}, 0
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as folder:
        db_url = f"sqlite:///{folder}/bench.sqlite3"
        begin = time.perf_counter()
        games = build(db_url, sizes, many, many_hands)
        print(
            f"built {sum(sizes.values()) + many} games in {time.perf_counter() - begin:.0f} s",
            file=sys.stderr,
        )
        if args.only != "serve":
            app, base = Server("app", db_url), Server("base")
            try:
                pair = Pair(app, base)
                figures += pages_and_saves(pair, games, rounds, rng)
                if args.only is None:
                    figures += pdfs(pair, games, max(3, rounds // 10))
                    figures.append(throughput(pair, games, seconds))
                    if not args.no_phone:
                        figures += phone(app, base, games, phone_runs)
            finally:
                app.stop()
                base.stop()
        if args.only in (None, "serve"):
            figures.append(startup(db_url, starts))
        if args.only is None:
            figures += memory(db_url, games, rng)
    print(report(figures))
    if args.json:
        Path(args.json).write_text(
            json.dumps([{**f.__dict__, "ratio": f.ratio} for f in figures], indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
