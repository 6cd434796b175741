"""Ruleset parameters in words, the one place for them: the label of every parameter, a
parameter's value as a reader reads it, the score ranges of a minimum table, and the lines
that describe a game's changes ("Two: 20 instead of 50"). The game page, the new-game form,
the rules pages, the referee and the PDF all call these; the API's JSON form stays
``RuleSet.as_dict``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _

from ...rules.ruleset import OPTION_SPECS, RuleSet
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
        "red_threes_negative_without_meld": _(
            "Red threes count against a side that has not melded"
        ),
        "black_three_in_hand_penalty": _("Black three left in hand, minus"),
        "target": _("Target score"),
        "black_three_pile_when_going_out": _(
            "A black three on the pile may be taken when going out with it"
        ),
        "frozen_needs_natural_pair": _("A frozen pile needs a natural pair"),
        "pile_frozen_until_melded": _("The pile is frozen for a side that has not melded"),
        "concealed_needs_all_canastas": _(
            "Going out concealed needs all the canastas required to go out"
        ),
        # docs/rulebook.md §6 (Modern American Canasta)
        "sevens_never_mixed": _("Sevens are never mixed with wild cards"),
        "aces_mixed_only_in_initial_meld": _("Aces take wild cards only in the initial meld"),
        "wild_meld_open": _("Wild cards alone make a meld (3 or more) that grows to a canasta"),
        "sevens_canasta_bonus": _("Canasta of sevens bonus (0 = as natural)"),
        "aces_canasta_bonus": _("Canasta of aces bonus (0 = as natural)"),
        "wild_canasta_jokers_bonus": _("Wild canasta with all four jokers (0 = as wild)"),
        "wild_canasta_twos_bonus": _("Wild canasta of twos only (0 = as wild)"),
        "unfinished_sevens_penalty": _("Unfinished meld of sevens, minus"),
        "unfinished_aces_penalty": _("Unfinished meld of natural aces, minus"),
        "unfinished_wild_penalty": _("Unfinished meld of wild cards, minus"),
        "held_sevens_aces_penalty": _("Sevens or aces held at the end, minus each time"),
        "held_sevens_aces_count": _("Sevens or aces held that cost the penalty, at least"),
        "threes_by_colour": _("Red and black threes laid out and scored per colour"),
        "threes_table": _("Threes of one colour score"),
        "threes_zero_canastas": _("Threes count nothing from this many canastas"),
        "threes_plus_canastas": _("Threes count plus from this many canastas"),
        "going_out_needs_discard": _("Going out needs a final discard"),
        "pile_needs_natural_pair_always": _("The pile is always taken with a natural pair"),
        "melds_minus_without_canasta": _("Melded cards count minus without a canasta"),
        # docs/rulebook.md §6 settled readings
        "new_meld_clean_until": _(
            "After the initial meld, a new meld takes wild cards from this many natural cards"
            " (0 = always)"
        ),
        "pile_onto_meld_max": _("The top card joins a meld of at most this many cards (0 = any)"),
        "concealed_going_out": _("Going out concealed is played"),
        "special_straight_value": _("Special hand: straight (0 = not played)"),
        "special_pairs_value": _("Special hand: pairs (0 = not played)"),
        "special_garbage_value": _("Special hand: garbage (0 = not played)"),
    }
    assert set(labels) == set(OPTION_SPECS)
    return labels


#: The step the totals of every preset move in (docs/rulebook.md §1 card values 5 to 50, §4
# bonuses):
#: the step :func:`minimum_ranges` assumes when it is given no ruleset's own.
PRESET_STEP = 5


def score_step(rs: RuleSet) -> int:
    """The step every score of ``rs`` moves in: the greatest common divisor of everything that
    scores (card values, bonuses, red threes, the black-three penalty).

    A side's total is a sum of these, so it is always a multiple of the step: 5 in every preset
    (docs/rulebook.md §1, §4), 1 when a house rule makes, say, a four worth 3.
    """
    values = [
        rs.joker_value,
        rs.two_value,
        rs.ace_value,
        rs.high_value,
        rs.low_value,
        rs.black_three_value,
        rs.natural_canasta_bonus,
        rs.mixed_canasta_bonus,
        rs.wild_canasta_bonus,
        rs.going_out_bonus,
        rs.concealed_going_out_bonus,
        rs.red_three_value,
        rs.black_three_in_hand_penalty,
        *rs.red_three_special.values(),
    ]
    for special in rs.red_three_special_by_players.values():
        values.extend(special.values())
    return math.gcd(*values) or 1


def minimum_ranges(
    table: Sequence[Sequence[int]], step: int = PRESET_STEP
) -> list[tuple[str, str]]:
    """Each row of an initial-meld minimum table as (score range, minimum), in words.

    A row covers the totals from its threshold up to the last total below the next threshold
    (docs/rulebook.md §3: a side's minimum is that of the highest threshold its total reaches; the
    first
    row covers every total below the second threshold). ``step``: the step totals move in
    (:func:`score_step` of the ruleset the table belongs to), so the standard table reads
    "0 – 1,495" as docs/rulebook.md §3 prints it, and a house table with a threshold of 1,501 reads
    "0 – 1,500"; with ``step=1`` a range ends one point below the next threshold. A minimum of 0
    is "none".
    """
    rows = []
    last = len(table) - 1
    for i, (threshold, minimum) in enumerate(table):
        if last == 0:
            scores = _("any score")
        elif i == 0:
            scores = _("below %(score)s", score=number(table[1][0]))
        elif i == last:
            scores = _("%(score)s and more", score=number(threshold))
        else:
            below = table[i + 1][0] - 1
            upper = below - below % step if step > 1 else below
            if upper < threshold:  # no total of this step in between: the range as given
                upper = below
            scores = (
                number(threshold)
                if upper == threshold
                else f"{number(threshold)} \u2013 {number(upper)}"
            )
        rows.append((scores, number(minimum) if minimum else _("none")))
    return rows


def format_value(key: str, value: Any, step: int = PRESET_STEP) -> str:
    """A parameter's value as a reader reads it, in words and the reader's numbers: the one
    formatter of option values for reading (pages, PDF, referee; the API keeps
    ``RuleSet.as_dict``).

    ``step``: the score step of the ruleset the value belongs to (:func:`score_step`), used
    for the ranges of a minimum table.
    """
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return number(value)
    if key == "minimum_table" and isinstance(value, tuple | list):
        return "; ".join(
            _("%(scores)s: %(minimum)s", scores=scores, minimum=minimum)
            for scores, minimum in minimum_ranges(value, step)
        )
    if isinstance(value, dict):
        if key == "canastas_to_go_out":
            return "; ".join(
                _("%(players)s players: %(canastas)s", players=number(k), canastas=number(v))
                for k, v in sorted(value.items())
            )
        return "; ".join(
            _("%(count)s: %(points)s", count=number(k), points=number(v))
            for k, v in sorted(value.items())
        )
    return str(value)


def option_changes(rs: RuleSet, base: RuleSet) -> list[tuple[str, str, str]]:
    """Every parameter ``rs`` changes against ``base``: (label, value in ``base``, in ``rs``)."""
    labels = option_labels()
    return [
        (
            labels.get(key, key),
            format_value(key, getattr(base, key), score_step(base)),
            format_value(key, value, score_step(rs)),
        )
        for key, value in rs.options_against(base).items()
    ]


def house_rule_lines(rs: RuleSet, base: RuleSet) -> list[str]:
    """One line per changed parameter: "Value of a two: 20 instead of 50"."""
    return [
        _("%(rule)s: %(value)s instead of %(standard)s", rule=label, value=value, standard=standard)
        for label, standard, value in option_changes(rs, base)
    ]
