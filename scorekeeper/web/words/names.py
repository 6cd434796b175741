"""The names of things in the reader's language: ranks, card letters, rulesets, the items of a
score, canasta kinds, special hands, and counted nouns ("3 canastas") with the reader's plural
forms (Polish has three). Pages, PDFs and the messages of :mod:`.messages` all call these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _

from ...rules.scoring import ITEM_KEYS
from ...stateless.names import (
    canasta_kind,
    card_label,
    card_name,
    rank_name,
    special_hand_name,
)
from .i18n import ngettext, number, signed

__all__ = [
    "canasta_kind",
    "canastas_of_kind",
    "canastas_text",
    "card_label",
    "card_name",
    "cards_text",
    "item_labels",
    "points_text",
    "rank_name",
    "ruleset_title",
    "said_hand",
    "said_totals",
    "special_hand_name",
]


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


def said_totals(names: Sequence[str], totals: Sequence[int]) -> str:
    """The score as a screen reader says it when it changes: "Score: Anna & Ben 1,205 points;
    Cleo & Dan 1,080 points." (the plural form by the number, so -1 point as 1)."""
    each = [
        ngettext(
            "%(name)s %(points)s point",
            "%(name)s %(points)s points",
            abs(total),
            name=name,
            points=number(total),
        )
        for name, total in zip(names, totals, strict=False)
    ]
    return _("Score: %(totals)s.", totals="; ".join(each))


def said_hand(name: str, score: int, total: int) -> str:
    """One column of the live preview as a screen reader says it: "Anna & Ben +630 this hand,
    1,260 points in total"."""
    return ngettext(
        "%(name)s %(score)s this hand, %(points)s point in total",
        "%(name)s %(score)s this hand, %(points)s points in total",
        abs(total),
        name=name,
        score=signed(score),
        points=number(total),
    )


def points_text(count: int) -> str:
    """ "1 point", "5 points" in the reader's plural forms, number in the reader's format."""
    return ngettext("%(points)s point", "%(points)s points", count, points=number(count))
