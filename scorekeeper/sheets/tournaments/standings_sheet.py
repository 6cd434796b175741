"""The standings of a tournament as PDF (:func:`render_standings`): rank, participant, match
points, points and tables played, marked provisional while tables play; once every round is
closed, the final results with every table's result below.

Names and the tournament's name are user text: they reach a ``Paragraph`` only through
:func:`~scorekeeper.sheets.kit.markup`.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

from ...tournaments.model import Format, RoundState, Scoring, TournamentView
from ..kit import (
    FONT,
    FONT_BOLD,
    FRAME_WIDTH,
    HEAD_FILL,
    INK,
    RULE,
    STRIPE_FILL,
    Footer,
    build_pdf,
    markup,
    sheet_table,
)
from ..tournament_model import TournamentLabels
from .common import (
    grid_commands,
    page_heading,
    participants_count,
    side_names,
    stripes,
    tournament_styles,
)

__all__ = ["render_standings"]

# --- layout constants (millimetres) -----------------------------------------------------------

STANDING_FIGURE = 24  # each figure column of the standings
RESULTS_ROUND, RESULTS_TABLE, RESULTS_TOTALS = 14, 14, 40


def _is_final(view: TournamentView) -> bool:
    """No round open: every round is closed (and there is one)."""
    return (
        bool(view.rounds)
        and not view.provisional
        and all(r.state is RoundState.CLOSED for r in view.rounds)
    )


def _standings_table(view: TournamentView, labels: TournamentLabels, final: bool) -> Table:
    """Rank, participant, match points, points and tables played; while the standings are
    provisional a boxed mark heads the table, repeated with its head on every page."""
    st = tournament_styles()
    figure = STANDING_FIGURE * mm
    rank_width = 16 * mm
    name_width = FRAME_WIDTH * mm - rank_width - 3 * figure
    who = labels.pair if view.format is Format.PAIRS else labels.player
    data: list[list[Any]] = []
    commands: list[tuple[Any, ...]] = []
    if view.provisional:
        text = f"{markup(labels.provisional.upper())}<br/>"
        text += f'<font name="{FONT}" size="9">{markup(labels.provisional_note)}</font>'
        data.append([Paragraph(text, st["TBanner"]), "", "", "", ""])
        commands += [
            ("SPAN", (0, 0), (-1, 0)),
            ("BOX", (0, 0), (-1, 0), 2, INK),
            ("BACKGROUND", (0, 0), (-1, 0), STRIPE_FILL),
            ("LEFTPADDING", (0, 0), (-1, 0), 4 * mm),
            ("TOPPADDING", (0, 0), (-1, 0), 2.5 * mm),
            ("BOTTOMPADDING", (0, 0), (-1, 0), 3 * mm),
        ]
    h = len(data)  # the row of the column heads
    data.append(
        [
            Paragraph(markup(labels.rank), st["THead"]),
            Paragraph(markup(who), st["THead"]),
            Paragraph(markup(labels.match_points), st["THeadFigure"]),
            Paragraph(markup(labels.points), st["THeadFigure"]),
            Paragraph(markup(labels.played), st["THeadFigure"]),
        ]
    )
    fmt = labels.format_number
    for row in view.standings:
        s = row.standing
        name = markup(row.name)
        data.append(
            [
                f"{fmt(s.rank)}.",
                Paragraph(f"<b>{name}</b>" if final and s.rank == 1 else name, st["TCell"]),
                fmt(s.match_points),
                fmt(s.points),
                fmt(s.played),
            ]
        )
    body = h + 1
    commands += [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, h), (-1, -1), 3),
        ("RIGHTPADDING", (0, h), (-1, -1), 3),
        ("TOPPADDING", (0, h), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, h), (-1, -1), 3),
        ("BACKGROUND", (0, h), (-1, h), HEAD_FILL),
        ("LINEABOVE", (0, h), (-1, h), 0.8, INK),
        ("LINEBELOW", (0, h), (-1, h), 0.8, INK),
        ("LINEBELOW", (0, body), (-1, -1), 0.3, RULE),
        ("FONTSIZE", (0, body), (-1, -1), 9),
        ("LEADING", (0, body), (-1, -1), 11.5),
        ("ALIGN", (2, body), (-1, -1), "RIGHT"),
        ("ALIGN", (0, body), (0, -1), "RIGHT"),
        ("RIGHTPADDING", (0, body), (0, -1), 3 * mm),
    ]
    commands += stripes(len(data), body + 1)
    # the figure that ranks first in bold: match points, or points
    measure = 2 if view.scoring is Scoring.MATCH_POINTS else 3
    commands.append(("FONTNAME", (measure, body), (measure, -1), FONT_BOLD))
    if final:  # the winners' rows in bold
        commands += [
            ("FONTNAME", (0, body + i), (-1, body + i), FONT_BOLD)
            for i, row in enumerate(view.standings)
            if row.standing.rank == 1
        ]
    widths = [rank_width, name_width, figure, figure, figure]
    return sheet_table(data, widths, commands, repeatRows=body)


def _results_table(view: TournamentView, labels: TournamentLabels) -> list[Flowable]:
    """Every table of every round: its sides and their totals, the winner's in bold."""
    st = tournament_styles()
    fmt = labels.format_number
    sides_width = FRAME_WIDTH * mm - (RESULTS_ROUND + RESULTS_TABLE + RESULTS_TOTALS) * mm
    data: list[list[Any]] = [
        [
            Paragraph(markup(labels.round_column), st["THead"]),
            Paragraph(markup(labels.table), st["THead"]),
            Paragraph(markup(labels.sides_column), st["THead"]),
            Paragraph(markup(labels.result_column), st["THeadFigure"]),
        ]
    ]
    commands = grid_commands()
    for rnd in view.rounds:
        first = len(data)
        for table in rnd.tables:
            best = max(table.totals, default=0)
            won = [t == best for t in table.totals] if table.totals else []
            names = " \u2013 ".join(
                f"<b>{markup(side_names(side))}</b>"
                if i < len(won) and won[i] and won.count(True) == 1
                else markup(side_names(side))
                for i, side in enumerate(table.sides)
            )
            totals = " : ".join(
                f"<b>{markup(fmt(t))}</b>" if won[i] and won.count(True) == 1 else markup(fmt(t))
                for i, t in enumerate(table.totals)
            )
            data.append(
                [
                    str(rnd.number) if len(data) == first else "",
                    str(table.number),
                    Paragraph(names, st["TCell"]),
                    Paragraph(totals, st["TFigure"]),
                ]
            )
        if len(data) > first:
            commands.append(("LINEABOVE", (0, first), (-1, first), 0.8, INK))
    commands += [
        ("FONTSIZE", (0, 1), (1, -1), 9),
        ("LEADING", (0, 1), (1, -1), 11.5),
        ("ALIGN", (0, 1), (1, -1), "RIGHT"),
        ("RIGHTPADDING", (0, 1), (1, -1), 3 * mm),
    ]
    grid = sheet_table(
        data,
        [RESULTS_ROUND * mm, RESULTS_TABLE * mm, sides_width, RESULTS_TOTALS * mm],
        commands,
        repeatRows=1,
    )
    return [
        Paragraph(markup(labels.round_results), tournament_styles()["THeading"]),
        Spacer(0, 1 * mm),
        grid,
    ]


def render_standings(view: TournamentView, labels: TournamentLabels) -> bytes:
    """The standings (A4 portrait, a long table runs on with its head repeated), marked
    provisional on every page while tables play; once no round is open, titled as the results
    (after round N: the tournament may go on) with every table's result below."""
    final = _is_final(view)
    played = [r.number for r in view.rounds if r.state is not RoundState.PROPOSED]
    parts = []
    if played:
        parts.append(labels.after_round(max(played)))
    parts.append(participants_count(view, labels, len(view.participants)))
    kicker = labels.results if final else labels.standings
    if view.provisional:
        kicker = f"{kicker} \u00b7 {labels.provisional}"
    story: list[Flowable] = [
        *page_heading(kicker, view.name, " \u00b7 ".join(parts)),
        Spacer(0, 4 * mm),
    ]
    story.append(_standings_table(view, labels, final))
    if final:
        story += [Spacer(0, 8 * mm), *_results_table(view, labels)]
    left = f"{view.name} \u00b7 {kicker}"
    footer = Footer(left=left, page_of=labels.pad.page_of)
    return build_pdf(story, footer, title=f"{view.name} \u2013 {kicker}")
