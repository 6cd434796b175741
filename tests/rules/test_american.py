"""Modern American Canasta (docs/rulebook.md §6, seed 002): the case table ``american_cases.json``
run
against the rules layer, with the same checks as the other rule tables.

Every case cites its source; the expected numbers were worked out by hand from it.
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
    check_meld_answer,
    check_minimum,
    check_referee_answer,
    check_score_answer,
    ids,
    load,
    meld_answer_from_body,
)

CASES = load("american_cases.json")

REFEREE = {
    "initial-meld": edge_stateless.referee_initial_meld,
    "discard-pile": edge_stateless.referee_discard_pile,
    "go-out": edge_stateless.referee_go_out,
}


def legal_meld(cards: list[str], ruleset: str, going_out: bool) -> bool:
    parsed, problems = parse_cards(cards)
    return (
        not problems
        and check_meld(parsed, get_ruleset(ruleset), going_out=going_out, initial_meld=True).legal
    )


def test_the_table_is_large_enough() -> None:
    # At least 60 cases, each citing docs/rulebook.md §6 or seed 002.
    assert len(CASES) >= 60
    kinds = {c["table"] for c in CASES}
    assert kinds == {"meld", "score", "minimum", "referee"}


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_american_case(case: dict[str, Any]) -> None:
    kind = case["table"]
    if kind == "meld":
        request = {
            "ruleset": case["ruleset"],
            "cards": case["cards"],
            "going_out": case.get("going_out", False),
            "initial_meld": case.get("initial_meld", False),
        }
        status, body = answered(edge_stateless.referee_meld(request), "meld")
        assert status == 200, body
        check_meld_answer(case, meld_answer_from_body(body))
    elif kind == "score":
        check_score_answer(case, *answered(edge_stateless.score(case["request"])))
    elif kind == "minimum":
        check_minimum(case)
    else:
        status, body = answered(REFEREE[case["endpoint"]](case["request"]), case["endpoint"])
        check_referee_answer(case, status, body, legal_meld)
