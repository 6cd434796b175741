"""Entering a hand the quick ways, in a real browser (Debian chromium, 390×844): a side as its
total only, with the taps and keystrokes of one typical hand counted in each of the three ways;
red threes from the card pad; the question before an empty side is saved; the side's running
score in the open pad's header. Screenshots in German and Polish."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.e2e.helpers import tap_cards

SHOTS = Path(os.environ.get("SCOREKEEPER_SHOTS", "/tmp/shots"))

# One typical hand of four (docs/api.md §3's worked example, both sides card by card):
# Us went out with K K K 2 and a mixed canasta of sevens, one red three, Ben holds 5 Q: 690.
# Them: a mixed canasta of eights and 9 9 9; Cleo holds 4 4 and Dan a 6. The test reads the
# scores from the preview and enters the same hand quick and as totals.
US_MELDS = ["K K K 2", "7 7 7 7 7 2 2"]
US_HANDS = ["", "5 Q"]
THEM_MELDS = ["8 8 8 8 8 8 X", "9 9 9"]
THEM_HANDS = ["4 4", "6"]


def api_game(page: Page, server: str, names: tuple[str, str] = ("Us", "Them")) -> str:
    made = page.request.post(
        f"{server}/api/v1/games",
        data={
            "ruleset": "german",
            "players": 4,
            "sides": [
                {"name": names[0], "players": ["Anna", "Ben"]},
                {"name": names[1], "players": ["Cleo", "Dan"]},
            ],
        },
    )
    assert made.status == 201, made.text()
    return str(made.json()["id"])


def api_hand(page: Page, server: str, game_id: str, teams: list[dict[str, Any]]) -> None:
    version = page.request.get(f"{server}/api/v1/games/{game_id}").json()["version"]
    added = page.request.post(
        f"{server}/api/v1/games/{game_id}/hands", data={"version": version, "teams": teams}
    )
    assert added.status == 201, added.text()


class Counter:
    """Counts what a player does: every tap and every key (each digit is a key); ``numbers``
    counts the numbers typed, ``digits`` their digits."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.keys = 0
        self.numbers = 0
        self.digits = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.taps += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)
        self.digits += len(text)
        self.numbers += 1

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    def cards(self, cards: str) -> None:
        tap_cards(self.page, cards)
        self.taps += len(cards.split())

    @property
    def total(self) -> int:
        return self.taps + self.keys

    @property
    def actions(self) -> int:
        """Taps and keys with a typed number counted as one."""
        return self.total - self.digits + self.numbers

    def line(self, mode: str) -> str:
        return (
            f"{mode}: {self.total} taps and keystrokes ({self.taps} taps, {self.keys} keys, "
            f"{self.digits} of them digits of {self.numbers} numbers); "
            f"{self.actions} with a typed number counted once\n"
        )


def summary(page: Page) -> str:
    return page.locator("#hand-summary").inner_text()


def saved(page: Page, game_id: str) -> None:
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))


def enter_card_by_card(c: Counter) -> None:
    page = c.page
    c.tap(page.locator("label.chip", has_text="Us"))
    c.tap(page.locator("#t0-meld-0"))
    for meld in US_MELDS:
        c.cards(meld)
        c.tap(page.locator('#pad [data-pad="next"]'))  # on to the next meld field
    c.tap(page.locator('#pad [data-pad="next"]'))  # the spare meld field stays empty
    c.tap(page.locator('#pad [data-pad="next"]'))  # Anna's hand is empty
    c.cards("5 Q")
    c.tap(page.locator('#pad [data-pad="next"]'))  # to the red threes
    c.cards("3♥")
    c.tap(page.locator('#pad [data-pad="next"]'))  # to Them
    for meld in THEM_MELDS:
        c.cards(meld)
        c.tap(page.locator('#pad [data-pad="next"]'))
    c.tap(page.locator('#pad [data-pad="next"]'))
    c.cards("4 4")
    c.tap(page.locator('#pad [data-pad="next"]'))
    c.cards("6")
    c.tap(page.locator('#pad [data-pad="next"]'))  # to their red threes (none)
    c.tap(page.locator('#pad [data-pad="next"]'))  # the last field: on to "Save"
    expect(page.locator("#pad")).to_be_hidden()
    expect(page.locator('.savebar button[value="save"]')).to_be_focused()


def test_a_typical_hand_in_each_way_and_the_total_mode(
    live_server: str,
    page: Page,
    shot: Callable[..., Path],
    scroll_width: Callable[[Page], int],
) -> None:
    game_id = api_game(page, live_server)
    # Card by card, with the pad (the sides start card by card: the last hand was).
    detail = [
        {"melds": [["K", "K", "K", "2"]], "hands": [[], []], "went_out": False},
        {"melds": [["9", "9", "9"]], "hands": [[], []]},
    ]
    api_hand(page, live_server, game_id, detail)
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    c = Counter(page)
    enter_card_by_card(c)
    expect(page.locator("#t0-red-0")).to_have_value("1")
    scores = re.findall(r"[+\u2212]\d[\d,]*", summary(page))
    assert scores[0] == "+690", summary(page)
    us, them = (int(s.replace(",", "").replace("\u2212", "-")) for s in scores)
    kept = [page.locator(f"#sc-t{i}") for i in range(2)]
    # what switching keeps comes with the server's preview (the phone's engine, once ready,
    # draws the numbers first: static/offline.js)
    for side in kept:
        expect(side).to_have_attribute("data-keep-total", re.compile("."))
    points = [
        {k: side.get_attribute(f"data-keep-{k}") or "" for k in ("meld-points", "hand-points")}
        for side in kept
    ]
    c.tap(page.locator('.savebar button[value="save"]'))
    saved(page, game_id)

    # Quick: the same hand, as players count it at the table.
    quick = [{"quick": {"melded": True}, "red_threes": 0}, {"quick": {"melded": True}}]
    api_hand(page, live_server, game_id, quick)
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    q = Counter(page)
    q.tap(page.locator("label.chip", has_text="Us"))
    for field, value in (
        ("input[name=t0-mixed_canastas]", "1"),
        ("#t0-meld_points", points[0]["meld-points"]),
        ("#t0-hand_points", points[0]["hand-points"]),
        ("#t0-red-0", "1"),
        ("input[name=t1-mixed_canastas]", "1"),
        ("#t1-meld_points", points[1]["meld-points"]),
        ("#t1-hand_points", points[1]["hand-points"]),
    ):
        q.tap(page.locator(field))
        q.type(value)
    expect(page.locator("#hand-summary")).to_contain_text(f"+{us}")
    expect(page.locator("#hand-summary")).to_contain_text(f"+{them}")
    q.tap(page.locator('.savebar button[value="save"]'))
    saved(page, game_id)

    # Hand total: the sides were last entered as totals, so the form opens that way.
    api_hand(page, live_server, game_id, [{"total": 0}, {"total": 0}])
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    expect(page.locator("input[name=t0-mode][value=total]")).to_be_checked()
    expect(page.locator("#t0-total")).to_be_visible()
    expect(page.locator("#t0-meld-0")).to_be_hidden()
    expect(page.locator("#t0-red-0")).to_be_hidden()
    t = Counter(page)
    t.tap(page.locator("label.chip", has_text="Us"))
    t.tap(page.locator("#t0-total"))
    t.type(str(us))
    t.press("Enter")  # on to Them's total
    expect(page.locator("#t1-total")).to_be_focused()
    t.type(str(them))
    t.press("Enter")  # the last field: on to "Save"
    expect(page.locator('.savebar button[value="save"]')).to_be_focused()
    expect(page.locator("#hand-summary")).to_contain_text(f"+{us}")
    shot(page, "entry-01-total-mode-en")
    assert scroll_width(page) <= 390
    t.press("Enter")
    saved(page, game_id)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "entry-taps.txt").write_text(
        c.line("card by card") + q.line("quick") + t.line("hand total")
    )
    # The hand total is the quickest way by far: the went-out chip, one field, two numbers,
    # Enter to the other side and Enter to save.
    assert t.total < q.total < c.total
    assert t.actions <= 8


def test_red_threes_from_the_pad_and_its_header_keeps_the_score(
    live_server: str, page: Page, shot: Callable[..., Path]
) -> None:
    game_id = api_game(page, live_server, ("Wir", "Ihr"))
    api_hand(page, live_server, game_id, [{"melds": [], "hands": []}] * 2)
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=de")
    page.locator("label.chip", has_text="Wir").click()
    page.locator("#t0-meld-0").click()
    tap_cards(page, "K K K 2")
    # the red-three key counts the side's red threes; the meld keeps its cards
    tap_cards(page, "3♥ 3♥")
    expect(page.locator("#t0-red-0")).to_have_value("2")
    expect(page.locator("#t0-meld-0")).to_have_value("K K K 2")
    expect(page.locator('#pad button[data-rank="3r"] .cnt')).to_have_text("2")
    # typed notation counts too: "777" is three sevens
    page.locator('#pad [data-pad="next"]').click()
    expect(page.locator("#t0-meld-1")).to_be_focused()
    page.locator('#pad [data-pad="kbd"]').click()
    page.keyboard.type("777")
    page.locator('#pad [data-pad="kbd"]').click()
    expect(page.locator('#pad button[data-rank="7"] .cnt')).to_have_text("3")
    expect(page.locator("#pad-target")).to_contain_text("(3)")
    # the open pad never hides the side's running score: its header shows it
    expect(page.locator("#pad-score")).to_contain_text("Wir")
    expect(page.locator("#pad-score")).to_contain_text("+", timeout=4000)
    header = page.locator("#pad-score").bounding_box()
    assert header and header["y"] + header["height"] <= 844
    shown = page.evaluate(
        """() => { const r = document.getElementById('pad-score').getBoundingClientRect();
        const at = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
        return at && at.closest('#pad-score') !== null; }"""
    )
    assert shown
    # the header follows the preview (German rules, docs/rulebook.md §1): K K K 2 (80), 7 7 7 (15),
    # two red threes (200), going out (100)
    expect(page.locator("#pad-score")).to_contain_text("+395")
    shot(page, "entry-02-pad-red-threes-de")
    # "Weiter" walks every field: melds, the hands, the red threes, then the other side
    steps = []
    for _ in range(6):
        page.locator('#pad [data-pad="next"]').click()
        steps.append(page.evaluate("document.activeElement.id"))
    # (the spare meld field, left empty, adds no new one)
    assert steps == ["t0-meld-2", "t0-hand-0", "t0-hand-1", "t0-red-0", "t1-meld-0", "t1-meld-1"]
    # on the red threes, the pad adds and takes back threes
    page.locator("#t0-red-0").click()
    tap_cards(page, "3♥")
    expect(page.locator("#t0-red-0")).to_have_value("3")
    page.locator('#pad [data-pad="undo"]').click()
    expect(page.locator("#t0-red-0")).to_have_value("2")
    expect(page.locator('#pad button[data-rank="K"]')).to_be_disabled()
    # "Weiter" on the last field closes the pad and goes to "Speichern"
    page.locator("#t1-red-0").click()
    page.locator('#pad [data-pad="next"]').click()
    expect(page.locator("#pad")).to_be_hidden()
    expect(page.locator('.savebar button[value="save"]')).to_be_focused()


def test_an_empty_side_asks_before_saving(
    live_server: str, page: Page, shot: Callable[..., Path], scroll_width: Callable[[Page], int]
) -> None:
    for lang, names, ask, anyway in (
        ("de", ("Wir", "Ihr"), "Für Ihr ist nichts eingetragen", "Trotzdem speichern"),
        ("pl", ("My", "Wy"), "Nic nie wpisano dla: Wy", "Zapisz mimo to"),
    ):
        game_id = api_game(page, live_server, names)
        page.goto(f"{live_server}/games/{game_id}/hands/new?lang={lang}")
        page.locator("label.chip", has_text=names[0]).click()
        page.fill("input[name=t0-natural_canastas]", "1")
        page.fill("#t0-meld_points", "150")
        page.locator('.savebar button[value="save"]').click()
        expect(page.locator(".savebar .ask")).to_contain_text(ask)
        assert page.url.endswith("/hands/new?lang=" + lang) or "/hands" in page.url
        assert scroll_width(page) <= 390
        shot(page, f"entry-03-empty-side-{lang}")
        page.get_by_role("button", name=anyway).click()
        saved(page, game_id)
        totals = [x.strip() for x in page.locator(".board .total").all_inner_texts()]
        assert totals == ["750", "0"]


def test_total_mode_in_polish_and_switching_keeps_the_score(
    live_server: str, page: Page, shot: Callable[..., Path], scroll_width: Callable[[Page], int]
) -> None:
    game_id = api_game(page, live_server, ("My", "Wy"))
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=pl")
    page.locator("label.chip", has_text="My").click()
    page.fill("input[name=t0-natural_canastas]", "1")
    page.fill("#t0-meld_points", "150")
    expect(page.locator("#sc-t0")).to_contain_text("+750")
    # to the total: the score so far comes along
    page.locator("#side-t0 .seg label", has_text="Suma").click()
    expect(page.locator("#t0-total")).to_have_value("750")
    page.locator("#side-t1 .seg label", has_text="Suma").click()
    page.locator("#t1-total").click()
    page.keyboard.type("85")
    page.locator("#side-t1 [data-sign]").click()
    expect(page.locator("#t1-total")).to_have_value("-85")
    expect(page.locator("#hand-summary")).to_contain_text("\u221285")
    assert scroll_width(page) <= 390
    shot(page, "entry-04-total-mode-pl", full_page=True)
    page.locator('.savebar button[value="save"]').click()
    saved(page, game_id)
    totals = [x.strip() for x in page.locator(".board .total").all_inner_texts()]
    assert totals == ["750", "\u221285"]


def test_cutthroat_bar_statistics_and_the_screen_kept_on(
    live_server: str, page: Page, shot: Callable[..., Path], scroll_width: Callable[[Page], int]
) -> None:
    made = page.request.post(
        f"{live_server}/api/v1/games",
        data={
            "ruleset": "classic",
            "players": 3,
            "sides": [{"players": ["Alice"]}, {"players": ["Bogusław"]}, {"players": ["Carol"]}],
        },
    )
    assert made.status == 201, made.text()
    game_id = made.json()["id"]
    # Bogusław alone; Alice and Carol together, each with their own red threes (docs/rulebook.md §4)
    teams = [
        {"quick": {"mixed_canastas": 1, "meld_points": 150}, "red_threes": 0},
        {
            "quick": {"natural_canastas": 2, "meld_points": 300},
            "red_threes": [2, 1],
            "went_out": True,
        },
    ]
    version = made.json()["version"]
    added = page.request.post(
        f"{live_server}/api/v1/games/{game_id}/hands",
        data={"version": version, "teams": teams, "lone_player": 1},
    )
    assert added.status == 201, added.text()
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=en")
    page.locator("label.chip", has_text="Bogusław").first.click()
    expect(page.locator("#t1-name")).to_have_text("Alice & Carol")
    page.locator("#side-t1 .seg label", has_text="Quick").click()
    page.fill("input[name=t1-natural_canastas]", "1")
    page.fill("#t1-meld_points", "80")
    page.fill("#t1-red-0", "1")
    # each partner's own score in the bar: 80 + 500 (+ 100 for Alice's red three)
    expect(page.locator("#hand-summary")).to_contain_text("Alice +680")
    expect(page.locator("#hand-summary")).to_contain_text("Carol +580")
    assert "Alice & Carol" not in page.locator("#hand-summary").inner_text()
    shot(page, "entry-05-cutthroat-bar")
    # the game page keeps the screen on where the browser lets it
    page.goto(f"{live_server}/games/{game_id}?lang=pl")
    expect(page.locator("html")).to_have_attribute("data-wake-lock", re.compile("on|off|none"))
    page.locator("details.stats summary").click()
    row = page.locator(".stats-table tr", has_text=re.compile("Czerwone trójki"))
    expect(row.locator("td")).to_have_text(["2", "0", "1"])
    assert scroll_width(page) <= 390
    # the table fits its card: nothing to scroll sideways
    assert page.evaluate(
        "(() => { const w = document.querySelector('.stats .table-wrap');"
        " return w.scrollWidth <= w.clientWidth; })()"
    )
    page.locator("details.stats").scroll_into_view_if_needed()
    shot(page, "entry-06-cutthroat-stats-pl")


def test_house_rules_are_the_rulesets_own_and_folded(
    live_server: str, page: Page, shot: Callable[..., Path], scroll_width: Callable[[Page], int]
) -> None:
    page.goto(f"{live_server}/games/new?ruleset=polish&lang=pl")
    page.locator("details.house > summary").click()
    groups = page.locator("details.opt-group")
    # six groups: penalties and special hands are American only (docs/rulebook.md §6)
    assert groups.count() == 6
    expect(page.locator("[name=opt-special_garbage_value]")).to_have_count(0)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 2600, height  # the panel open, its groups folded
    groups.nth(0).locator("summary").click()  # card values
    expect(page.locator("[name=opt-two_value]")).to_be_visible()
    assert scroll_width(page) <= 390
    page.locator("details.house").scroll_into_view_if_needed()
    shot(page, "entry-07-house-rules-pl")


def test_the_adjustment_note_takes_the_full_width(
    live_server: str, page: Page, shot: Callable[..., Path]
) -> None:
    game_id = api_game(page, live_server, ("Wir", "Ihr"))
    page.goto(f"{live_server}/games/{game_id}/hands/new?lang=de")
    page.locator("#side-t0 details.adjust > summary").click()
    page.fill("#t0-adj-points-0", "-100")
    page.fill("#t0-adj-note-0", "Tischstrafe: Karte gezeigt (Klaus)")
    note = page.locator("#t0-adj-note-0").bounding_box()
    side = page.locator("#side-t0").bounding_box()
    assert note and side and note["width"] > side["width"] * 0.8
    page.locator("#t0-adj-note-0").scroll_into_view_if_needed()
    shot(page, "entry-08-adjustment-note-de")
