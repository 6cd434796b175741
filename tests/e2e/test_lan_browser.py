"""Playing over the LAN in a real browser: the real ``scorekeeper serve --lan`` (on loopback:
127.0.0.2 stands in for the laptop's Wi-Fi address), the scorekeeper's phone creates a game and
reads the view link, a second phone (another browser context) follows it and sees the score
change by itself. No page breaks its Content-Security-Policy."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.e2e.helpers import PHONE
from tests.test_serve import start, stop

HAND = [
    {"quick": {"natural_canastas": 1, "meld_points": 120}, "red_threes": 0, "went_out": True},
    {"quick": {"meld_points": 60, "hand_points": 15}, "red_threes": 0},
]


@pytest.fixture
def lan_server(tmp_path: Path) -> Iterator[int]:
    server, port = start(
        tmp_path,
        "--lan",
        "--host",
        "127.0.0.1",
        "--host",
        "127.0.0.2",
        "--lan-address",
        "127.0.0.2",
    )
    yield port
    stop(server)


def csp_watch(page: Page) -> list[str]:
    broken: list[str] = []

    def seen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            broken.append(message.text)

    page.on("console", seen)
    return broken


def test_a_second_phone_follows_the_view_link(
    lan_server: int, page: Page, browser: Browser, shot: Callable[..., Path]
) -> None:
    port = lan_server
    broken = csp_watch(page)
    page.goto(f"http://127.0.0.1:{port}/games/new?lang=de")
    expect(page.locator("input[name=ruleset][value=german]")).to_be_checked()
    page.fill("#player-0-0", "Anna")
    page.fill("#player-0-1", "Ben")
    page.fill("#player-1-0", "Cleo")
    page.fill("#player-1-1", "Dan")
    page.locator("button[name=action][value=create]").click()
    expect(page).to_have_url(re.compile(rf"http://127\.0\.0\.1:{port}/games/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    page.get_by_text("Punktestand auf anderen Handys zeigen").click()
    link = page.locator("a.view-link[href*='/view/']")
    view_url = link.get_attribute("href") or ""
    # the laptop opened itself as 127.0.0.1; the other phones get the LAN address
    assert re.fullmatch(rf"http://127\.0\.0\.2:{port}/view/[\w-]+", view_url), view_url
    expect(link).to_have_text(view_url)
    expect(page.locator("svg.qr").first).to_be_visible()
    expect(page.get_by_text("Andere Handys können diese Adresse nicht öffnen")).to_have_count(0)
    link.scroll_into_view_if_needed()
    shot(page, "lan-share-link")

    other = browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True, locale="pl-PL"
    )
    try:
        phone = other.new_page()
        phone_broken = csp_watch(phone)
        phone.goto(view_url)
        expect(phone.locator("html")).to_have_attribute("lang", "pl")
        expect(phone.locator(".board .total").first).to_have_text("0")
        # the scorekeeper saves a hand; the second phone shows it without a reload
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/games/{game_id}/hands",
            method="POST",
            data=json.dumps({"version": 1, "teams": HAND}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 201
        expect(phone.locator(".board .total").first).to_have_text("720", timeout=15000)
        shot(phone, "lan-second-phone")
        assert phone_broken == []
    finally:
        other.close()
    assert broken == []
