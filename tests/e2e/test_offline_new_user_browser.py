"""Tried as a new user would (docs/offline.md): a German game on a 390×844 phone that loses the
network from hand 2 to hand 4, asks the referee twice meanwhile, and comes back to find that a
second phone entered a hand in the meantime. Real chromium, the real rules engine (Pyodide in
its worker), a real ``scorekeeper serve`` on loopback; at 127.0.0.1 (a secure context, with a
service worker) and under the LAN-like name ``table.test`` (none), with the phone offline, and
with the server down while the phone stays online.

The phone's previews and the board's waiting totals must be what the server's API scores for
the same hands; back online, one tap on "keep both" saves every hand exactly once, in order,
with the other phone's hand before this phone's. No request goes to another origin."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.helpers import PHONE, wait_ready
from tests.e2e.test_offline_browser import Server, hands_of, new_game, outbox
from tests.e2e.test_offline_open_page import (  # noqa: F401 (the two fixtures)
    LAN,
    hands_of_full,
    lan_browser,
    lan_server,
    settle,
)

RULES = {"ruleset": "german", "players": 4}


def side(natural: int, mixed: int, meld: int, out: bool) -> dict[str, Any]:
    return {
        "quick": {"natural_canastas": natural, "mixed_canastas": mixed, "meld_points": meld},
        "went_out": out,
    }


#: This phone's hands: 1 online, 2 to 4 offline. Us / Them: (natural, mixed, melded points).
MINE = [
    [side(2, 0, 400, True), side(0, 1, 200, False)],
    [side(2, 0, 400, True), side(0, 1, 250, False)],
    [side(0, 1, 100, False), side(2, 0, 200, True)],
    [side(2, 0, 100, True), side(0, 1, 150, False)],
]
#: The other phone's hand, saved while this one was offline.
THEIRS = [side(0, 0, 120, False), side(1, 0, 300, True)]


def their_score(server: Server) -> int:
    """What the server scores Them for the other phone's hand."""
    answer = server.api("POST", "/api/v1/score", {**RULES, "teams": THEIRS})
    return int(answer["teams"][1]["score"])


def phone(browser: Browser) -> BrowserContext:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True, locale="de-DE"
    )
    context.set_default_timeout(10000)
    return context


def fill(page: Page, hand: list[dict[str, Any]]) -> None:
    """The hand as a person types it into the entry form (quick entry, the German words)."""
    form = page.locator("#hand-form")
    for i, team in enumerate(hand):
        if team["went_out"]:
            form.locator("label.chip", has_text=("Us", "Them")[i]).click()
        q = team["quick"]
        for key in ("natural_canastas", "mixed_canastas"):
            if q[key]:
                page.fill(f"input[name=t{i}-{key}]", str(q[key]))
        page.fill(f"#t{i}-meld_points", str(q["meld_points"]))


def german(n: int) -> str:
    return f"{n:,}".replace(",", ".").replace("-", "−")


def signed(n: int) -> str:
    return ("+" if n > 0 else "") + german(n)


@pytest.mark.parametrize(
    ("host", "lost"),
    [("127.0.0.1", "offline"), (LAN, "offline"), (LAN, "server-down")],
)
def test_a_new_user_plays_hands_2_to_4_offline_and_meets_a_second_phone(
    lan_server: Server,  # noqa: F811 (the fixture imported above)
    lan_browser: Browser,  # noqa: F811
    host: str,
    lost: str,
    shot: Callable[..., Path],
) -> None:
    server = lan_server
    game_id = new_game(server)
    origin = f"http://{host}:{server.port}"
    game_url = f"{origin}/games/{game_id}"
    scores = [
        [t["score"] for t in server.api("POST", "/api/v1/score", {**RULES, "teams": h})["teams"]]
        for h in MINE
    ]
    name = f"newuser-{host.replace('.', '-')}-{lost}"
    context = phone(lan_browser)
    other = phone(lan_browser)
    elsewhere: list[str] = []

    def watch(request: Any) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https") and f"{parts.scheme}://{parts.netloc}" != origin:
            elsewhere.append(request.url)

    context.on("request", watch)
    other.on("request", watch)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(game_url)
        wait_ready(page)
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.evaluate("() => window.isSecureContext") is (host == "127.0.0.1")

        # Hand 1 online.
        page.locator(".cta a").first.click()
        page.wait_for_url(f"{game_url}/hands/new")
        wait_ready(page)
        fill(page, MINE[0])
        page.get_by_role("button", name="Speichern").click()
        page.wait_for_url(game_url)
        wait_ready(page)
        totals = [scores[0][0], scores[0][1]]
        expect(page.locator(".board .total").first).to_have_text(german(totals[0]))
        expect(page.locator("html[data-engine=ready]")).to_have_count(1, timeout=90000)
        status = page.locator("#offline-status")
        sleeps = "Dieser Browser kann den Bildschirm hier nicht anlassen"
        if host == LAN:  # no Screen Wake Lock on plain http: the page says so, plainly
            assert page.evaluate("() => 'wakeLock' in navigator") is False
            expect(status).to_contain_text(sleeps)
        else:
            expect(status).not_to_contain_text(sleeps)
        time.sleep(0.5)  # the form of hand 2 is fetched ahead

        # The other phone opens its entry form now (it saves once the server answers).
        second = other.new_page()
        second.on("pageerror", lambda error: errors.append(str(error)))
        second.goto(f"{game_url}/hands/new")
        wait_ready(second)
        fill(second, THEIRS)

        # What the API answers to the referee's questions asked at hand 4 (Us then at the
        # total of all four hands), asked while the server answers.
        us_at_4 = sum(s[0] for s in scores)
        pile = {**RULES, "top_card": "5", "hand": "5 5", "cumulative_score": us_at_4}
        pile_answer = server.api("POST", "/api/v1/referee/discard-pile", pile)
        out = {**RULES, "side_canastas": {"natural": 1, "mixed": 0, "wild": 0}, "melds": []}
        out_answer = server.api("POST", "/api/v1/referee/go-out", out)

        # Airplane mode (or the server gone) from hand 2 to hand 4.
        if lost == "offline":
            context.set_offline(True)
        else:
            server.stop()
        for number in (2, 3, 4):
            cta = page.locator(".cta a").first
            expect(cta).to_have_text(f"Spiel {number} eintragen")
            cta.click()
            form = page.locator("[data-in-page] #hand-form")
            expect(form).to_be_visible()
            expect(form.locator("h1")).to_contain_text(f"Spiel {number}")
            fill(page, MINE[number - 1])
            us, them = scores[number - 1]
            expect(form.locator("#sc-t0 .hand-score")).to_contain_text(signed(us))
            expect(form.locator("#sc-t1 .hand-score")).to_contain_text(signed(them))
            expect(form.locator("#sc-t0 .after")).to_contain_text(german(totals[0] + us))
            if number == 2:
                shot(page, f"{name}-1-entry-offline", full_page=True)
            page.get_by_role("button", name="Speichern").click()
            expect(page.locator("#outbox .outbox-item")).to_have_count(number - 1)
            totals = [totals[0] + us, totals[1] + them]
            waiting = page.locator(".board .waiting-total")
            expect(waiting.first).to_contain_text(f"wartend → {german(totals[0])}")
            expect(waiting.nth(1)).to_contain_text(f"wartend → {german(totals[1])}")

            if number == 4:  # the discard pile and going out, as the API answers them
                page.locator(".board .ask-referee").first.click()
                panel = page.locator("[data-in-page=referee]")
                panel.locator("label.chip", has=page.locator("input[value=discard-pile]")).click()
                panel.locator("#referee-top").fill("5")
                panel.locator("#referee-cards").fill("5 5")
                want = pile_answer
                expect(panel.locator(".verdict")).to_have_attribute(
                    "data-verdict", "yes" if want["allowed"] else "no"
                )
                panel.locator("label.chip", has=page.locator("input[value=go-out]")).click()
                panel.locator("#referee-natural").fill("1")
                panel.locator("#referee-cards").fill("")
                want = out_answer
                expect(panel.locator(".verdict")).to_have_attribute(
                    "data-verdict", "yes" if want["allowed"] else "no"
                )
                shot(page, f"{name}-4-referee-go-out")
                panel.locator("[data-close-panel]").click()
            if number in (2, 3):  # the referee, twice, without the network
                page.locator(".board .ask-referee").first.click()
                panel = page.locator("[data-in-page=referee]")
                expect(panel).to_be_visible()
                if number == 2:
                    panel.locator("#referee-cards").fill("K K 2 2")
                    expect(panel.locator(".verdict .answer")).to_have_text("Ja")
                else:  # Us stand above 3,000: 120 needed, three kings are 30
                    panel.locator(
                        "label.chip", has=page.locator("input[value=initial-meld]")
                    ).click()
                    panel.locator("#referee-cards").fill("K K K")
                    expect(panel.locator(".verdict .answer")).to_have_text("Nein")
                    expect(panel.locator(".verdict .why").first).to_contain_text("120")
                shot(page, f"{name}-{number}-referee")
                panel.locator("[data-close-panel]").click()
        shot(page, f"{name}-4-three-waiting", full_page=True)
        assert [item["version"] for item in outbox(page)] == [2, 3, 4]

        # Meanwhile the other phone saved its hand 2.
        if lost == "server-down":
            server.start()
        second.get_by_role("button", name="Speichern").click()
        second.wait_for_url(game_url)
        assert len(hands_of(server, game_id)) == 2

        # Back: hand 2 meets theirs; both side by side, and nothing happens before a tap.
        if lost == "offline":
            context.set_offline(False)
        else:
            page.get_by_role("button", name="Jetzt senden").click()
        item = page.locator("#outbox .outbox-item.conflict")
        expect(item).to_have_count(1, timeout=20000)
        both = item.locator("[data-both]")
        expect(both.locator(".theirs")).to_be_visible()
        expect(both.locator(".mine")).to_contain_text(signed(scores[1][0]))
        shot(page, f"{name}-5-conflict", full_page=True)
        time.sleep(1)
        assert len(hands_of(server, game_id)) == 2
        item.locator("[data-choose=both]").click()

        want = [scores[0][1], their_score(server), scores[1][1], scores[2][1], scores[3][1]]
        settle(page, lambda: outbox(page) == [] and hands_of(server, game_id) == want, 30)
        numbers = [h["number"] for h in hands_of_full(server, game_id)]
        assert numbers == [1, 2, 3, 4, 5]  # each hand once
        wait_ready(page)
        expect(page.locator("#outbox")).to_have_count(0)
        expect(page.locator(".board .waiting-total")).to_have_count(0)
        shot(page, f"{name}-6-saved", full_page=True)
        assert elsewhere == []
        assert errors == []
    finally:
        context.close()
        other.close()
