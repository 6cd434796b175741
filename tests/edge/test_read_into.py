"""The typed reader of the edge (``edge.reading.read_into``): a request read into its dataclass
of ``edge/requests.py`` with the problem codes of docs/api.md §3, and the bounds it holds are
the ones the OpenAPI description states (both come from the same ``Spec``)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, get_type_hints

import pytest

from scorekeeper.edge import requests as rq
from scorekeeper.edge.reading import Reader, read_into
from scorekeeper.edge.spec import json_schema
from scorekeeper.edge.stateless import ASKED
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.problems import Problem


def _read(
    cls: type[Any], data: dict[str, Any], skip: frozenset[str] = ASKED
) -> tuple[Any, list[Problem]]:
    reader = Reader()
    return read_into(cls, data, reader, skip), reader.problems


def test_a_meld_question_is_read_into_the_engines_cards() -> None:
    question, problems = _read(rq.MeldQuestion, {"ruleset": "german", "cards": "K K 2"})
    assert problems == []
    assert question.cards == parse_cards("K K 2", "cards")[0]
    assert (question.going_out, question.initial_meld, question.ruleset) == (False, False, "german")


def test_problems_keep_todays_codes_order_and_paths() -> None:
    _question, problems = _read(
        rq.MeldQuestion, {"ruleset": "german", "going_out": "yes", "initial_meld": None}
    )
    assert problems == [
        Problem("request.missing", "cards", {}),
        Problem("request.type", "going_out", {"expected": "boolean"}),
    ]
    _question, problems = _read(
        rq.InitialMeldQuestion,
        {"cumulative_score": 10**8, "melds": ["K K K", "Q Q Z"], "top_card": "K K"},
    )
    assert [(p.code, p.where) for p in problems] == [
        ("request.value", "cumulative_score"),
        ("card.unknown", "melds[1]"),
        ("card.unknown", "top_card"),
    ]
    assert problems[0].params == {"minimum": -(10**7), "maximum": 10**7}


@pytest.mark.parametrize(
    ("cls", "name"),
    [
        (rq.InitialMeldQuestion, "cumulative_score"),
        (rq.RedThreeQuestion, "red_threes"),
    ],
)
def test_the_reader_holds_the_bounds_the_description_states(cls: type[Any], name: str) -> None:
    schemas: dict[str, Any] = {}
    json_schema(cls, schemas)
    stated = schemas[cls.__name__]["properties"][name]
    low, high = stated["minimum"], stated["maximum"]
    for value, refused in ((low, False), (high, False), (low - 1, True), (high + 1, True)):
        _question, problems = _read(cls, {name: value})
        assert bool(problems) is refused, (name, value)
        if refused:
            assert problems == [Problem("request.value", name, {"minimum": low, "maximum": high})]


def test_a_field_without_a_reader_fails_at_once() -> None:
    """No field is silently left unread: a type the reader does not know is an error of the
    program, found by the first request."""
    for cls in (rq.MeldQuestion, rq.InitialMeldQuestion, rq.RedThreeQuestion):
        read_into(cls, {}, Reader(), ASKED)  # each of today's typed questions reads

    @dataclass
    class Odd:
        share: float = 0.5

    with pytest.raises(TypeError, match="no reader"):
        read_into(Odd, {"share": 0.25}, Reader())


def test_the_bounds_read_at_import_are_those_the_type_hints_state() -> None:
    """``_spec_bounds`` evaluates the fields' annotations itself: the same bounds as
    ``typing.get_type_hints`` gives, for each class it reads."""
    from scorekeeper.edge import reading
    from scorekeeper.edge import requests as rq
    from scorekeeper.edge.spec import field_spec

    def by_type_hints(cls: type) -> dict[str, tuple[int, int]]:
        hints = get_type_hints(cls, include_extras=True)
        specs = {f.name: field_spec(hints[f.name]) for f in fields(cls)}
        return {
            name: (spec.minimum, spec.maximum)
            for name, spec in specs.items()
            if spec is not None and spec.minimum is not None and spec.maximum is not None
        }

    for cls, bounds in (
        (rq.Side, reading.SIDE_BOUNDS),
        (rq.Quick, reading.QUICK_BOUNDS),
        (rq.Adjustment, reading.ADJUSTMENT_BOUNDS),
    ):
        assert bounds == by_type_hints(cls) != {}


def test_a_side_is_read_with_the_keys_and_bounds_its_class_states() -> None:
    """The side of a hand (docs/api.md §3: detail, quick, or a total; "Adjustments": points
    within ±10,000) takes the keys and bounds of ``requests.Side``, ``Quick`` and ``Adjustment``:
    the reader and the description cannot disagree."""
    from scorekeeper.edge import reading
    from scorekeeper.rules.scoring import MAX_ADJUSTMENT_POINTS, MAX_TOTAL, SPECIAL_QUICK_FIELDS

    assert {
        "melds", "hands", "quick", "red_threes", "went_out", "concealed",
        "black_threes", "special_hand", "adjustments", "total",
    } == reading.SIDE_KEYS  # fmt: skip
    assert set(SPECIAL_QUICK_FIELDS) | {"melded", "hand_points"} <= reading.QUICK_KEYS
    assert reading.SIDE_BOUNDS["total"] == (-MAX_TOTAL, MAX_TOTAL)
    assert reading.ADJUSTMENT_BOUNDS["points"] == (-MAX_ADJUSTMENT_POINTS, MAX_ADJUSTMENT_POINTS)
    reader = Reader()
    reading.read_side(reader, {"quick": {"natural_canastas": 31, "sevens_aces_held": -1}}, "t")
    assert [(p.code, p.where, p.params) for p in reader.problems] == [
        ("request.value", "t.quick.natural_canastas", {"minimum": 0, "maximum": 30}),
        ("request.value", "t.quick.sevens_aces_held", {"minimum": 0, "maximum": 30}),
    ]


def test_any_request_class_is_read_by_its_hints() -> None:
    """A new game (docs/api.md §3 "Games (stored)"): names trimmed and checked where they
    stand (`sides[1].players[0]`), lists held to their Spec, a number of the wrong type named."""
    game, problems = _read(
        rq.NewGame,
        {
            "ruleset": "german",
            "players": 4,
            "sides": [
                {"name": "  Us  ", "players": ["Anna", "Ben"]},
                {"name": "Them", "players": [" \u3164 ", None]},
            ],
            "target": "5000",
        },
    )
    assert [(p.code, p.where, p.params) for p in problems] == [
        ("name.not_visible", "sides[1].players[0]", {}),
        ("request.type", "sides[1].players[1]", {"expected": "string"}),
        ("request.type", "target", {"expected": "integer"}),
    ]
    assert game.sides[0] == rq.NewSide(name="Us", players=["Anna", "Ben"])
    assert game.target is None and game.players == 4


def test_a_union_reads_the_member_its_json_fits() -> None:
    """`players` of a new game is a count, or (3 ist 50) the players' names."""
    every = frozenset[str]()
    game, problems = _read(
        rq.NewGame, {"ruleset": "x", "players": ["Ola", "x" * 41], "sides": []}, every
    )
    assert game.players == ["Ola", ""]
    assert problems == [Problem("name.invalid", "players[1]", {"maximum": 40})]
    game, problems = _read(rq.NewGame, {"ruleset": "x", "players": 3.0, "sides": []}, every)
    assert (game.players, problems) == (3, [])
    _game, problems = _read(rq.NewGame, {"ruleset": "x", "players": "four", "sides": []}, every)
    assert problems == [Problem("request.type", "players", {"expected": "integer"})]


def test_a_strict_class_refuses_keys_of_its_own_and_lists_keep_their_bounds() -> None:
    """A side's part (docs/api.md §3 "Adjustments": at most 5, a note of at most 80)."""
    put, problems = _read(
        rq.PartPut,
        {
            "part": {
                "total": 120,
                "adjustments": [{"points": 5, "note": " late ", "why": 1}],
                "colour": "red",
            }
        },
    )
    assert [(p.code, p.where) for p in problems] == [
        ("request.unknown_key", "part.colour"),
        ("request.unknown_key", "part.adjustments[0].why"),
    ]
    assert put.part.adjustments == [rq.Adjustment(points=5, note="late")]
    _put, problems = _read(rq.PartPut, {"part": {"adjustments": [{"points": 1}] * 6}})
    assert problems == [Problem("request.too_large", "part.adjustments", {"limit": 5})]
    _put, problems = _read(rq.PartPut, {"part": {"adjustments": [{"points": 1, "note": "x" * 81}]}})
    assert problems == [
        Problem("request.text_too_long", "part.adjustments[0].note", {"maximum": 80})
    ]
    _put, problems = _read(rq.PartPut, {})
    assert problems == [Problem("request.missing", "part", {})]


def test_a_literal_takes_one_of_its_values() -> None:
    question, problems = _read(rq.FiftyDealQuestion, {"players": 4, "question": "who"})
    assert problems == [
        Problem("request.value", "question", {"allowed": ["deal", "refill", "dealer", "turn"]})
    ]
    assert question.question == "deal"


def test_the_reader_holds_a_names_bounds_the_description_states() -> None:
    schemas: dict[str, Any] = {}
    json_schema(rq.NewSide, schemas)
    stated = schemas["NewSide"]["properties"]["name"]
    assert (stated["minLength"], stated["maxLength"]) == (1, 40)
    for text, refused in (("A", False), ("x" * 40, False), ("", True), ("x" * 41, True)):
        _side, problems = _read(rq.NewSide, {"name": text})
        assert bool(problems) is refused, text
