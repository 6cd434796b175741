"""The table of hands (:class:`HandTable`): a row per hand under two header rows (the column
groups' names, then each column's heading, turned upwards where the columns are narrow), each
group's columns as :mod:`.columns` lays them out and as wide as their figures need, and a long
table cut into one table per page (:meth:`HandTable.page_tables`). The score sheet
(:mod:`.pdf`) fills it with a game's figures; the empty pad (:mod:`.pad`) and the tournament's
table cards with empty rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, PageBreak, Paragraph, Table

from .columns import column_layout
from .kit import (
    FINAL_FILL,
    FONT,
    FONT_BOLD,
    FONT_ITALIC,
    FRAME_WIDTH,
    HEAD_FILL,
    INK,
    MUTED,
    RULE,
    STRIPE_FILL,
    ZERO_INK,
    fit_text,
    markup,
    paragraph_style,
    sheet_table,
    sized_style,
    styles,
)
from .model import SheetLabels

__all__ = ["HandTable"]

# --- layout constants (millimetres unless the name says pt) ---------------------------------

HAND_COLUMN = 8  # the hand-number column
DEALER_COLUMN = 13  # who dealt, beside the hand number (relative, like the layouts' widths)
DEALER_MAX = 24  # a longer name is cut short with an ellipsis
COLUMN_MIN = 4.5  # a column of small figures still takes a turned heading
CELL_PAD_PT = 2  # left/right cell padding
BASELINE_PT = 4.4  # from a hand row's bottom line to the figures' baseline

NUMBER_PT = 7.5
DEALER_PT = 6.5
TOTAL_PT = 8.5
MINIMUM_PT = 6.5
FINAL_LABEL_PT = 7
FINAL_TOTAL_PT = 9.5
SMALLEST_PT = 5.5  # a number too wide for its column shrinks down to this
HEAD_ACROSS_MIN_PT = 5.5  # smaller than this, the column headings are turned upwards
HEAD_TURNED_MIN, HEAD_TURNED_MAX = 12, 30  # length of a turned column heading
HEAD_PAD_PT = 1  # left/right padding of the column headings
HEAD_STYLES = {"total": "ColumnHeadTotal", "minimum": "ColumnHeadMinimum"}  # else ColumnHead


def _pieces(label: str) -> list[str]:
    """The unbreakable pieces of a label: its words, split at soft hyphens."""
    pieces: list[str] = []
    for word in label.split():
        parts = word.split("\u00ad")
        pieces += [p + "-" for p in parts[:-1]] + parts[-1:]
    return pieces


def _fitting_size(style: ParagraphStyle, label: str, room: float) -> float:
    """The largest size (at most the style's) at which the label's longest word fits."""
    widest = max(
        (pdfmetrics.stringWidth(p, style.fontName, style.fontSize) for p in _pieces(label)),
        default=0.0,
    )
    if widest <= room:
        return float(style.fontSize)
    return float(style.fontSize) * room / widest


def _one_line_size(style: ParagraphStyle, label: str, room: float) -> float:
    """The size at which the whole label fits on one line, if that still reads
    (:data:`HEAD_ACROSS_MIN_PT`); else the size at which its longest word fits."""
    full = pdfmetrics.stringWidth(label.replace("\u00ad", ""), style.fontName, style.fontSize)
    if full <= room:
        return float(style.fontSize)
    size = float(style.fontSize) * room / full
    return size if size >= HEAD_ACROSS_MIN_PT else _fitting_size(style, label, room)


class _Vertical(Flowable):
    """A column heading turned to read upwards, as on printed pads: narrow number columns
    keep any translation whole (DejaVu Sans is wide: "Ausmachen" needs 12 mm at 6 pt)."""

    def __init__(self, paragraph: Paragraph, length: float) -> None:
        super().__init__()
        self.paragraph = paragraph
        self.length = length
        self._thickness = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        _, self._thickness = self.paragraph.wrap(self.length, 10 * self.length)
        return self._thickness, self.length

    def draw(self) -> None:
        self.canv.saveState()
        self.canv.rotate(90)
        self.paragraph.drawOn(self.canv, 0, -self._thickness)
        self.canv.restoreState()


def _column_label(labels: SheetLabels, key: str) -> str:
    return str(getattr(labels, key))


# --- the hand table -----------------------------------------------------------------------


class HandTable:
    """Builds the table of hands (score sheet) or of empty rows (blank pad).

    Column 0 is the hand number, column 1 who dealt it (given ``dealers``); then column group
    ``g`` occupies ``lead + g*k … lead + k - 1 + g*k``. Rows 0 and 1 are the header (repeated
    on every page).
    """

    HEADER_ROWS = 2

    def __init__(
        self,
        labels: SheetLabels,
        groups: int,
        minus_points: bool = False,
        extras: Sequence[str] = (),
        dealers: Sequence[str] = (),
        content: Sequence[Sequence[str]] = (),
    ) -> None:
        """``dealers``: who dealt each hand (none: no dealer column); ``content``: the texts
        of the body rows (every group's, in layout order), so each column is as wide as its
        widest figure needs and what is left goes by the layout's widths."""
        self.labels = labels
        self.groups = groups
        self.layout = column_layout(groups, minus_points, extras)
        self.styles = styles()
        self.lead = 2 if dealers else 1  # the columns before the first group
        self.widths = self._widths(dealers, content)
        self.rows: list[list[Any]] = []
        self.commands: list[tuple[Any, ...]] = []
        self.free_rows: set[int] = set()  # notes and the final row: as tall as their text
        self.final_row = -1

    def _widths(self, dealers: Sequence[str], content: Sequence[Sequence[str]]) -> list[float]:
        """The column widths (pt): first what each column's widest text needs (at least
        :data:`COLUMN_MIN`), then the rest of the frame in the proportions of the layout."""
        base: list[float] = [HAND_COLUMN, DEALER_COLUMN] if dealers else [HAND_COLUMN]
        base += [c.width for _ in range(self.groups) for c in self.layout]
        k_all = self.groups * len(self.layout)
        pad = 2 * CELL_PAD_PT + 0.5  # and a little, so a text that just fits is not cut
        need = [COLUMN_MIN * mm] * len(base)
        # the hand number and the dealer columns keep their headings across
        head = self.styles["ColumnHead"]
        for c, label in enumerate([self.labels.hand, self.labels.dealer][: len(base) - k_all]):
            words = _pieces(label) or [""]
            widest = max(pdfmetrics.stringWidth(w, head.fontName, head.fontSize) for w in words)
            need[c] = max(need[c], widest + 2 * CELL_PAD_PT + 0.5)
        if dealers:
            widest = max(pdfmetrics.stringWidth(d, FONT, DEALER_PT) for d in dealers)
            need[1] = min(max(need[1], widest + pad), DEALER_MAX * mm)
        k = len(self.layout)
        for row in content:
            for i, text in enumerate(row):
                if not text:
                    continue
                font, size = {
                    "total": (FONT_BOLD, FINAL_TOTAL_PT),
                    "minimum": (FONT_ITALIC, MINIMUM_PT),
                }.get(self.layout[i % k].key, (FONT, NUMBER_PT))
                c = self.lead + i
                need[c] = max(need[c], pdfmetrics.stringWidth(text, font, size) + pad)
        frame = FRAME_WIDTH * mm
        # Room for every heading across on one line, at the smallest size that reads, where
        # the page has it: such a heading reads better than a turned one.
        across = list(need)
        for i in range(k_all):
            column = self.layout[i % k]
            style = self.styles[HEAD_STYLES.get(column.key, "ColumnHead")]
            label = _column_label(self.labels, column.key).replace("\u00ad", "")
            width = pdfmetrics.stringWidth(label, style.fontName, HEAD_ACROSS_MIN_PT)
            c = self.lead + i
            across[c] = max(across[c], width + 2 * HEAD_PAD_PT + 0.5)
        if sum(across) < frame:
            need = across
        if sum(need) >= frame:  # too many figures for the page: they shrink (_shrink_too_wide)
            lead = sum(need[: self.lead])
            scale = (frame - lead) / sum(need[self.lead :])
            return need[: self.lead] + [n * scale for n in need[self.lead :]]
        # What is left goes to every column by its layout width, each keeping what it needs:
        # a column whose share is too small gets what it needs, and the others share again.
        fixed: set[int] = set()
        scale = 0.0
        while True:
            free = [i for i in range(len(base)) if i not in fixed]
            if not free:
                break
            scale = (frame - sum(need[i] for i in fixed)) / sum(base[i] for i in free)
            short = {i for i in free if base[i] * scale < need[i]}
            if not short:
                break
            fixed |= short
        widths = [need[i] if i in fixed else base[i] * scale for i in range(len(base))]
        return widths

    def first_column(self, group: int) -> int:
        return self.lead + group * len(self.layout)

    # header

    def add_header(self, group_cells: Sequence[Any], name_fill: colors.Color = HEAD_FILL) -> None:
        """The two header rows: the groups' names (``name_fill`` white on the blank pad,
        to write on) and the column headings."""
        labels, st = self.labels, self.styles
        top: list[Any] = [Paragraph(markup(labels.hand), st["ColumnHead"])]
        heads: list[Any] = [""]
        if self.lead == 2:
            top.append(Paragraph(markup(labels.dealer), st["ColumnHead"]))
            heads.append("")
            self.commands.append(("SPAN", (1, 0), (1, 1)))
        for g in range(self.groups):
            top += [group_cells[g]] + [""] * (len(self.layout) - 1)
        heads += self._column_heads()
        self.rows += [top, heads]
        self.commands += [
            ("SPAN", (0, 0), (0, 1)),
            ("BACKGROUND", (0, 0), (-1, 1), HEAD_FILL),
            ("BACKGROUND", (self.lead, 0), (-1, 0), name_fill),
            ("VALIGN", (0, 0), (-1, 1), "MIDDLE"),
            ("VALIGN", (self.lead, 1), (-1, 1), "BOTTOM"),
            ("ALIGN", (self.lead, 1), (-1, 1), "CENTER"),
            ("TOPPADDING", (0, 0), (-1, 1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, 1), 3),
            ("LEFTPADDING", (0, 1), (-1, 1), HEAD_PAD_PT),
            ("RIGHTPADDING", (0, 1), (-1, 1), HEAD_PAD_PT),
            ("LINEBELOW", (0, 1), (-1, 1), 1, INK),
        ]
        for g in range(self.groups):
            first = self.first_column(g)
            self.commands.append(("SPAN", (first, 0), (first + len(self.layout) - 1, 0)))

    def _column_heads(self) -> list[Any]:
        """The column headings of every group: across if every word fits its column at a
        readable size, else all of them turned upwards."""
        st = self.styles
        heads: list[tuple[str, ParagraphStyle, float]] = []
        for g in range(self.groups):
            for i, column in enumerate(self.layout):
                name = HEAD_STYLES.get(column.key, "ColumnHead")
                room = self.widths[self.first_column(g) + i] - 2 * HEAD_PAD_PT
                heads.append(
                    (_column_label(self.labels, column.key), paragraph_style(st, name), room)
                )
        sizes = [_one_line_size(style, label, room) for label, style, room in heads]
        if min(sizes, default=HEAD_ACROSS_MIN_PT) >= HEAD_ACROSS_MIN_PT:
            # quarter points, rounded down: few distinct styles, and the word still fits
            return [
                Paragraph(markup(label), sized_style(style, math.floor(size * 4) / 4))
                for (label, style, _), size in zip(heads, sizes, strict=True)
            ]
        length = 0.0
        for label, style, room in heads:
            lines = max(1, int(room // style.leading))
            full = pdfmetrics.stringWidth(
                label.replace("\u00ad", ""), style.fontName, style.fontSize
            )
            longest = max(
                pdfmetrics.stringWidth(p, style.fontName, style.fontSize)
                for p in _pieces(label) or [""]
            )
            length = max(length, longest, full / lines * 1.15)
        length = min(max(length + 1, HEAD_TURNED_MIN * mm), HEAD_TURNED_MAX * mm)
        return [_Vertical(Paragraph(markup(label), style), length) for label, style, _ in heads]

    # body

    def add_row(
        self,
        number: str,
        values: Sequence[Sequence[str]],
        stripe: bool,
        quiet: Sequence[Sequence[int]] = (),
        dealer: str = "",
    ) -> int:
        """One hand row; ``values[g]`` holds the group's texts in layout order and
        ``quiet[g]`` the positions (in layout order) of the texts to print in grey;
        ``dealer``: who dealt (user text: a plain Table string is never parsed)."""
        row = len(self.rows)
        lead = [number]
        if self.lead == 2:
            room = self.widths[1] - 2 * CELL_PAD_PT
            lead.append(fit_text(" ".join(dealer.split()), FONT, DEALER_PT, room))
        self.rows.append(lead + [text for group in values for text in group])
        if stripe:
            self.commands.append(("BACKGROUND", (0, row), (-1, row), STRIPE_FILL))
        for g, positions in enumerate(quiet):
            for i in positions:
                column = self.first_column(g) + i
                self.commands.append(("TEXTCOLOR", (column, row), (column, row), ZERO_INK))
        return row

    def add_note(self, note: str, stripe: bool) -> None:
        """A line of text under the hand row above, in its stripe, kept on its page."""
        row = len(self.rows)
        self.free_rows.add(row)
        self.rows.append(
            ["", Paragraph(markup(note), self.styles["Note"])] + [""] * (len(self.widths) - 2)
        )
        self.commands += [
            ("SPAN", (1, row), (-1, row)),
            ("TOPPADDING", (0, row), (-1, row), 0),
            ("BOTTOMPADDING", (0, row), (-1, row), 1.5),
            # no rule between a hand and its note: they read as one entry
            ("LINEABOVE", (0, row), (-1, row), 0.6, STRIPE_FILL if stripe else colors.white),
            ("NOSPLIT", (0, row - 1), (-1, row)),
        ]
        if stripe:
            self.commands.append(("BACKGROUND", (0, row), (-1, row), STRIPE_FILL))

    def add_final_row(self, totals: Sequence[str], winner: int | None) -> None:
        """The final totals under a heavy rule; the winner's total boxed."""
        row = self.final_row = len(self.rows)
        self.free_rows.add(row)
        cells: list[Any] = ["\u03a3"] + [""] * (self.lead - 1)
        k = len(self.layout)
        label = self.labels.final_score
        first = self.lead
        room = sum(self.widths[first : first + k - 1]) - 2 * CELL_PAD_PT
        if pdfmetrics.stringWidth(label, FONT_BOLD, FINAL_LABEL_PT) > room:
            label = ""  # the narrow layout of many columns: Σ says it
        for g in range(self.groups):
            cells += [label] + [""] * (k - 2) + [totals[g]]
        self.rows.append(cells)
        self.commands += [
            ("BACKGROUND", (0, row), (-1, row), FINAL_FILL),
            ("LINEABOVE", (0, row), (-1, row), 1.2, INK),
            ("FONTNAME", (0, row), (-1, row), FONT_BOLD),
            ("FONTSIZE", (0, row), (-1, row), FINAL_LABEL_PT),
            ("ALIGN", (0, row), (0, row), "CENTER"),
            ("SPAN", (0, row), (self.lead - 1, row)),
            ("TOPPADDING", (0, row), (-1, row), 3),
            ("BOTTOMPADDING", (0, row), (-1, row), 3.5),
        ]
        for g in range(self.groups):
            first = self.first_column(g)
            total = first + k - 1
            self.commands += [
                ("SPAN", (first, row), (total - 1, row)),
                ("ALIGN", (first, row), (total - 1, row), "RIGHT"),
                ("FONTSIZE", (total, row), (total, row), FINAL_TOTAL_PT),
                ("TEXTCOLOR", (first, row), (total - 1, row), MUTED),
            ]
            if g == winner:
                self.commands.append(("BOX", (total, row), (total, row), 1.6, INK))

    # the whole table

    def table(self, body_row_height: float | None) -> Table:
        """The table; hand rows ``body_row_height`` tall (None: as their text needs)."""
        heights: list[float | None] | None = None
        if body_row_height is not None:
            heights = [
                None if r < self.HEADER_ROWS or r in self.free_rows else body_row_height
                for r in range(len(self.rows))
            ]
        return sheet_table(
            self.rows,
            self.widths,
            self._all_commands(),
            rowHeights=heights,
            repeatRows=self.HEADER_ROWS,
        )

    def _all_commands(self) -> list[tuple[Any, ...]]:
        """The table's style commands, for the whole table (row indices of ``self.rows``)."""
        header_end = self.HEADER_ROWS - 1
        body = self.HEADER_ROWS
        commands: list[tuple[Any, ...]] = [
            ("FONTSIZE", (0, body), (-1, -1), NUMBER_PT),
            ("ALIGN", (1, body), (-1, -1), "RIGHT"),
            ("ALIGN", (0, body), (0, -1), "CENTER"),
            # who dealt: a name, read from the left, smaller and grey like the hand number
            *(
                [
                    ("ALIGN", (1, body), (1, -1), "LEFT"),
                    ("FONTSIZE", (1, body), (1, -1), DEALER_PT),
                    ("TEXTCOLOR", (1, body), (1, -1), MUTED),
                ]
                if self.lead == 2
                else []
            ),
            # Bottom, not middle: the small minimum figures then share the baseline.
            ("VALIGN", (0, body), (-1, -1), "BOTTOM"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD_PT),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD_PT),
            ("TOPPADDING", (0, body), (-1, -1), 1),
            ("BOTTOMPADDING", (0, body), (-1, -1), BASELINE_PT),
            ("TEXTCOLOR", (0, body), (0, -1), MUTED),
            ("INNERGRID", (0, 0), (-1, -1), 0.3, RULE),
            ("BOX", (0, 0), (-1, -1), 1.2, INK),
            ("LINEBELOW", (0, header_end), (-1, header_end), 1, INK),
        ]
        keys = [c.key for c in self.layout]
        for g in range(self.groups):
            first = self.first_column(g)
            commands.append(("LINEBEFORE", (first, 0), (first, -1), 1.2, INK))
            if "total" in keys:
                total = first + keys.index("total")
                commands += [
                    ("FONTNAME", (total, body), (total, -1), FONT_BOLD),
                    ("FONTSIZE", (total, body), (total, -1), TOTAL_PT),
                    ("LINEBEFORE", (total, 1), (total, -1), 0.8, INK),
                ]
            if "minimum" in keys:
                minimum = first + keys.index("minimum")
                commands += [
                    ("FONTNAME", (minimum, body), (minimum, -1), FONT_ITALIC),
                    ("FONTSIZE", (minimum, body), (minimum, -1), MINIMUM_PT),
                    ("TEXTCOLOR", (minimum, body), (minimum, -1), MUTED),
                    ("ALIGN", (minimum, body), (minimum, -1), "CENTER"),
                ]
        commands += self.commands
        commands += self._shrink_too_wide()
        # A string cell's baseline sits at bottom padding + leading - size: with the leading
        # equal to the size, figures of every size stand on one line.
        commands += [("LEADING", c[1], c[2], c[3]) for c in commands if c[0] == "FONTSIZE"]
        return commands

    def page_tables(self, body_row_height: float, first_room: float, room: float) -> list[Flowable]:
        """The table cut into one table per page (each with the header), page breaks between.

        reportlab splits a long table page by page, copying and restyling the rest each time:
        a 1,000-hand sheet took seconds. Here each page's rows are known from the
        rows' heights (one wrap of the whole table), and each page's table is built once.
        ``first_room``: the height left on the first page; ``room``: on the others.
        """
        whole = self.table(body_row_height)
        whole.wrap(FRAME_WIDTH * mm, 1e9)  # every row measured, not just the first page
        # reportlab keeps them there; the stubs leave the private attribute out
        heights = list(whole._rowHeights)  # type: ignore[attr-defined]  # noqa: SLF001
        header = sum(heights[: self.HEADER_ROWS])
        rows = len(self.rows)
        # A hand and its note stay together (the note's NOSPLIT): cut only before a hand.
        starts = [
            r
            for r in range(self.HEADER_ROWS, rows)
            if r not in self.free_rows or r == self.final_row
        ]
        pages: list[tuple[int, int]] = []
        first, used, left = self.HEADER_ROWS, header, first_room
        for r, end in zip(starts, [*starts[1:], rows], strict=True):
            unit = sum(heights[r:end])
            if used + unit > left and r > first:
                pages.append((first, r))
                first, used, left = r, header, room
            used += unit
        pages.append((first, rows))
        if len(pages) == 1:
            return [whole]
        paged = _PagedCommands(self._all_commands(), rows, self.HEADER_ROWS)
        out: list[Flowable] = []
        for i, (a, b) in enumerate(pages):
            if i:
                out.append(PageBreak())
            data = self.rows[: self.HEADER_ROWS] + self.rows[a:b]
            out.append(
                sheet_table(
                    data,
                    self.widths,
                    paged.page(a, b),
                    rowHeights=heights[: self.HEADER_ROWS] + heights[a:b],
                )
            )
        return out

    def _shrink_too_wide(self) -> list[tuple[Any, ...]]:
        """A number wider than its column (e.g. a 6-digit total) gets a smaller size for
        that cell only, so it never runs into the neighbour."""
        keys = [c.key for c in self.layout]
        commands: list[tuple[Any, ...]] = []
        for r in range(self.HEADER_ROWS, len(self.rows)):
            row = self.rows[r]
            for c in range(self.lead, len(row)):
                text = row[c]
                if not isinstance(text, str) or not text:
                    continue
                key = keys[(c - self.lead) % len(keys)]
                if r == self.final_row:
                    if key != "total":
                        continue  # the spanned label, fitted in add_final_row
                    font, size = FONT_BOLD, FINAL_TOTAL_PT
                else:
                    font, size = {
                        "total": (FONT_BOLD, TOTAL_PT),
                        "minimum": (FONT_ITALIC, MINIMUM_PT),
                    }.get(key, (FONT, NUMBER_PT))
                room = self.widths[c] - 2 * CELL_PAD_PT
                width = pdfmetrics.stringWidth(text, font, size)
                if width > room:
                    fitted = max(SMALLEST_PT, size * room / width)
                    commands.append(("FONTSIZE", (c, r), (c, r), fitted))
        return commands


class _PagedCommands:
    """The style commands of a table of ``rows`` rows (``header`` of them repeated on every
    page), cut for the table of each page. A command of one body row is looked up by its row,
    so a page costs its own rows, not the whole sheet's (a 1,000-hand sheet has some 30,000
    commands over 22 pages). Each page keeps the commands' order: a later one wins."""

    def __init__(self, commands: list[tuple[Any, ...]], rows: int, header: int) -> None:
        self.rows, self.header = rows, header
        self.spread: list[tuple[int, tuple[Any, ...]]] = []
        self.by_row: dict[int, list[tuple[int, tuple[Any, ...]]]] = {}
        for i, command in enumerate(commands):
            r0, r1 = (r + rows if r < 0 else r for r in (command[1][1], command[2][1]))
            if header <= r0 == r1:
                self.by_row.setdefault(r0, []).append((i, command))
            else:
                self.spread.append((i, command))

    def page(self, first: int, end: int) -> list[tuple[Any, ...]]:
        """The commands of the table of the header rows and the rows ``first`` to ``end``
        (exclusive): rows renumbered, commands of other rows dropped, ranges cut."""
        picked = list(self.spread)
        for r in range(first, end):
            picked.extend(self.by_row.get(r, ()))
        picked.sort(key=lambda found: found[0])
        return _rows_commands([c for _, c in picked], self.rows, self.header, first, end)


def _rows_commands(
    commands: list[tuple[Any, ...]], rows: int, header: int, first: int, end: int
) -> list[tuple[Any, ...]]:
    """The style commands of a table of ``rows`` rows, for the table of its ``header`` rows
    and its rows ``first`` to ``end`` (exclusive): rows renumbered, commands of other rows
    dropped, commands over a range cut to the part that is there."""
    out: list[tuple[Any, ...]] = []
    shift = first - header
    last = end - 1
    for command in commands:
        (c0, r0), (c1, r1) = command[1], command[2]
        r0 = r0 + rows if r0 < 0 else r0
        r1 = r1 + rows if r1 < 0 else r1
        if r1 < header:  # the header only
            out.append(command)
            continue
        low = r0 if r0 < header else max(r0, first)
        high = min(r1, last)
        if high < first:  # body part elsewhere; the header part, if any, stays
            if r0 < header:
                out.append((command[0], (c0, r0), (c1, header - 1), *command[3:]))
            continue
        if low > high:
            continue
        low = low if low < header else low - shift
        out.append((command[0], (c0, low), (c1, high - shift), *command[3:]))
    return out
