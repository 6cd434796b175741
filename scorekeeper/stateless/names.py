"""The names a problem's message uses, in the reader's language: ranks, card letters, canasta
kinds, special hands. The web layer's pages use the same (``web.words.names`` re-exports them).
"""

from __future__ import annotations

from typing import Any

from ..rules.cards import RANKS, Card
from .words import current_language, pgettext
from .words import gettext as _


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


def special_hand_name(name: str) -> str:
    """A special hand of docs/rulebook.md §6 in the reader's language."""
    names = {"straight": _("Straight"), "pairs": _("Pairs"), "garbage": _("Garbage")}
    return names.get(name, name)
