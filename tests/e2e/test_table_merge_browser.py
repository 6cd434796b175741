"""Merging two people of a table in a real browser (Debian chromium, phone viewport 390×844):
the page asks first and says what will happen, the merged name follows into the game, and
"Undo the merge" brings the person back; German throughout, nothing wider than the phone."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e import helpers


def test_a_merge_is_asked_first_and_can_be_undone(
    live_server: str,
    page: Page,
    shot: Callable[..., Path],
    scroll_width: Callable[[Page], int],
) -> None:
    page.goto(f"{live_server}/tables?lang=de")
    page.fill("#table-name", "Freitag")
    page.fill("#table-players", "Ania\nBen\nCelina\nDan\nAnna")
    page.locator("form button[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]{22}$"))
    table_url = page.url
    # seats 1-4: Ania, Ben, Celina, Dan; Ania & Celina against Ben & Dan
    page.locator(".table-new-game button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    game_url = page.url
    expect(page.locator("main")).to_contain_text("Ania & Celina")

    page.goto(table_url)
    page.locator("details.table-people summary").click()
    page.select_option("#keep", label="Anna")
    page.select_option("#merge", label="Ania")
    page.locator("form.merge button").click()
    question = page.locator("#merge-confirm")
    expect(question).to_contain_text("Ania in Anna aufgehen lassen?")
    expect(question).to_contain_text("1 Partie von Ania nennt dann Anna")
    assert scroll_width(page) <= 390
    assert helpers.small_targets(page, "#merge-confirm") == []
    shot(page, "merge-01-asked")
    page.goto(game_url)
    expect(page.locator("main")).to_contain_text("Ania & Celina")  # asked, nothing done yet

    page.go_back()
    page.locator("#merge-confirm button").click()
    expect(page.locator("#merged")).to_contain_text("Ania ist in Anna aufgegangen.")
    shot(page, "merge-02-merged")
    page.goto(game_url)
    expect(page.locator("main")).to_contain_text("Anna & Celina")

    page.go_back()
    page.get_by_role("button", name="Zusammenführung rückgängig machen").first.click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]{22}$"))
    page.locator("details.table-people summary").click()
    expect(page.locator(".merge-trail")).to_contain_text("rückgängig gemacht")
    expect(page.locator("#keep option")).to_have_count(5)
    page.goto(game_url)
    expect(page.locator("main")).to_contain_text("Ania & Celina")
