"""The assignment behind the table numbers: least total cost, checked against every
permutation of small matrices."""

from __future__ import annotations

import doctest
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.tournaments import assignment
from scorekeeper.tournaments.assignment import assign


@st.composite
def matrices(draw: st.DrawFn) -> list[list[int]]:
    size = draw(st.integers(0, 6))
    return [[draw(st.integers(0, 9)) for _ in range(size)] for _ in range(size)]


@settings(max_examples=200, deadline=None)
@given(matrices())
def test_the_least_total_of_all_permutations(costs: list[list[int]]) -> None:
    columns = assign(costs)
    assert sorted(columns) == list(range(len(costs)))
    total = sum(costs[row][column] for row, column in enumerate(columns))
    assert total == min(
        (
            sum(costs[r][c] for r, c in enumerate(p))
            for p in itertools.permutations(range(len(costs)))
        ),
        default=0,
    )


def test_the_example_in_the_docstring_holds() -> None:
    failed, tried = doctest.testmod(assignment)
    assert tried > 0 and failed == 0
