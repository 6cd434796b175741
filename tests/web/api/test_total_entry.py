"""A side given as its total only (docs/api.md §5 "Hands"): the hand's score as the table
counted it, checked as far as a total can be, stored and summed like any other entry."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.store.test_store import CUTTHROAT_SIDES, GERMAN_SIDES

SCORE = "/api/v1/score"
GAMES = "/api/v1/games"


def score(client: FlaskClient, teams: list[Any], **extra: Any) -> Any:
    body = {"ruleset": "german", "players": 4, "teams": teams, **extra}
    return client.post(SCORE, json=body)


def codes(response: Any) -> list[str]:
    return [p["code"] for p in response.get_json()["problems"]]


def test_totals_score_as_given(client: FlaskClient) -> None:
    response = score(client, [{"total": 1230, "went_out": True}, {"total": -415}])
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert [t["score"] for t in answer["teams"]] == [1230, -415]
    assert [t["items"] for t in answer["teams"]] == [{"total": 1230}, {"total": -415}]
    assert answer["warnings"] == []


def test_a_total_and_a_side_in_detail_mix(client: FlaskClient) -> None:
    quick = {"quick": {"mixed_canastas": 1, "meld_points": 155, "hand_points": 40}}
    response = score(client, [{"total": 690, "went_out": True}, quick])
    assert response.status_code == 200
    assert [t["score"] for t in response.get_json()["teams"]] == [690, 415]


def test_total_not_a_multiple_of_5(client: FlaskClient) -> None:
    # docs/rulebook.md §1: every card value and bonus is a multiple of 5, so every score is.
    response = score(client, [{"total": 1233, "went_out": True}, {"total": 415}])
    assert response.status_code == 422
    assert codes(response) == ["total.not_multiple_of_5"]
    assert response.get_json()["problems"][0]["where"] == "teams[0].total"


def test_two_sides_going_out_with_totals(client: FlaskClient) -> None:
    response = score(client, [{"total": 900, "went_out": True}, {"total": 700, "went_out": True}])
    assert response.status_code == 422
    assert "going_out.two_sides" in codes(response)


def test_total_below_what_going_out_guarantees_is_a_warning(client: FlaskClient) -> None:
    # docs/rulebook.md §2/§4 (german): going out needs a canasta (at least 300) and brings 100.
    response = score(client, [{"total": 300, "went_out": True}, {"total": 415}])
    assert response.status_code == 200
    warnings = response.get_json()["warnings"]
    assert [w["code"] for w in warnings] == ["total.below_going_out"]
    response = score(client, [{"total": 400, "went_out": True}, {"total": 415}])
    assert response.get_json()["warnings"] == []


def test_a_total_with_cards_is_refused_naming_the_key(client: FlaskClient) -> None:
    response = score(client, [{"total": 400, "red_threes": 1}, {"total": 415}])
    assert response.status_code == 400  # a request that cannot be read as one entry
    assert codes(response) == ["request.total_and_detail"]
    assert response.get_json()["problems"][0]["where"] == "teams[0].red_threes"
    for bad in ("1230", 12.5, None, True, 10**9):
        response = score(client, [{"total": bad}, {"total": 415}])
        assert response.status_code in (400, 422), bad


def test_adjustments_add_to_a_total(client: FlaskClient) -> None:
    side = {"total": 500, "adjustments": [{"points": -100, "note": "table talk"}]}
    response = score(client, [side, {"total": 415}])
    assert response.status_code == 200
    assert response.get_json()["teams"][0]["items"] == {"total": 500, "adjustments": -100}
    assert response.get_json()["teams"][0]["score"] == 400


def test_a_stored_game_takes_totals(client: FlaskClient) -> None:
    body = {"ruleset": "german", "players": 4, "sides": GERMAN_SIDES, "options": {}}
    game = client.post(GAMES, json=body).get_json()
    teams = [{"total": 1230, "went_out": True, "concealed": False}, {"total": 415}]
    response = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": teams})
    assert response.status_code == 201, response.get_json()
    sheet = response.get_json()
    assert [s["total"] for s in sheet["sides"]] == [1230, 415]
    assert sheet["hands"][0]["sides"][0]["items"] == {"total": 1230}
    bad = [{"total": 1231, "went_out": True}, {"total": 415}]
    response = client.put(f"{GAMES}/{game['id']}/hands/1", json={"version": 2, "teams": bad})
    assert response.status_code == 422 and codes(response) == ["total.not_multiple_of_5"]


def test_cutthroat_partners_both_score_a_total(client: FlaskClient) -> None:
    body = {"ruleset": "classic", "players": 3, "sides": CUTTHROAT_SIDES, "options": {}}
    game = client.post(GAMES, json=body).get_json()
    teams = [{"total": 600, "went_out": True}, {"total": 250}]
    hand = {"version": 1, "teams": teams, "lone_player": 0}
    response = client.post(f"{GAMES}/{game['id']}/hands", json=hand)
    assert response.status_code == 201, response.get_json()
    assert [s["total"] for s in response.get_json()["sides"]] == [600, 250, 250]


def test_a_game_of_totals_prints_exports_and_counts(client: FlaskClient) -> None:
    """The score sheet, the CSV, the backup and the statistics take a hand of totals: the
    sheet prints its score (its items are not known), the statistics count what is known."""
    body = {"ruleset": "german", "players": 4, "sides": GERMAN_SIDES, "options": {}}
    game = client.post(GAMES, json=body).get_json()
    teams = [{"total": 1230, "went_out": True}, {"total": -415}]
    sheet = client.post(f"{GAMES}/{game['id']}/hands", json={"version": 1, "teams": teams})
    assert sheet.status_code == 201
    pdf = client.get(f"/games/{game['id']}/sheet.pdf?lang=de")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    csv = client.get(f"/games/{game['id']}/hands.csv")
    assert csv.status_code == 200 and "1230" in csv.get_data(as_text=True)
    backup = client.get(f"/games/{game['id']}/export.json")
    assert backup.status_code == 200 and '"total": 1230' in backup.get_data(as_text=True)
    page = client.get(f"/games/{game['id']}?lang=en").text
    assert "Canastas and red threes: from 0 of 1 hand (the others were entered as totals)." in page
