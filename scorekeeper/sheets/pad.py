"""The empty pad (:func:`render_blank_sheet`): hand rows to fill in by pen under the
groups' names, and the ruleset's minimum table and scoring summary; :func:`blank_hands` is its
table of empty rows, also printed on the tournament's table cards with the names filled in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from .hand_table import HandTable
from .kit import (
    FRAME_WIDTH,
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
from .model import BlankSheet, SheetLabels

__all__ = ["blank_hands", "render_blank_sheet"]

BLANK_ROW_MIN, BLANK_ROW_MAX = 6.5, 9.5  # one hand on the empty pad, to write in by pen
BLANK_NAME_ROW = 10  # room to write the side's names in
BLANK_GAP = 6  # between the empty rows and the reference tables
BLANK_FIELDS_WIDTH = 66  # "Datum: ____" and the target, right of the pad's title


def blank_hands(
    labels: SheetLabels,
    group_cells: Sequence[Any],
    rows: int,
    row_height: float | None,
    name_fill: colors.Color = colors.white,
    final_row: bool = False,
) -> Table:
    """The table of ``rows`` empty hand rows (``row_height`` pt each; None: as low as the
    text needs), a column to write who dealt, and a column group per entry of
    ``group_cells``, whose cell heads the group: room to write the names in, or the names.
    ``final_row``: a last row to write each group's final score in."""
    groups = max(1, len(group_cells))
    hands = HandTable(labels, groups, dealers=[""])
    hands.add_header(list(group_cells), name_fill=name_fill)
    empty = [[""] * len(hands.layout)] * groups
    for number in range(1, rows + 1):
        hands.add_row(str(number), empty, stripe=number % 2 == 0)
    if final_row:
        hands.add_final_row([""] * groups, None)
        hands.free_rows.discard(hands.final_row)  # as tall as a hand row: written by pen
    return hands.table(row_height)


def _reference_table(
    heading: str, rows: Sequence[tuple[str, str]], head: tuple[str, str] | None, width: float
) -> list[Flowable]:
    """A heading and a two-column table: what, and how many points."""
    st = styles()
    data: list[list[Any]] = []
    if head is not None:
        data.append(
            [
                Paragraph(markup(head[0]), st["InfoLabel"]),
                Paragraph(markup(head[1]), st["RefHeadNumber"]),
            ]
        )
    data += [
        [Paragraph(markup(a), st["RefCell"]), Paragraph(markup(b), st["RefNumber"])]
        for a, b in rows
    ]
    commands: list[tuple[Any, ...]] = [
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, INK),
    ]
    if head is not None:
        commands.append(("LINEBELOW", (0, 0), (-1, 0), 0.8, INK))
    table = sheet_table(data, [width * 0.7, width * 0.3], commands)
    return [Paragraph(markup(heading), st["RefHead"]), table]


def render_blank_sheet(sheet: BlankSheet) -> bytes:
    """An empty pad as PDF bytes: hand rows to fill in by pen, and the ruleset's minimum
    table and scoring summary printed below (on one page for about 20 rows)."""
    labels, fmt, st = sheet.labels, sheet.format_number, styles()
    groups = max(1, sheet.columns)
    pad_title = labels.pad_title or labels.title

    write_here = "\u00a0" * 4 + "_" * 24
    title_width = FRAME_WIDTH - BLANK_FIELDS_WIDTH
    header = sheet_table(
        [
            [
                [
                    Paragraph(markup(pad_title), st["Title"]),
                    Paragraph(markup(sheet.ruleset_name), st["Info"]),
                ],
                [
                    Paragraph(f"{markup(labels.date)}:{write_here}", st["Field"]),
                    Paragraph(
                        f"{markup(labels.target)}: <b>{markup(fmt(sheet.target))}</b>", st["Field"]
                    ),
                ],
            ]
        ],
        [title_width * mm, BLANK_FIELDS_WIDTH * mm],
        [
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
        ],
    )
    top: list[Flowable] = [header, Spacer(0, 4 * mm)]

    # The reference tables side by side under the hand rows.
    gap = 10
    column_width = (FRAME_WIDTH - gap) / 2 * mm
    left = _reference_table(
        labels.minimum_table, sheet.minimum_table, (labels.total, labels.minimum), column_width
    )
    if sheet.house_rules:
        left += [
            Spacer(0, 3 * mm),
            Paragraph(markup(labels.house_rules), st["RefHead"]),
            Paragraph(house_rules_text(sheet.house_rules), st["RefCell"]),
        ]
    right = _reference_table(labels.scoring_summary, sheet.scoring_summary, None, column_width)
    reference = sheet_table(
        [[left, right]],
        [column_width + gap * mm, column_width],
        [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (0, 0), gap * mm),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ],
    )

    caption = [
        Paragraph(markup(labels.players), st["GroupCaption"]),
        Spacer(0, BLANK_NAME_ROW * mm),
    ]

    def hand_table(rows: int, row_height: float | None) -> Table:
        return blank_hands(labels, [caption] * groups, rows, row_height)

    # Row height: as tall as pen writing wants, as short as one page needs.
    width = FRAME_WIDTH * mm
    room = PAGE_HEIGHT - (MARGIN_TOP + MARGIN_BOTTOM) * mm
    room -= sum(f.wrap(width, room)[1] for f in top)
    room -= reference.wrap(width, room)[1] + BLANK_GAP * mm
    room -= hand_table(0, None).wrap(width, room)[1]
    rows = max(1, sheet.rows)
    row_height = min(BLANK_ROW_MAX * mm, max(BLANK_ROW_MIN * mm, (room - 2) / rows))

    story = top + [
        hand_table(sheet.rows, row_height),
        Spacer(0, BLANK_GAP * mm),
        KeepTogether([reference]),
    ]
    footer = Footer(left=f"{pad_title} \u00b7 {sheet.ruleset_name}", page_of=labels.page_of)
    return build_pdf(story, footer, title=f"{pad_title} \u2013 {sheet.ruleset_name}")
