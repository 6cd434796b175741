"""Statistics per side, and the evening across the games of one table."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.games.test_game_pages import (
    DETAIL_US,
    QUICK_THEM,
    create_game,
    hand_form,
    save_hand,
)

# docs/api.md §3's worked example: "Us" melds K K K 2 and a mixed canasta of sevens with one
# red three and goes out (690); "Them" has one mixed canasta (415). The same hand again with
# "Them" melding 20 points less: 395.
THEM_LESS = {**QUICK_THEM, "t1__meld_points": "135"}


def cells(page: str, row: str) -> list[str]:
    found = re.search(rf'<th scope="row">{re.escape(row)}</th>(.*?)</tr>', page, re.S)
    assert found, row
    return [
        " ".join(re.sub(r"<[^>]+>", " ", c).split())
        for c in re.findall(r"<td[^>]*>(.*?)</td>", found[1], re.S)
    ]


def test_statistics_per_side(client: FlaskClient) -> None:
    game_id = create_game(client)
    assert "Statistics" not in client.get(f"/games/{game_id}").text  # nothing to count yet
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **THEM_LESS))
    page = client.get(f"/games/{game_id}").text
    assert '<details class="more card stats">' in page  # closed while the game runs
    assert cells(page, "Canastas") == ["2 mixed", "2 mixed"]
    assert cells(page, "Red threes") == ["2", "0"]
    assert cells(page, "Went out") == ["2", "0"]
    assert cells(page, "of them concealed") == ["0", "0"]
    assert cells(page, "Best hand") == ["+690", "+415"]
    assert cells(page, "Worst hand") == ["+690", "+395"]
    assert cells(page, "Average per hand") == ["+690", "+405"]
    german = client.get(f"/games/{game_id}?lang=de").text
    assert "Statistik" in german and "Durchschnitt pro Spiel" in german


def test_went_out_counts_the_concealed_outs_and_kinds_agree_with_their_count(
    client: FlaskClient,
) -> None:
    """The figure "went out" counts every going out, the concealed ones among them; a count of
    canastas of one kind takes the reader's plural form (Polish has three)."""
    sides = [{"name": "Us", "players": ["A", "B"]}, {"name": "Them", "players": ["C", "D"]}]
    game = client.post("/api/v1/games", json={"ruleset": "german", "players": 4, "sides": sides})
    game_id = game.get_json()["id"]
    us = {"quick": {"natural_canastas": 1, "mixed_canastas": 2, "meld_points": 300}}
    them = {"quick": {"meld_points": 50, "hand_points": 20}}
    for concealed in (True, False, False):
        version = client.get(f"/api/v1/games/{game_id}").get_json()["version"]
        teams = [{**us, "went_out": True, "concealed": concealed}, them]
        answer = client.post(
            f"/api/v1/games/{game_id}/hands", json={"version": version, "teams": teams}
        )
        assert answer.status_code == 201, answer.get_json()
    page = client.get(f"/games/{game_id}").text
    assert cells(page, "Went out") == ["3", "0"]
    assert cells(page, "of them concealed") == ["1", "0"]
    assert cells(page, "Canastas") == ["3 natural 6 mixed", "0"]
    polish = client.get(f"/games/{game_id}?lang=pl").text
    assert cells(polish, "Kanasty") == ["3 czyste 6 mieszanych", "0"]
    assert cells(polish, "w tym ukryte") == ["1", "0"]
    german = client.get(f"/games/{game_id}?lang=de").text
    assert cells(german, "Canastas") == ["3 natürliche 6 gemischte", "0"]
    assert cells(german, "davon verdeckt") == ["1", "0"]


def test_an_evening_of_games_with_the_same_players(client: FlaskClient) -> None:
    first = create_game(client, target="500")
    save_hand(client, first, hand_form(client, first, **DETAIL_US, **QUICK_THEM))  # Us won
    assert "Tonight" not in client.get(f"/games/{first}").text  # one game is no evening
    second = client.post(f"/games/{first}/again").headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/games/{second}").text
    assert "Tonight: 2 games" in page
    save_hand(client, second, hand_form(client, second, **DETAIL_US, **THEM_LESS))
    third = client.post(f"/games/{second}/again").headers["Location"].rsplit("/", 1)[1]
    for key in (first, second, third):  # every game of the chain sums up the same evening
        page = client.get(f"/games/{key}").text
        evening = re.search(r'<section class="card evening".*?</section>', page, re.S)
        assert evening and "Tonight: 3 games" in evening[0]
        rows = re.findall(
            r"<tr[^>]*><th scope=\"row\">(.*?)</th><td class=\"num\">(\d+)</td>"
            r"<td class=\"num\">([^<]+)</td>",
            evening[0],
        )
        assert [(re.sub(r"<[^>]+>|&#9733;", "", n).strip(), w, p) for n, w, p in rows] == [
            ("Us", "2", "1,380"),
            ("Them", "0", "810"),
        ]  # 415 + 395
        assert "Leading tonight: Us" in evening[0]
    view = re.search(r"/view/([A-Za-z0-9_-]+)", client.get(f"/games/{third}").text)
    assert view and "Tonight: 3 games" in client.get(f"/view/{view[1]}").text
    polish = client.get(f"/games/{third}?lang=pl").text
    assert "Dziś wieczorem: 3 partie" in polish and "Dziś prowadzi: Us" in polish
