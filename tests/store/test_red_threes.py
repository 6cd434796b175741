"""How a stored hand's red threes are read for one score column (store.entries.red_threes_of),
the one reading behind the game page's statistics and a table's."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store.entries import red_threes_of


@pytest.mark.parametrize(
    ("teams", "team", "place", "expected"),
    [
        ([{"red_threes": 2}, {"red_threes": 0}], 0, 0, 2),
        ([{"red_threes": 2}, {"red_threes": 1}], 1, 0, 1),
        ([{"melds": []}], 0, 0, 0),  # none entered: none laid
        ([{"red_threes": [1, 2]}], 0, 1, 2),  # each column of the side its own
        ([{"red_threes": [1]}], 0, 1, 0),
        ([{"total": 630, "went_out": True}, {"total": 215}], 0, 0, None),  # totals only
        ([{"red_threes": True}], 0, 0, None),
        ([{"red_threes": "2"}], 0, 0, None),
        ("not a list", 0, 0, None),
        ([{"red_threes": 1}], 3, 0, None),
    ],
)
def test_a_column_s_red_threes(teams: Any, team: int, place: int, expected: int | None) -> None:
    assert red_threes_of(teams, team, place) == expected
