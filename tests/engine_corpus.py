"""A seeded corpus of stateless API requests, for the equality of the phone's engine and the
server (tests/e2e/test_engine_equality_browser.py; docs/engine.md).

Drawn deterministically from the rule tables of ``tests/data`` (each case cites its seed or
rulebook line there) and from hands made up by a seeded generator over every ruleset, player
count, entry mode (detail, quick, total), house rule and referee question, with a share of
requests that must be refused (bad cards, wrong types, unknown keys, impossible house rules).
Each request carries the language it is asked in, in turn German, Polish and English.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
SEED = 35
LANGS = ("de", "pl", "en")
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]
WILD = ["2", "X"]
#: House rules the generator sets, with values inside their range (the first) and outside it.
HOUSE_RULES: dict[str, tuple[Any, Any]] = {
    "two_value": (20, -5),
    "joker_value": (100, 5000),
    "min_meld_size": (3, 1),
    "canasta_size": (7, 40),
    "natural_canasta_bonus": (600, "lots"),
    "mixed_canasta_bonus": (250, -1),
    "going_out_bonus": (200, 20_000),
    "concealed_going_out_bonus": (300, True),
    "red_three_value": (150, -100),
    "black_three_in_hand_penalty": (150, "x"),
    "max_wild_per_meld": (2, 99),
    "natural_at_least_wild": (False, 3),
    "canastas_to_go_out": ({"4": 2}, {"4": 99}),
    "target": (3000, 5),
    "frozen_needs_natural_pair": (True, "yes"),
}

Request = dict[str, Any]


def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / name).read_text("utf-8"))["cases"]
    return cases


def _cards(rng: random.Random, count: int) -> list[str]:
    pool = RANKS * 3 + WILD + ["3h", "3d", "3s", "3c"]
    return [rng.choice(pool) for _ in range(count)]


def _meld(rng: random.Random, big: bool = False) -> list[str]:
    rank = rng.choice(RANKS)
    size = rng.randint(7, 8) if big else rng.randint(3, 6)
    wilds = rng.choice([0, 0, 1, 2, 3]) if size > 3 else rng.choice([0, 1])
    meld = [rank] * (size - wilds) + [rng.choice(WILD) for _ in range(wilds)]
    if rng.random() < 0.05:
        meld[0] = rng.choice(["3h", "Z", "11", "3"])  # a card no meld takes, or no card
    return meld


def _detail_side(rng: random.Random, players_on_side: int, went_out: bool) -> Request:
    ranks = rng.sample(RANKS, rng.randint(0, 4))
    melds = []
    for i, rank in enumerate(ranks):
        meld = _meld(rng, big=i == 0 and (went_out or rng.random() < 0.4))
        melds.append(
            [rank if c not in WILD and c[0] != "3" and c not in ("Z", "11") else c for c in meld]
        )
    hands = [
        [] if went_out and p == 0 else _cards(rng, rng.randint(0, 4))
        for p in range(players_on_side)
    ]
    side: Request = {
        "melds": melds,
        "hands": hands,
        "red_threes": rng.choice([0, 0, 1, 2]),
        "went_out": went_out,
    }
    if went_out and rng.random() < 0.2:
        side["concealed"] = True
    return side


def _quick_side(rng: random.Random, ruleset: str, went_out: bool) -> Request:
    quick: Request = {
        "natural_canastas": rng.choice([0, 0, 1, 2]),
        "mixed_canastas": rng.choice([0, 1, 1, 2]),
        "meld_points": rng.choice([0, 55, 120, 235, 400, 37]),
        "hand_points": rng.choice([0, 15, 40, 85, 120]),
        "black_threes_in_hand": rng.choice([0, 0, 1]),
    }
    if ruleset in ("polish", "american") or rng.random() < 0.1:
        quick["wild_canastas"] = rng.choice([0, 0, 1])
    if ruleset == "american" and rng.random() < 0.5:
        quick[
            rng.choice(
                [
                    "sevens_canastas",
                    "aces_canastas",
                    "unfinished_aces",
                    "unfinished_sevens",
                    "sevens_aces_held",
                ]
            )
        ] = 1
    if rng.random() < 0.2:
        quick["melded"] = rng.random() < 0.5
    return {"quick": quick, "red_threes": rng.choice([0, 1, 2]), "went_out": went_out}


def _total_side(rng: random.Random, went_out: bool) -> Request:
    side: Request = {
        "total": rng.choice([0, 5, 35, -45, 1230, 2015, 101, -3000]),
        "went_out": went_out,
    }
    if rng.random() < 0.3:
        side["adjustments"] = [{"points": rng.choice([50, -100, 15]), "note": "Strafe"}]
    return side


def _broken(rng: random.Random, request: Request) -> Request:
    """One thing wrong with a request, as a phone or a script might send it."""
    how = rng.randrange(9)
    teams = request.get("teams", [])
    if how == 0:
        request["ruleset"] = "swedish"
    elif how == 1:
        del request["ruleset"]
    elif how == 2 and teams:
        teams[0]["colour"] = "red"
    elif how == 3 and teams:
        teams[0]["red_threes"] = "two"
    elif how == 4:
        request["teams"] = teams[:1] * 7
    elif how == 5 and teams:
        teams[-1]["melds"] = [["K", "K", "Q"]]
        teams[-1].pop("quick", None)
        teams[-1].pop("total", None)
    elif how == 6:
        request["players"] = 5
    elif how == 7:
        request["teams"] = "all of them"
    else:
        request["options"] = {"no_such_rule": 1}
    return request


def generated_scores(count: int, rng: random.Random) -> list[Request]:
    out = []
    tables = [
        ("german", 4),
        ("polish", 2),
        ("polish", 4),
        ("classic", 2),
        ("classic", 3),
        ("classic", 4),
        ("classic", 6),
        ("american", 2),
        ("american", 4),
    ]
    for i in range(count):
        ruleset, players = tables[i % len(tables)]
        sides = 3 if players == 3 else (3 if players == 6 and rng.random() < 0.5 else 2)
        if players == 6 and sides == 2:
            on_side = 3
        elif players == 6:
            on_side = 2
        else:
            on_side = 1 if players in (2, 3) else 2
        winner = rng.randrange(sides) if rng.random() < 0.8 else None
        mode = rng.choice(["detail", "detail", "quick", "total", "mixed"])
        teams = []
        for s in range(sides):
            went_out = s == winner
            kind = rng.choice(["detail", "quick", "total"]) if mode == "mixed" else mode
            if kind == "detail":
                side = _detail_side(rng, on_side, went_out)
            elif kind == "quick":
                side = _quick_side(rng, ruleset, went_out)
            else:
                side = _total_side(rng, went_out)
            if players == 3 and kind != "total" and rng.random() < 0.3:
                side["red_threes"] = [rng.choice([0, 1])]
            teams.append(side)
        request: Request = {"ruleset": ruleset, "players": players, "teams": teams}
        if ruleset == "american" and mode == "detail" and rng.random() < 0.2:
            request["teams"][0] = {
                "special_hand": rng.choice(["straight", "pairs", "garbage", "flush"]),
                "went_out": True,
                "melds": [],
                "hands": [[]] * on_side,
            }
        if rng.random() < 0.3:
            options = {}
            for key in rng.sample(sorted(HOUSE_RULES), rng.randint(1, 3)):
                good, bad = HOUSE_RULES[key]
                options[key] = good if rng.random() < 0.85 else bad
            request["options"] = options
        if rng.random() < 0.15:
            request = _broken(rng, request)
        out.append(request)
    return out


def generated_referee(count: int, rng: random.Random) -> list[tuple[str, Request]]:
    out: list[tuple[str, Request]] = []
    rulesets = ["german", "polish", "classic", "american"]
    for i in range(count):
        ruleset = rulesets[i % len(rulesets)]
        kind = ["meld", "initial-meld", "discard-pile", "go-out", "options", "three-is-fifty"][
            (i // len(rulesets)) % 6
        ]
        if kind == "meld":
            request: Request = {
                "ruleset": ruleset,
                "cards": _meld(rng, rng.random() < 0.3),
                "going_out": rng.random() < 0.2,
            }
        elif kind == "initial-meld":
            request = {
                "ruleset": ruleset,
                "players": 4,
                "cumulative_score": rng.choice([-200, 0, 1495, 1500, 3000, 5200]),
                "melds": [_meld(rng) for _ in range(rng.randint(1, 3))],
                "top_card": rng.choice([None, "K", "7", "2"]),
            }
        elif kind == "discard-pile":
            request = {
                "ruleset": ruleset,
                "top_card": rng.choice(RANKS + ["2", "3s", "3h"]),
                "pile_has_wild": rng.random() < 0.3,
                "side_has_melded": rng.random() < 0.6,
                "side_melds": [_meld(rng) for _ in range(rng.randint(0, 2))],
                "hand": _cards(rng, rng.randint(2, 9)),
                "cumulative_score": rng.choice([0, 1600, 3100]),
            }
        elif kind == "go-out":
            request = {
                "ruleset": ruleset,
                "players": 4,
                "side_canastas": {
                    "natural": rng.randint(0, 2),
                    "mixed": rng.randint(0, 1),
                    "wild": 0,
                },
                "concealed": rng.random() < 0.2,
                "player_melded_before": rng.random() < 0.5,
            }
            if rng.random() < 0.5:
                request["melds"] = [_meld(rng)]
        elif kind == "options":
            request = {
                "ruleset": ruleset,
                "players": 4,
                "hand": _cards(rng, rng.randint(3, 10)),
                "side_melds": [_meld(rng) for _ in range(rng.randint(0, 2))],
                "cumulative_score": rng.choice([0, 1600]),
                "top_card": rng.choice([None, "K", "5", "2"]),
                "drawn": rng.random() < 0.5,
            }
        else:
            players = rng.randint(2, 5)
            request = {
                "middle": _cards(rng, rng.randint(0, 4)),
                "discard_top": rng.choice([None, "9", "Q"]),
                "piles": [_cards(rng, rng.randint(0, 2)) for _ in range(players)],
                "player": rng.randrange(players),
                "hand": _cards(rng, rng.randint(0, 5)),
            }
        if rng.random() < 0.1:
            request[rng.choice(["cards", "hand", "ruleset", "top_card"])] = rng.choice(
                [17, "Z Z", None, ["K"] * 300]
            )
        out.append((kind, request))
    return out


def score_requests() -> list[Request]:
    """Every score request of the rule tables, then generated ones: 400 in all."""
    tables = [c["request"] for c in _cases("score_cases.json")]
    tables += [c["request"] for c in _cases("american_cases.json") if c["table"] == "score"]
    tables += [
        c["request"] for c in _cases("three_is_fifty_requests.json") if c["endpoint"] == "score"
    ]
    rng = random.Random(SEED)
    fifty = [
        {
            "ruleset": "three-is-fifty",
            "piles": [_cards(rng, rng.randint(0, 6)) for _ in range(rng.randint(2, 6))],
            **({"options": {"joker": rng.choice([10, 25, "many"])}} if i % 3 == 0 else {}),
        }
        for i in range(12)
    ]
    made = generated_scores(400 - len(tables) - len(fifty), rng)
    return tables + fifty + made


def referee_requests() -> list[tuple[str, Request]]:
    """Every referee request of the rule tables (each kind), then generated ones."""
    out: list[tuple[str, Request]] = [
        (c["endpoint"], c["request"]) for c in _cases("referee_cases.json")
    ]
    out += [
        (
            "meld",
            {"ruleset": c["ruleset"], "cards": c["cards"], "going_out": c.get("going_out", False)},
        )
        for c in _cases("meld_cases.json")[::2]
    ]
    for c in _cases("american_cases.json"):
        if c["table"] == "referee":
            out.append((c["endpoint"], c["request"]))
        elif c["table"] == "meld" and len(out) % 2:
            out.append(
                (
                    "meld",
                    {
                        "ruleset": "american",
                        "cards": c["cards"],
                        "going_out": c.get("going_out", False),
                    },
                )
            )
    out += [("options", c["request"]) for c in _cases("turn_cases.json")]
    out += [
        ("three-is-fifty", c["request"])
        for c in _cases("three_is_fifty_requests.json")
        if c["endpoint"] == "referee"
    ]
    out += [("three-is-fifty", c["request"]) for c in _cases("three_is_fifty_moves.json")]
    return out + generated_referee(120, random.Random(SEED + 1))


def corpus() -> list[tuple[str, Request, str]]:
    """(question, request, language) for every request, the language in turn."""
    questions = [("score", r) for r in score_requests()]
    questions += [("referee/" + kind, r) for kind, r in referee_requests()]
    return [(q, r, LANGS[i % len(LANGS)]) for i, (q, r) in enumerate(questions)]
