"""Property tests: legal hands score cleanly, referee answers keep their promises, and no input
(random JSON, random bytes, random card text) ever breaks the engine or the API.

The expected scores come from an oracle written here from docs/rulebook.md §1, §2 and §4,
independent of
the engine's own tables.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.edge import stateless as edge_stateless
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.fifty import FiftyScore
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.referee import Verdict
from scorekeeper.rules.ruleset import get_ruleset
from scorekeeper.rules.scoring import Rejected, ScoreAnswer

from .casefiles import answered

NATURALS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
# docs/rulebook.md §1 and §4, ruleset by ruleset.
PLAYERS = {"german": (4,), "polish": (2, 4), "classic": (2, 3, 4, 6)}
NEEDED = {
    ("german", 4): 1,
    ("polish", 2): 2,
    ("polish", 4): 1,
    ("classic", 2): 2,
    ("classic", 3): 2,
    ("classic", 4): 1,
    ("classic", 6): 2,
}


def oracle_value(rank: str, ruleset: str) -> int:
    """docs/rulebook.md §1 table."""
    if rank == "X":
        return 50
    if rank == "2":
        return 50 if ruleset == "german" else 20
    if rank == "A":
        return 20
    if rank in ("K", "Q", "J", "10", "9", "8"):
        return 10
    if rank in ("7", "6", "5", "4", "3b"):
        return 5
    raise AssertionError(rank)


def oracle_bonus(cards: list[str], ruleset: str) -> int:
    """docs/rulebook.md §2: natural 500, mixed 300, wild 2000 (polish) for 7+ cards."""
    if len(cards) < 7 or "3b" in cards:
        return 0
    wild = sum(1 for c in cards if c in ("2", "X"))
    if wild == len(cards):
        return 2000
    return 300 if wild else 500


def oracle_minimum(ruleset: str, score: int) -> int:
    """docs/rulebook.md §3 table: below 0 none (german) or 15; then 50, from 1,500 90, from
    3,000 120."""
    if score < 0:
        return 0 if ruleset == "german" else 15
    return 50 if score < 1500 else 90 if score < 3000 else 120


def oracle_red_threes(count: int, players: int) -> int:
    """docs/rulebook.md §4 (100 each, 800 for all four) and 6 players (five 1,000, six 1,200)."""
    if players == 6:
        return {5: 1000, 6: 1200}.get(count, 100 * count)
    return 800 if count == 4 else 100 * count


@st.composite
def legal_hands(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """A legal score request built within the deck, and the oracle's items for every side."""
    ruleset = draw(st.sampled_from(sorted(PLAYERS)))
    players = draw(st.sampled_from(PLAYERS[ruleset]))
    sides = 3 if players == 6 and draw(st.booleans()) else 2
    if players == 3 and draw(st.booleans()):
        sides = 3  # cutthroat: everyone alone when the stock ran out
    packs = 3 if players == 6 else 2
    deck: Counter[str] = Counter({r: 4 * packs for r in NATURALS})
    deck.update({"2": 4 * packs, "X": 2 * packs, "3b": 2 * packs})
    hands_per_side = [players // sides] * sides
    if players == 3 and sides == 2:
        hands_per_side = [1, 2]
    goes_out = draw(st.sampled_from([None, *range(sides)]))

    def take(rank: str, n: int) -> list[str]:
        assert deck[rank] >= n
        deck[rank] -= n
        return [rank] * n

    def wild_cards(n: int) -> list[str]:
        cards = []
        for _ in range(n):
            choices = [r for r in ("2", "X") if deck[r] > 0]
            rank = draw(st.sampled_from(choices))
            cards += take(rank, 1)
        return cards

    teams: list[dict[str, Any]] = []
    oracle: list[dict[str, int]] = []
    red_left = 2 * packs
    for s in range(sides):
        melds: list[list[str]] = []
        ranks = draw(st.lists(st.sampled_from(NATURALS), unique=True, max_size=5))
        for rank in ranks:
            if deck[rank] < 2:
                continue
            n = draw(st.integers(2, min(deck[rank], 9)))
            wild_left = deck["2"] + deck["X"]
            w_max = min(3, wild_left, n if ruleset != "polish" else 3)
            w_min = 1 if n == 2 else 0
            if w_min > w_max:
                continue
            w = draw(st.integers(w_min, w_max))
            melds.append(take(rank, n) + wild_cards(w))
        if ruleset == "polish" and deck["2"] + deck["X"] >= 7 and draw(st.booleans()):
            melds.append(wild_cards(7))  # docs/rulebook.md §2: polish wild canasta
        canastas = sum(1 for m in melds if oracle_bonus(m, ruleset))
        out = goes_out == s and canastas >= NEEDED[(ruleset, players)]
        if out and deck["3b"] >= 3 and draw(st.booleans()):
            # docs/rulebook.md §2: black threes only when going out, 3 or 4, no wild card.
            melds.append(take("3b", draw(st.integers(3, min(4, deck["3b"])))))
        concealed = out and draw(st.booleans())
        hands: list[list[str]] = []
        for h in range(hands_per_side[s]):
            if out and h == 0:
                hands.append([])
                continue
            available = sorted(deck.elements())
            picks = (
                draw(st.lists(st.integers(0, max(len(available) - 1, 0)), max_size=8, unique=True))
                if available
                else []
            )
            hand = [available[i] for i in picks]
            for card in hand:
                deck[card] -= 1
            hands.append(hand)
        if players == 3:
            red: int | list[int] = []
            for _ in range(hands_per_side[s]):
                n = draw(st.integers(0, red_left))
                red_left -= n
                red.append(n)
        else:
            red = draw(st.integers(0, red_left))
            red_left -= red
        teams.append(
            {
                "melds": melds,
                "hands": hands,
                "red_threes": red,
                "went_out": out,
                "concealed": concealed,
            }
        )
        penalty = 100 if ruleset == "polish" else 5
        hand_cards = [c for hand in hands for c in hand]
        sign = 1 if melds else -1
        red_counts = red if isinstance(red, list) else [red]
        oracle.append(
            {
                "melded_cards": sum(oracle_value(c, ruleset) for m in melds for c in m),
                "canasta_bonus": sum(oracle_bonus(m, ruleset) for m in melds),
                "red_threes": sum(sign * oracle_red_threes(n, players) for n in red_counts),
                "going_out": 200 if concealed else 100 if out else 0,
                "in_hand": -sum(
                    penalty if c == "3b" else oracle_value(c, ruleset) for c in hand_cards
                ),
            }
        )
    request = {"ruleset": ruleset, "players": players, "options": {}, "teams": teams}
    return request, oracle


@settings(max_examples=300, deadline=None)
@given(legal_hands())
def test_legal_hand_scores_without_problems(
    hand: tuple[dict[str, Any], list[dict[str, int]]],
) -> None:
    request, oracle = hand
    status, body = answered(edge_stateless.score(request))
    assert status == 200, body.get("problems")
    assert body.get("problems") in (None, [])
    for team, expected in zip(body["teams"], oracle, strict=True):
        assert team["items"] == {**team["items"], **expected}
        assert sum(expected.values()) == team["score"]


# ---- referee properties --------------------------------------------------------------------


@st.composite
def pile_questions(draw: st.DrawFn) -> dict[str, Any]:
    ruleset = draw(st.sampled_from(sorted(PLAYERS)))
    top = draw(st.sampled_from(NATURALS))
    deck = list(NATURALS) * 2 + ["2", "X", "2", "3b"]
    hand = draw(st.lists(st.sampled_from([top, top, *deck]), max_size=14))
    side_has_melded = draw(st.booleans())
    side_melds: list[list[str]] = []
    if side_has_melded:
        for rank in draw(st.lists(st.sampled_from(NATURALS), unique=True, max_size=3)):
            side_melds.append([rank] * draw(st.integers(3, 6)))
    return {
        "ruleset": ruleset,
        "top_card": top,
        "pile_has_wild": draw(st.booleans()),
        "red_three_upcard": draw(st.booleans()),
        "side_has_melded": side_has_melded,
        "side_melds": side_melds,
        "hand": hand,
        "cumulative_score": draw(st.sampled_from([-200, 0, 1495, 1500, 3000])),
        "going_out": False,
    }


def _legal(cards: list[str], ruleset: str) -> bool:
    parsed, problems = parse_cards(cards)
    return not problems and check_meld(parsed, get_ruleset(ruleset)).legal


@settings(max_examples=400, deadline=None)
@given(pile_questions())
@example(  # the pile with a natural pair, the minimum reached with a wild canasta laid whole
    {
        "ruleset": "polish",
        "top_card": "4",
        "pile_has_wild": False,
        "red_three_upcard": False,
        "side_has_melded": False,
        "side_melds": [],
        "hand": ["4", "4", "2", "2", "2", "2", "2", "2", "2"],
        "cumulative_score": 0,
        "going_out": False,
    }
)
def test_discard_pile_answers_keep_their_promises(question: dict[str, Any]) -> None:
    """docs/rulebook.md §5: the shown melds are legal, use the top card and cards from hand only,
    a frozen pile is taken with a natural pair, and an initial meld reaches the minimum."""
    status, body = answered(edge_stateless.referee_discard_pile(question), "discard-pile")
    shown = [question["top_card"], *question["hand"], *sum(question["side_melds"], [])]
    if any(shown.count(rank) > 8 for rank in set(shown) - {"X"}) or shown.count("X") > 4:
        # seed 000:15: two packs of 52 and four jokers; a table that cannot exist is refused
        assert status == 422 and body["problems"][0]["code"] == "card.too_many", body
        return
    assert status == 200, body
    ruleset, top, hand = question["ruleset"], question["top_card"], question["hand"]
    # docs/rulebook.md §5: frozen against a side that has not melded, "not Polish".
    frozen = (
        question["pile_has_wild"]
        or question["red_three_upcard"]
        or (not question["side_has_melded"] and ruleset != "polish")
    )
    pair = hand.count(top) >= 2
    existing = next((m for m in question["side_melds"] if top in m), None)
    if not body["allowed"]:
        assert not body.get("melds")
        if question["side_has_melded"]:
            # Completeness: a natural pair always takes the pile of a side that has melded,
            # and an unfrozen pile always goes onto the side's meld of that rank.
            assert not pair, body
            assert frozen or existing is None, body
        return
    melds = body["melds"]
    assert melds
    for meld in melds:
        assert _legal(meld, ruleset), meld
    used = Counter(c for m in melds for c in m)
    used[top] -= 1
    if existing is not None and any(Counter(m)[top] > len(existing) for m in melds):
        used.subtract(Counter(existing))
    assert not (+used - Counter(hand)), f"cards not in hand: {+used - Counter(hand)}"
    if frozen:
        assert pair, body
    if not question["side_has_melded"]:
        required = oracle_minimum(ruleset, question["cumulative_score"])
        counted = sum(oracle_value(c, ruleset) for m in melds for c in m)
        assert body["counted"] == counted >= required == body["required"]
        # A wild canasta (Polish, American: seven wild cards laid at once, docs/rulebook.md §2) has
        # no
        # rank; every other meld has a rank of its own.
        ranks = [r for m in melds for r in [c for c in m if c not in ("2", "X")][:1]]
        assert len(ranks) == len(set(ranks)), melds


@st.composite
def go_out_questions(draw: st.DrawFn) -> dict[str, Any]:
    ruleset = draw(st.sampled_from(sorted(PLAYERS)))
    players = draw(st.sampled_from(PLAYERS[ruleset]))
    melds = []
    for rank in draw(st.lists(st.sampled_from(NATURALS), unique=True, max_size=3)):
        melds.append([rank] * draw(st.integers(3, 8)) + ["2"] * draw(st.integers(0, 1)))
    return {
        "ruleset": ruleset,
        "players": players,
        "side_canastas": {
            "natural": draw(st.integers(0, 2)),
            "mixed": draw(st.integers(0, 2)),
            "wild": 0,
        },
        "concealed": draw(st.booleans()),
        "player_melded_before": draw(st.booleans()),
        "melds": melds,
    }


@settings(max_examples=300, deadline=None)
@given(go_out_questions())
def test_go_out_follows_the_canasta_count(question: dict[str, Any]) -> None:
    """docs/rulebook.md §4: canastas needed by ruleset and players; concealed conditions; bonus."""
    status, body = answered(edge_stateless.referee_go_out(question), "go-out")
    assert status == 200
    new = sum(1 for m in question["melds"] if len(m) >= 7)
    have = sum(question["side_canastas"].values()) + new
    ok = have >= NEEDED[(question["ruleset"], question["players"])]
    if question["concealed"]:
        ok = ok and new >= 1 and not question["player_melded_before"]
    assert body["allowed"] is ok, body
    assert body["bonus"] == (200 if question["concealed"] else 100)


@st.composite
def initial_melds(draw: st.DrawFn) -> dict[str, Any]:
    ruleset = draw(st.sampled_from(sorted(PLAYERS)))
    melds = []
    for rank in draw(st.lists(st.sampled_from(NATURALS), unique=True, min_size=1, max_size=4)):
        n = draw(st.integers(2, 6))
        melds.append([rank] * n + [draw(st.sampled_from(["2", "X"]))] * (1 if n == 2 else 0))
    return {"ruleset": ruleset, "cumulative_score": draw(st.integers(-3000, 9000)), "melds": melds}


@settings(max_examples=300, deadline=None)
@given(initial_melds())
def test_initial_meld_counts_card_values_only(question: dict[str, Any]) -> None:
    """docs/rulebook.md §3: counted = card values of the melds (no bonus); allowed iff >=
    required."""
    status, body = answered(edge_stateless.referee_initial_meld(question), "initial-meld")
    assert status == 200
    ruleset = question["ruleset"]
    counted = sum(oracle_value(c, ruleset) for m in question["melds"] for c in m)
    required = oracle_minimum(ruleset, question["cumulative_score"])
    assert (body["counted"], body["required"]) == (counted, required)
    assert body["allowed"] is (counted >= required)


# ---- nothing breaks ------------------------------------------------------------------------

TOKENS = [
    "A",
    "K",
    "Q",
    "J",
    "D",
    "B",
    "W",
    "10",
    "T",
    "9",
    "8",
    "7",
    "6",
    "5",
    "4",
    "2",
    "X",
    "JK",
    "JOKER",
    "3h",
    "3d",
    "3s",
    "3c",
    "3",
    "K\u2665",
    "Z",
    "",
    "KKK2",
]
HUGE_NUMBERS = st.sampled_from([10**30, -(10**30), 2**63, 10**4000])
json_leaf = (
    st.none()
    | st.booleans()
    | st.integers()
    | HUGE_NUMBERS
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(TOKENS)
)
json_values = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=25,
)
cards_like = st.lists(st.sampled_from(TOKENS), max_size=12) | json_values
side_like = st.fixed_dictionaries(
    {},
    optional={
        "melds": st.lists(cards_like, max_size=4) | json_values,
        "hands": st.lists(cards_like, max_size=4) | json_values,
        "red_threes": st.integers(-2, 14) | st.lists(st.integers(-1, 5), max_size=4) | json_values,
        "went_out": st.booleans() | json_values,
        "concealed": st.booleans() | json_values,
        "quick": st.fixed_dictionaries(
            {},
            optional={
                k: st.integers(-5, 5000) | json_values
                for k in (
                    "natural_canastas",
                    "mixed_canastas",
                    "wild_canastas",
                    "meld_points",
                    "hand_points",
                    "black_threes_in_hand",
                    "melded",
                )
            },
        )
        | json_values,
    },
)
RULESET_IDS = st.sampled_from(
    ["german", "polish", "classic"] * 3 + ["three-is-fifty", "american", "GERMAN", ""]
)
request_like = (
    st.fixed_dictionaries(
        {"ruleset": RULESET_IDS | json_values},
        optional={
            "players": st.sampled_from([2, 3, 4, 6]) | HUGE_NUMBERS | st.integers() | json_values,
            "options": st.dictionaries(
                st.sampled_from(
                    ["two_value", "target", "minimum_table", "canastas_to_go_out", "nope"]
                ),
                json_values,
                max_size=3,
            )
            | json_values,
            "teams": st.lists(side_like, max_size=4) | json_values,
            "cards": cards_like,
            "melds": st.lists(cards_like, max_size=4) | json_values,
            "hand": cards_like,
            "going_out": st.booleans() | json_values,
            "top_card": st.sampled_from(TOKENS) | json_values,
            "cumulative_score": st.integers(-(10**9), 10**9) | HUGE_NUMBERS | json_values,
            "pile_has_wild": st.booleans() | json_values,
            "red_three_upcard": st.booleans(),
            "side_has_melded": st.booleans() | json_values,
            "side_melds": st.lists(cards_like, max_size=3) | json_values,
            "side_canastas": st.dictionaries(
                st.sampled_from(["natural", "mixed", "wild", "x"]),
                st.integers(-1, 40) | json_values,
            )
            | json_values,
            "concealed": st.booleans() | json_values,
            "player_melded_before": st.booleans(),
            "middle": cards_like,
            "discard_top": st.sampled_from(TOKENS) | json_values,
            "piles": st.lists(cards_like, max_size=6) | json_values,
            "player": st.integers(-2, 8) | HUGE_NUMBERS,
            "sides": json_values,
            "version": st.integers(-1, 5) | json_values,
        },
    )
    | json_values
)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{path}",
        }
    )
    yield app
    engine = app.extensions.get("scorekeeper.engine")
    if engine is not None:
        engine.dispose()


def api_routes(app: Flask) -> list[tuple[str, str, tuple[str, ...]]]:
    """(method, rule, arguments) of every /api/ endpoint."""
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.append((method, rule.rule, tuple(sorted(rule.arguments))))
    return routes


STATELESS = {
    "/api/v1/score",
    "/api/v1/referee/meld",
    "/api/v1/referee/initial-meld",
    "/api/v1/referee/discard-pile",
    "/api/v1/referee/go-out",
    "/api/v1/referee/three-is-fifty",
}


def check_answer(rule: str, method: str, response: Any) -> None:
    """Never a 500; always JSON; problems (code + message) whenever it is not a success."""
    allowed = {200, 400, 422} if rule in STATELESS else {200, 201, 400, 404, 405, 409, 422}
    assert response.status_code in allowed, (
        method,
        rule,
        response.status_code,
        response.get_data(as_text=True)[:300],
    )
    assert response.mimetype == "application/json", (method, rule, response.mimetype)
    body = response.get_json()
    if response.status_code >= 400:
        assert isinstance(body, dict) and body.get("problems"), (method, rule, body)
        for problem in body["problems"]:
            assert isinstance(problem.get("code"), str) and problem["code"]
            assert isinstance(problem.get("message"), str) and problem["message"]


def _url(rule: str, args: tuple[str, ...], value: str) -> str:
    url = rule
    for arg in args:
        url = url.replace(f"<{arg}>", value).replace(f"<int:{arg}>", value)
    return url


path_values = st.sampled_from(["1", "0", "-1", "abc", "x" * 300, "%00", "99999999999999999999"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=request_like, value=path_values)
@example(data={"ruleset": "german", "players": 10**30}, value="1")
def test_random_json_never_breaks_the_api(fuzz_app: Flask, data: Any, value: str) -> None:
    client: FlaskClient = fuzz_app.test_client()
    payload = json.dumps(data)
    for method, rule, args in api_routes(fuzz_app):
        response = client.open(
            _url(rule, args, value), method=method, data=payload, content_type="application/json"
        )
        check_answer(rule, method, response)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_random_bytes_never_break_the_api(fuzz_app: Flask, raw: bytes) -> None:
    client = fuzz_app.test_client()
    for method, rule, args in api_routes(fuzz_app):
        if method == "GET":
            continue
        response = client.open(
            _url(rule, args, "1"), method=method, data=raw, content_type="application/json"
        )
        check_answer(rule, method, response)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=request_like)
def test_random_json_through_the_rules_layer(data: Any) -> None:
    """The pure functions behind the API never raise and give a typed answer."""
    for handler in (
        edge_stateless.score,
        edge_stateless.referee_meld,
        edge_stateless.referee_initial_meld,
        edge_stateless.referee_discard_pile,
        edge_stateless.referee_go_out,
    ):
        answer = handler(data)
        assert isinstance(answer, ScoreAnswer | FiftyScore | Verdict | Rejected), answer
        if isinstance(answer, Rejected):
            assert answer.problems


@settings(max_examples=500, deadline=None)
@given(
    st.text(max_size=60)
    | st.lists(
        st.one_of(st.text(max_size=8), st.integers(), st.none(), st.booleans(), st.floats()),
        max_size=10,
    )
)
def test_parse_cards_never_raises(value: Any) -> None:
    cards, problems = parse_cards(value)
    for problem in problems:
        assert problem.code.startswith(("card.", "request."))
    # Output notation reads back to the same cards (docs/api.md §2).
    again, trouble = parse_cards(" ".join(c.rank for c in cards))
    assert trouble == [] and again == cards


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "2", "X", "3h", "3s"]
        ),
        max_size=20,
    ),
    st.sampled_from(["", "\u2665", "\u2660", "h", "s", "c"]),
    st.sampled_from([" ", ",", ", "]),
)
def test_tokens_with_suits_and_separators(tokens: list[str], suit: str, sep: str) -> None:
    """A suit letter or symbol after any rank but three is ignored (docs/api.md §2)."""
    text = sep.join(t if t.startswith("3") else t + suit for t in tokens)
    cards, problems = parse_cards(text)
    assert problems == []
    expected = [{"3h": "3r", "3s": "3b"}.get(t, t) for t in tokens]
    assert [c.rank for c in cards] == expected
