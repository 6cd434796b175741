"""The referee's answer (:class:`Verdict`) and the rules-page anchor each reason code rests on
(docs/rulebook.md §2–§5)."""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card, cards_to_str
from ..problems import Problem

# The rule each reason code rests on: an anchor of the rules page (docs/rulebook.md section).
RULE_OF_CODE_PREFIX = {
    "meld": "melds",
    "card": "cards",
    "initial_meld": "initial-meld",
    "discard_pile": "discard-pile",
    "going_out": "going-out",
    "red_threes": "red-threes",
    "black_threes": "red-threes",
    "special_hand": "scoring",
    "three_is_fifty": "moves",
    # The disputes of scorekeeper.rules.disputes.
    "permission": "going-out",
    "stock": "going-out",
    "draw": "overview",
    "pile_block": "discard-pile",
    "pile_red_three": "red-threes",
    "fifty_deal": "moves",
}


def rule_anchor(code: str) -> str:
    """The rules-page anchor a reason code rests on (``meld.too_small`` → ``melds``)."""
    return RULE_OF_CODE_PREFIX.get(code.split(".", 1)[0], "overview")


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to one question: allowed or not, and why.

    ``reasons`` always holds at least one problem code (a "yes" names the rule it rests on).
    The other fields are the facts of the question asked; those that do not belong to it are
    ``None``:

    * a meld (:func:`meld`): ``points`` (card points), ``bonus`` (canasta bonus), ``total``,
      ``kind`` ("meld" or the canasta kind), ``naturals``, ``wilds``;
    * an initial meld (:func:`initial_meld`): ``required`` (the side's minimum), ``counted``
      (what the melds count toward it), ``melds`` (as laid, with the top card);
    * the discard pile (:func:`discard_pile`): ``melds`` (one way to take it, empty when
      refused), ``required`` and ``counted`` (for a side still to meld), ``how`` (the way);
    * going out (:func:`go_out`): ``needed`` and ``canastas`` (canastas needed and had),
      ``bonus`` (for going out), ``points`` (of the melds laid in the turn).
    """

    allowed: bool
    reasons: tuple[Problem, ...]
    points: int | None = None
    bonus: int | None = None
    total: int | None = None
    kind: str | None = None
    naturals: int | None = None
    wilds: int | None = None
    required: int | None = None
    counted: int | None = None
    melds: tuple[tuple[str, ...], ...] | None = None
    how: str | None = None
    needed: int | None = None
    canastas: int | None = None


def _melds_shown(melds: Sequence[Sequence[Card]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(cards_to_str(cards)) for cards in melds)
