"""A round of a tournament as PDF (:func:`render_round`): the seating list, who sits where
by name, and a card per table with its number, the seats, a QR code that opens the table's game
(:class:`QrCode`, drawn from segno's matrix) and a pad to write the hands in.

Names and the tournament's name are user text: they reach a ``Paragraph`` only through
:func:`~scorekeeper.sheets.kit.markup`, so ``<b>Anna & Ben</b>`` prints as typed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import segno
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table

from ...tournaments.model import RoundEnd, RoundState, RoundView, TableView, TournamentView
from ..kit import (
    FRAME_WIDTH,
    INK,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    PAGE_HEIGHT,
    RULE,
    Footer,
    build_pdf,
    markup,
    paragraph_style,
    sheet_table,
    sized_style,
)
from ..pad import BLANK_ROW_MAX, BLANK_ROW_MIN, blank_hands
from ..tournament_model import TournamentLabels
from .common import (
    grid_commands,
    page_heading,
    participants_count,
    side_names,
    stripes,
    tournament_styles,
)

__all__ = ["QR_QUIET", "QrCode", "render_round", "seat_order"]

# --- layout constants (millimetres unless the name says pt) ---------------------------------

DEALER_MARK = "\u2605"  # ★ beside the first dealer
QR_SIZE = 46  # the code with its quiet zone: well above the 3.5 cm a phone reads from afar
QR_QUIET = 4  # modules of white around the code, as the QR standard asks
CARD_NUMBER_WIDTH = 52
CARD_SEAT_NAME_MIN_PT = 9  # a longer name than fits at this size wraps
CARD_SEAT_LABEL_WIDTH = 22
CARD_PAD_ROW = 8  # a hand row of the card's pad where the round has no fixed number of hands
CARD_PAD_MIN_ROWS = 4
LIST_TABLE_COLUMN = 14  # the table number of the seating list
INDEX_COLUMNS = 3  # the list of who sits where: names in three columns


# --- what is printed where --------------------------------------------------------------------


def seat_order(table: TableView) -> list[tuple[int, str]]:
    """The players of a table in dealing order, each with its side: partnerships sit
    interleaved (two sides A and B: A1, B1, A2, B2; three sides of two: A1, B1, C1, A2, B2, C2),
    as the table's game seats them."""
    size = max((len(side) for side in table.sides), default=0)
    return [
        (c, side[j]) for j in range(size) for c, side in enumerate(table.sides) if j < len(side)
    ]


def _positions(seats: int, labels: TournamentLabels, short: bool) -> list[str]:
    """The names of the seats in dealing order: the compass at a table of four (and of two,
    who sit face to face), else numbered seats."""
    compass = labels.compass_short if short else labels.compass
    if seats == 4:
        return list(compass)
    if seats == 2:
        return [compass[0], compass[2]]
    return [str(n) if short else labels.seat(n) for n in range(1, seats + 1)]


def _round_end(view: TournamentView, labels: TournamentLabels) -> str:
    if view.round_end is RoundEnd.HANDS:
        return labels.hands(view.round_end_value)
    if view.round_end is RoundEnd.TARGET:
        return labels.target(view.round_end_value)
    return labels.minutes(view.round_end_value)


def _round(view: TournamentView, number: int) -> RoundView:
    for candidate in view.rounds:
        if candidate.number == number:
            return candidate
    raise ValueError(f"the tournament has no round {number}")


def _fitted(text: str, style: ParagraphStyle, width: float, smallest: float) -> Paragraph:
    """A paragraph of user text on one line where it fits at a size down to ``smallest``;
    a longer text wraps at that size (never runs over its column)."""
    needed = pdfmetrics.stringWidth(text, style.fontName, style.fontSize)
    size = float(style.fontSize)
    if needed > width > 0:
        size = max(smallest, size * width / needed)
        size = math.floor(size * 4) / 4  # few distinct styles
    return Paragraph(markup(text), sized_style(style, size))


# --- the QR code ------------------------------------------------------------------------------


class QrCode(Flowable):
    """A QR code drawn as filled rectangles from segno's matrix (no image: it stays sharp at
    any print size), with its quiet zone of white modules around it."""

    def __init__(self, data: str, size: float) -> None:
        super().__init__()
        # Never a micro QR: many phone cameras do not read those.
        self.matrix = segno.make_qr(data, error="m").matrix
        self.size = size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return self.size, self.size

    def draw(self) -> None:
        canvas = self.canv
        modules = len(self.matrix) + 2 * QR_QUIET
        unit = self.size / modules
        canvas.saveState()
        canvas.setFillColor(colors.white)
        canvas.rect(0, 0, self.size, self.size, stroke=0, fill=1)
        canvas.setFillColor(colors.black)
        for r, row in enumerate(self.matrix):
            y = self.size - (QR_QUIET + r + 1) * unit
            c = 0
            while c < len(row):
                if not row[c]:
                    c += 1
                    continue
                start = c
                while c < len(row) and row[c]:
                    c += 1
                # a dark run as one rectangle, a hair taller so no seam shows between rows
                canvas.rect(
                    (QR_QUIET + start) * unit, y, (c - start) * unit, unit + 0.05, stroke=0, fill=1
                )
        canvas.restoreState()


# --- the round: seating list and table cards --------------------------------------------------


def _seat_lines(table: TableView, side: int, positions: Sequence[str]) -> str:
    """One side of a table in the seating list: each player on a line with the seat."""
    lines = []
    for seat, (c, name) in enumerate(seat_order(table)):
        if c != side:
            continue
        mark = f" {DEALER_MARK}" if seat == table.first_dealer else ""
        lines.append(f'<font color="#606060" size="7.5">{markup(positions[seat])}</font> ')
        lines[-1] += f"{markup(name)}{mark}"
    return "<br/>".join(lines)


def _seating_list(rnd: RoundView, labels: TournamentLabels) -> Table:
    st = tournament_styles()
    sides = max((len(t.sides) for t in rnd.tables), default=2)
    width = FRAME_WIDTH * mm
    side_width = (width - LIST_TABLE_COLUMN * mm) / sides
    head: list[Any] = [Paragraph(markup(labels.table), st["THead"])]
    head += [Paragraph(markup(labels.side(n)), st["THead"]) for n in range(1, sides + 1)]
    data: list[list[Any]] = [head]
    for table in rnd.tables:
        positions = _positions(len(seat_order(table)), labels, short=True)
        row: list[Any] = [Paragraph(markup(str(table.number)), st["TTableNumber"])]
        row += [
            Paragraph(_seat_lines(table, side, positions), st["TCell"])
            if side < len(table.sides)
            else ""
            for side in range(sides)
        ]
        data.append(row)
    commands = grid_commands() + stripes(len(data))
    commands += [("LINEBEFORE", (1, 0), (-1, -1), 0.3, RULE)]
    return sheet_table(
        data, [LIST_TABLE_COLUMN * mm] + [side_width] * sides, commands, repeatRows=1
    )


def _places(rnd: RoundView, labels: TournamentLabels) -> list[tuple[str, str]]:
    """Every player of the round by name, with the table and seat (or sitting out)."""
    places: list[tuple[str, str]] = []
    for table in rnd.tables:
        seats = seat_order(table)
        positions = _positions(len(seats), labels, short=True)
        for seat, (_side, name) in enumerate(seats):
            places.append((name, f"{labels.table_number(table.number)} \u00b7 {positions[seat]}"))
    places += [(name, labels.sits_out) for name in rnd.byes]
    places.sort(key=lambda place: (place[0].casefold(), place[0]))
    return places


def _index_table(places: Sequence[tuple[str, str]]) -> Table:
    """Names and places in :data:`INDEX_COLUMNS` columns, read down each column."""
    st = tournament_styles()
    rows = max(1, math.ceil(len(places) / INDEX_COLUMNS))
    column = FRAME_WIDTH * mm / INDEX_COLUMNS
    data: list[list[Any]] = []
    for r in range(rows):
        line: list[Any] = []
        for k in range(INDEX_COLUMNS):
            i = k * rows + r
            if i < len(places):
                name, where = places[i]
                line += [
                    Paragraph(markup(name), st["TIndex"]),
                    Paragraph(markup(where), st["TIndexPlace"]),
                ]
            else:
                line += ["", ""]
        data.append(line)
    commands: list[tuple[Any, ...]] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, INK),
    ]
    commands += [("LINEBEFORE", (2 * k, 0), (2 * k, -1), 0.8, INK) for k in range(1, INDEX_COLUMNS)]
    return sheet_table(data, [column * 0.64, column * 0.36] * INDEX_COLUMNS, commands)


def _who_sits_where(
    rnd: RoundView, labels: TournamentLabels, above: list[Flowable]
) -> list[Flowable]:
    """Every player by name with the table and seat, where a player of a big tournament finds
    the table: under the seating list (``above``) where both fit on one page, else from a page
    of its own, a page's names read down its columns before the next page's."""
    places = _places(rnd, labels)
    if not places:
        return []
    heading = Paragraph(markup(labels.who_sits_where), tournament_styles()["THeading"])
    width = FRAME_WIDTH * mm
    room = PAGE_HEIGHT - (MARGIN_TOP + MARGIN_BOTTOM) * mm
    gap = Spacer(0, 6 * mm)
    together = [*above, gap, heading, _index_table(places)]
    if (
        sum(f.wrap(width, room)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in together)
        <= room
    ):
        return [gap, heading, _index_table(places)]
    head = heading.wrap(width, room)[1] + heading.getSpaceAfter()
    out: list[Flowable] = [PageBreak(), heading]
    start, left = 0, room - head - 4
    while start < len(places):
        # the most rows that fit the page (long names may take two lines): a binary search
        low, high = 1, math.ceil((len(places) - start) / INDEX_COLUMNS)
        while low < high:
            middle = (low + high + 1) // 2
            chunk = places[start : start + middle * INDEX_COLUMNS]
            if _index_table(chunk).wrap(width, room)[1] <= left:
                low = middle
            else:
                high = middle - 1
        count = low * INDEX_COLUMNS
        table = _index_table(places[start : start + count])
        if start:
            out.append(PageBreak())
        out.append(table)
        start, left = start + count, room - 4
    return out


def _card(
    view: TournamentView,
    rnd: RoundView,
    table: TableView,
    labels: TournamentLabels,
    url: str,
) -> list[Flowable]:
    """One table's card: a page with the number, the seats, the QR code and the pad."""
    st = tournament_styles()
    width = FRAME_WIDTH * mm
    top = page_heading(
        f"{labels.table_card} \u00b7 {labels.round(rnd.number)} \u00b7 {_round_end(view, labels)}",
        view.name,
        "",
    )
    top.append(Spacer(0, 4 * mm))

    seats = seat_order(table)
    positions = _positions(len(seats), labels, short=False)
    qr_column = (QR_SIZE + 4) * mm
    seat_width = width - CARD_NUMBER_WIDTH * mm - qr_column
    name_width = seat_width - CARD_SEAT_LABEL_WIDTH * mm - 6
    seat_rows: list[list[Any]] = []
    for seat, (side, name) in enumerate(seats):
        caption = markup(positions[seat])
        if len(table.sides) > 1:
            caption += f"<br/>{markup(labels.side(side + 1))}"
        shown = f"{name} {DEALER_MARK}" if seat == table.first_dealer else name
        seat_rows.append(
            [
                Paragraph(caption, st["TSeatLabel"]),
                _fitted(shown, paragraph_style(st, "TSeatName"), name_width, CARD_SEAT_NAME_MIN_PT),
            ]
        )
    seat_table = sheet_table(
        seat_rows,
        [CARD_SEAT_LABEL_WIDTH * mm, seat_width - CARD_SEAT_LABEL_WIDTH * mm],
        [
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ("TOPPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ("LINEBELOW", (0, 0), (-1, -2), 0.3, RULE),
        ],
    )
    legend = Paragraph(f"{DEALER_MARK} {markup(labels.first_dealer)}", st["TLegend"])
    number = [
        Paragraph(markup(labels.table), st["TNumberLabel"]),
        Spacer(0, 2 * mm),
        _fitted(str(table.number), paragraph_style(st, "TNumber"), CARD_NUMBER_WIDTH * mm - 4, 40),
    ]
    code = [
        QrCode(url, QR_SIZE * mm),
        Paragraph(markup(labels.scan), st["TCaption"]),
        Paragraph(markup(url), st["TUrl"]),
    ]
    band = sheet_table(
        [[number, [seat_table, Spacer(0, 2 * mm), legend], code]],
        [CARD_NUMBER_WIDTH * mm, seat_width, qr_column],
        [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("LEFTPADDING", (2, 0), (2, 0), 4 * mm),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ("BOX", (0, 0), (0, 0), 1.2, INK),
            ("TOPPADDING", (0, 0), (0, 0), 3 * mm),
            ("BOTTOMPADDING", (0, 0), (0, 0), 3 * mm),
        ],
    )
    top += [band, Spacer(0, 6 * mm)]

    # The pad: the sides' names over the columns, as many hand rows as the rest of the page
    # holds (a round of N hands: N rows, as tall as pen writing wants).
    groups: list[Any] = []
    for c, players in enumerate(table.sides):
        where = ", ".join(positions[seat] for seat, (s, _) in enumerate(seats) if s == c)
        groups.append(
            [
                Paragraph(markup(f"{labels.side(c + 1)} \u00b7 {where}"), st["TSideCaption"]),
                Paragraph(markup(side_names(players)), st["TSideNames"]),
            ]
        )
    groups = groups or [""]
    room = PAGE_HEIGHT - (MARGIN_TOP + MARGIN_BOTTOM) * mm
    room -= sum(f.wrap(width, room)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in top)
    room -= blank_hands(labels.pad, groups, 0, None).wrap(width, room)[1]  # the head
    room -= 2  # rounding: the card must never spill onto a second page
    # the hand rows and the row of the final scores, all of one height
    if view.round_end is RoundEnd.HANDS:
        fit = int(room // (BLANK_ROW_MIN * mm)) - 1
        rows = max(1, min(view.round_end_value, fit))
        height = min(BLANK_ROW_MAX * mm, room / (rows + 1))
    else:
        rows = max(1, int(room // (CARD_PAD_ROW * mm)) - 1)
        height = room / (rows + 1)
    return [*top, blank_hands(labels.pad, groups, rows, height, final_row=True)]


def render_round(
    view: TournamentView,
    number: int,
    labels: TournamentLabels,
    game_url: Callable[[TableView], str],
) -> bytes:
    """The round's seating list (with who sits where, by name), then a card per table, each
    on a page of its own (A4 portrait). ``game_url``: the address the table's QR code opens.
    A round only proposed has no games yet: its seating list is marked as the proposal, and
    has no cards. A round the tournament does not have is a ``ValueError``."""
    rnd = _round(view, number)
    st = tournament_styles()
    present = {p for t in rnd.tables for side in t.participants for p in side}
    subtitle = " \u00b7 ".join(
        [
            labels.round(rnd.number),
            labels.tables_count(len(rnd.tables)),
            participants_count(view, labels, len(present) + len(rnd.byes)),
            _round_end(view, labels),
        ]
    )
    proposed = rnd.state is RoundState.PROPOSED
    kicker = f"{labels.seating} \u00b7 {labels.proposal}" if proposed else labels.seating
    story: list[Flowable] = [
        *page_heading(kicker, view.name, subtitle),
        Spacer(0, 4 * mm),
        _seating_list(rnd, labels),
        Spacer(0, 2 * mm),
        Paragraph(f"{DEALER_MARK} {markup(labels.first_dealer)}", st["TLegend"]),
    ]
    if rnd.byes:
        story += [
            Spacer(0, 3 * mm),
            Paragraph(f"<b>{markup(labels.byes)}:</b> {markup(', '.join(rnd.byes))}", st["TCell"]),
        ]
    story += _who_sits_where(rnd, labels, list(story))
    for table in () if proposed else rnd.tables:
        story += [PageBreak(), *_card(view, rnd, table, labels, game_url(table))]
    left = f"{view.name} \u00b7 {labels.round(rnd.number)}"
    if proposed:
        left += f" \u00b7 {labels.proposal}"
    footer = Footer(left=left, page_of=labels.pad.page_of)
    return build_pdf(story, footer, title=f"{view.name} \u2013 {labels.round(rnd.number)}")
