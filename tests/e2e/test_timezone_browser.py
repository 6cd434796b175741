"""Dates as the table lives them (web/words/i18n.py, reader_timezone): a phone in a zone far
from UTC opens the app, static/boot.js tells the server its zone, and the start page's list of
games dates the game by the phone's calendar, not by UTC's. The zone is picked so that its
date differs from UTC's at the hour the test runs (UTC+14 from 10:00 UTC, else UTC−12)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import PHONE, wait_ready


def _long_date(day: datetime) -> str:
    return f"{day:%B} {day.day}, {day.year}"  # Babel's English "long" date


def test_the_start_page_dates_a_game_by_the_phone_calendar(
    live_server: str, browser: Browser, shot: Callable[[Page, str], Path]
) -> None:
    zone = "Pacific/Kiritimati" if datetime.now(UTC).hour >= 10 else "Etc/GMT+12"
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, timezone_id=zone
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server}/?lang=en")
        wait_ready(page)
        assert {"name": "tz", "value": zone} in [
            {"name": c["name"], "value": c["value"]} for c in context.cookies()
        ]
        page.get_by_role("link", name="New game").click()
        page.fill("#player-0-0", "Anna")
        page.fill("#player-1-0", "Ben")
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
        page.goto(f"{live_server}/?lang=en")
        listed = page.locator("ul.recent li").first
        expect(listed).to_contain_text(_long_date(datetime.now(ZoneInfo(zone))))
        assert _long_date(datetime.now(UTC)) not in (listed.text_content() or "")
        shot(page, "timezone-start-page")
    finally:
        context.close()


def test_the_first_page_a_phone_opens_dates_by_its_calendar(
    live_server: str, browser: Browser, shot: Callable[[Page, str], Path]
) -> None:
    """A second phone opens a table's shared link as its very first page: the server cannot
    know its zone yet (the ``tz`` cookie comes with the next request), so boot.js writes the
    evening's day again in the phone's own zone; the next page comes written that way."""
    zone = "Pacific/Kiritimati" if datetime.now(UTC).hour >= 10 else "Etc/GMT+12"
    maker = browser.new_context()
    try:
        made = maker.request.post(
            f"{live_server}/api/v1/tables",
            data={"name": "Freitagsrunde", "players": ["A", "B", "C", "D"]},
        )
        assert made.status == 201, made.text()
        table = made.json()
        game = maker.request.post(
            f"{live_server}/api/v1/games",
            data={
                "ruleset": "german",
                "players": 4,
                "table": table["id"],
                "sides": [
                    {"name": "AB", "players": ["A", "B"]},
                    {"name": "CD", "players": ["C", "D"]},
                ],
            },
        )
        assert game.status == 201, game.text()
    finally:
        maker.close()
    phone = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, timezone_id=zone
    )
    try:
        page = phone.new_page()
        here, utc = datetime.now(ZoneInfo(zone)), datetime.now(UTC)
        page.goto(f"{live_server}/tables/view/{table['view_id']}?lang=en")
        wait_ready(page)
        day = page.locator("h3.evening-day time")
        expect(day).to_have_text(_long_date(here))
        assert (day.get_attribute("datetime") or "").endswith("Z")
        shot(page, "timezone-first-page")
        # the next page is written in the phone's zone by the server itself
        served = page.request.get(f"{live_server}/tables/view/{table['view_id']}?lang=de")
        assert f">{here.day}. " in served.text() and f">{utc.day}. " not in served.text()
        page.goto(f"{live_server}/tables/view/{table['view_id']}?lang=de")
        expect(day).to_have_text(re.compile(rf"^{here.day}\. "))
    finally:
        phone.close()
