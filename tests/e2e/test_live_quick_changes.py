"""Two changes of a game in quick succession reach a watching phone, the second while the page is
still fetching what the first changed (docs/live-updates.md): both sides' parts coming in at
once, the second saving the hand. Found as the parts browser test's viewer still showing 0
twenty seconds after the hand was saved: the refresh for the save was queued by htmx on the
part its answer was replacing, and dropped with it.

Made deterministic by holding the first refresh's answer: it is fetched from the server at the
version of the first part, then the second part saves the hand, the page hears the save while
that fetch is still open, and only then is the first answer handed to the page.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from playwright.sync_api import Page, Route, expect

from tests.e2e.helpers import wait_ready

GAME = {
    "ruleset": "classic",
    "players": 4,
    "sides": [
        {"name": "Us", "players": ["Anna", "Ben"]},
        {"name": "Them", "players": ["Cleo", "Dan"]},
    ],
}
A_PART = {"quick": {"natural_canastas": 1, "meld_points": 200, "hand_points": 0}, "went_out": True}
B_PART = {"quick": {"mixed_canastas": 1, "meld_points": 150, "hand_points": 40}}


def test_a_save_heard_while_the_last_change_is_fetched_is_shown(
    live_app: Flask, live_server: str, page: Page
) -> None:
    client = live_app.test_client()
    game = client.post("/api/v1/games", json=GAME).get_json()
    held: list[Route] = []

    def hold_first(route: Route) -> None:
        if not held:
            held.append(route)  # answered below, when the test says
        else:
            route.continue_()

    page.goto(f"{live_server}/view/{game['view_id']}?lang=en")
    wait_ready(page)
    page.wait_for_selector("html[data-live='open']", state="attached")
    page.route(re.compile(r"/view/[^/?]+\?since="), hold_first)

    def put(side: int, part: dict[str, Any]) -> int:
        answer = client.put(
            f"/api/v1/games/{game['side_ids'][side]}/parts/{side}", json={"part": part, "hand": 1}
        )
        return answer.status_code

    assert put(0, A_PART) == 200  # version 2: the page fetches its part again
    page.wait_for_selector("html[data-live-heard='2']", state="attached")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not fetch its part after the first change"
    first = held[0].fetch()  # the part as at version 2 (one side in)
    assert put(1, B_PART) == 201  # version 3: the hand is saved
    page.wait_for_selector("html[data-live-heard='3']", state="attached")
    held[0].fulfill(response=first)  # the first answer comes in after the save was heard
    # 200 + 500 natural canasta + 100 out; 150 + 300 mixed - 40 (the rulebook's classic page)
    expect(page.locator(".board .total").first).to_have_text("800", timeout=5000)
    expect(page.locator(".board .total").nth(1)).to_have_text("410")
    page.unroute(re.compile(r"/view/[^/?]+\?since="))
