"""The PDF score sheet of a played game (:func:`render_score_sheet`), A4 portrait, laid out
like a printed Canasta pad: the title and what was played, the table of hands
(:class:`~.hand_table.HandTable`), the winner, the statistics and the running chart. What every
sheet draws with is :mod:`.kit`; the empty pad is :mod:`.pad`; the tournament sheets
:mod:`.tournament`.

Pure reportlab: the sheets get plain dataclasses (:mod:`scorekeeper.sheets.model`) with every
word translated and a number formatter; this module never formats a number itself. User text
reaches a ``Paragraph`` only through :func:`~.kit.markup`; the numbers go into the table as
plain strings (never parsed, which is also what keeps 60 hands fast).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from .chart import running_chart
from .columns import Column, column_layout
from .hand_table import HandTable
from .kit import (
    FONT,
    FONT_BOLD,
    FRAME_WIDTH,
    HEAD_FILL,
    INK,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    PAGE_HEIGHT,
    RULE,
    Footer,
    build_pdf,
    house_rules_text,
    markup,
    sheet_table,
    styles,
)
from .model import BONUS_KEYS, CARD_KEYS, EXTRA_KEYS, ScoreSheet, SheetCell

__all__ = ["render_score_sheet"]

# --- layout constants (millimetres) -----------------------------------------------------------

HAND_ROW = 5.2  # one hand on the score sheet
RESULT_MARGIN_WIDTH = 50  # the "margin" half of the result box
STATS_LABEL_WIDTH = 48  # the labels of the statistics under a finished game
STATS_COLUMN_MAX = 36  # a group's column of the statistics

CONCEALED_MARK = "*"
WENT_OUT_MARK = "\u2713"  # ✓, for a going out entered without its bonus figure


def _extras(sheet: ScoreSheet) -> tuple[str, ...]:
    """The items of :data:`~.model.EXTRA_KEYS` that some hand of the sheet has other than 0."""
    return tuple(
        key
        for key in EXTRA_KEYS
        if any(cell.items.get(key) for hand in sheet.hands for cell in hand.cells)
    )


# --- cells ------------------------------------------------------------------------------------


def _item_texts(
    cell: SheetCell, layout: Sequence[Column], fmt: Callable[[int], str]
) -> tuple[list[str], list[int]]:
    """The texts of one column group in one hand row, in layout order, and the positions
    of the items that are zero (printed in grey, so the points stand out as on a pad)."""
    items = cell.items
    texts: list[str] = []
    zeros: list[int] = []
    for column in layout:
        key = column.key
        if key == "minimum":
            text = fmt(cell.minimum)
        elif key == "score":
            text = fmt(cell.score)
        elif key == "total":
            text = fmt(cell.total)
        elif key in ("bonus", "cards"):
            # Compact layout: shows the engine's items side by side, folded, never a new score.
            folded = {"bonus": BONUS_KEYS, "cards": CARD_KEYS}[key]
            present = [items[k] for k in folded if k in items]
            text = fmt(sum(present)) if present else ""
            if present and not any(present):
                zeros.append(len(texts))
        else:
            text = fmt(items[key]) if key in items else ""
            if items.get(key, None) == 0:
                zeros.append(len(texts))
        texts.append(text)
    # Mark a concealed going out on the column that carries the going-out figure.
    keys = [c.key for c in layout]
    carrier = next((k for k in ("going_out", "bonus", "score") if k in keys), None)
    if carrier is not None and cell.went_out:
        i = keys.index(carrier)
        if not texts[i]:
            texts[i] = WENT_OUT_MARK
        if cell.concealed:
            texts[i] += CONCEALED_MARK
        if i in zeros:
            zeros.remove(i)
    return texts, zeros


def _group_header(name: str, players: Sequence[str]) -> list[Flowable]:
    st = styles()
    cells: list[Flowable] = [Paragraph(markup(name), st["GroupName"])]
    if players:
        cells.append(Paragraph(markup(", ".join(players)), st["GroupPlayers"]))
    return cells


def _info_table(rows: Sequence[tuple[str, Flowable | str]]) -> Table:
    """Label: value lines under the title."""
    st = styles()
    data = [
        [
            Paragraph(markup(label), st["InfoLabel"]),
            value if not isinstance(value, str) else Paragraph(value, st["Info"]),
        ]
        for label, value in rows
    ]
    return sheet_table(
        data,
        [28 * mm, (FRAME_WIDTH - 28) * mm],
        [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5),
        ],
    )


# --- the score sheet -------------------------------------------------------------------------


def _result_box(sheet: ScoreSheet) -> Table:
    """The winner and the final margin, boxed under the last hand."""
    labels, st = sheet.labels, styles()
    if sheet.winner is None or not 0 <= sheet.winner < len(sheet.columns):
        cells: list[Any] = [Paragraph(markup(labels.no_winner), st["Result"])]
        widths = [FRAME_WIDTH * mm]
    else:
        side = sheet.columns[sheet.winner]
        who = f"<b>{markup(side.name)}</b>"
        if side.players:
            who += f"<br/><font size=8>{markup(', '.join(side.players))}</font>"
        cells = [
            [Paragraph(markup(labels.winner), st["ResultLabel"]), Paragraph(who, st["Result"])]
        ]
        widths = [FRAME_WIDTH * mm]
        if sheet.margin is not None:
            cells.append(
                [
                    Paragraph(markup(labels.margin), st["ResultLabel"]),
                    Paragraph(f"<b>{markup(sheet.format_number(sheet.margin))}</b>", st["Result"]),
                ]
            )
            widths = [(FRAME_WIDTH - RESULT_MARGIN_WIDTH) * mm, RESULT_MARGIN_WIDTH * mm]
    return sheet_table(
        [cells],
        widths,
        [
            ("BOX", (0, 0), (-1, -1), 1.2, INK),
            ("LINEBEFORE", (1, 0), (1, 0), 0.3, RULE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 3 * mm),
            ("TOPPADDING", (0, 0), (-1, -1), 2 * mm),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5 * mm),
        ],
    )


def _statistics_table(sheet: ScoreSheet) -> list[Flowable]:
    """The end-of-game statistics: a heading, then a figure a row and a column group a column,
    as the game page shows them."""
    st = styles()
    label_width = STATS_LABEL_WIDTH * mm
    # a column per group, no wider than a name and a figure need: the eye stays on the row
    width = min(
        STATS_COLUMN_MAX * mm, (FRAME_WIDTH * mm - label_width) / max(1, len(sheet.columns))
    )
    head: list[Any] = [""] + [
        Paragraph(markup(column.name), st["StatsHead"]) for column in sheet.columns
    ]
    data: list[list[Any]] = [head]
    for row in sheet.statistics:
        data.append(
            [Paragraph(markup(row.label), st["RefCell"])]
            + [Paragraph(markup(value), st["RefNumber"]) for value in row.values]
        )
    table = sheet_table(
        data,
        [label_width] + [width] * len(sheet.columns),
        [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ("TOPPADDING", (0, 0), (-1, -1), 1),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ("LINEABOVE", (0, 0), (-1, 0), 0.8, INK),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
            ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE),
            ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
        ],
        repeatRows=1,
    )
    return [Paragraph(markup(sheet.labels.statistics), st["RefHead"]), table]


def render_score_sheet(sheet: ScoreSheet) -> bytes:
    """The score sheet of a game as PDF bytes (A4 portrait, one row per hand)."""
    labels, fmt, st = sheet.labels, sheet.format_number, styles()
    groups = len(sheet.columns)
    story: list[Flowable] = [
        Paragraph(markup(labels.title), st["Kicker"]),
        Paragraph(markup(sheet.title), st["Title"]),
        Spacer(0, 2 * mm),
    ]
    info: list[tuple[str, Flowable | str]] = [
        (labels.ruleset, markup(sheet.ruleset_name)),
        (labels.date, markup(sheet.date_text)),
    ]
    target_text = fmt(sheet.target) if sheet.target_text is None else sheet.target_text
    if target_text:
        info.append((labels.target, markup(target_text)))
    if sheet.house_rules:
        info.append((labels.house_rules, house_rules_text(sheet.house_rules)))
    # "Side: player, player" a line each; bare player names (cutthroat) on one line.
    joiner = "<br/>" if any(column.players for column in sheet.columns) else ", "
    sides = joiner.join(
        f"<b>{markup(column.name)}</b>"
        + (f": {markup(', '.join(column.players))}" if column.players else "")
        for column in sheet.columns
    )
    info.append((labels.players, sides))
    story += [_info_table(info), Spacer(0, 4 * mm)]

    extras = _extras(sheet)
    layout = column_layout(groups, sheet.minus_points, extras)
    rows = [[_item_texts(cell, layout, fmt) for cell in hand.cells] for hand in sheet.hands]
    dealers = [hand.dealer for hand in sheet.hands] if any(h.dealer for h in sheet.hands) else []
    hands = HandTable(
        labels,
        groups,
        sheet.minus_points,
        extras,
        dealers=[" ".join(d.split()) for d in dealers],
        content=[[text for texts, _ in row for text in texts] for row in rows],
    )
    hands.add_header([_group_header(c.name, c.players) for c in sheet.columns])
    for i, (hand, texts) in enumerate(zip(sheet.hands, rows, strict=True)):
        stripe = i % 2 == 1
        hands.add_row(
            str(hand.number),
            [t for t, _ in texts],
            stripe,
            [z for _, z in texts],
            dealer=hand.dealer,
        )
        if hand.note:
            hands.add_note(hand.note, stripe)
    final = sheet.hands[-1].cells if sheet.hands else None
    totals = [fmt(final[g].total) if final else fmt(0) for g in range(groups)]
    hands.add_final_row(totals, sheet.winner)
    room = PAGE_HEIGHT - (MARGIN_TOP + MARGIN_BOTTOM) * mm
    above = sum(
        f.wrap(FRAME_WIDTH * mm, room)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in story
    )
    story += hands.page_tables(HAND_ROW * mm, room - above, room)

    closing: list[Flowable] = [Spacer(0, 3 * mm)]
    if any(cell.concealed for hand in sheet.hands for cell in hand.cells):
        closing.append(
            Paragraph(f"{markup(CONCEALED_MARK)} {markup(labels.concealed)}", st["Legend"])
        )
        closing.append(Spacer(0, 1.5 * mm))
    closing.append(_result_box(sheet))
    story.append(KeepTogether(closing))
    if sheet.statistics:
        story.append(KeepTogether([Spacer(0, 5 * mm), *_statistics_table(sheet)]))
    chart = running_chart(sheet, FRAME_WIDTH * mm, FONT, FONT_BOLD)
    if chart is not None:
        story += [Spacer(0, 5 * mm), chart]

    # an unnamed game is titled by its game ("3 ist 50"), which the rules' name says already
    named = [] if sheet.ruleset_name.startswith(sheet.title) else [sheet.title]
    footer = Footer(
        left=" \u00b7 ".join([*named, sheet.ruleset_name, sheet.date_text]),
        page_of=labels.page_of,
    )
    return build_pdf(story, footer, title=sheet.title)
