"""A game's statistics fit a 390 px phone with long side names in Polish: the side names wrap
in the head instead of pushing the second side's column out of view (the table scrolled
sideways, with nothing saying so)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.e2e.helpers import PHONE, wait_ready

TEAMS = [
    {
        "quick": {"natural_canastas": 1, "mixed_canastas": 1, "meld_points": 300, "melded": True},
        "red_threes": 1,
        "went_out": True,
    },
    {"quick": {"mixed_canastas": 1, "meld_points": 150, "hand_points": 40, "melded": True}},
]


def test_statistics_with_long_names_fit_the_phone(
    live_server: str, browser: Browser, shot: Callable[[Page, str], Path]
) -> None:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        sides = [
            {"name": "Henryk & Franciszek", "players": ["Henryk", "Franciszek"]},
            {"name": "Grażyna & Dariusz", "players": ["Grażyna", "Dariusz"]},
        ]
        made = page.request.post(
            f"{live_server}/api/v1/games", data={"ruleset": "polish", "players": 4, "sides": sides}
        )
        assert made.status == 201, made.text()
        game = made.json()
        saved = page.request.post(
            f"{live_server}/api/v1/games/{game['id']}/hands", data={"version": 1, "teams": TEAMS}
        )
        assert saved.status == 201, saved.text()
        page.goto(f"{live_server}/games/{game['id']}?lang=pl")
        wait_ready(page)
        page.locator("details.stats summary").click()
        table = page.locator(".stats-table")
        table.scroll_into_view_if_needed()
        wide, room = page.evaluate(
            "[document.querySelector('.stats-table').scrollWidth,"
            " document.querySelector('.stats .table-wrap').clientWidth]"
        )
        assert wide <= room, (wide, room)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for name in ("Henryk & Franciszek", "Grażyna & Dariusz"):
            head = table.locator("thead th", has_text=name.split(" & ")[0])
            box = head.bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"]
        shot(page, "stats-long-names-pl")
    finally:
        context.close()
