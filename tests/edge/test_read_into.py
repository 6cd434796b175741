"""The typed reader of the edge (``edge.reading.read_into``): a request read into its dataclass
of ``edge/requests.py`` with the problem codes of docs/api.md §3, and the bounds it holds are
the ones the OpenAPI description states (both come from the same ``Spec``)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.edge import requests as rq
from scorekeeper.edge.reading import ASKED, Reader, read_into
from scorekeeper.edge.spec import json_schema
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.problems import Problem


def _read(cls: type[Any], data: dict[str, Any]) -> tuple[Any, list[Problem]]:
    reader = Reader()
    return read_into(cls, data, reader, ASKED), reader.problems


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
    with pytest.raises(TypeError, match="no reader"):
        read_into(rq.Merge, {"keep": "a", "merge": "b"}, Reader())


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
