"""Dates in the reader's time zone: the phone says its zone in the ``tz`` cookie
(static/boot.js), the server writes every date in it (web/words/i18n.py, reader_timezone);
without one, the deployment's ``SCOREKEEPER_TIMEZONE``, else UTC."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.settings import from_environment
from scorekeeper.store import cache
from scorekeeper.store.db import write_scope
from scorekeeper.store.models import Game
from tests.sheets.helpers import pdf_lines

# 01:30 UTC on 21 November: 20:30 on the 20th in New York, 02:30 on the 21st in Warsaw.
BEGUN = datetime(2026, 11, 21, 1, 30)
SIDES = [{"name": "Anna", "players": ["Anna"]}, {"name": "Ben", "players": ["Ben"]}]


def _table_with_a_late_game(app: Flask, client: FlaskClient) -> tuple[str, str]:
    table = client.post("/api/v1/tables", json={"name": "Late", "players": ["Anna", "Ben"]})
    key = table.json["id"]  # type: ignore[index]
    made = client.post(
        "/api/v1/games", json={"ruleset": "classic", "players": 2, "table": key, "sides": SIDES}
    )
    game_id = made.json["id"]  # type: ignore[index]
    with app.app_context(), write_scope() as session:
        game = session.get(Game, game_id)
        assert game is not None
        game.created_at = BEGUN
    cache.forget(app)
    return key, game_id


def _evening_heading(client: FlaskClient, key: str) -> list[str]:
    html = client.get(f"/tables/{key}?lang=en").get_data(as_text=True)
    return re.findall(
        r'<h3 class="evening-day"><time datetime="[^"]+" data-day>([^<]+)</time></h3>', html
    )


def test_the_phone_zone_decides_the_date(app: Flask, client: FlaskClient) -> None:
    key, game_id = _table_with_a_late_game(app, client)
    assert _evening_heading(client, key) == ["November 21, 2026"]  # UTC by default
    client.set_cookie("tz", "America/New_York")
    assert _evening_heading(client, key) == ["November 20, 2026"]
    # the printed sheet too, in the reader's language
    pdf = client.get(f"/games/{game_id}/sheet.pdf?lang=de")
    assert pdf.status_code == 200
    assert any("20. November 2026" in line for page in pdf_lines(pdf.data) for line in page)
    # the downloads' file names carry the reader's day too
    assert "canasta-2026-11-20.pdf" in pdf.headers["Content-Disposition"]
    csv = client.get(f"/games/{game_id}/hands.csv")
    assert "canasta-2026-11-20.csv" in csv.headers["Content-Disposition"]
    client.set_cookie("tz", "Europe/Warsaw")
    assert _evening_heading(client, key) == ["November 21, 2026"]
    pdf = client.get(f"/games/{game_id}/sheet.pdf?lang=de")
    assert "canasta-2026-11-21.pdf" in pdf.headers["Content-Disposition"]


@pytest.mark.parametrize("sent", ["Mars/Olympus_Mons", "", "x" * 500, "../../etc/passwd", "UTC;"])
def test_a_zone_nobody_has_is_ignored(app: Flask, client: FlaskClient, sent: str) -> None:
    key, _ = _table_with_a_late_game(app, client)
    client.set_cookie("tz", sent)
    assert _evening_heading(client, key) == ["November 21, 2026"]


def test_the_deployment_zone_is_used_when_the_phone_says_none(tmp_path: object) -> None:
    app = create_app(
        {
            "SECRET_KEY": "tz",
            "DATABASE_URL": f"sqlite:///{tmp_path}/tz.sqlite3",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            **from_environment({"SCOREKEEPER_TIMEZONE": " America/Los_Angeles "}),
        }
    )
    client = app.test_client()
    key, _ = _table_with_a_late_game(app, client)
    assert _evening_heading(client, key) == ["November 20, 2026"]  # 17:30 in Los Angeles
    client.set_cookie("tz", "Asia/Tokyo")  # the phone's own zone comes first
    assert _evening_heading(client, key) == ["November 21, 2026"]
    app.extensions["scorekeeper.engine"].dispose()


def test_an_unknown_deployment_zone_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="SCOREKEEPER_TIMEZONE: 'Europe/Atlantis'"):
        from_environment({"SCOREKEEPER_TIMEZONE": "Europe/Atlantis"})
