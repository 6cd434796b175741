"""The rule tables in ``tests/data/*_cases.json`` and how an answer is held against a case.

The same checks serve the rules layer (``tests/rules/test_casefiles.py``) and the HTTP layer
(``tests/web/test_api.py``), so a case file is one source of truth for both.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from scorekeeper.rules.problems import Problem

DATA = Path(__file__).resolve().parent.parent / "data"


def load(name: str) -> list[dict[str, Any]]:
    """The cases of one data file; every case must cite its source."""
    cases: list[dict[str, Any]] = json.loads((DATA / name).read_text("utf-8"))["cases"]
    names = [c["name"] for c in cases]
    duplicates = [n for n, k in Counter(names).items() if k > 1]
    assert not duplicates, f"{name}: duplicate case names {duplicates}"
    for case in cases:
        assert case.get("source"), f"{name}: case {case['name']!r} cites no source"
    return cases


def ids(cases: list[dict[str, Any]]) -> list[str]:
    return [c["name"] for c in cases]


def as_json(body: Any) -> Any:
    """A rules-layer answer as the web layer sends it (problems as dicts with a code)."""

    def default(value: Any) -> Any:
        if isinstance(value, Problem):
            return value.as_dict()
        raise TypeError(type(value).__name__)

    return json.loads(json.dumps(body, default=default))


def answered(answer: Any, question: str = "") -> tuple[int, Any]:
    """An engine answer as the web layer sends it: its status and the JSON body (problems as
    dicts with a code; ``question`` names the referee question a verdict answers)."""
    from scorekeeper.web.api.answers import answer_body, status_of

    return status_of(answer), as_json(answer_body(answer, question))


def codes(problems: list[dict[str, Any]] | None) -> list[str]:
    return [p["code"] for p in problems or []]


def check_codes(case: dict[str, Any], found: list[str], prefix: str = "problems") -> None:
    """``problems`` exact (as a set), ``problems_include`` subset, ``problems_within``/``_any``."""
    exact = case.get(prefix)
    if exact is not None:
        assert sorted(set(found)) == sorted(set(exact)), f"{prefix}: {found}"
    include = case.get(f"{prefix}_include")
    if include is not None:
        assert set(include) <= set(found), f"expected {include} among {found}"
    within = case.get(f"{prefix}_within")
    if within is not None:
        assert found, "expected at least one problem"
        assert set(found) <= set(within), f"{found} not within {within}"
    anyof = case.get(f"{prefix}_any")
    if anyof is not None:
        assert set(anyof) & set(found), f"expected one of {anyof} among {found}"


# ---- meld cases ----------------------------------------------------------------------------


def check_meld_answer(case: dict[str, Any], answer: dict[str, Any]) -> None:
    """``answer``: legal, points, kind, bonus, total and the problem codes of one meld."""
    assert answer["legal"] is case["legal"], answer
    if case["legal"]:
        assert answer["codes"] == [], answer
        for key in ("points", "kind", "bonus", "total"):
            if key in case:
                assert answer[key] == case[key], f"{key}: {answer}"
        assert answer["total"] == answer["points"] + answer["bonus"]
    else:
        check_codes(case, answer["codes"])


def meld_request(case: dict[str, Any]) -> dict[str, Any]:
    return {
        "ruleset": case["ruleset"],
        "cards": case["cards"],
        "going_out": case.get("going_out", False),
    }


def meld_answer_from_body(body: dict[str, Any]) -> dict[str, Any]:
    """The referee/meld answer in the shape of :func:`check_meld_answer`."""
    allowed = body["allowed"]
    return {
        "legal": allowed,
        "points": body.get("points"),
        "kind": body.get("kind"),
        "bonus": body.get("bonus"),
        "total": body.get("total"),
        "codes": [] if allowed else codes(body["reasons"]),
    }


def check_minimum(case: dict[str, Any]) -> None:
    """A minimum case (docs/rulebook.md §3, §6): the ruleset's table and the referee's
    ``initial-meld`` answer both give ``required``; three aces (60) reach it only if it is 60
    or less."""
    from scorekeeper.edge import stateless as edge_stateless
    from scorekeeper.rules.ruleset import get_ruleset

    rs = get_ruleset(case["ruleset"])
    assert rs.initial_meld_minimum(case["cumulative_score"], case["players"]) == case["required"]
    status, body = answered(
        edge_stateless.referee_initial_meld(
            {
                "ruleset": case["ruleset"],
                "players": case["players"],
                "cumulative_score": case["cumulative_score"],
                "melds": [["A", "A", "A"]],
            }
        ),
        "initial-meld",
    )
    assert status == 200, body
    assert body["required"] == case["required"]
    assert body["allowed"] is (case["required"] <= 60)


# ---- score cases ---------------------------------------------------------------------------

ITEM_KEYS = ("melded_cards", "canasta_bonus", "red_threes", "going_out", "in_hand")


def expected_status(case: dict[str, Any], default: int = 200) -> int:
    """``status``: exactly one (docs/api.md §3: 400 unreadable, 422 rule problems, 200)."""
    value = case.get("status", default)
    assert isinstance(value, int) and value in (200, 400, 422), (
        f"case {case['name']!r}: expect exactly one status, not {value!r}"
    )
    return value


def expected_codes(case: dict[str, Any]) -> None:
    """An error case names the problem codes it expects (all of them, or those it must have)."""
    assert case.get("problems") or case.get("problems_include"), (
        f"case {case['name']!r}: an error case names its problem codes"
    )
    assert not {"problems_any", "problems_within"} & set(case), (
        f"case {case['name']!r}: name the expected codes, not a choice of them"
    )


def check_score_answer(case: dict[str, Any], status: int, body: dict[str, Any]) -> None:
    assert status == expected_status(case), (status, body)
    if status != 200:
        expected_codes(case)
        check_codes(case, codes(body.get("problems")))
        return
    assert body.get("problems") in (None, []), body
    teams = body["teams"]
    assert len(teams) == len(case["request"]["teams"])
    for expected, team in zip(case.get("teams", []), teams, strict=False):
        assert set(ITEM_KEYS) <= set(team["items"]), team
        if "score" in expected:
            assert team["score"] == expected["score"], team
        for key, value in expected.get("items", {}).items():
            assert team["items"][key] == value, f"{key}: {team}"
        if "canastas" in expected:
            assert team["canastas"] == expected["canastas"], team
        if "players" in expected:
            assert [p["score"] for p in team["players"]] == expected["players"], team
        if "players" not in expected:
            # The items add up to the score (docs/api.md §3; docs/rulebook.md §6 adds items of its
            # own).
            assert sum(team["items"].values()) == team["score"], team


# ---- referee cases -------------------------------------------------------------------------


def _multiset(melds: list[list[str]]) -> list[list[str]]:
    return sorted(sorted(m) for m in melds)


def check_referee_answer(
    case: dict[str, Any], status: int, body: dict[str, Any], legal: Any = None
) -> None:
    """``legal(cards, ruleset, going_out) -> bool`` checks every returned meld when given."""
    assert status == expected_status(case), (status, body)
    if status != 200:
        expected_codes(case)
        check_codes(case, codes(body.get("problems")))
        return
    assert isinstance(body["reasons"], list) and body["reasons"], body
    assert body["allowed"] is case["allowed"], body
    found = codes(body["reasons"])
    check_codes(case, found, "reasons")
    for key in ("required", "counted", "bonus"):
        if key in case:
            assert body.get(key) == case[key], f"{key}: {body}"
    if case["endpoint"] != "discard-pile":
        return
    melds = body.get("melds")
    if not case["allowed"]:
        assert not melds, "a refused take shows no way to take the pile"
        return
    assert isinstance(melds, list), body
    assert melds, "an allowed take shows at least the meld with the top card"
    if "melds" in case:
        assert _multiset(melds) == _multiset(case["melds"]), melds
    top = case["request"]["top_card"]
    if legal is not None:
        from scorekeeper.rules.cards import parse_cards

        top_rank = parse_cards(top)[0][0].rank
        for meld in melds:
            assert legal(
                meld, case["request"]["ruleset"], case["request"].get("going_out", False)
            ), meld
        best = max(sum(1 for c in m if c == top_rank) for m in melds)
        assert best >= case.get("min_top_rank", 1), melds
