"""The "What may I do?" table (``tests/data/turn_cases.json``) against the rules layer.

Every case cites its source; its expected numbers were counted from that source by hand (card
values, minimums and bonuses of docs/rulebook.md §1–§4), never taken from the engine.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from scorekeeper.edge import stateless as edge_stateless
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.ruleset import get_ruleset
from scorekeeper.rules.turns import turn_options

from .casefiles import as_json, ids, load

CASES = load("turn_cases.json")
RULESETS = {"german": (4,), "polish": (2, 4), "classic": (2, 4), "american": (4,)}


def answer_of(request: dict[str, Any]) -> dict[str, Any]:
    answer = edge_stateless.referee_options(request)
    assert not hasattr(answer, "problems"), answer
    return as_json({"moves": [m.as_dict() for m in answer.moves], "notes": list(answer.notes)})


def _matches(move: dict[str, Any], expected: dict[str, Any]) -> bool:
    for key, value in expected.items():
        if key == "melds":
            if sorted(sorted(m) for m in move["melds"]) != sorted(sorted(m) for m in value):
                return False
        elif key == "cards":
            if len(move["cards"]) != value:
                return False
        elif key == "variant":
            if move.get("variant", "") != value:
                return False
        elif move.get(key) != value:
            return False
    return True


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_options(case: dict[str, Any]) -> None:
    body = answer_of(case["request"])
    moves = body["moves"]
    for expected in case.get("moves", []):
        assert any(_matches(m, expected) for m in moves), (expected, moves)
    for unwanted in case.get("absent", []):
        assert not any(_matches(m, unwanted) for m in moves), (unwanted, moves)
    if "kinds" in case:
        assert Counter(m["kind"] for m in moves) == Counter(case["kinds"]), moves
    notes = [n["code"] for n in body["notes"]]
    assert set(case.get("notes_include", [])) <= set(notes), notes
    # Every move names its rule, and every meld it shows is legal where it lies (docs/rulebook.md
    # §2).
    rs = get_ruleset(case["request"]["ruleset"])
    for move in moves:
        assert move["rule"] and move["rule_item"].startswith(move["rule"]), move
        for meld in move["melds"]:
            cards = parse_cards(meld)[0]
            assert check_meld(
                cards,
                rs,
                going_out=move["kind"] in ("go_out", "take_pile"),
                # docs/rulebook.md §6: American aces may be mixed in the initial meld.
                initial_meld=move["kind"] == "initial_meld",
            ).legal
        # Cards are echoed in the notation requests read (threes with a suit).
        assert all(c not in ("3b", "3r", "3") for c in move["cards"]), move


def test_a_dozen_cases_per_ruleset() -> None:
    """The table holds at least a dozen real situations per ruleset and player count asked for
    (german, polish, classic with 2 and with 4 players)."""
    counts = Counter((c["request"]["ruleset"], c["request"]["players"]) for c in CASES)
    assert counts[("german", 4)] >= 12
    assert counts[("polish", 2)] + counts[("polish", 4)] >= 12
    assert counts[("classic", 2)] >= 12
    assert counts[("classic", 4)] >= 12


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_classic_player_count_answers(players: int) -> None:
    """docs/rulebook.md §4: classic is played by 2, 3, 4 and 6; the answer follows the canastas
    needed
    (2 for 2, 3 and 6 players, 1 for 4)."""
    hand = parse_cards("Q Q Q Q Q Q Q 5")[0]
    answer = turn_options(
        get_ruleset("classic"),
        players,
        hand,
        side_melds=[parse_cards("K K K K K K K")[0]],
        drawn=True,
        player_melded_before=True,
    )
    going_out = [m for m in answer.moves if m.kind == "go_out"]
    assert len(going_out) == 1
    needed = 1 if players == 4 else 2
    assert answer.needed == needed


def test_unreadable_requests_are_refused() -> None:
    for request, code in [
        ({"ruleset": "german"}, "request.missing"),
        ({"ruleset": "german", "hand": "K Z"}, "card.unknown"),
        ({"ruleset": "german", "hand": ["K"] * 41}, "request.too_large"),
        ({"ruleset": "nope", "hand": "K"}, "ruleset.unknown"),
        # a king freezes no pile (docs/rulebook.md §5): once, however many kings
        ({"ruleset": "german", "hand": "K", "frozen_by": ["K", "K"]}, "discard_pile.frozen_by"),
    ]:
        answer = edge_stateless.referee_options(request)
        codes = [p.code for p in getattr(answer, "problems", ())]
        assert code in codes, (request, codes)
        assert codes.count(code) == 1, (request, codes)


def test_an_add_move_lists_the_cards_it_adds() -> None:
    """An ``add`` move never has empty ``cards`` (wild cards alone are listed)."""
    for case in CASES:
        for move in answer_of(case["request"])["moves"]:
            if move["kind"] == "add":
                assert move["cards"], (case["name"], move)
                assert len(move["melds"][0]) > len(move["cards"]), move
