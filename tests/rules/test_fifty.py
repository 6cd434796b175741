"""3 ist 50 (docs/rulebook.md §7, seed 001): points, legal moves and the JSON requests.

Table-driven cases live in ``tests/data/three_is_fifty_*.json``, each citing its source.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.edge import fifty as edge_fifty
from scorekeeper.edge import stateless as edge_stateless
from scorekeeper.rules import fifty as t50
from scorekeeper.rules.cards import Card
from scorekeeper.rules.problems import Problem, RulesError
from scorekeeper.rules.scoring import Rejected

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


def _status(answer: Any) -> int:
    """docs/api.md §3: 400 for an unreadable request (``request.*`` codes), 422 for rule
    problems, 200 for an answer."""
    if isinstance(answer, Rejected):
        return 400 if any(p.code.startswith("request.") for p in answer.problems) else 422
    return 200


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


def _table_after(request: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """The table after ``move``, worked out by the test from docs/rulebook.md §7 (the engine only
    lists moves): case 1 takes the matching middle cards and discard top, case 2 the run at
    the top of the own pile, case 3 lays the card on a pile, case 4 discards it."""
    middle = list(request["middle"])
    discard = [request["discard_top"]] if request["discard_top"] else []
    piles = [list(p) for p in request["piles"]]
    hand = list(request["hand"])
    hand.remove(move["card"])
    taken = move["cards"][1:]
    if move["kind"] == "middle":
        for rank in taken:
            if rank in middle:
                middle.remove(rank)
            else:
                discard.remove(rank)
    elif move["kind"] == "own_pile":
        own = piles[request["player"]]
        del own[len(own) - len(taken) :]
    if move["kind"] == "discard":
        discard.append(move["card"])
    else:
        piles[move["to_pile"]].extend(move["cards"])
    return {
        "middle": middle,
        "discard": discard,
        "piles": piles,
        "hand": hand,
        "player": (request["player"] + 1) % len(piles),
    }


AFTER_CASES = [c for c in MOVE_CASES if "after" in c]


@pytest.mark.parametrize("case", AFTER_CASES, ids=_ids(AFTER_CASES))
def test_where_the_cards_go(case: dict[str, Any]) -> None:
    # The listed move, carried out by the rules of seed 001, gives the table the case expects.
    r = case["request"]
    moves = t50.legal_moves(r["middle"], r["discard_top"], r["piles"], r["player"], r["hand"])
    assert _table_after(r, moves[case["apply"]].as_dict()) == case["after"]


@pytest.mark.parametrize("case", MOVE_CASES, ids=_ids(MOVE_CASES))
def test_referee_request(case: dict[str, Any]) -> None:
    # Through the API function of docs/api.md §3 (``POST /api/v1/referee/three-is-fifty``).
    answer = edge_stateless.referee_three_is_fifty(case["request"])
    assert isinstance(answer, t50.FiftyMoves), answer
    # The engine's moves in game ranks; the answer writes the cards as the request gave them.
    assert [m.as_dict() for m in answer.moves] == case.get("answer_moves", case["moves"])
    assert answer.allowed is True
    # docs/api.md §3: the left neighbour of player i is i + 1 (seating order, wrapping round).
    assert answer.left_neighbour == (case["request"]["player"] + 1) % len(case["request"]["piles"])


@pytest.mark.parametrize("case", REQUEST_CASES, ids=_ids(REQUEST_CASES))
def test_requests(case: dict[str, Any]) -> None:
    request = _expand(case["request"])
    handler = (
        edge_fifty.score_request if case["endpoint"] == "score" else edge_fifty.referee_request
    )
    if case["endpoint"] == "score" and isinstance(request, dict) and "ruleset" in request:
        # docs/api.md §3: ``POST /api/v1/score`` with this ruleset counts minus piles.
        handler = edge_stateless.score
    answer = handler(request)
    assert _status(answer) == case["status"], answer
    if "problems" in case:
        assert isinstance(answer, Rejected)
        got = [(p.code, p.where) for p in answer.problems]
        for want in case["problems"]:
            assert (want["code"], want["where"]) in got, got
        assert len(got) == len(case["problems"]), got
    if "points" in case:
        assert isinstance(answer, t50.FiftyScore)
        assert [p.points for p in answer.players] == case["points"]
        assert list(answer.winners) == case["winners"]
    if "allowed" in case:
        assert isinstance(answer, t50.FiftyMoves)
        assert answer.allowed is case["allowed"]
        assert [r.code for r in answer.reasons] == case["reasons"]


# ---- details -------------------------------------------------------------------------------


def test_score_body_shape() -> None:
    # Seed 001: 3 = 50, A 11, K 10, 7 7; the joker as the option says.
    answer = edge_fifty.score_request(
        {
            "ruleset": "three-is-fifty",
            "piles": [["3", "A", "K", "7"], ["X"]],
            "options": {"joker": 25},
        }
    )
    assert answer == t50.FiftyScore(
        (t50.PileScore(78, 4), t50.PileScore(25, 1)), t50.Options(joker=25), (1,)
    )


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


def test_empty_hand_has_no_moves() -> None:
    assert t50.legal_moves(["K"], "K", [["K"], ["K"]], 0, []) == []


def test_six_players_may_use_three_packs() -> None:
    nine_kings = [["K"] * 9, [], [], [], [], []]
    assert isinstance(edge_fifty.score_request({"piles": nine_kings}), t50.FiftyScore)
    assert [
        p.code
        for p in edge_fifty.score_request({"piles": nine_kings[:5]}).problems  # type: ignore[union-attr]
    ] == ["card.too_many"]


def test_module_is_pure() -> None:
    imported: set[str] = set()
    files = sorted(Path(t50.__file__).parent.glob("*.py"))
    assert len(files) >= 5  # the package and its four modules
    nodes = [node for f in files for node in ast.walk(ast.parse(f.read_text("utf-8")))]
    for node in nodes:
        if isinstance(node, ast.Import):
            imported.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"flask", "flask_babel", "babel", "sqlalchemy", "reportlab", "werkzeug"}


# ---- properties ----------------------------------------------------------------------------

DECK: list[str] = [r for r in t50.GAME_RANKS if r != "X" for _ in range(8)] + ["X"] * 4


@dataclass(frozen=True)
class Table:
    """A table during a round, as the referee is asked about it (the player to move's hand)."""

    middle: list[str]
    discard_top: str | None
    piles: list[list[str]]
    player: int
    hand: list[str]

    def legal_moves(self) -> list[t50.Move]:
        return t50.legal_moves(self.middle, self.discard_top, self.piles, self.player, self.hand)


@st.composite
def tables(draw: st.DrawFn, min_hand: int = 1) -> Table:
    """A table that can occur in play: cards from one deck, dealt into the zones."""
    n = draw(st.integers(t50.MIN_PLAYERS, t50.MAX_PLAYERS))
    # A few ranks only, sometimes, so that matches are frequent.
    ranks = draw(st.sampled_from([list(t50.GAME_RANKS), ["3", "K", "7"], ["4", "X"]]))
    deck = draw(st.permutations([c for c in DECK if c in ranks]))
    pos = 0

    def take(most: int, least: int = 0) -> list[str]:
        nonlocal pos
        k = draw(st.integers(least, most))
        out = deck[pos : pos + k]
        pos += k
        return out

    player = draw(st.integers(0, n - 1))
    hand = take(4, min_hand)  # first, so that a small deck still fills it
    middle = take(4)
    discard = take(5)
    piles = [take(10) for _ in range(n)]
    return Table(middle, discard[-1] if discard else None, piles, player, hand)


def _matches(table: Table, rank: str) -> bool:
    tops = {p[-1] for p in table.piles if p}
    return rank in table.middle or rank == table.discard_top or rank in tops


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_moves_are_well_formed(table: Table) -> None:
    """docs/rulebook.md §7 / seed 001: which cards move where, and discarding only without a
    match."""
    moves = table.legal_moves()
    assert moves, "a non-empty hand always has a move"
    n = len(table.piles)
    left = (table.player + 1) % n
    matching = [r for r in dict.fromkeys(table.hand) if _matches(table, r)]
    for m in moves:
        assert m.card in table.hand
        assert m.cards[0] == m.card
        assert set(m.cards) == {m.card}
        if m.kind in ("middle", "own_pile"):
            assert m.to_pile == left
        elif m.kind == "any_pile":
            assert m.to_pile is not None and table.piles[m.to_pile][-1] == m.card
            assert m.cards == (m.card,)
        else:
            assert m.kind == "discard" and m.to_pile is None and m.cards == (m.card,)
        if m.kind == "middle":
            # Rule 1: the hand card, every middle card of the rank and a matching top card.
            taken = table.middle.count(m.card) + (table.discard_top == m.card)
            assert len(m.cards) == 1 + taken
    kinds = {m.kind for m in moves}
    if matching:
        # Seed 001: discarding only when no hand card matches.
        assert "discard" not in kinds
        assert list(dict.fromkeys(m.card for m in moves)) == matching
    else:
        # Every hand card gets a move: it may be discarded.
        assert kinds == {"discard"}
        assert [m.card for m in moves] == list(dict.fromkeys(table.hand))
    assert len(set(moves)) == len(moves)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_referee_request_reads_what_it_is_sent(table: Table) -> None:
    """The JSON request, read back, asks about the same table (every move of it)."""
    request = {
        "middle": table.middle,
        "discard_top": table.discard_top,
        "piles": table.piles,
        "player": table.player,
        "hand": table.hand,
    }
    answer = edge_fifty.referee_request(json.loads(json.dumps(request)))
    assert isinstance(answer, t50.FiftyMoves), answer
    assert answer.moves == tuple(table.legal_moves())
    assert answer.allowed is True


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["3", "K", "4 4 7", "3h", "X", "Z", "", " ", "10", "JOKER"]),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=30,
)
card_lists = st.lists(
    st.sampled_from(["3", "K", "7", "A", "X", "2", "3b", "Z"]) | json_values, max_size=6
)
junk_requests = st.fixed_dictionaries(
    {},
    optional={
        "ruleset": json_values,
        "options": json_values | st.fixed_dictionaries({"joker": json_values}),
        "players": json_values,
        "piles": json_values | st.lists(card_lists | json_values, max_size=8),
        "player": json_values,
        "middle": json_values | card_lists,
        "discard_top": json_values,
        "hand": json_values | card_lists,
    },
)
card_tokens = st.sampled_from(["3", "K", "7", "A", "X", "2", "3b", "kk", "Z", " ", 3, 7, 1])
near_valid = st.fixed_dictionaries(
    {
        "piles": st.lists(
            st.lists(card_tokens, max_size=10) | st.just("3 3 K"), min_size=1, max_size=7
        ),
        "player": st.integers(-1, 6),
        "hand": st.lists(card_tokens, max_size=5),
    },
    optional={
        "middle": st.lists(card_tokens, max_size=5),
        "discard_top": card_tokens | st.none(),
        "options": st.fixed_dictionaries({"joker": st.integers(-5, 105)}),
    },
)
anything = json_values | junk_requests | near_valid | st.binary(max_size=8) | st.just(10**5000)


def _check_answer(answer: Any) -> None:
    assert isinstance(answer, t50.FiftyScore | t50.FiftyMoves | Rejected), answer
    if isinstance(answer, Rejected):
        assert answer.problems
        assert all(isinstance(p, Problem) for p in answer.problems)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(anything)
def test_score_request_never_raises(data: Any) -> None:
    _check_answer(edge_fifty.score_request(data))


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(anything)
def test_referee_request_never_raises(data: Any) -> None:
    _check_answer(edge_fifty.referee_request(data))


@settings(max_examples=200)
@given(json_values)
def test_junk_is_refused(data: Any) -> None:
    """Plain junk (no request keys) is never answered 200."""
    assume(not (isinstance(data, dict) and "piles" in data))
    for handler in (edge_fifty.score_request, edge_fifty.referee_request):
        answer = handler(data)
        assert isinstance(answer, Rejected), answer
