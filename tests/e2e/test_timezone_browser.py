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
