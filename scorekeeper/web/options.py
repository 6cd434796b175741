"""House rules in words: the label of every ruleset parameter and the lines that describe a
game's changes ("Two: 20 instead of 50"), shared by the game page, the rules page and the PDF."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from ..rules.ruleset import OPTION_SPECS, RuleSet
from .i18n import number


def option_labels() -> dict[str, str]:
    """A short translated label for every house-rule parameter (keys of OPTION_SPECS)."""
    labels = {
        "joker_value": _("Joker value"),
        "two_value": _("Value of a two"),
        "ace_value": _("Value of an ace"),
        "high_value": _("Value of K, Q, J, 10, 9, 8"),
        "low_value": _("Value of 7, 6, 5, 4"),
        "black_three_value": _("Value of a black three"),
        "min_meld_size": _("Smallest meld (cards)"),
        "max_meld_size": _("Largest meld (cards, 0 = no limit)"),
        "max_wild_per_meld": _("Wild cards per meld, at most"),
        "natural_at_least_wild": _("At least as many natural cards as wild cards in a meld"),
        "min_natural_per_meld": _("Natural cards per meld, at least"),
        "canasta_size": _("Cards in a canasta"),
        "natural_canasta_bonus": _("Natural canasta bonus"),
        "mixed_canasta_bonus": _("Mixed canasta bonus"),
        "wild_canasta_bonus": _("Wild canasta bonus (0 = not allowed)"),
        "black_three_meld_min": _("Black threes in a meld when going out, at least"),
        "black_three_meld_max": _("Black threes in a meld when going out, at most"),
        "minimum_table": _("Initial meld minimums"),
        "concealed_needs_minimum": _("Going out concealed needs the initial meld minimum"),
        "going_out_bonus": _("Going out bonus"),
        "concealed_going_out_bonus": _("Going out concealed bonus (in total)"),
        "canastas_to_go_out": _("Canastas needed to go out"),
        "red_three_value": _("Red three, each"),
        "red_three_special": _("Red threes with a special score"),
        "red_threes_negative_without_meld": _("Red threes count against a side that has not "
                                              "melded"),
        "black_three_in_hand_penalty": _("Black three left in hand, minus"),
        "target": _("Target score"),
        "black_three_pile_when_going_out": _("A black three on the pile may be taken when "
                                             "going out with it"),
        "frozen_needs_natural_pair": _("A frozen pile needs a natural pair"),
    }
    assert set(labels) == set(OPTION_SPECS)
    return labels


def format_value(key: str, value: Any) -> str:
    """A parameter's value in words and locale numbers."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return number(value)
    if key == "minimum_table" and isinstance(value, tuple | list):
        parts = []
        for i, (threshold, minimum) in enumerate(value):
            if i == 0:
                parts.append(_("from below 0: %(minimum)s", minimum=number(minimum)))
            else:
                parts.append(_("from %(score)s: %(minimum)s", score=number(threshold),
                               minimum=number(minimum)))
        return "; ".join(parts)
    if isinstance(value, dict):
        if key == "canastas_to_go_out":
            return "; ".join(_("%(players)s players: %(canastas)s", players=number(k),
                               canastas=number(v)) for k, v in sorted(value.items()))
        return "; ".join(_("%(count)s: %(points)s", count=number(k), points=number(v))
                         for k, v in sorted(value.items()))
    return str(value)


def house_rule_lines(rs: RuleSet, base: RuleSet) -> list[str]:
    """One line per changed parameter: "Value of a two: 20 instead of 50"."""
    labels = option_labels()
    lines = []
    for key, value in rs.options_against(base).items():
        lines.append(_("%(rule)s: %(value)s instead of %(standard)s", rule=labels[key],
                       value=format_value(key, value),
                       standard=format_value(key, getattr(base, key))))
    return lines
