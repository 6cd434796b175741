"""The chart of running totals on the score sheet, drawn with reportlab's graphics:
one line per column over the hands and the target as a dashed line. It prints in black and
white: the columns differ by grey level, dash pattern and marker, and are named at the end of
their line (the web page draws the same chart as SVG, see ``scorekeeper.web.games.chart``)."""

from __future__ import annotations

from reportlab.graphics.shapes import Circle, Drawing, Line, Polygon, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm

from .model import ScoreSheet

LINES = (
    (colors.black, None),
    (colors.Color(0.35, 0.35, 0.35), (6, 3)),
    (colors.Color(0.2, 0.2, 0.2), (1.5, 2.5)),
    (colors.Color(0.45, 0.45, 0.45), (8, 2, 2, 2)),
)
HEIGHT = 62 * mm
LEFT, RIGHT, TOP, BOTTOM = 16 * mm, 34 * mm, 9 * mm, 7 * mm


def _step(span: float) -> int:
    raw, power = span / 4 if span > 0 else 1, 1
    while power * 10 <= raw:
        power *= 10
    return next(power * f for f in (1, 2, 5, 10) if power * f >= raw)


def running_chart(sheet: ScoreSheet, width: float, font: str, bold: str) -> Drawing | None:
    """The chart for ``sheet`` (``width`` in points), or None before the first hand."""
    count, columns = len(sheet.hands), len(sheet.columns)
    # Only where the caller asks for it (a heading given), and for games of plus points: a
    # 3 ist 50 evening is a handful of small numbers, its table says it all.
    if not count or not columns or not sheet.labels.chart or sheet.minus_points:
        return None
    totals = [[cell.total for cell in hand.cells[:columns]] for hand in sheet.hands]
    values = [0] + [t for row in totals for t in row]
    if sheet.target:
        values.append(sheet.target)
    step = _step(max(values) - min(values))
    low, high = (min(values) // step) * step, -(-max(values) // step) * step
    high = high if high > low else low + step
    # reportlab's graphics start in Helvetica (Windows-1252, no Polish letters): start in ours.
    d = Drawing(width, HEIGHT, initialFontName=font, initialFontSize=7)
    right, top = width - RIGHT, HEIGHT - TOP

    def x(hand: int) -> float:
        return LEFT + (right - LEFT) * hand / count

    def y(value: float) -> float:
        return BOTTOM + (top - BOTTOM) * (value - low) / (high - low)

    d.add(String(0, HEIGHT - 4 * mm, sheet.labels.chart, fontName=bold, fontSize=9))
    grey = colors.Color(0.8, 0.8, 0.8)
    for value in range(int(low), int(high) + 1, step):
        d.add(Line(LEFT, y(value), right, y(value), strokeColor=grey, strokeWidth=0.4))
        d.add(
            String(
                LEFT - 2,
                y(value) - 2.5,
                sheet.format_number(value),
                fontName=font,
                fontSize=6.5,
                textAnchor="end",
            )
        )
    every = max(1, -(-count // 12))
    for hand in range(1, count + 1):
        if hand % every == 0 or hand == count:
            d.add(
                String(
                    x(hand), BOTTOM - 9, str(hand), fontName=font, fontSize=6.5, textAnchor="middle"
                )
            )
    if sheet.target:
        d.add(
            Line(
                LEFT,
                y(sheet.target),
                right,
                y(sheet.target),
                strokeColor=colors.black,
                strokeWidth=0.8,
                strokeDashArray=(1, 2.5),
            )
        )
        d.add(
            String(
                LEFT + 2,
                y(sheet.target) + 2,
                f"{sheet.labels.target} {sheet.format_number(sheet.target)}",
                fontName=font,
                fontSize=6.5,
            )
        )
    ends: list[tuple[float, int]] = []
    for c in range(columns):
        colour, dash = LINES[c % len(LINES)]
        points: list[float] = [x(0), y(0)]
        for h, row in enumerate(totals):
            points += [x(h + 1), y(row[c])]
        line = PolyLine(points, strokeColor=colour, strokeWidth=1.6, strokeLineJoin=1)
        if dash is not None:  # else reportlab's default, None: a solid line
            line.strokeDashArray = dash
        d.add(line)
        px, py = points[-2], points[-1]
        if c % 4 == 1:
            # set after the fact: the stubs type Rect's **kw without Unpack (unlike Polygon's),
            # so no keyword passes; reportlab only stores the keywords as these attributes
            square = Rect(px - 2.2, py - 2.2, 4.4, 4.4)
            square.fillColor, square.strokeColor = colour, None
            d.add(square)
        elif c % 4 == 2:
            d.add(
                Polygon(
                    [px, py + 3, px + 3, py - 2.2, px - 3, py - 2.2],
                    fillColor=colour,
                    strokeColor=None,
                )
            )
        else:
            d.add(
                Circle(
                    px,
                    py,
                    2.4,
                    fillColor=colour if c % 4 == 0 else colors.white,
                    strokeColor=colour,
                )
            )
        ends.append((py, c))
    last = None
    for py, c in sorted(ends, reverse=True):  # names top to bottom, kept 9 points apart
        ly = py if last is None else min(py, last - 9)
        name = sheet.columns[c].name
        d.add(
            String(
                right + 5,
                ly - 3,
                name if len(name) <= 18 else name[:17] + "…",
                fontName=bold,
                fontSize=7.5,
                fillColor=LINES[c % len(LINES)][0],
            )
        )
        last = ly
    return d
