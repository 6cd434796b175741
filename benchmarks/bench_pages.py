"""Page weight and speed of the scorekeeper's pages (issue "Scorekeeping at the table").

Budgets: the game page's first load (HTML + CSS + JS + htmx) under 80 KB transferred, the live
preview fragment under 8 KB. The app compresses its responses (flask-compress, brotli or gzip as
the browser accepts); "sent" is what a browser sending ``Accept-Encoding: br, gzip`` receives,
"raw" the uncompressed size.

Run: ``.venv/bin/python benchmarks/bench_pages.py [--hands 12]``; exits 1 when a budget is broken.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import create_app  # noqa: E402

PAGE_BUDGET = 80 * 1024
FRAGMENT_BUDGET = 8 * 1024
# What a browser loads with the page: stylesheets, scripts, the favicon. Not the home-screen
# icon (rel="apple-touch-icon"): it is fetched only when the page is added to a home screen.
ASSET = re.compile(r'<(?:link(?![^>]*apple-touch-icon)[^>]+href|script[^>]+src)="(/static/[^"]+)"')


ENCODING = {"Accept-Encoding": "br, gzip"}


def sent(client: FlaskClient, url: str) -> int:
    """Bytes on the wire for a browser that accepts compression."""
    return len(client.get(url, headers=ENCODING).data)


def hidden(html: str, name: str) -> str:
    m = re.search(rf'name="{name}" value="([^"]*)"', html)
    return m[1] if m else ""


def new_game(client: FlaskClient) -> str:
    form = client.get("/games/new").text
    data = {
        "action": "create",
        "ruleset": "german",
        "players": "4",
        "opts_for": "german:4",
        "layout_for": "german:4:2",
        "side-0": "Wir",
        "side-1": "Ihr",
        "target": "5000",
        "player-0-0": "Anna",
        "player-0-1": "Bartholomäus",
        "player-1-0": "Cleo",
        "player-1-1": "Dorota",
    }
    for key in re.findall(r'name="(opt-[a-z_]+)" value="', form):
        data[key] = hidden(form, key)
    for key in re.findall(r'type="checkbox" name="(opt-[a-z_]+)" value="1" checked', form):
        data[key] = "1"
    for key in ("opt-minimum_table", "opt-canastas_to_go_out", "opt-red_three_special"):
        data[key + "-k"] = re.findall(rf'name="{key}-k" value="([^"]*)"', form)  # type: ignore[assignment]
        data[key + "-v"] = re.findall(rf'name="{key}-v" value="([^"]*)"', form)  # type: ignore[assignment]
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.status_code
    return response.headers["Location"].rsplit("/", 1)[1]


def detail_hand(version: str, n: int) -> dict[str, object]:
    """A hand as entered at the table: one side card by card, the other counted quickly.
    Scores stay low enough that a dozen hands do not end the game."""
    us, them = f"t{n % 2}", f"t{1 - n % 2}"
    return {
        "version": version,
        "action": "save",
        "out": "stock",
        f"{us}-mode": "detail",
        f"{us}-meld": ["K K K 2", "5 5 5", "A A A X", ""],
        f"{us}-hand": ["", "4 6"],
        f"{us}-red": "1",
        f"{them}-mode": "quick",
        f"{them}-mixed_canastas": "1",
        f"{them}-meld_points": "180",
        f"{them}-hand_points": "45",
        f"{them}-red": "0",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12, help="hands in the measured game")
    parser.add_argument("--repeat", type=int, default=50, help="timed requests per figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
            }
        )
        client = app.test_client()
        client.set_cookie("lang", "de")
        game_id = new_game(client)
        for n in range(args.hands):
            page = client.get(f"/games/{game_id}").text
            version = hidden(page, "version") or "1"
            response = client.post(f"/games/{game_id}/hands", data=detail_hand(version, n))
            if response.status_code != 303:
                break  # the game was won: no more hands
        hands = max(
            map(int, re.findall(r"/hands/(\d+)/edit", client.get(f"/games/{game_id}?all=1").text)),
            default=0,
        )

        rows: list[tuple[str, int, int]] = []
        ok = True
        for name, url in (
            ("game page", f"/games/{game_id}"),
            ("hand correction page", f"/games/{game_id}/hands/1/edit"),
            ("start page", "/"),
            ("new game page", "/games/new"),
        ):
            html = client.get(url).data
            total_raw, total_sent = len(html), sent(client, url)
            for asset in sorted(set(ASSET.findall(html.decode()))):
                total_raw += len(client.get(asset).data)
                total_sent += sent(client, asset)
            rows.append(
                (f"{name}: first load (HTML {len(html):,} B + assets)", total_raw, total_sent)
            )
            if name == "game page":
                ok &= total_sent < PAGE_BUDGET
        view_id = re.search(r"/view/([A-Za-z0-9_-]+)", client.get(f"/games/{game_id}").text)[1]  # type: ignore[index]
        poll = client.get(f"/view/{view_id}", headers={"HX-Request": "true"}).data
        poll_sent = len(
            client.get(f"/view/{view_id}", headers={"HX-Request": "true", **ENCODING}).data
        )
        rows.append(("view: polled fragment", len(poll), poll_sent))

        form = detail_hand("1", 0)
        form.pop("action")
        fragment = client.post(
            f"/games/{game_id}/preview", data=form, headers={"HX-Request": "true"}
        ).data
        bad = dict(
            form,
            **{
                "t0-meld": ["K K", "9 9 Z", "A A A A 2 2 2 X", "5 5 5", ""],
                "out": "0",
                "t1-meld_points": "183",
            },
        )
        fragment_bad = client.post(
            f"/games/{game_id}/preview", data=bad, headers={"HX-Request": "true"}
        ).data

        def preview_sent(data: dict[str, object]) -> int:
            return len(
                client.post(
                    f"/games/{game_id}/preview",
                    data=data,
                    headers={"HX-Request": "true", **ENCODING},
                ).data
            )

        rows.append(("preview fragment (detail + quick side)", len(fragment), preview_sent(form)))
        rows.append(("preview fragment with problems", len(fragment_bad), preview_sent(bad)))
        ok &= max(len(fragment), len(fragment_bad)) < FRAGMENT_BUDGET

        print(
            f"scorekeeper page weight, German game with {hands} hands "
            f"(budgets: game page < {PAGE_BUDGET // 1024} KB, fragment < "
            f"{FRAGMENT_BUDGET // 1024} KB)"
        )
        print(f"{'':56} {'raw':>9} {'sent':>9}")
        for label, raw, zipped in rows:
            print(f"{label:56} {raw:>9,} {zipped:>9,}")

        HTMX = {"HX-Request": "true"}  # noqa: N806
        # the version the view shows: a poll with it is answered 204 (nothing changed)
        since = re.search(r"since=(\d+)", client.get(f"/view/{view_id}").text)[1]  # type: ignore[index]
        timings = []
        for label, call in (
            (
                "preview request",
                lambda: client.post(
                    f"/games/{game_id}/preview", data=form, headers={"HX-Request": "true"}
                ),
            ),
            ("game page request", lambda: client.get(f"/games/{game_id}")),
            (
                "view poll, unchanged (204)",
                lambda: client.get(f"/view/{view_id}?since={since}", headers=HTMX),
            ),
            (
                "view poll after a change (fragment)",
                lambda: client.get(f"/view/{view_id}?since=0", headers=HTMX),
            ),
        ):
            samples = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                call()
                samples.append((time.perf_counter() - start) * 1000)
            timings.append((label, statistics.median(samples), max(samples)))
        print(f"\n{'':56} {'median':>9} {'max':>9}")
        for label, median, worst in timings:
            print(f"{label:56} {median:>7.1f}ms {worst:>7.1f}ms")
        app.extensions["scorekeeper.engine"].dispose()
    print("\nwithin budget" if ok else "\nOVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
