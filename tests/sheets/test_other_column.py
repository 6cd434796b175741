"""Issue 15: items outside the five usual ones (American black threes, penalties and special
hands, and adjustments) get one "other" column, in the full and the compact layout, only
when a hand of the sheet has one that is not zero, so every row adds up to its score."""

from __future__ import annotations

import dataclasses

from scorekeeper.sheets import ScoreSheet, SheetCell, SheetHand
from scorekeeper.sheets.demo import german_number, sample_cutthroat, sample_sheet
from scorekeeper.sheets.pdf import render_score_sheet
from tests.sheets.helpers import contains_run, pdf_lines, pdf_pages


def with_adjustment(sheet: ScoreSheet, points: int) -> ScoreSheet:
    """The first hand's first column gets an adjustment of ``points`` (score and totals
    follow)."""
    first = sheet.hands[0]
    cell = first.cells[0]
    changed = dataclasses.replace(
        cell,
        items={**cell.items, "adjustments": points},
        score=cell.score + points,
        total=cell.total + points,
    )
    hands = [
        dataclasses.replace(
            first,
            cells=(changed, *first.cells[1:]),
            note="Adjustment for Wir: \u2212100 \u2013 <b>Tisch</b>.",
        )
    ]
    for hand in sheet.hands[1:]:
        hands.append(
            dataclasses.replace(
                hand,
                cells=(
                    dataclasses.replace(hand.cells[0], total=hand.cells[0].total + points),
                    *hand.cells[1:],
                ),
            )
        )
    labels = dataclasses.replace(sheet.labels, other="Sonstige")
    return dataclasses.replace(sheet, hands=tuple(hands), labels=labels)


def test_full_layout_other_column_only_when_needed() -> None:
    plain = sample_sheet(3)
    assert "Sonstige" not in "\n".join(
        pdf_pages(
            render_score_sheet(
                dataclasses.replace(
                    plain, labels=dataclasses.replace(plain.labels, other="Sonstige")
                )
            )
        )
    )
    sheet = with_adjustment(plain, -100)
    lines = pdf_lines(render_score_sheet(sheet))[0]
    text = "\n".join(lines)
    assert "Sonstige" in text
    cell = sheet.hands[0].cells[0]
    # The first column group: minimum, the five items, other, score, total (German numbers).
    run = [
        german_number(cell.minimum),
        *[
            german_number(cell.items[k])
            for k in ("canasta_bonus", "red_threes", "going_out", "melded_cards", "in_hand")
        ],
        german_number(-100),
        german_number(cell.score),
        german_number(cell.total),
    ]
    assert contains_run(lines, run), (run, lines[:60])
    assert sum(v for k, v in cell.items.items()) == cell.score
    # The note is printed literally (escaped for the Paragraph).
    assert "Adjustment for Wir: \u2212100 \u2013 <b>Tisch</b>." in " ".join(text.split("\n"))


def test_compact_layout_adds_the_other_items_up() -> None:
    sheet = sample_cutthroat()
    first = sheet.hands[0]
    cell = first.cells[1]
    items = {**cell.items, "penalties": -300, "black_threes": 100}
    changed = dataclasses.replace(cell, items=items, score=cell.score - 200, total=cell.total - 200)
    hand = SheetHand(first.number, (first.cells[0], changed, *first.cells[2:]), first.note)
    sheet = dataclasses.replace(
        sheet, hands=(hand,), labels=dataclasses.replace(sheet.labels, other="Sonstige")
    )
    lines = pdf_lines(render_score_sheet(sheet))[0]
    assert "Sonstige" in "\n".join(lines)
    assert contains_run(
        lines, [german_number(-200), german_number(changed.score), german_number(changed.total)]
    ), lines[:60]
    assert isinstance(changed, SheetCell)
