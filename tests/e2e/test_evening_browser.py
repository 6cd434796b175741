"""The fixes after one evening at the table, in a real browser on a 390×844 phone: side
names that read right in German and Polish, the chart of running totals, a corrected hand
marked with its earlier entry, deleting a hand and undoing it after a reload, the first
problem brought into view, and dark mode."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.helpers import PHONE, preview_settled, wait_ready

QUICK = {
    "natural_canastas": 0,
    "mixed_canastas": 1,
    "wild_canastas": 0,
    "meld_points": 155,
    "hand_points": 40,
    "black_threes_in_hand": 0,
    "melded": True,
}


def api_game(page: Page, server: str, target: int = 5000) -> dict[str, Any]:
    """A German 4-player game of "Anna & Ben" against "Ihr", made through the JSON API."""
    made = page.request.post(
        f"{server}/api/v1/games",
        data={
            "ruleset": "german",
            "players": 4,
            "target": target,
            "sides": [
                {"name": "Anna & Ben", "players": ["Anna", "Ben"]},
                {"name": "Ihr", "players": ["Cleo", "Dan"]},
            ],
        },
    )
    assert made.status == 201
    return made.json()


def api_hand(
    page: Page, server: str, game: dict[str, Any], meld: int = 155, out: int = 0
) -> dict[str, Any]:
    teams = [
        {
            "quick": {**QUICK, "meld_points": meld if i == 0 else 155},
            "red_threes": 0,
            "went_out": i == out,
        }
        for i in range(2)
    ]
    added = page.request.post(
        f"{server}/api/v1/games/{game['id']}/hands",
        data={"version": game["version"], "teams": teams},
    )
    assert added.status == 201, added.text()
    return added.json()


def test_grammar_chart_and_winner_in_three_languages(
    live_server: str, page: Page, shot: Callable[..., Path], scroll_width: Callable[[Page], int]
) -> None:
    game = api_game(page, live_server, target=1000)
    game = api_hand(page, live_server, game, meld=155)  # 515 / 415: Anna & Ben went out
    game = api_hand(page, live_server, game, meld=655)  # 1,530 / 830: Anna & Ben won
    page.goto(f"{live_server}/games/{game['id']}?lang=de")
    expect(page.locator(".winner")).to_have_text("★ Gewonnen: Anna & Ben mit 1.530 Punkten.")
    assert page.locator(".board .minimum").count() == 0  # no initial meld after the end
    page.locator("details.hand").first.locator("summary").click()
    expect(page.locator("details.hand").first).to_contain_text("Ausgemacht: Anna & Ben.")
    chart = page.locator("figure.chart svg")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box and box["width"] <= PHONE["width"] and box["height"] > 150
    assert scroll_width(page) <= PHONE["width"]
    chart.scroll_into_view_if_needed()
    shot(page, "i15-de-chart")
    stats = page.locator("details.stats")
    expect(stats).to_have_attribute("open", "")  # the game is over: the statistics are open
    expect(stats.locator("tr", has_text="Bestes Spiel")).to_contain_text("+1.015")
    stats.scroll_into_view_if_needed()
    shot(page, "i15-de-stats")
    page.goto(f"{live_server}/games/{game['id']}?lang=pl")
    expect(page.locator(".winner")).to_have_text("★ Wygrana: Anna & Ben, 1\u00a0530 punktów.")
    expect(page.locator("figure.chart figcaption")).to_have_text("Przebieg wyników")
    shot(page, "i15-pl-winner")
    page.goto(f"{live_server}/?lang=de")
    expect(page.locator(".recent").first).to_contain_text("Gewonnen: Anna & Ben")
    page.goto(f"{live_server}/games/{game['id']}?lang=en")
    expect(page.locator(".winner")).to_have_text("★ Won: Anna & Ben with 1,530 points.")
    # The reader's language first among the PDF buttons; each label fits its button.
    expect(page.locator(".tools .buttons a").first).to_have_text("PDF (English)")
    page.goto(f"{live_server}/games/{game['id']}?lang=pl")
    expect(page.locator(".tools .buttons a").first).to_have_text("PDF (polski)")


def test_correct_then_delete_and_undo_after_a_reload(
    live_server: str, page: Page, shot: Callable[..., Path]
) -> None:
    game = api_game(page, live_server)
    game = api_hand(page, live_server, game)
    game = api_hand(page, live_server, game)
    page.goto(f"{live_server}/games/{game['id']}?lang=de")
    expect(page.locator(".history .hint")).to_be_visible()
    # Correct hand 1: the first side had 20 points less melded.
    page.locator("#hand-1 > summary").click()
    page.get_by_role("link", name="Spiel 1 korrigieren").click()
    page.fill("#t0-meld_points", "135")
    page.get_by_role("button", name="Speichern").click()
    page.wait_for_url(f"**/games/{game['id']}")
    mark = page.locator("#hand-1 > summary .fix")
    expect(mark).to_have_text("korr.")
    page.locator("#hand-1 > summary").click()
    page.locator("#hand-1 .earlier summary").click()
    expect(page.locator("#hand-1 .earlier li")).to_contain_text("+515")
    shot(page, "i15-de-corrected")
    # Delete hand 2, reload: "Rückgängig" is still offered and brings it back.
    page.locator("#hand-2 > summary").click()
    page.get_by_role("button", name="Spiel 2 löschen").click()
    expect(page.locator("form.undo")).to_contain_text("Spiel 2 gelöscht.")
    page.reload()
    shot(page, "i15-de-undo")
    page.get_by_role("button", name="Rückgängig").click()
    expect(page.locator("form.undo")).to_have_count(0)
    expect(page.locator("details.hand")).to_have_count(2)
    expect(page.locator(".board .total").first).to_have_text("1.010")  # 495 + 515


def test_a_double_tap_on_delete_and_undo_sends_it_once(live_server: str, browser: Browser) -> None:
    """A thumb's double tap on a button that leaves the page sends the form once
    (static/notices.js). On a slow line the second request reached the server after the first
    had changed the game, and the phone showed the 409 page ("someone else changed this
    game")."""
    # no service worker: the line is slowed for the page's own requests
    context = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = context.new_page()
        game = api_game(page, live_server)
        for meld in (135, 155):
            game = api_hand(page, live_server, game, meld=meld)
        sent: list[str] = []
        page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
        page.goto(f"{live_server}/games/{game['id']}?lang=en")
        wait_ready(page)
        # a slow line: each request takes 400 ms to arrive; the second tap comes 150 ms later
        slow = context.new_cdp_session(page)
        slow.send("Network.enable")
        conditions = {"latency": 400, "downloadThroughput": -1, "uploadThroughput": -1}
        slow.send("Network.emulateNetworkConditions", {"offline": False, **conditions})

        def double_tap(button: Locator) -> None:
            # the second tap from the page itself: Playwright would wait for the navigation
            button.evaluate("b => { b.click(); setTimeout(() => b.click(), 150); }")

        page.locator("#hand-2 > summary").click()
        double_tap(page.get_by_role("button", name="Delete hand 2"))
        expect(page.locator("form.undo")).to_contain_text("Hand 2 deleted.")
        wait_ready(page)
        expect(page.locator("details.hand")).to_have_count(1)
        double_tap(page.get_by_role("button", name="Undo"))
        expect(page.locator("form.undo")).to_have_count(0)
        wait_ready(page)
        expect(page.locator("details.hand")).to_have_count(2)
        posts = [url.rsplit("/", 1)[-1] for url in sent if "/preview" not in url]
        assert posts == ["delete", "undo"]
        stored = page.request.get(f"{live_server}/api/v1/games/{game['id']}").json()
        assert len(stored["hands"]) == 2
    finally:
        context.close()


def test_first_problem_brought_into_view(
    live_server: str, page: Page, shot: Callable[..., Path]
) -> None:
    game = api_game(page, live_server)
    page.goto(f"{live_server}/games/{game['id']}/hands/new?lang=pl")
    page.locator("label", has_text="Karta po karcie").first.click()
    page.fill("#t0-meld-0", "K K")
    page.locator("[data-pad=done]").click()
    hint = page.locator("a.sum-problem")
    expect(hint).to_be_visible()
    preview_settled(page)  # the hint a person taps is the one on the screen
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    hint.click()
    page.wait_for_timeout(500)  # a late preview may replace the note: focus must follow
    problem = page.locator(".note.problem").first
    expect(problem).to_be_in_viewport()
    focused = page.evaluate("""(() => { const a = document.activeElement;
        return [a.tagName, a.className, a.id, (a.textContent || '').slice(0, 60)]; })()""")
    assert focused[0] == "P" and "problem" in focused[1], focused
    shot(page, "i15-pl-problem")


def test_dark_mode_follows_the_phone(
    live_server: str, browser: Browser, shot: Callable[..., Path]
) -> None:
    context = browser.new_context(
        viewport=PHONE, color_scheme="dark", is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        game = api_game(page, live_server)
        api_hand(page, live_server, game)
        page.goto(f"{live_server}/games/{game['id']}?lang=en")
        background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        ink = page.evaluate("getComputedStyle(document.body).color")
        assert background == "rgb(20, 19, 15)" and ink == "rgb(236, 232, 223)"
        # The sides' lines differ in colour and dash, never red against green.
        strokes = page.evaluate("""Array.from(document.querySelectorAll('figure.chart g path'))
            .map(p => [getComputedStyle(p).stroke, p.getAttribute('stroke-dasharray')])""")
        assert len(strokes) == 2 and strokes[0] != strokes[1]
        assert strokes[0][1] is None and strokes[1][1]
        assert (
            page.evaluate("getComputedStyle(document.querySelector('.qr')).backgroundColor")
            == "rgb(255, 255, 255)"
        )
        shot(page, "i15-en-dark", full_page=True)
    finally:
        context.close()


def test_export_and_import_round_trip(
    live_server: str,
    page: Page,
    browser: Browser,
    shot: Callable[..., Path],
    tmp_path: Path,
    scroll_width: Callable[[Page], int],
) -> None:
    game = api_game(page, live_server)
    api_hand(page, live_server, game)
    page.goto(f"{live_server}/games/{game['id']}?lang=pl")
    pdf = page.locator(".tools .buttons a").first
    expect(pdf).to_have_attribute("target", "_blank")  # PDFs open in a new tab
    expect(page.locator("button.share").last).to_be_visible()  # share or copy the PDF link
    with page.expect_download() as download:
        page.get_by_role("link", name="Partia jako plik (JSON)").click()
    path = tmp_path / "backup.json"
    download.value.save_as(path)
    with page.expect_download() as sheet:
        page.get_by_role("link", name="Rozdania do arkusza (CSV)").click()
    assert sheet.value.suggested_filename.endswith(".csv")
    # Another phone imports the file from its start page.
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        phone = context.new_page()
        phone.goto(f"{live_server}/?lang=de")
        assert scroll_width(phone) <= PHONE["width"]  # the file field fits the phone
        phone.set_input_files("#backup", str(path))
        shot(phone, "i15-de-import")
        phone.get_by_role("button", name="Importieren", exact=True).click()
        phone.wait_for_url(f"{live_server}/")
        recent = phone.locator(".recent li").first
        expect(recent).to_contain_text("Anna & Ben")
        expect(recent).to_contain_text("515")
        recent.locator("a").first.click()
        expect(phone.locator(".board .total").first).to_have_text("515")
        assert game["id"] not in phone.url  # a game of its own, with its own key
    finally:
        context.close()
