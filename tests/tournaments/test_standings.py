"""Standings: match points per table, sums per participant, ties broken by points and head to
head, equal places shared. The expected figures are counted by hand in each test."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.tournaments import standings as standings_module
from scorekeeper.tournaments.model import Points, Scoring, Standing, TableResult
from scorekeeper.tournaments.standings import match_points, standings


def result(
    round: int, table: int, sides: tuple[tuple[int, ...], ...], totals: tuple[int, ...]
) -> TableResult:
    return TableResult(round, table, sides, totals, reported=True)


@pytest.mark.parametrize(
    ("totals", "points", "expected"),
    [
        ((3100, 2500), Points(), (2, 0)),
        ((2500, 3100), Points(), (0, 2)),
        ((1800, 1800), Points(), (1, 1)),
        ((-200, -450), Points(), (2, 0)),
        ((3100, 2500), Points(3, 1, 0), (3, 0)),
        ((1800, 1800), Points(3, 1, 0), (1, 1)),
        ((900, 1200), Points(1, 0, -1), (-1, 1)),
        # three sides (cutthroat, or six players in three teams of two): one winner
        ((1500, 900, 2200), Points(), (0, 0, 2)),
        ((2200, 900, 2200), Points(), (1, 0, 1)),
        ((700, 700, 700), Points(), (1, 1, 1)),
        ((), Points(), ()),
    ],
)
def test_match_points(totals: tuple[int, ...], points: Points, expected: tuple[int, ...]) -> None:
    assert match_points(totals, points) == expected


def test_a_small_individual_tournament_counted_by_hand() -> None:
    """Eight players (0–7), two rounds, tables of four; 8 sits out in round 1 and plays in
    round 2 while 3 sits out.

    Round 1  table 1: (0 1) 3100 – (2 3) 2500  → 0, 1 win: 2 mp; 2, 3: 0 mp
             table 2: (4 5) 1800 – (6 7) 1800  → draw: 4, 5, 6, 7: 1 mp
    Round 2  table 1: (0 2) 1200 – (4 6) 2900  → 4, 6 win
             table 2: (1 5) 2000 – (7 8) 1500  → 1, 5 win

    player  mp         points              played
    0       2+0 = 2    3100+1200 = 4300    2
    1       2+2 = 4    3100+2000 = 5100    2
    2       0+0 = 0    2500+1200 = 3700    2
    3       0          2500                1
    4       1+2 = 3    1800+2900 = 4700    2
    5       1+2 = 3    1800+2000 = 3800    2
    6       1+2 = 3    1800+2900 = 4700    2
    7       1+0 = 1    1800+1500 = 3300    2
    8       0          1500                1

    By match points: 1 (4); 4, 6 (3, 4700 each), 5 (3, 3800); 0 (2); 7 (1); then 0 mp: 2 (3700),
    3 (2500), 8 (1500). 4 and 6 were partners, never opponents: head to head cannot part them,
    they share rank 2.
    """
    results = [
        result(1, 1, ((0, 1), (2, 3)), (3100, 2500)),
        result(1, 2, ((4, 5), (6, 7)), (1800, 1800)),
        result(2, 1, ((0, 2), (4, 6)), (1200, 2900)),
        result(2, 2, ((1, 5), (7, 8)), (2000, 1500)),
    ]
    assert standings(range(9), results, Scoring.MATCH_POINTS) == [
        Standing(1, 1, 4, 5100, 2),
        Standing(4, 2, 3, 4700, 2),
        Standing(6, 2, 3, 4700, 2),
        Standing(5, 4, 3, 3800, 2),
        Standing(0, 5, 2, 4300, 2),
        Standing(7, 6, 1, 3300, 2),
        Standing(2, 7, 0, 3700, 2),
        Standing(3, 8, 0, 2500, 1),
        Standing(8, 9, 0, 1500, 1),
    ]
    # by points: 1 5100; 4, 6 4700; 0 4300; 5 3800; 2 3700; 7 3300; 3 2500; 8 1500
    assert [(s.participant, s.rank) for s in standings(range(9), results, Scoring.POINTS)] == [
        (1, 1),
        (4, 2),
        (6, 2),
        (0, 4),
        (5, 5),
        (2, 6),
        (7, 7),
        (3, 8),
        (8, 9),
    ]


def test_everyone_listed_also_without_a_game_and_a_bye_is_not_played() -> None:
    """Pairs 0–4; round 1 pair 4 sits out (no result names it): 0 played, 0 everything."""
    results = [
        result(1, 1, ((0,), (1,)), (2000, 1000)),
        result(1, 2, ((2,), (3,)), (500, 1500)),
    ]
    table = standings([0, 1, 2, 3, 4], results, Scoring.MATCH_POINTS)
    assert table[-1] == Standing(4, 5, 0, 0, 0)
    assert standings([0, 1, 2], [], Scoring.MATCH_POINTS) == [
        Standing(0, 1, 0, 0, 0),
        Standing(1, 1, 0, 0, 0),
        Standing(2, 1, 0, 0, 0),
    ]


def test_equal_places_share_a_rank_and_the_next_rank_skips() -> None:
    """Pairs 0–3 at two tables, both won 3000 to 1000: 0 and 2 share 1, 1 and 3 share 3."""
    results = [
        result(1, 1, ((0,), (1,)), (3000, 1000)),
        result(1, 2, ((2,), (3,)), (3000, 1000)),
    ]
    assert [
        (s.participant, s.rank) for s in standings(range(4), results, Scoring.MATCH_POINTS)
    ] == [
        (0, 1),
        (2, 1),
        (1, 3),
        (3, 3),
    ]


def test_head_to_head_parts_participants_level_on_match_points_and_points() -> None:
    """Pairs 0–3, two rounds, every game won 2000 to 1500:
    Round 1: (0) 2000 – (1) 1500; (2) 1500 – (3) 2000
    Round 2: (0) 1500 – (2) 2000; (1) 2000 – (3) 1500
    Everybody: 2 mp, 3500 points. Every game had two of the four: head to head is the same
    count again, so all four share rank 1 (and the recursion stops).
    """
    results = [
        result(1, 1, ((0,), (1,)), (2000, 1500)),
        result(1, 2, ((2,), (3,)), (1500, 2000)),
        result(2, 1, ((0,), (2,)), (1500, 2000)),
        result(2, 2, ((1,), (3,)), (2000, 1500)),
    ]
    four = standings(range(4), results, Scoring.MATCH_POINTS)
    assert [(s.participant, s.rank, s.match_points, s.points) for s in four] == [
        (0, 1, 2, 3500),
        (1, 1, 2, 3500),
        (2, 1, 2, 3500),
        (3, 1, 2, 3500),
    ]
    # Pair 4 and 5 join and every result is as above plus 4 and 5 playing each other twice,
    # each winning once by the same margin (level on everything but with nobody else)
    extra = [
        result(1, 3, ((4,), (5,)), (2000, 1500)),
        result(2, 3, ((4,), (5,)), (1500, 2000)),
    ]
    six = standings(range(6), [*results, *extra], Scoring.MATCH_POINTS)
    assert {s.rank for s in six} == {1}


def test_head_to_head_decides_between_two_level_participants() -> None:
    """Pairs 0–3; 0 and 1 end level on match points and points, 0 won their game."""
    # 0 and 1 level: both 2 mp and 3000 points; they met in round 1, 0 won it → 0 first.
    results = [
        result(1, 1, ((0,), (1,)), (1600, 1400)),  # 0 wins
        result(1, 2, ((2,), (3,)), (2000, 500)),  # 2 wins
        result(2, 1, ((0,), (2,)), (1400, 2500)),  # 2 wins
        result(2, 2, ((1,), (3,)), (1600, 1000)),  # 1 wins
    ]
    # 0: mp 2+0 = 2, points 1600+1400 = 3000; 1: mp 0+2 = 2, points 1400+1600 = 3000
    # 2: mp 4, 4500; 3: mp 0, 1500
    assert [
        (s.participant, s.rank, s.match_points, s.points)
        for s in standings(range(4), results, Scoring.MATCH_POINTS)
    ] == [
        (2, 1, 4, 4500),
        (0, 2, 2, 3000),
        (1, 3, 2, 3000),
        (3, 4, 0, 1500),
    ]


def test_head_to_head_in_format_individual_counts_games_as_opponents() -> None:
    """Players 0–7, tables of four.

    Round 1: (0 1) 2000 – (2 3) 1000 → 0, 1 win; (4 5) 2000 – (6 7) 1000 → 4, 5 win
    Round 2: (0 2) 1000 – (4 6) 1500 → 4, 6 win; (1 3) 1000 – (5 7) 1500 → 5, 7 win
    Round 3: (0 5) 1500 – (1 6) 1000 → 0, 5 win; (4 7) 1000 – (2 3) 1500 → 2, 3 win

    5: mp 2+2+2 = 6, points 2000+1500+1500 = 5000 → first.
    0: mp 2+0+2 = 4, points 2000+1000+1500 = 4500; 4: mp 2+2+0 = 4, 2000+1500+1000 = 4500:
    level. They were opponents once (round 2), 4's side won: 4 second, 0 third.
    The rest have 2 mp each; 1: 2000+1000+1000 = 4000 is fourth.
    """
    results = [
        result(1, 1, ((0, 1), (2, 3)), (2000, 1000)),
        result(1, 2, ((4, 5), (6, 7)), (2000, 1000)),
        result(2, 1, ((0, 2), (4, 6)), (1000, 1500)),
        result(2, 2, ((1, 3), (5, 7)), (1000, 1500)),
        result(3, 1, ((0, 5), (1, 6)), (1500, 1000)),
        result(3, 2, ((4, 7), (2, 3)), (1000, 1500)),
    ]
    rows = standings(range(8), results, Scoring.MATCH_POINTS)
    assert [(s.participant, s.rank, s.match_points, s.points) for s in rows[:4]] == [
        (5, 1, 6, 5000),
        (4, 2, 4, 4500),
        (0, 3, 4, 4500),
        (1, 4, 2, 4000),
    ]


def test_head_to_head_is_a_small_league_of_the_tied_asked_again() -> None:
    """0, 1, 4 and 5 level; among the four, 1 and 5 won more in their games with each other,
    so 4, who beat 0 directly, can still come after 0: the games among all four count first.

    Round 1: (0 1) 2000 – (2 3) 1000; (4 5) 2000 – (6 7) 1000
    Round 2: (0 2) 1000 – (4 6) 1500; (1 3) 1500 – (5 7) 1000
    Round 3: (0 5) 1500 – (1 6) 1000; (4 7) 1000 – (2 3) 1500
    0, 1, 4, 5: 4 mp and 4500 points each. Games with two of them on different sides:
    round 2 table 1 (0 against 4), round 2 table 2 (1 against 5), round 3 table 1 (0 and 5
    against 1). 0: 0 + 2 mp, 1000 + 1500; 1: 2 + 0, 1500 + 1000; 5: 0 + 2, 1000 + 1500;
    4: 2 mp, 1500 → 0, 1, 5 ahead of 4. Among 0, 1, 5 (round 2 table 2 and round 3 table 1):
    0: 2, 1500; 1: 2, 2500; 5: 2, 2500 → 1 and 5 before 0. Among 1 and 5 the same two games:
    level, they share rank 1.
    """
    results = [
        result(1, 1, ((0, 1), (2, 3)), (2000, 1000)),
        result(1, 2, ((4, 5), (6, 7)), (2000, 1000)),
        result(2, 1, ((0, 2), (4, 6)), (1000, 1500)),
        result(2, 2, ((1, 3), (5, 7)), (1500, 1000)),
        result(3, 1, ((0, 5), (1, 6)), (1500, 1000)),
        result(3, 2, ((4, 7), (2, 3)), (1000, 1500)),
    ]
    rows = standings(range(8), results, Scoring.MATCH_POINTS)
    assert [(s.participant, s.rank, s.match_points, s.points) for s in rows[:4]] == [
        (1, 1, 4, 4500),
        (5, 1, 4, 4500),
        (0, 3, 4, 4500),
        (4, 4, 4, 4500),
    ]
    # the side's total and match points go to both of its players
    assert rows[0].played == 3


def test_scoring_points_ranks_by_the_sum_of_totals_then_head_to_head() -> None:
    results = [
        result(1, 1, ((0,), (1,)), (3000, 2000)),
        result(1, 2, ((2,), (3,)), (4000, 1000)),
    ]
    rows = standings(range(4), results, Scoring.POINTS)
    assert [(s.participant, s.rank) for s in rows] == [(2, 1), (0, 2), (1, 3), (3, 4)]
    # 3 wins a second game 2000 to 0: 0 and 3 level on 3000 points and on 2 mp, and they
    # never met: they share rank 2
    results.append(result(2, 1, ((3,), (1,)), (2000, 0)))
    rows = standings(range(4), results, Scoring.POINTS)
    assert [(s.participant, s.rank, s.points) for s in rows] == [
        (2, 1, 4000),
        (0, 2, 3000),
        (3, 2, 3000),
        (1, 4, 2000),
    ]


def test_custom_points_and_a_three_sided_table() -> None:
    """Classic cutthroat: three players, each a side; win 3, draw 1, loss 0.
    Round 1: 0 1500, 1 2200, 2 2200 → 1 and 2 draw (1 each), 0 loses.
    Round 2: 0 3000, 1 1000, 2 500 → 0 wins (3).
    0: 3, 4500; 1: 1, 3200; 2: 1, 2700."""
    results = [
        result(1, 1, ((0,), (1,), (2,)), (1500, 2200, 2200)),
        result(2, 1, ((0,), (1,), (2,)), (3000, 1000, 500)),
    ]
    assert standings(range(3), results, Scoring.MATCH_POINTS, Points(3, 1, 0)) == [
        Standing(0, 1, 3, 4500, 2),
        Standing(1, 2, 1, 3200, 2),
        Standing(2, 3, 1, 2700, 2),
    ]


def test_the_examples_in_the_docstrings_hold() -> None:
    failed, tried = doctest.testmod(standings_module)
    assert tried > 0 and failed == 0


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, list[TableResult]]:
    """Pairs 0 … n-1 over a few rounds, two or three a table, totals on a coarse grid so that
    ties happen."""
    count = draw(st.integers(2, 10))
    results = []
    for number in range(1, draw(st.integers(0, 4)) + 1):
        order = draw(st.permutations(range(count)))
        at, table = 0, 1
        while count - at >= 2:
            size = 3 if count - at == 3 else 2
            sides = tuple((p,) for p in order[at : at + size])
            totals = tuple(draw(st.integers(-2, 6)) * 500 for _ in sides)
            results.append(TableResult(number, table, sides, totals, reported=True))
            at, table = at + size, table + 1
    return count, results


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.sampled_from(list(Scoring)))
def test_standings_properties(tournament: tuple[int, list[TableResult]], scoring: Scoring) -> None:
    count, results = tournament
    rows = standings(range(count), results, scoring)
    assert sorted(r.participant for r in rows) == list(range(count))
    # match points handed out equal those the tables give; points equal the totals
    assert sum(r.match_points for r in rows) == sum(
        sum(match_points(r.totals, Points())) for r in results
    )
    assert sum(r.points for r in rows) == sum(sum(r.totals) for r in results)
    assert sum(r.played for r in rows) == sum(len(r.sides) for r in results)

    def key(row: Standing) -> tuple[int, int]:
        first = row.match_points if scoring is Scoring.MATCH_POINTS else row.points
        return (first, row.points)

    for place, (a, b) in enumerate(itertools.pairwise(rows), start=2):
        assert key(a) >= key(b)
        # a rank is shared only by equals, and the next one skips: 1, 2, 2, 4
        assert b.rank == a.rank or b.rank == place
        if b.rank == a.rank:
            assert key(a) == key(b) and a.participant < b.participant
    assert rows[0].rank == 1
