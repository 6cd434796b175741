"""Live updates in a real browser (docs/live-updates.md): a second phone on a game's own page
(with its key) and a third on its read-only view show a hand saved by another phone within
2 s, without a reload; so does a table's page. The page's polling waits while the stream is
open, and carries on when it is gone."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import PHONE, wait_ready

GAME = {
    "ruleset": "german",
    "players": 4,
    "sides": [{"name": "Anna", "players": ["a", "b"]}, {"name": "Ben", "players": ["c", "d"]}],
}


def _hand(points: int) -> list[dict[str, object]]:
    return [
        {"quick": {"meld_points": points}, "red_threes": 0, "went_out": False},
        {"quick": {"meld_points": 50}, "red_threes": 0, "went_out": False},
    ]


def _phone(browser: Browser) -> Page:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(5000)
    return context.new_page()


def _following(page: Page) -> None:
    """Wait until the page's event stream is open (static/live.js marks it on <html>)."""
    page.wait_for_selector("html[data-live='open']", state="attached")


def totals(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".board .total").all_inner_texts()]


def test_a_second_phone_on_the_game_page_shows_a_new_hand_without_a_reload(
    live_app: Flask, live_server: str, page: Page, browser: Browser, shot: Callable[..., Path]
) -> None:
    client = live_app.test_client()
    game = client.post("/api/v1/games", json=GAME).get_json()
    # the second phone: the game's own page, with its key
    page.goto(f"{live_server}/games/{game['id']}?lang=en")
    _following(page)
    assert totals(page) == ["0", "0"]
    viewer = _phone(browser)
    try:
        viewer.goto(f"{live_server}/view/{game['view_id']}?lang=en")
        wait_ready(viewer)
        _following(viewer)
        page.evaluate("window.notReloaded = true")
        saved = client.post(
            f"/api/v1/games/{game['id']}/hands", json={"version": 1, "teams": _hand(120)}
        )
        assert saved.status_code == 201
        answered = time.monotonic()
        expect(page.locator(".board .total").first).to_have_text("120", timeout=2000)
        expect(viewer.locator(".board .total").first).to_have_text("120", timeout=2000)
        assert time.monotonic() - answered < 2.0
        assert page.evaluate("window.notReloaded") is True  # the same document: no reload
        # the next hand's button followed, and the title shows the new totals
        expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
        assert "120" in page.title()
        shot(page, "live-01-game-page-after-another-phones-save")
        shot(viewer, "live-02-view-after-the-save")

        # a correction and a deletion arrive as well; what the reader opened stays open
        statistics = page.locator("#game-live details").filter(has_text="Statistics").first
        statistics.locator("summary").click()
        corrected = client.put(
            f"/api/v1/games/{game['id']}/hands/1", json={"version": 2, "teams": _hand(200)}
        )
        assert corrected.status_code == 200, corrected.get_json()
        expect(page.locator(".board .total").first).to_have_text("200", timeout=2000)
        expect(viewer.locator(".board .total").first).to_have_text("200", timeout=2000)
        expect(statistics).to_have_attribute("open", "")
        deleted = client.delete(f"/api/v1/games/{game['id']}/hands/1?version=3")
        assert deleted.status_code == 200, deleted.get_json()
        expect(page.locator(".board .total").first).to_have_text("0", timeout=2000)
        expect(viewer.locator(".board .total").first).to_have_text("0", timeout=2000)
        assert page.evaluate("window.notReloaded") is True
    finally:
        viewer.context.close()


def test_while_the_stream_is_open_the_page_does_not_poll(
    live_app: Flask, live_server: str, page: Page
) -> None:
    client = live_app.test_client()
    game = client.post("/api/v1/games", json=GAME).get_json()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "since=" in r.url else None)
    page.goto(f"{live_server}/view/{game['view_id']}?lang=en")
    _following(page)
    page.wait_for_timeout(6500)  # longer than the view's 5 s poll
    assert [url for url in asked if "/events" not in url] == []


def test_a_table_page_shows_a_hand_of_its_game_without_a_reload(
    live_app: Flask, live_server: str, page: Page, shot: Callable[..., Path]
) -> None:
    client = live_app.test_client()
    page.goto(f"{live_server}/tables?lang=en")
    page.fill("#table-name", "Friday")
    page.fill("#table-players", "Ala\nBea\nCem\nDan")
    page.get_by_role("button", name="Make the table").click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]{22}"))
    table_id = page.url.rsplit("/", 1)[1].split("?")[0]
    page.select_option("#ruleset", "german")  # the form is open: the table has no game yet
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    game_id = page.url.rsplit("/", 1)[1]
    page.goto(f"{live_server}/tables/{table_id}?lang=en")
    _following(page)
    page.evaluate("window.notReloaded = true")
    saved = client.post(f"/api/v1/games/{game_id}/hands", json={"version": 1, "teams": _hand(150)})
    assert saved.status_code == 201, saved.get_json()
    expect(page.locator(".table-game-list").first).to_contain_text("150", timeout=2000)
    assert page.evaluate("window.notReloaded") is True
    shot(page, "live-03-table-page-after-a-save", full_page=True)


def test_a_tournaments_public_standings_show_a_hand_in_german_without_a_reload(
    live_app: Flask, live_server: str, page: Page, shot: Callable[..., Path]
) -> None:
    client = live_app.test_client()
    made = client.post(
        "/api/v1/tournaments",
        json={
            "name": "Frühlingspokal",
            "ruleset": "german",
            "options": {},
            "players": 4,
            "format": "individual",
            "scoring": "match_points",
            "round_end": {"hands": 2},
            "participants": [f"Spieler {i + 1}" for i in range(8)],
        },
    )
    assert made.status_code == 201, made.get_json()
    tournament = made.get_json()
    started = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={})
    assert started.status_code == 201, started.get_json()
    game_id = started.get_json()["tables"][0]["game_id"]
    page.goto(f"{live_server}/tournaments/view/{tournament['view_id']}?lang=de")
    _following(page)
    page.evaluate("window.notReloaded = true")
    expect(page.locator(".t-standings")).not_to_contain_text("170")
    saved = client.post(f"/api/v1/games/{game_id}/hands", json={"version": 1, "teams": _hand(170)})
    assert saved.status_code == 201, saved.get_json()
    expect(page.locator(".t-standings")).to_contain_text("170", timeout=2000)
    assert page.evaluate("window.notReloaded") is True
    expect(page.locator("#standings-title")).to_contain_text("Tabelle")  # German page
    shot(page, "live-04-tournament-standings-de-after-a-save", full_page=True)


def test_without_its_stream_the_view_falls_back_to_polling(
    live_app: Flask, live_server: str, page: Page
) -> None:
    """The stream cut off (a proxy that drops it) or refused (429): the view polls as before
    and still shows the new hand, within its 5 s poll."""
    client = live_app.test_client()
    game = client.post("/api/v1/games", json=GAME).get_json()
    refused = {"body": '{"problems": []}', "status": 429, "headers": {"Retry-After": "30"}}
    page.route("**/events*", lambda route: route.fulfill(**refused))
    page.goto(f"{live_server}/view/{game['view_id']}?lang=en")
    page.wait_for_timeout(500)
    assert page.evaluate("document.documentElement.getAttribute('data-live')") != "open"
    saved = client.post(
        f"/api/v1/games/{game['id']}/hands", json={"version": 1, "teams": _hand(90)}
    )
    assert saved.status_code == 201
    expect(page.locator(".board .total").first).to_have_text("90", timeout=7000)


def test_a_second_phone_on_a_3_is_50_evening_shows_a_new_game_without_a_reload(
    live_app: Flask, live_server: str, page: Page
) -> None:
    client = live_app.test_client()
    made = client.post(
        "/api/v1/games", json={"ruleset": "three-is-fifty", "players": ["Ann", "Ben", "Cy"]}
    )
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    page.goto(f"{live_server}/fifty/{game['id']}?lang=en")
    _following(page)
    page.evaluate("window.notReloaded = true")
    expect(page.get_by_role("link", name="Enter game 1")).to_be_visible()
    saved = client.post(
        f"/api/v1/games/{game['id']}/hands", json={"version": 1, "points": [10, 0, 5]}
    )
    assert saved.status_code == 201, saved.get_json()
    expect(page.get_by_role("link", name="Enter game 2")).to_be_visible(timeout=2000)
    assert page.evaluate("window.notReloaded") is True
