"""A hand entered by its sides, in a real browser, as a table uses it (docs/parts.md): three
phones at 390x844, side A's and side B's entering their parts at the same moment on their own
pages, a third phone watching the view. The hand is saved once, with the score the rules give
(classic: a natural canasta 500, a mixed one 300, going out 100, the rulebook's classic page),
and the viewer shows it without a reload. In German for a 4-player game, in Polish for a
6-player game of three sides, and at a tournament table. Screenshots in /tmp/shots."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.helpers import PHONE, small_targets, wait_ready

Shot = Callable[..., Path]


@pytest.fixture
def phones(browser: Browser) -> Iterator[Callable[[], Page]]:
    """New phones (each its own context: no shared cookies), each failing the test on a
    JavaScript error."""
    made: list[tuple[BrowserContext, list[str]]] = []

    def phone() -> Page:
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
        )
        context.set_default_timeout(15000)
        errors: list[str] = []
        made.append((context, errors))
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield phone
    for context, errors in made:
        context.close()
        assert errors == [], f"JavaScript errors: {errors}"


def api(page: Page, method: str, url: str, body: Any = None) -> Any:
    answer = page.request.fetch(url, method=method, data=body)
    assert answer.ok, answer.text()
    return answer.json()


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    wait_ready(page)


def fill_quick(page: Page, side: int, counts: dict[str, str], out: bool) -> None:
    form = page.locator("#hand-form")
    form.locator(f'.seg input[name="t{side}-mode"][value="quick"]').check(force=True)
    for name, value in counts.items():
        form.locator(f'input[name="t{side}-{name}"]').fill(value)
    if out:
        form.locator('input[name="out"]').check()


def enter_at_once(a: Page, b: Page) -> None:
    """Both sides tap Save at the very same moment: both phones are given one instant (the
    browser's clock, which every phone of the test shares) and each taps Save then."""
    at = a.evaluate("Date.now()") + 500
    for phone in (a, b):
        phone.evaluate(
            """at => setTimeout(
                () => document.querySelector('#hand-form button[value="save"]').click(),
                at - Date.now())""",
            at,
        )


def saved_hands(page: Page, base: str, game: dict[str, Any]) -> list[Any]:
    """The game's saved hands, asked until there is one (at most 20 s, a loaded machine)."""
    for _ in range(80):
        sheet = api(page, "GET", f"{base}/api/v1/games/{game['id']}")
        if sheet["hands"]:
            return sheet["hands"]  # type: ignore[no-any-return]
        page.wait_for_timeout(250)
    parts = api(page, "GET", f"{base}/api/v1/games/{game['view_id']}/parts")
    raise AssertionError(f"the hand was not saved: version {sheet['version']}, parts {parts}")


def play(
    phones: Callable[[], Page],
    shot: Shot,
    scroll_width: Callable[[Page], int],
    base: str,
    game: dict[str, Any],
    lang: str,
    name: str,
    expected: list[int],
    third: dict[str, Any] | None = None,
    canastas: str = "1",
) -> None:
    a, b, viewer = phones(), phones(), phones()
    keys = game["side_ids"]
    open_page(a, f"{base}/games/{keys[0]}?lang={lang}")
    open_page(b, f"{base}/games/{keys[1]}?lang={lang}")
    open_page(viewer, f"{base}/view/{game['view_id']}?lang={lang}")
    if third is not None:  # the third side was in already, from its own phone
        api(a, "PUT", f"{base}/api/v1/games/{keys[2]}/parts/2", {"part": third})
    counts = {"natural_canastas": canastas, "meld_points": "200", "hand_points": "0"}
    fill_quick(a, 0, counts, True)
    fill_quick(b, 1, {"mixed_canastas": "1", "meld_points": "150", "hand_points": "40"}, False)
    for phone, who in ((a, "a"), (b, "b")):
        assert scroll_width(phone) <= PHONE["width"], who
        assert small_targets(phone) == [], who  # thumb-sized, as the hand form
        shot(phone, f"parts-{name}-{who}-typed", full_page=True)
    viewer.evaluate("window.notReloaded = true")
    enter_at_once(a, b)
    hands = saved_hands(viewer, base, game)
    saved_at = time.monotonic()
    assert len(hands) == 1
    # the viewer shows the saved hand by itself (its event stream; no reload). The goal is 2 s
    # (benchmarks/bench_watchers.py measures it); a loaded test machine is given more.
    total = f"{expected[0]:,}".replace(",", "." if lang == "de" else "\u00a0")
    expect(viewer.locator(".board .total").first).to_have_text(total, timeout=20000)
    shown_after = time.monotonic() - saved_at
    assert viewer.evaluate("window.notReloaded") is True  # the same page: no reload
    print(f"{name}: the viewer showed the saved hand {shown_after:.2f} s after it was saved")
    for phone in (a, b):
        phone.wait_for_load_state()
        wait_ready(phone)
    sheet = api(viewer, "GET", f"{base}/api/v1/games/{game['id']}")
    assert len(sheet["hands"]) == 1  # saved once
    assert [s["total"] for s in sheet["sides"]] == expected
    parts = api(viewer, "GET", f"{base}/api/v1/games/{game['view_id']}/parts")
    assert parts["hand"] == 2 and all(p["part"] is None for p in parts["parts"])
    # each side's phone turns to the form of the next hand by itself (the part form asks
    # whether its hand was saved meanwhile), with the saved hand on the board
    for phone in (a, b):
        expect(phone.locator("#hand-form h1")).to_contain_text("2", timeout=20000)
        wait_ready(phone)
        expect(phone.locator(".history, #live").first).to_contain_text(
            f"{expected[0]:,}".replace(",", "." if lang == "de" else "\u00a0")
        )
    for phone, who in ((a, "a"), (b, "b"), (viewer, "viewer")):
        assert scroll_width(phone) <= PHONE["width"], who
        shot(phone, f"parts-{name}-{who}-saved", full_page=True)


def new_game(page: Page, base: str, players: int, sides: list[dict[str, Any]]) -> Any:
    return api(
        page,
        "POST",
        f"{base}/api/v1/games",
        {"ruleset": "classic", "players": players, "sides": sides},
    )


def test_two_sides_at_once_in_german(
    phones: Callable[[], Page], shot: Shot, scroll_width: Callable[[Page], int], live_server: str
) -> None:
    setup = phones()
    sides = [
        {"name": "Wir", "players": ["Anna", "Ben"]},
        {"name": "Ihr", "players": ["Cleo", "Dan"]},
    ]
    game = new_game(setup, live_server, 4, sides)
    # A: 200 melded + 500 natural canasta + 100 out; B: 150 + 300 mixed - 40 in hand
    play(phones, shot, scroll_width, live_server, game, "de", "de", [800, 410])
    # the scorer's page: the share panel gives each side its link and QR code
    open_page(setup, f"{live_server}/games/{game['id']}?lang=de")
    setup.get_by_text("Jede Partei ihren Teil eintragen lassen").click()
    for key in game["side_ids"]:
        expect(setup.locator(f'.side-link a[href$="/games/{key}"]')).to_be_visible()
    assert setup.locator(".side-link svg.qr").count() == 2
    assert scroll_width(setup) <= PHONE["width"]
    setup.locator(".side-links").scroll_into_view_if_needed()
    shot(setup, "parts-de-share-panel")


def test_three_sides_of_six_in_polish(
    phones: Callable[[], Page], shot: Shot, scroll_width: Callable[[Page], int], live_server: str
) -> None:
    setup = phones()
    sides = [
        {"name": "Ola i Jan", "players": ["Ola", "Jan"]},
        {"name": "Ewa i Piotr", "players": ["Ewa", "Piotr"]},
        {"name": "Zosia i Marek", "players": ["Zosia", "Marek"]},
    ]
    game = new_game(setup, live_server, 6, sides)
    assert len(game["side_ids"]) == 3
    third = {"quick": {"meld_points": 90, "hand_points": 25}}
    # six players go out with two canastas (the rulebook's classic page): A 200 + 2 × 500 + 100
    play(phones, shot, scroll_width, live_server, game, "pl", "pl6", [1300, 410, 65], third, "2")


def test_at_a_tournament_table(
    phones: Callable[[], Page], shot: Shot, scroll_width: Callable[[Page], int], live_server: str
) -> None:
    setup = phones()
    tournament = api(
        setup,
        "POST",
        f"{live_server}/api/v1/tournaments",
        {
            "name": "Vereinsabend",
            "ruleset": "classic",
            "players": 4,
            "format": "pairs",
            "scoring": "points",
            "round_end": {"hands": 2},
            "participants": [["Anna", "Ben"], ["Cleo", "Dan"]],
        },
    )
    round_ = api(setup, "POST", f"{live_server}/api/v1/tournaments/{tournament['id']}/rounds", {})
    table = round_["tables"][0]
    game = api(setup, "GET", f"{live_server}/api/v1/games/{table['game_id']}")
    play(phones, shot, scroll_width, live_server, game, "de", "tournament", [800, 410])


def test_a_part_saved_offline_waits_on_the_phone_and_is_stored_once(
    phones: Callable[[], Page], shot: Shot, live_server: str
) -> None:
    setup = phones()
    sides = [
        {"name": "Wir", "players": ["Anna", "Ben"]},
        {"name": "Ihr", "players": ["Cleo", "Dan"]},
    ]
    game = new_game(setup, live_server, 4, sides)
    a = phones()
    url = f"{live_server}/games/{game['side_ids'][0]}?lang=en"
    open_page(a, url)
    a.context.set_offline(True)
    fill_quick(a, 0, {"natural_canastas": "1", "meld_points": "200", "hand_points": "0"}, True)
    a.locator('#hand-form button[value="save"]').click()
    # kept in the phone's outbox (the service worker then shows its outbox page)
    expect(a.locator("#outbox")).to_contain_text("Waiting to be saved (1)")
    item = a.locator("#outbox .outbox-item")
    expect(item).to_contain_text("Hand 1 · our part")
    expect(item).to_contain_text("We went out")
    expect(item).not_to_contain_text("Went out: We went out")
    shot(a, "parts-offline-kept", full_page=True)
    a.context.set_offline(False)  # back online: the outbox sends what waits
    parts_url = f"{live_server}/api/v1/games/{game['view_id']}/parts"
    for _ in range(100):
        shown = api(setup, "GET", parts_url)
        if shown["parts"][0]["part"] is not None:
            break
        a.wait_for_timeout(200)
    assert shown["parts"][0]["part"]["went_out"] is True
    assert shown["version"] == game["version"] + 1  # stored once
    # the page reloads once the outbox has sent it: no entry waits any more
    expect(a.locator("#hand-form .flash-success")).to_be_visible(timeout=20000)
    expect(a.locator("#outbox")).to_have_count(0)
    assert api(setup, "GET", parts_url)["version"] == game["version"] + 1
    shot(a, "parts-offline-sent", full_page=True)


def test_a_part_survives_a_reload_and_the_scorers_form_follows_the_parts(
    phones: Callable[[], Page], shot: Shot, scroll_width: Callable[[Page], int], live_server: str
) -> None:
    """Side A's part saved, then A's phone reloaded: the part is back in the form, to be
    corrected. The scorer's "Enter hand 1" page, open all along, shows A's part come in and
    then the hand saved by B's part, without a reload."""
    setup = phones()
    sides = [
        {"name": "Us", "players": ["Anna", "Ben"]},
        {"name": "Them", "players": ["Cleo", "Dan"]},
    ]
    game = new_game(setup, live_server, 4, sides)
    a, b, scorer = phones(), phones(), phones()
    keys = game["side_ids"]
    open_page(scorer, f"{live_server}/games/{game['id']}/hands/new?lang=en")
    scorer.wait_for_selector("html[data-live='open']", state="attached")
    scorer.evaluate("window.notReloaded = true")
    open_page(a, f"{live_server}/games/{keys[0]}?lang=en")
    expect(a.locator("#hand-form h1")).to_contain_text("Hand 1 · our part")
    fill_quick(a, 0, {"natural_canastas": "1", "meld_points": "200", "hand_points": "0"}, True)
    with a.expect_navigation():
        a.locator('#hand-form button[value="save"]').click()
    a.reload()
    wait_ready(a)
    expect(a.locator("#hand-form .flash-success")).to_be_visible()
    expect(a.locator('#hand-form input[name="t0-meld_points"]')).to_have_value("200")
    expect(a.locator('#hand-form input[name="out"]')).to_be_checked()
    # the scorer's form shows the part come in
    expect(scorer.locator("#entry-live .parts")).to_contain_text("1 of 2 sides is in")
    expect(scorer.locator("#entry-live .parts li.in")).to_contain_text("+800")
    assert scroll_width(scorer) <= PHONE["width"]
    shot(scorer, "parts-scorer-form-part-in", full_page=True)
    open_page(b, f"{live_server}/games/{keys[1]}?lang=en")
    fill_quick(b, 1, {"mixed_canastas": "1", "meld_points": "150", "hand_points": "40"}, False)
    b.locator('#hand-form button[value="save"]').click()
    expect(scorer.locator("#entry-live")).to_contain_text("Hand 1 has been saved meanwhile")
    assert scorer.evaluate("window.notReloaded") is True
    shot(scorer, "parts-scorer-form-hand-saved", full_page=True)
    expect(a.locator("#hand-form h1")).to_contain_text("Hand 2", timeout=10000)
