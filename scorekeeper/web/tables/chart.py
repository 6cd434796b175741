"""A player's form: the rating after each rated game, as plain SVG shapes drawn on the server
(like the running totals of a game, :mod:`..games.chart`), with the start rating as a
dashed line."""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Sequence
from dataclasses import dataclass

from ...store.rating import START
from ..games.chart import nice_step

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 24


@dataclass(frozen=True)
class FormChart:
    """A player's rating over their games, laid out as an SVG line with its grid."""

    width: int
    height: int
    path: str  # the SVG "d" of the line
    points: list[tuple[float, float]]
    start_y: float  # the dashed line of the start rating
    ticks: list[tuple[float, int]]  # (y, rating) of the grid lines
    games: list[tuple[float, int]]  # (x, game number) of the labelled games
    left: int
    right: float
    top: int
    bottom: float
    last: int


def form_chart(ratings: Sequence[float]) -> FormChart | None:
    """The chart of a player's ratings (oldest first); None before their first rated game."""
    if not ratings:
        return None
    values = [START, *ratings]
    low, high = min(values), max(values)
    step = nice_step(high - low or 20)
    low = step * (low // step)
    high = step * (-(-high // step))
    if high == low:
        high = low + step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    span = max(1, len(values) - 1)

    def x(i: int) -> float:
        return round(LEFT + (right - LEFT) * i / span, 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - TOP) * (value - low) / (high - low), 1)

    points = [(x(i), y(v)) for i, v in enumerate(values)]
    path = "M" + " L".join(f"{px} {py}" for px, py in points)
    ticks = [(y(v), int(v)) for v in range(int(low), int(high) + 1, step)]
    every = max(1, -(-span // 6))
    games = [(x(i), i) for i in range(0, span + 1, every)]
    return FormChart(
        WIDTH,
        HEIGHT,
        path,
        points,
        y(START),
        ticks,
        games,
        LEFT,
        right,
        TOP,
        bottom,
        round(ratings[-1]),
    )
