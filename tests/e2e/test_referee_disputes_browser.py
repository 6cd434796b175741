"""The table disputes in a real browser on a 390×844 phone, in German and Polish: from a game's
page, "Ask the referee" (1), the dispute's jump link (2), what happened (3) gives the ruling
with its rule quoted; no sideways scrolling, thumb-sized targets. Screenshots go to
/tmp/shots/ (seed 000:125, seed 000:134, seed 003:114, seed 001:65)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import follow, small_targets

Shot = Callable[..., Path]
Width = Callable[[Page], int]

# lang, ruleset, sides, dispute, the situation's button, a phrase of the ruling
FLOWS = [
    ("de", "german", 4, "partner-permission", "Mein Partner sagte Nein", "nicht ausmachen"),
    ("pl", "polish", 4, "end-of-stock", "Stos kart zakrytych jest pusty", "kończy się"),
    ("de", "classic", 4, "end-of-stock", "Die letzte Karte war eine rote Drei", "sofort"),
    ("pl", "polish", 2, "red-three-from-pile", "Zapytaj sędziego", "nie dobiera się"),
    ("pl", "german", 4, "black-three-block", "Leży na wierzchu", "tylko dla następnego"),
    ("de", "classic", 2, "two-player-draw", "Die letzten zwei waren rote Dreien", "sofort"),
]


def _new_game(page: Page, base: str, ruleset: str, players: int) -> str:
    names = ["Anna", "Ben", "Cem", "Dora"][:players]
    sides = (
        [{"name": n, "players": [n]} for n in names]
        if players == 2
        else [{"name": "Wir", "players": names[:2]}, {"name": "Ihr", "players": names[2:]}]
    )
    response = page.request.post(
        f"{base}/api/v1/games", data={"ruleset": ruleset, "players": players, "sides": sides}
    )
    assert response.status == 201, response.text()
    return str(response.json()["id"])


@pytest.mark.parametrize(("lang", "ruleset", "players", "kind", "button", "phrase"), FLOWS)
def test_a_dispute_in_three_taps(
    page: Page,
    live_server: str,
    shot: Shot,
    scroll_width: Width,
    lang: str,
    ruleset: str,
    players: int,
    kind: str,
    button: str,
    phrase: str,
) -> None:
    game = _new_game(page, live_server, ruleset, players)
    page.goto(f"{live_server}/games/{game}?lang={lang}")
    follow(page, page.locator("a.ask-referee").first)  # tap 1
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator(f'nav.jump a[href="#q-{kind}"]').tap()  # tap 2
    section = page.locator(f"#q-{kind}")
    expect(section).to_be_in_viewport()
    section.get_by_role("button", name=button).tap()  # tap 3
    verdict = page.locator(f"#answer-{kind} .verdict")
    expect(verdict).to_be_visible()
    expect(verdict).to_contain_text(phrase)
    expect(verdict.locator(".rule-quote").first).to_be_visible()
    assert scroll_width(page) <= 390
    assert small_targets(page, f"#q-{kind} .case-button") == []
    verdict.evaluate("e => e.scrollIntoView({block: 'center'})")
    shot(page, f"dispute-{lang}-{ruleset}-{kind}")


def test_three_is_fifty_deal_from_its_referee(
    page: Page, live_server: str, shot: Shot, scroll_width: Width
) -> None:
    """From 3 ist 50's "What may I play?", the deal questions are one link away (seed 001:65)."""
    page.goto(f"{live_server}/fifty/referee?lang=de")
    follow(page, page.locator("a[href$='#q-three-is-fifty-deal']"))
    section = page.locator("#q-three-is-fifty-deal")
    section.get_by_role("button", name="Wird die Mitte während der Runde aufgefüllt?").tap()
    verdict = page.locator("#answer-three-is-fifty-deal .verdict.no")
    expect(verdict).to_contain_text("erst beim nächsten Geben")
    assert scroll_width(page) <= 390
    verdict.evaluate("e => e.scrollIntoView({block: 'center'})")
    shot(page, "dispute-de-three-is-fifty-deal")


def test_cutthroat_going_out_first_makes_the_lone_player(page: Page, live_server: str) -> None:
    """seed 002:139: in a three-player Classic hand where nobody took the pile, tapping who
    went out makes that player the lone one, the form rebuilt at once."""
    created = page.request.post(
        f"{live_server}/api/v1/games",
        data={
            "ruleset": "classic",
            "players": 3,
            "sides": [{"name": n, "players": [n]} for n in ("Ala", "Bo", "Cy")],
        },
    )
    game = created.json()["id"]
    page.goto(f"{live_server}/games/{game}/hands/new?lang=de")
    page.locator("fieldset.lone label.chip", has_text="Jeder für sich").click()
    expect(page.locator("fieldset.lone input[value='all']")).to_be_checked()
    # The form comes back rebuilt for three players alone, with the hint.
    expect(page.locator("fieldset.lone")).to_contain_text("wer ausgemacht hat")
    page.locator("fieldset.out label.chip", has_text="Bo").click()
    expect(page.locator("fieldset.lone input[value='1']")).to_be_checked()
    expect(page.locator("fieldset.lone")).to_contain_text("also spielt Bo allein")
    expect(page.locator("fieldset.out input[value='0']")).to_be_checked()
