"""3 ist 50 (RULES.md §7, seed 001): points, legal moves and the JSON requests.

Table-driven cases live in ``tests/data/three_is_fifty_*.json``, each citing its source.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import api as rules_api
from scorekeeper.rules import three_is_fifty as t50
from scorekeeper.rules.cards import Card
from scorekeeper.rules.problems import Problem, RulesError

DATA = Path(__file__).resolve().parent.parent / "data"


def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / name).read_text("utf-8"))["cases"]
    for case in cases:
        assert case.get("source"), f"{name}: case {case.get('name')!r} cites no source"
    return cases


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [c["name"] for c in cases]


def _expand(value: Any) -> Any:
    """``{"repeat": card, "times": n}`` in a data file stands for n such cards."""
    if isinstance(value, dict):
        if set(value) == {"repeat", "times"}:
            return [value["repeat"]] * value["times"]
        return {k: _expand(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v) for v in value]
    return value


def _json(body: Any) -> Any:
    """The body as the web layer would send it (problems as dicts)."""
    def default(value: Any) -> Any:
        if isinstance(value, Problem):
            return value.as_dict()
        raise TypeError(type(value).__name__)
    return json.loads(json.dumps(body, default=default))


POINT_CASES = _cases("three_is_fifty_points.json")
MOVE_CASES = _cases("three_is_fifty_moves.json")
REQUEST_CASES = _cases("three_is_fifty_requests.json")


# ---- table-driven --------------------------------------------------------------------------

@pytest.mark.parametrize("case", POINT_CASES, ids=_ids(POINT_CASES))
def test_pile_points(case: dict[str, Any]) -> None:
    assert t50.pile_points(case["cards"], case.get("options")) == case["points"]


@pytest.mark.parametrize("case", MOVE_CASES, ids=_ids(MOVE_CASES))
def test_legal_moves(case: dict[str, Any]) -> None:
    r = case["request"]
    moves = t50.legal_moves(r["middle"], r["discard_top"], r["piles"], r["player"], r["hand"])
    assert [m.as_dict() for m in moves] == case["moves"]


@pytest.mark.parametrize("case", MOVE_CASES, ids=_ids(MOVE_CASES))
def test_referee_request(case: dict[str, Any]) -> None:
    status, body = t50.referee_request(case["request"])
    assert status == 200, body
    assert body["moves"] == case["moves"]
    assert body["allowed"] is True
    assert body["left_neighbour"] == (case["request"]["player"] + 1) % len(
        case["request"]["piles"])
    # The wired API function of CONTRACT.md §3 answers the same.
    assert rules_api.referee_three_is_fifty(case["request"]) == (status, body)


def _state_of(request: dict[str, Any]) -> t50.State:
    n = len(request["piles"])
    hands: list[Any] = [[] for _ in range(n)]
    hands[request["player"]] = request["hand"]
    top = request["discard_top"]
    return t50.State.new(request["middle"], request["piles"], hands, request["player"],
                         [] if top is None else [top])


@pytest.mark.parametrize("case", [c for c in MOVE_CASES if "after" in c],
                         ids=_ids([c for c in MOVE_CASES if "after" in c]))
def test_apply_move(case: dict[str, Any]) -> None:
    state = _state_of(case["request"])
    move = state.legal_moves()[case["apply"]]
    after = t50.apply_move(state, move)
    want = case["after"]
    assert list(after.middle) == want["middle"]
    assert list(after.discard) == want["discard"]
    assert [list(p) for p in after.piles] == want["piles"]
    assert list(after.hands[state.player]) == want["hand"]
    assert after.player == want["player"]
    assert after.card_count() == state.card_count()
    assert after.history == (move,)


@pytest.mark.parametrize("case", REQUEST_CASES, ids=_ids(REQUEST_CASES))
def test_requests(case: dict[str, Any]) -> None:
    request = _expand(case["request"])
    handler = t50.score_request if case["endpoint"] == "score" else t50.referee_request
    status, body = handler(request)
    assert status == case["status"], body
    if "problems" in case:
        got = [(p.code, p.where) for p in body["problems"]]
        for want in case["problems"]:
            assert (want["code"], want["where"]) in got, got
        assert len(got) == len(case["problems"]), got
    if "points" in case:
        assert [p["points"] for p in body["players"]] == case["points"]
        assert body["winners"] == case["winners"]
    if "allowed" in case:
        assert body["allowed"] is case["allowed"]
        assert [r.code for r in body["reasons"]] == case["reasons"]
    _json(body)
    if case["endpoint"] == "score" and isinstance(request, dict):
        # The wired API function of CONTRACT.md §3 routes here for this ruleset.
        assert rules_api.score(request) == (status, body)


# ---- details -------------------------------------------------------------------------------

def test_score_body_shape() -> None:
    status, body = t50.score_request(
        {"ruleset": "three-is-fifty", "piles": [["3", "A", "K", "7"], ["X"]],
         "options": {"joker": 25}})
    assert (status, body) == (200, {
        "players": [{"points": 78, "cards": 4}, {"points": 25, "cards": 1}],
        "options": {"joker": 25}, "winners": [1]})


def test_threes_of_any_notation_are_one_rank() -> None:
    assert t50.read_cards("3 3r 3b 3h 3d 3s 3c 3\u2665 3\u2660") == (["3"] * 9, [])
    assert t50.game_rank(Card("3r")) == t50.game_rank(Card("3b")) == "3"
    assert t50.game_ranks([Card("K"), "3", "b"]) == ["K", "3", "J"]


def test_unknown_tokens_are_reported_as_written() -> None:
    cards, problems = t50.read_cards(["Z3", "K"], "hand")
    assert cards == ["K"]
    assert problems == [Problem("card.unknown", "hand[0]", {"token": "Z3"})]


def test_pure_functions_raise_rules_error_on_bad_input() -> None:
    with pytest.raises(RulesError):
        t50.pile_points(["K", "Z"])
    with pytest.raises(RulesError):
        t50.pile_points(["X"], {"joker": -1})
    with pytest.raises(RulesError):
        t50.pile_points(["X"], {"jokers": 1})
    with pytest.raises(ValueError):
        t50.legal_moves([], None, [[]], 0, ["K"])
    with pytest.raises(ValueError):
        t50.legal_moves([], None, [[], []], 2, ["K"])


def test_apply_move_rejects_an_illegal_move() -> None:
    state = t50.State.new("K", [[], []], [["K", "4"], []])
    with pytest.raises(RulesError) as err:
        t50.apply_move(state, t50.Move("4", "discard", None, ("4",)))
    assert err.value.problems[0].code == "three_is_fifty.illegal_move"


def test_empty_hand_has_no_moves() -> None:
    assert t50.legal_moves(["K"], "K", [["K"], ["K"]], 0, []) == []


def test_six_players_may_use_three_packs() -> None:
    nine_kings = [["K"] * 9, [], [], [], [], []]
    assert t50.score_request({"piles": nine_kings})[0] == 200
    assert t50.score_request({"piles": nine_kings[:5]})[0] == 422


def test_module_is_pure() -> None:
    tree = ast.parse(Path(t50.__file__).read_text("utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"flask", "flask_babel", "babel", "sqlalchemy", "reportlab", "werkzeug"}


# ---- properties ----------------------------------------------------------------------------

DECK: list[str] = [r for r in t50.GAME_RANKS if r != "X" for _ in range(8)] + ["X"] * 4


@st.composite
def states(draw: st.DrawFn, min_hand: int = 1) -> t50.State:
    """A table that can occur in play: cards from one deck, dealt into the zones."""
    n = draw(st.integers(t50.MIN_PLAYERS, t50.MAX_PLAYERS))
    # A few ranks only, sometimes, so that matches are frequent.
    ranks = draw(st.sampled_from([list(t50.GAME_RANKS), ["3", "K", "7"], ["4", "X"]]))
    deck = draw(st.permutations([c for c in DECK if c in ranks]))
    pos = 0

    def take(most: int, least: int = 0) -> list[str]:
        nonlocal pos
        k = draw(st.integers(least, most))
        out = deck[pos:pos + k]
        pos += k
        return out

    player = draw(st.integers(0, n - 1))
    hand = take(4, min_hand)  # first, so that a small deck still fills it
    hands = [hand if i == player else take(4) for i in range(n)]
    middle = take(4)
    discard = take(5)
    piles = [take(10) for _ in range(n)]
    return t50.State.new(middle, piles, hands, player, discard)


def _matches(state: t50.State, rank: str) -> bool:
    tops = {p[-1] for p in state.piles if p}
    return rank in state.middle or rank == state.discard_top or rank in tops


def _all_cards(state: t50.State) -> Counter[str]:
    counts: Counter[str] = Counter(state.middle) + Counter(state.discard)
    for group in (*state.piles, *state.hands):
        counts.update(group)
    return counts


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(states())
def test_moves_are_well_formed(state: t50.State) -> None:
    moves = state.legal_moves()
    assert moves, "a non-empty hand always has a move"
    n = len(state.piles)
    left = (state.player + 1) % n
    matching = [r for r in dict.fromkeys(state.hand) if _matches(state, r)]
    for m in moves:
        assert m.card in state.hand
        assert m.cards[0] == m.card
        assert set(m.cards) == {m.card}
        if m.kind in ("middle", "own_pile"):
            assert m.to_pile == left
        elif m.kind == "any_pile":
            assert m.to_pile is not None and state.piles[m.to_pile][-1] == m.card
            assert m.cards == (m.card,)
        else:
            assert m.kind == "discard" and m.to_pile is None and m.cards == (m.card,)
    kinds = {m.kind for m in moves}
    if matching:
        # Seed 001: discarding only when no hand card matches.
        assert "discard" not in kinds
        assert list(dict.fromkeys(m.card for m in moves)) == matching
    else:
        # Every hand card gets a move: it may be discarded.
        assert kinds == {"discard"}
        assert [m.card for m in moves] == list(dict.fromkeys(state.hand))
    assert len(set(moves)) == len(moves)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(states(), st.data())
def test_moves_conserve_cards(state: t50.State, data: st.DataObject) -> None:
    move = data.draw(st.sampled_from(state.legal_moves()))
    after = t50.apply_move(state, move)
    assert _all_cards(after) == _all_cards(state)
    assert len(after.hands[state.player]) == len(state.hand) - 1
    growth = sum(len(p) for p in after.piles) - sum(len(p) for p in state.piles)
    # Onto piles: nothing (discard), the hand card (own_pile: the run only changes piles),
    # or the hand card plus the middle cards and the discard top taken (middle).
    assert growth == {"discard": 0, "own_pile": 1, "any_pile": 1}.get(move.kind, len(move.cards))
    if move.to_pile is not None:
        assert after.piles[move.to_pile][-len(move.cards):] == move.cards
    assert after.player == (state.player + 1) % len(state.piles)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(states(min_hand=0), st.randoms(use_true_random=False))
def test_random_rounds_play_out(state: t50.State, rnd: Any) -> None:
    total = _all_cards(state)
    turns = 0
    while state.hand:
        state = t50.apply_move(state, rnd.choice(state.legal_moves()))
        assert _all_cards(state) == total
        turns += 1
    assert len(state.history) == turns
    assert state.legal_moves() == []
    assert all(p >= 0 for p in state.points({"joker": 0}))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(states())
def test_referee_request_agrees_with_engine(state: t50.State) -> None:
    request = {"middle": list(state.middle), "discard_top": state.discard_top,
               "piles": [list(p) for p in state.piles], "player": state.player,
               "hand": list(state.hand)}
    status, body = t50.referee_request(json.loads(json.dumps(request)))
    assert status == 200, body
    assert body["moves"] == [m.as_dict() for m in state.legal_moves()]
    assert body["allowed"] is True


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.sampled_from(["3", "K", "4 4 7", "3h", "X", "Z", "", " ", "10", "JOKER"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=30,
)
card_lists = st.lists(st.sampled_from(["3", "K", "7", "A", "X", "2", "3b", "Z"]) | json_values,
                      max_size=6)
junk_requests = st.fixed_dictionaries({}, optional={
    "ruleset": json_values,
    "options": json_values | st.fixed_dictionaries({"joker": json_values}),
    "players": json_values,
    "piles": json_values | st.lists(card_lists | json_values, max_size=8),
    "player": json_values,
    "middle": json_values | card_lists,
    "discard_top": json_values,
    "hand": json_values | card_lists,
})
card_tokens = st.sampled_from(["3", "K", "7", "A", "X", "2", "3b", "kk", "Z", " ", 3, 7, 1])
near_valid = st.fixed_dictionaries({
    "piles": st.lists(st.lists(card_tokens, max_size=10) | st.just("3 3 K"), min_size=1,
                      max_size=7),
    "player": st.integers(-1, 6),
    "hand": st.lists(card_tokens, max_size=5),
}, optional={
    "middle": st.lists(card_tokens, max_size=5),
    "discard_top": card_tokens | st.none(),
    "options": st.fixed_dictionaries({"joker": st.integers(-5, 105)}),
})
anything = (json_values | junk_requests | near_valid | st.binary(max_size=8)
            | st.just(10**5000))


def _check_answer(status: int, body: Any) -> None:
    assert status in (200, 400, 422)
    if status != 200:
        assert body["problems"]
        assert all(isinstance(p, Problem) for p in body["problems"])
        requestish = any(p.code.startswith("request.") for p in body["problems"])
        assert (status == 400) == requestish
    _json(body)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(anything)
def test_score_request_never_raises(data: Any) -> None:
    _check_answer(*t50.score_request(data))


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(anything)
def test_referee_request_never_raises(data: Any) -> None:
    _check_answer(*t50.referee_request(data))


@settings(max_examples=200)
@given(json_values)
def test_junk_is_refused(data: Any) -> None:
    """Plain junk (no request keys) is never answered 200."""
    assume(not (isinstance(data, dict) and "piles" in data))
    for handler in (t50.score_request, t50.referee_request):
        status, body = handler(data)
        assert status in (400, 422), body
