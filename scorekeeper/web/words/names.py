"""The names of things in the reader's language: ranks, card letters, rulesets, the items of a
score, canasta kinds, special hands, and counted nouns ("3 canastas") with the reader's plural
forms (Polish has three). Pages, PDFs and the messages of :mod:`.messages` all call these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext, pgettext

from ...rules.cards import RANKS, Card
from ...rules.scoring import ITEM_KEYS
from .i18n import current_language, number


def rank_name(rank: Any, plural: bool = True) -> str:
    """A rank as the reader says it in a sentence (kings / Könige / króle)."""
    names_plural = {
        "A": _("aces"),
        "K": _("kings"),
        "Q": _("queens"),
        "J": _("jacks"),
        "10": _("tens"),
        "9": _("nines"),
        "8": _("eights"),
        "7": _("sevens"),
        "6": _("sixes"),
        "5": _("fives"),
        "4": _("fours"),
        "2": _("twos"),
        "X": _("jokers"),
        "3r": _("red threes"),
        "3b": _("black threes"),
        "wild": _("wild cards"),
    }
    return names_plural.get(str(rank), str(rank))


def card_name(rank: str) -> str:
    """One card as a screen reader should say it, in the reader's language (the card pad's
    keys show letters: "K" is read "King", "3♥" "Red three")."""
    names = {
        "A": _("Ace"),
        "K": _("King"),
        "Q": _("Queen"),
        "J": _("Jack"),
        "10": _("Ten"),
        "9": _("Nine"),
        "8": _("Eight"),
        "7": _("Seven"),
        "6": _("Six"),
        "5": _("Five"),
        "4": _("Four"),
        "3": _("Three"),
        "2": _("Two"),
        "X": _("Joker"),
        "3r": _("Red three"),
        "3b": _("Black three"),
    }
    return names.get(rank, rank)


def card_label(rank: str) -> str:
    """The letter(s) shown on a card button in the reader's language (German B D, Polish W D)."""
    if rank not in RANKS:
        return rank
    return Card(rank).label(current_language())


def ruleset_title(rs: Any, short: bool = False) -> str:
    """The name of a ruleset (a RuleSet or its id) in the reader's language: the one place for
    it (pages, PDF, API). ``short``: the name alone, for segmented controls and comparisons."""
    ruleset_id = rs if isinstance(rs, str) else rs.id
    if short:
        names = {
            "german": _("German"),
            "polish": _("Polish"),
            "classic": _("Classic"),
            "american": _("American"),
            "three-is-fifty": _("3 is 50"),
        }
    else:
        names = {
            "german": _("Canasta (German rules)"),
            "polish": _("Canasta (Polish rules)"),
            "classic": _("Classic Canasta (international)"),
            "american": _("Modern American Canasta"),
            "three-is-fifty": _("3 is 50"),
        }
    return names.get(ruleset_id, ruleset_id if isinstance(rs, str) else rs.name)


def item_labels(short: bool = False, keys: Sequence[str] = ITEM_KEYS) -> dict[str, str]:
    """The label of each item of a hand's score breakdown, keyed and ordered as ``keys``
    (``rules.scoring.ITEM_KEYS``, or ``item_keys(ruleset)`` for a ruleset with more items);
    ``short``: the headings of the PDF's narrow columns."""
    labels = {
        "melded_cards": _("Melded cards"),
        "canasta_bonus": _("Canastas"),
        "red_threes": _("Red threes"),
        "black_threes": _("Black threes"),
        "going_out": _("Going out"),
        "penalties": _("Penalties"),
        "in_hand": _("In hand") if short else _("Left in hand"),
        "special_hand": _("Special hand"),
        "adjustments": _("Adjustment"),
    }
    return {key: labels[key] for key in keys}


def canasta_kind(kind: str) -> str:
    """A canasta's kind as "%(kind)s canasta" takes it: natural, mixed, wild, or (Modern
    American, where they have their own bonus) of sevens or of aces."""
    return {
        "natural": _("natural"),
        "mixed": _("mixed"),
        "wild": _("wild"),
        "sevens": pgettext("a canasta of", "sevens"),
        "aces": pgettext("a canasta of", "aces"),
    }.get(kind, kind)


def canastas_of_kind(kind: str, count: int) -> str:
    """ "2 natural" (canastas): a count of one kind in the reader's plural forms; the
    adjective agrees with the count (Polish "1 czysta, 2 czyste, 5 czystych")."""
    if kind == "natural":
        return ngettext("%(num)s natural", "%(num)s natural", count)
    if kind == "mixed":
        return ngettext("%(num)s mixed", "%(num)s mixed", count)
    if kind == "wild":
        return ngettext("%(num)s wild", "%(num)s wild", count)
    return f"{number(count)} {kind}"


def canastas_text(count: int) -> str:
    """ "1 canasta", "3 canastas" — with the reader's plural forms (Polish has three)."""
    return ngettext("%(num)s canasta", "%(num)s canastas", count)


def cards_text(count: int) -> str:
    """ "1 card", "5 cards" in the reader's plural forms."""
    return ngettext("%(num)s card", "%(num)s cards", count)


def points_text(count: int) -> str:
    """ "1 point", "5 points" in the reader's plural forms, number in the reader's format."""
    return ngettext("%(points)s point", "%(points)s points", count, points=number(count))


def special_hand_name(name: str) -> str:
    """A special hand of RULES.md §6 in the reader's language."""
    names = {"straight": _("Straight"), "pairs": _("Pairs"), "garbage": _("Garbage")}
    return names.get(name, name)
