"""Which columns a column group of the hand table has (:func:`column_layout`): every item
for one or two groups, the items folded into bonus and cards for three, the score and the
running total for four and more (and for a game played in minus points), with a column for each
extra item a sheet has. Plain Python: the widths are relative, scaled to the page by
:class:`~.hand_table.HandTable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .model import EXTRA_KEYS

__all__ = ["Column", "column_layout"]


@dataclass(frozen=True)
class Column:
    """One column of the score pad: what it shows and how wide it is."""

    key: str  # an item key, or "minimum", "bonus", "cards", "score", "total"
    width: float  # relative width (mm at full size; scaled to the frame)


#: Two column groups (or one): every item, like a full Canasta pad.
FULL_LAYOUT = (
    Column("minimum", 9),
    Column("canasta_bonus", 10.5),
    Column("red_threes", 10.5),
    Column("going_out", 10),
    Column("melded_cards", 11),
    Column("in_hand", 10.5),
    Column("score", 12),
    Column("total", 14),
)
#: Three column groups (cutthroat): the items folded into bonus and cards.
COMPACT_LAYOUT = (
    Column("minimum", 10),
    Column("bonus", 12),
    Column("cards", 11.5),
    Column("score", 12),
    Column("total", 14),
)
#: Four and more column groups: the hand score and the running total only.
MINIMAL_LAYOUT = (Column("score", 12), Column("total", 14))


#: Where each item of :data:`~.model.EXTRA_KEYS` goes when a sheet has it: the key it follows.
#: Black threes beside the red ones (a bonus like them); penalties after the cards; a special
#: hand and the adjustment last, just before the score they change.
EXTRA_AFTER = {
    "black_threes": "red_threes",
    "penalties": "in_hand",
    "special_hand": "in_hand",
    "adjustments": "in_hand",
}
EXTRA_WIDTH = 10.5
#: The compact layout folds the bonuses and the cards; the extra items still stand apart.
COMPACT_EXTRA_AFTER = "cards"


def _with_extras(layout: tuple[Column, ...], extras: Sequence[str]) -> tuple[Column, ...]:
    """The layout with a column for each extra item, in :data:`~.model.EXTRA_KEYS` order."""
    columns = list(layout)
    keys = [c.key for c in columns]
    for key in EXTRA_KEYS:
        if key not in extras:
            continue
        after = EXTRA_AFTER[key] if EXTRA_AFTER[key] in keys else COMPACT_EXTRA_AFTER
        at = keys.index(after) + 1
        while at < len(keys) and keys[at] in EXTRA_KEYS:  # after the extras already there
            at += 1
        columns.insert(at, Column(key, EXTRA_WIDTH))
        keys.insert(at, key)
    return tuple(columns)


def column_layout(
    groups: int, minus_points: bool = False, extras: Sequence[str] = ()
) -> tuple[Column, ...]:
    """The columns of one group, in order."""
    if minus_points:
        return MINIMAL_LAYOUT
    if groups <= 2:
        return _with_extras(FULL_LAYOUT, extras)
    if groups == 3:
        return _with_extras(COMPACT_LAYOUT, extras)
    return MINIMAL_LAYOUT
