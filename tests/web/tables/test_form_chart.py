"""The chart of a player's form (web/tables/chart.py): one point per rated game after the
start rating, the start rating as a dashed line, grid lines on round numbers."""

from __future__ import annotations

from scorekeeper.web.tables.chart import form_chart


def test_no_chart_before_the_first_rated_game() -> None:
    assert form_chart([]) is None


def test_one_point_per_game_after_the_start() -> None:
    chart = form_chart([1012.0, 1030.5, 998.0])
    assert chart is not None
    assert len(chart.points) == 4
    assert chart.path.startswith("M") and chart.path.count("L") == 3
    assert chart.last == 998
    xs = [x for x, _ in chart.points]
    assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == chart.right
    highest = min(y for _, y in chart.points)  # SVG: up is smaller
    assert chart.points[2][1] == highest  # 1030.5 is the best
    assert chart.points[0][1] == chart.start_y  # the start rating sits on its line
    values = [value for _, value in chart.ticks]
    assert values == sorted(values) and values[0] <= 998 and values[-1] >= 1030
    assert all(chart.top <= y <= chart.bottom for _, y in chart.points)
