"""The chart of running totals: one line per score column over the hands, with the
target as a dashed line. Drawn on the server as plain SVG shapes (no JavaScript charting); the
PDF draws the same series with reportlab (:mod:`scorekeeper.sheets.chart`).

Sides are told apart by more than colour (colour-blind players, black-and-white print): each
line has its own dash pattern and marker shape, and is labelled with the side's name at its end.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Sequence
from dataclasses import dataclass

# Palette of the sides (Okabe-Ito: distinguishable with every common colour-vision deficiency),
# dash patterns and marker shapes; the CSS (app.css .chart .s0 …) uses the same order.
DASHES = ("", "6 3", "2 3", "10 3 2 3", "4 4", "1 2")
MARKERS = ("circle", "square", "triangle", "diamond", "circle", "square")

WIDTH, HEIGHT = 360, 210
LEFT, RIGHT, TOP, BOTTOM = 44, 84, 12, 24  # room for the axis labels and the side names


@dataclass(frozen=True)
class Series:
    """One side's line of the score chart, with where its name and last total sit."""

    index: int
    name: str
    points: list[tuple[float, float]]  # (x, y) in SVG units, hand 0 (start) first
    path: str  # the SVG "d" attribute of the line
    dash: str
    marker: str
    label_y: float  # where the name sits, kept apart from the other names
    last: int  # the last total


@dataclass(frozen=True)
class Chart:
    """The score chart of a game, laid out in SVG units: each side's line, the grid and the
    margins."""

    width: int
    height: int
    series: list[Series]
    target_y: float | None
    ticks: list[tuple[float, int]]  # (y, value) of the horizontal grid lines
    hands: list[tuple[float, int]]  # (x, hand number) of the labelled hands
    left: int
    right: float
    top: int
    bottom: float


def nice_step(span: float, lines: int = 4) -> int:
    """A round grid step (1, 2 or 5 times a power of ten) giving about ``lines`` lines.

    >>> nice_step(5000), nice_step(730), nice_step(0)
    (2000, 200, 1)
    """
    if span <= 0:
        return 1
    raw = span / lines
    power = 1
    while power * 10 <= raw:
        power *= 10
    for factor in (1, 2, 5, 10):
        if power * factor >= raw:
            return power * factor
    return power * 10  # pragma: no cover


def running_chart(
    names: Sequence[str], totals: Sequence[Sequence[int]], target: int | None
) -> Chart | None:
    """The chart of ``totals`` (per hand, per column: the running total after that hand);
    ``target``: drawn as a dashed line (None or 0: none). None when there is no hand yet."""
    if not totals or not names:
        return None
    columns = len(names)
    values = [0] + [t for row in totals for t in row[:columns]]
    if target:
        values.append(target)
    low, high = min(values), max(values)
    step = nice_step(high - low)
    low = (low // step) * step
    high = -(-high // step) * step
    if high == low:
        high = low + step
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM
    count = len(totals)

    def x(hand: int) -> float:
        return round(LEFT + (right - LEFT) * hand / count, 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - TOP) * (value - low) / (high - low), 1)

    series = []
    for c, name in enumerate(names):
        pts = [(x(0), y(0))] + [
            (x(h + 1), y(row[c] if c < len(row) else 0)) for h, row in enumerate(totals)
        ]
        path = "M" + " L".join(f"{px},{py}" for px, py in pts)
        series.append(
            Series(
                c,
                name,
                pts,
                path,
                DASHES[c % len(DASHES)],
                MARKERS[c % len(MARKERS)],
                pts[-1][1],
                totals[-1][c] if c < len(totals[-1]) else 0,
            )
        )
    # Keep the end labels at least 13 units apart (the names would overlap otherwise).
    order = sorted(series, key=lambda s: s.label_y)
    placed: list[Series] = []
    last_y = -1e9
    for s in order:
        label_y = max(s.label_y, last_y + 13)
        placed.append(Series(s.index, s.name, s.points, s.path, s.dash, s.marker, label_y, s.last))
        last_y = label_y
    placed.sort(key=lambda s: s.index)
    ticks = [(y(v), v) for v in range(int(low), int(high) + 1, step)]
    every = max(1, -(-count // 8))
    hands = [(x(h), h) for h in range(1, count + 1) if h % every == 0 or h == count]
    return Chart(
        WIDTH, HEIGHT, placed, y(target) if target else None, ticks, hands, LEFT, right, TOP, bottom
    )
