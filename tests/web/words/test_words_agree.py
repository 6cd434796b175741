"""Words: counts in the reader's plural forms, ruleset names that agree in form, one
meaning per word on the sheets and in the CSV, and a winner banner every font draws."""

from __future__ import annotations

import csv
import io

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.words.names import canastas_of_kind, ruleset_title
from tests.sheets.helpers import pdf_lines
from tests.web.fifty.test_fifty_pages import entry, save, three_players


@pytest.mark.parametrize(
    "lang, kind, counts",
    [
        # Polish: one, few (2–4, 22–24), many (5–21, 25…), as Babel's pl plural rule.
        ("pl", "natural", {1: "1 czysta", 2: "2 czyste", 5: "5 czystych", 22: "22 czyste"}),
        ("pl", "mixed", {1: "1 mieszana", 3: "3 mieszane", 5: "5 mieszanych", 12: "12 mieszanych"}),
        ("pl", "wild", {1: "1 dzika", 4: "4 dzikie", 7: "7 dzikich"}),
        ("de", "natural", {1: "1 natürlicher", 2: "2 natürliche"}),
        ("de", "mixed", {1: "1 gemischter", 5: "5 gemischte"}),
        ("en", "wild", {1: "1 wild", 2: "2 wild"}),
    ],
)
def test_canastas_of_a_kind_agree_with_their_count(
    app: Flask, lang: str, kind: str, counts: dict[int, str]
) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        assert {n: canastas_of_kind(kind, n) for n in counts} == counts


def test_short_ruleset_names_agree_in_form(app: Flask) -> None:
    # Polish: every short name agrees with "zasady" (plural), as the segmented control shows.
    with app.test_request_context("/?lang=pl"):
        names = [ruleset_title(r, short=True) for r in ("german", "polish", "classic", "american")]
    assert names == ["Niemieckie", "Polskie", "Klasyczne", "Amerykańskie"]
    with app.test_request_context("/?lang=de"):
        names = [ruleset_title(r, short=True) for r in ("german", "polish", "classic", "american")]
    assert names == ["Deutsch", "Polnisch", "Klassisch", "Amerikanisch"]


def _game(client: FlaskClient, players: int) -> str:
    names = ["Ann", "Ben", "Cy", "Di"]
    sides = (
        [{"name": "Us", "players": names[:2]}, {"name": "Them", "players": names[2:]}]
        if players == 4
        else [{"name": n, "players": [n]} for n in names[:3]]
    )
    created = client.post(
        "/api/v1/games", json={"ruleset": "classic", "players": players, "sides": sides}
    )
    game = created.get_json()
    teams = [
        {"quick": {"natural_canastas": 2, "meld_points": 400}, "went_out": True},
        {"quick": {"meld_points": 50, "hand_points": 20}, "red_threes": [0, 0]},
    ]
    if players == 4:
        teams[1]["red_threes"] = 0
    extra = {"lone_player": 0} if players == 3 else {}
    answer = client.post(
        f"/api/v1/games/{game['id']}/hands",
        json={"version": game["version"], "teams": teams, **extra},
    )
    assert answer.status_code == 201, answer.get_json()
    return str(game["id"])


@pytest.mark.parametrize("players", [3, 4])
def test_hand_on_the_sheet_means_cards_in_hand_only(client: FlaskClient, players: int) -> None:
    """The hand's score is "Score" on every sheet; "In hand" (4 players) is the cards left."""
    lines = pdf_lines(client.get(f"/games/{_game(client, players)}/sheet.pdf?lang=en").data)[0]
    assert "Score" in lines and "Hand" not in lines
    assert ("In hand" in lines) == (players == 4)  # the compact layout folds it into "Cards"


def test_csv_names_adjustments_and_corrections_apart(client: FlaskClient) -> None:
    game_id = _game(client, 4)
    for lang, adjustment, notes, corrected in (
        ("en", "Us: Adjustment", "Adjustment notes", "Times corrected"),
        ("de", "Us: Zu-/Abschlag", "Notizen zu Zu-/Abschlägen", "Anzahl Korrekturen"),
        ("pl", "Us: Punkty uzgodnione", "Opisy punktów uzgodnionych", "Liczba poprawek"),
    ):
        text = client.get(f"/games/{game_id}/hands.csv?lang={lang}").text.removeprefix("\ufeff")
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;")
        head = next(csv.reader(io.StringIO(text), dialect))
        assert {adjustment, notes, corrected} <= set(head), head


def test_the_three_is_fifty_winner_banner_needs_no_emoji_font(client: FlaskClient) -> None:
    game_id = three_players(client, stop_after="1")
    data = entry(client, game_id, p0__cards="3 A", p1__cards="K", p2__cards="")
    assert save(client, game_id, data)[0] == 303
    page = client.get(f"/fifty/{game_id}").text
    assert "Won: Cleo with 0 points." in page
    banner = page[page.index('<div class="winner"') :]
    banner = banner[: banner.index("</div>")]
    assert "&#9733;" in banner  # ★, in DejaVu Sans and every common system font
    assert not any(ord(c) > 0xFFFF for c in banner) and "&#127942;" not in banner
