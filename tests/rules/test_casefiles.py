"""The rule tables of ``tests/data`` run against the rules layer (no Flask): one test per file.

Each case cites its source (docs/rulebook.md section or seed file); the expected numbers come from
there, never from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.edge import stateless as edge_stateless
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.ruleset import get_ruleset

from .casefiles import (
    answered,
    as_json,
    check_codes,
    check_meld_answer,
    check_minimum,
    check_referee_answer,
    check_score_answer,
    codes,
    ids,
    load,
)

MELD_CASES = load("meld_cases.json")
SCORE_CASES = load("score_cases.json")
MINIMUM_CASES = load("minimum_cases.json")
REFEREE_CASES = load("referee_cases.json")
NOTATION_CASES = load("card_notation_cases.json")

REFEREE = {
    "meld": edge_stateless.referee_meld,
    "initial-meld": edge_stateless.referee_initial_meld,
    "discard-pile": edge_stateless.referee_discard_pile,
    "go-out": edge_stateless.referee_go_out,
}


def legal_meld(cards: list[str], ruleset: str, going_out: bool) -> bool:
    parsed, problems = parse_cards(cards)
    return not problems and check_meld(parsed, get_ruleset(ruleset), going_out=going_out).legal


@pytest.mark.parametrize("case", MELD_CASES, ids=ids(MELD_CASES))
def test_meld(case: dict[str, Any]) -> None:
    cards, problems = parse_cards(case["cards"])
    assert problems == []
    meld = check_meld(cards, get_ruleset(case["ruleset"]), going_out=case.get("going_out", False))
    check_meld_answer(
        case,
        {
            "legal": meld.legal,
            "points": meld.points,
            "kind": meld.kind,
            "bonus": meld.bonus,
            "total": meld.total,
            "codes": [p.code for p in meld.problems],
        },
    )


@pytest.mark.parametrize("case", SCORE_CASES, ids=ids(SCORE_CASES))
def test_score(case: dict[str, Any]) -> None:
    check_score_answer(case, *answered(edge_stateless.score(case["request"])))


@pytest.mark.parametrize("case", MINIMUM_CASES, ids=ids(MINIMUM_CASES))
def test_initial_meld_minimum(case: dict[str, Any]) -> None:
    check_minimum(case)


@pytest.mark.parametrize("case", REFEREE_CASES, ids=ids(REFEREE_CASES))
def test_referee(case: dict[str, Any]) -> None:
    status, body = answered(REFEREE[case["endpoint"]](case["request"]), case["endpoint"])
    check_referee_answer(case, status, body, legal_meld)


@pytest.mark.parametrize("case", NOTATION_CASES, ids=ids(NOTATION_CASES))
def test_card_notation(case: dict[str, Any]) -> None:
    cards, problems = parse_cards(case["input"])
    if "cards" in case:
        assert [c.rank for c in cards] == case["cards"]
    found = codes(as_json(problems))
    if "problems" in case:
        assert found == case["problems"]
    check_codes({k: v for k, v in case.items() if k != "problems"}, found)
