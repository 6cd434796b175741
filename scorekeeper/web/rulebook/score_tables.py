"""The tables of numbers on the rules pages (and in the referee's answers): card values,
bonuses, initial-meld minimums, values by player count; rows a house rule changed are marked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from ...rules.cards import NATURAL_RANKS
from ...rules.ruleset import RuleSet
from ..words.i18n import number
from ..words.names import card_label
from ..words.parameters import minimum_ranges, score_step


@dataclass
class Row:
    """One table row; ``changed``: a house rule changed it; ``current``: the row that applies."""

    cells: list[str]
    changed: bool = False
    current: bool = False


@dataclass
class Table:
    """A table of the rules page: its column headings, its rows and its caption."""

    head: list[str]
    rows: list[Row]
    caption: str = ""


def minimum_table(
    rs: RuleSet, players: int | None, score: int | None = None, changed: bool = False
) -> Table:
    """The initial-meld minimums by the side's score; ``score`` marks the row that applies."""
    table = rs.minimum_table_for(players)
    current = None
    if score is not None:
        for i, (threshold, _minimum) in enumerate(table):
            if i == 0 or score >= threshold:
                current = i
    rows = [
        Row([scores, minimum], changed=changed, current=(i == current))
        for i, (scores, minimum) in enumerate(minimum_ranges(table, score_step(rs)))
    ]
    return Table([_("Side's score"), _("Minimum")], rows)


def card_value_table(rs: RuleSet, changed: set[str]) -> Table:
    high = " ".join(card_label(r) for r in reversed(NATURAL_RANKS[4:10]))
    low = " ".join(card_label(r) for r in reversed(NATURAL_RANKS[:4]))
    rows = [
        Row([_("Joker"), number(rs.joker_value)], "joker_value" in changed),
        Row([_("Two"), number(rs.two_value)], "two_value" in changed),
        Row([_("Ace"), number(rs.ace_value)], "ace_value" in changed),
        Row([high, number(rs.high_value)], "high_value" in changed),
        Row([low, number(rs.low_value)], "low_value" in changed),
        Row([_("Black three"), number(rs.black_three_value)], "black_three_value" in changed),
        Row([_("Red three"), _("bonus card")]),
    ]
    return Table([_("Card"), _("Points")], rows)


def per_players(rs: RuleSet, value: Any, changed: bool) -> Table:
    return Table(
        [_("Players"), ""],
        [Row([number(n), number(value(n))], changed) for n in rs.players_allowed],
    )


def bonus_table(rs: RuleSet, players: int | None, changed: set[str]) -> Table:
    count = players or rs.default_players
    rows = [
        Row(
            [_("Natural canasta"), number(rs.natural_canasta_bonus)],
            "natural_canasta_bonus" in changed,
        ),
        Row([_("Mixed canasta"), number(rs.mixed_canasta_bonus)], "mixed_canasta_bonus" in changed),
    ]
    # docs/rulebook.md §6: canastas of sevens and aces, and wild canastas of several values.
    for label, key in (
        (_("Canasta of sevens"), "sevens_canasta_bonus"),
        (_("Natural canasta of aces"), "aces_canasta_bonus"),
    ):
        if getattr(rs, key):
            rows.append(Row([label, number(getattr(rs, key))], key in changed))
    if rs.allows_wild_canasta():
        rows.append(
            Row([_("Wild canasta"), number(rs.wild_canasta_bonus)], "wild_canasta_bonus" in changed)
        )
    for label, key in (
        (_("Wild canasta with all four jokers"), "wild_canasta_jokers_bonus"),
        (_("Wild canasta of twos only"), "wild_canasta_twos_bonus"),
    ):
        if rs.allows_wild_canasta() and getattr(rs, key):
            rows.append(Row([label, number(getattr(rs, key))], key in changed))
    rows.append(Row([_("Going out"), number(rs.going_out_bonus)], "going_out_bonus" in changed))
    if rs.concealed_going_out_bonus != rs.going_out_bonus:
        rows.append(
            Row(
                [_("Going out concealed"), number(rs.concealed_going_out_bonus)],
                "concealed_going_out_bonus" in changed,
            )
        )
    if not rs.threes_by_colour:
        rows.append(
            Row(
                [_("Each red three"), number(rs.red_three_score(1, count))],
                "red_three_value" in changed,
            )
        )
    rows.append(
        Row(
            [_("Black three left in hand"), number(-rs.black_three_in_hand_penalty)],
            "black_three_in_hand_penalty" in changed,
        )
    )
    return Table([_("For"), _("Points")], rows)
