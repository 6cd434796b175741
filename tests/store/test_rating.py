"""The table's rating (store/rating.py): Elo over score columns, as its docstring states."""

from __future__ import annotations

import pytest

from scorekeeper.store.rating import START, K, expected, rate_game


def test_equal_sides_move_by_half_of_k() -> None:
    after = rate_game({}, [[1, 2], [3, 4]], [3100, 2000])
    assert after == {1: START + K / 2, 2: START + K / 2, 3: START - K / 2, 4: START - K / 2}


def test_a_tie_between_equals_moves_nothing() -> None:
    assert rate_game({}, [[1], [2]], [500, 500]) == {1: START, 2: START}


def test_the_favourite_gains_less_than_the_outsider() -> None:
    ratings = {1: 1200.0, 2: 1000.0}
    favourite = rate_game(ratings, [[1], [2]], [5000, 100])[1] - 1200
    outsider = rate_game(ratings, [[2], [1]], [5000, 100])[2] - 1000
    assert 0 < favourite < K / 2 < outsider < K
    assert expected(1200, 1000) == pytest.approx(0.7597, abs=1e-4)


def test_three_sides_keep_the_sum() -> None:
    after = rate_game({1: 1050.0}, [[1, 2], [3, 4], [5, 6]], [5200, 4100, 4100])
    before = 1050 + 5 * START
    assert sum(after.values()) == pytest.approx(before)
    assert after[3] == after[4] == after[5] == after[6]
    assert after[1] > 1050 and after[2] > START
