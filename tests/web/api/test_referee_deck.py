"""The deck in every referee question: more of a rank than the decks hold, counted over all the
cards the question shows, is refused with 422 ``card.too_many``, as scoring refuses it (the
cases in tests/data/referee_deck_cases.json, each with its seed line). Over HTTP, through the
engine's own entry points (what the phone's engine runs), and on the referee page."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.edge import stateless as edge_stateless
from scorekeeper.rules.turns import TurnOptions
from tests.rules.casefiles import answered, ids, load

CASES = load("referee_deck_cases.json")

ENGINE = {
    "meld": edge_stateless.referee_meld,
    "initial-meld": edge_stateless.referee_initial_meld,
    "discard-pile": edge_stateless.referee_discard_pile,
    "go-out": edge_stateless.referee_go_out,
    "options": edge_stateless.referee_options,
    "three-is-fifty": edge_stateless.referee_three_is_fifty,
}


def refused(problems: list[dict[str, Any]]) -> list[list[Any]]:
    return [
        [p["params"]["rank"], p["params"]["count"], p["params"]["maximum"]]
        for p in problems
        if p["code"] == "card.too_many"
    ]


def test_every_referee_question_has_a_case() -> None:
    assert {case["endpoint"] for case in CASES} == set(ENGINE)


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_over_http(client: FlaskClient, case: dict[str, Any]) -> None:
    answer = client.post(f"/api/v1/referee/{case['endpoint']}", json=case["request"])
    body = answer.get_json()
    assert answer.status_code == case["status"], body
    if case["status"] == 422:
        assert refused(body["problems"]) == case["too_many"]
        assert all(p["code"] == "card.too_many" for p in body["problems"])
        assert "the decks hold only" in body["problems"][0]["message"]
    else:
        assert "problems" not in body or refused(body["problems"]) == []


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_in_the_engine(case: dict[str, Any]) -> None:
    answer = ENGINE[case["endpoint"]](case["request"])
    if isinstance(answer, TurnOptions):  # "what may I do": its moves (a 200)
        assert case["status"] == 200 and answer.moves
        return
    status, body = answered(answer, case["endpoint"])
    assert status == case["status"]
    if status == 422:
        assert refused(body["problems"]) == case["too_many"]


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "but the decks hold only"), ("de", "es gibt aber nur")]
)
@pytest.mark.parametrize(
    ("question", "data"),
    [
        ("meld", {"ruleset": "german", "players": "4", "cards": "A " * 9}),
        ("options", {"ruleset": "german", "players": "4", "hand": "X X X X X K K"}),
    ],
)
def test_the_referee_page_says_so(
    client: FlaskClient, lang: str, words: str, question: str, data: dict[str, str]
) -> None:
    page = client.post(
        f"/referee/{question}?lang={lang}", data=data, headers={"HX-Request": "true"}
    )
    assert page.status_code == 200
    shown = " ".join(page.text.split())
    assert words in shown and "moves to consider" not in shown and "Züge" not in shown


def test_scoring_and_the_referee_agree_on_the_limit(client: FlaskClient) -> None:
    """Nine aces: scoring a hand that shows them and asking about a meld of them are both
    refused, with the same problem."""
    hand = {
        "ruleset": "german",
        "players": 4,
        "teams": [
            {"melds": [["A"] * 9], "hands": [[], []], "went_out": False},
            {"melds": [["K"] * 7], "hands": [[], []], "went_out": True},
        ],
    }
    scored = client.post("/api/v1/score", json=hand)
    asked = client.post("/api/v1/referee/meld", json={"ruleset": "german", "cards": ["A"] * 9})
    assert scored.status_code == asked.status_code == 422
    assert refused(scored.get_json()["problems"]) == refused(asked.get_json()["problems"])
