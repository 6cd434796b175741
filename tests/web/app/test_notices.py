"""What an htmx request gets when it is refused (429, 503): the translated sentence alone, with
``HX-Reswap: none`` so that the form stays as it was (static/notices.js shows the sentence);
a plain request still gets the error page. The browser side: tests/e2e/test_notices_browser.py."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from tests.web.api.test_games_api import create
from tests.web.app.test_hardening import hold_the_write_lock, make_app
from tests.web.games.test_game_pages import DETAIL_US, QUICK_THEM, hand_form

HTMX = {"HX-Request": "true"}


def test_a_rate_limited_htmx_save_gets_the_wait_alone(tmp_path: Path) -> None:
    with make_app(tmp_path, RATELIMIT_ENABLED=True, LIMIT_WRITE="1 per minute") as app:
        client = app.test_client()
        game_id = create(client)["id"]
        data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM)
        data["action"] = "save"
        assert client.post(f"/games/{game_id}/hands", data=data, headers=HTMX).status_code == 200
        data["version"] = "2"
        limited = client.post(f"/games/{game_id}/hands?lang=de", data=data, headers=HTMX)
        assert limited.status_code == 429
        assert limited.headers["HX-Reswap"] == "none"
        assert "HX-Request" in limited.headers["Vary"]
        wait = int(limited.headers["Retry-After"])
        assert 0 < wait <= 60
        text = limited.get_data(as_text=True)
        assert "<html" not in text and "data-notice-text" in text
        said = re.search(r"Warte (\d+) Sekunden?", text)
        assert said is not None and abs(int(said.group(1)) - wait) <= 1
        # without htmx: the error page, in Polish, with the wait too
        page = client.post(f"/games/{game_id}/hands?lang=pl", data=data)
        assert page.status_code == 429 and "<html" in page.text and "HX-Reswap" not in page.headers
        assert re.search(r"Zbyt wiele żądań: odczekaj \d+ sekund", page.text)


def test_polish_waits_have_three_forms(app: Flask) -> None:
    """Polish plurals (CLDR: one, few, many) (1 sekundę, 2 sekundy, 5 sekund, 22
    sekundy), and a long wait in minutes (an hourly limit)."""
    from scorekeeper.web.app.limits import wait_text

    with app.test_request_context("/?lang=pl"):
        assert [wait_text(n).split(": ")[1].split(" i ")[0] for n in (1, 2, 5, 22)] == [
            "odczekaj 1 sekundę",
            "odczekaj 2 sekundy",
            "odczekaj 5 sekund",
            "odczekaj 22 sekundy",
        ]
        assert "odczekaj 3 minuty" in wait_text(150)
        assert "Poczekaj minutę" in wait_text(None)  # unknown: the general sentence


def test_a_busy_database_answers_htmx_with_the_sentence_alone(tmp_path: Path) -> None:
    with make_app(tmp_path, SQLITE_BUSY_TIMEOUT=1) as app:
        client = app.test_client()
        form = {"action": "create", "ruleset": "german", "players": "4"}
        lock = hold_the_write_lock(app)
        try:
            busy = client.post("/games/new?lang=de", data=form, headers=HTMX)
        finally:
            lock.release()
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"
        assert busy.headers["HX-Reswap"] == "none"
        assert "<html" not in busy.text and "Der Spielbericht ist gerade beschäftigt" in busy.text
