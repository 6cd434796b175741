"""The longer referee answers in words: why a meld needs more natural cards, when black threes
may be melded, what going out concealed asks, why the discard pile is blocked or frozen, how it
may be taken, and when a side may go out. :data:`.messages.MESSAGES` maps their codes here.
"""

from __future__ import annotations

from typing import Any

from .names import card_label, rank_name
from .words import gettext as _
from .words import ngettext, number


def number_param(params: dict[str, Any], key: str) -> str:
    value = params.get(key)
    return number(value) if isinstance(value, int) else str(value if value is not None else "")


def too_few_natural(p: dict[str, Any]) -> str:
    rule = p.get("rule")
    if rule == "wild_incomplete":
        return _(
            "Wild cards alone make a meld only as a complete wild canasta of "
            "%(size)s cards, laid in one turn.",
            size=number_param(p, "wild_canasta"),
        )
    if rule == "no_wild_canasta":
        return _("A meld needs natural cards: wild cards alone are no meld in these rules.")
    if rule == "min_natural":
        return ngettext(
            "A meld needs at least %(num)s natural card (this one has %(have)s).",
            "A meld needs at least %(num)s natural cards (this one has %(have)s).",
            int(p.get("minimum", 2)),
            have=number_param(p, "naturals"),
        )
    return _(
        "A meld needs at least as many natural cards as wild cards "
        "(%(naturals)s natural, %(wilds)s wild).",
        naturals=number_param(p, "naturals"),
        wilds=number_param(p, "wilds"),
    )


def black_threes(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "wild":
        return _("A meld of black threes may not contain wild cards.")
    if reason == "too_many":
        return _(
            "At most %(maximum)s black threes go into one meld.", maximum=number_param(p, "maximum")
        )
    if reason == "laid_out":
        return _(
            "Black threes are never melded here: they are laid out and scored like red threes."
        )
    return _(
        "Black threes may be melded only when going out, %(low)s to %(high)s of them.",
        low=number_param(p, "minimum"),
        high=number_param(p, "maximum"),
    )


def concealed(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "melded_before":
        return _(
            "Going out concealed is only for a player who has not melded anything "
            "earlier in this hand."
        )
    if reason == "no_canasta":
        return _(
            "Going out concealed needs at least one complete canasta of the player's own "
            "in that turn."
        )
    if reason == "not_in_rules":
        return _("These rules know no going out concealed: going out scores its usual bonus.")
    if reason == "joined":
        return _(
            "Going out concealed adds nothing to the partner's melds: every card goes "
            "into a new meld of the player's own."
        )
    return _("Only the side that went out can have gone out concealed.")


def blocked(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "black_three":
        return _("A black three on top stops the pile: nobody may take it this turn.")
    if reason == "red_three":
        return _("A red three is never a discard: it is laid out as a bonus card.")
    return _("A wild card on top blocks the pile: nobody may take it until another card covers it.")


def frozen(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    rank = rank_name(p.get("rank"))
    if reason == "wild":
        why = _("it holds a wild card")
    elif reason == "red_three":
        why = _("a red three was turned up as its first card")
    elif reason == "always":
        return _(
            "In these rules the pile is taken only by melding its top card with two "
            "natural %(rank)s from your hand.",
            rank=rank,
        )
    else:
        why = _("your side has not melded yet")
    return _(
        "The pile is frozen (%(why)s): take it only by melding the top card with two "
        "natural %(rank)s from your hand.",
        why=why,
        rank=rank,
    )


def allowed_pile(p: dict[str, Any]) -> str:
    how = p.get("how")
    rank = rank_name(p.get("rank"))
    if how == "existing_meld":
        return _("Lay the top card on your side's meld of %(rank)s, then take the pile.", rank=rank)
    if how == "with_wild":
        return _(
            "Meld the top card with one of your %(rank)s and a wild card, then take the pile.",
            rank=rank,
        )
    if how == "black_threes_going_out":
        return _("Meld the black three with your own black threes as you go out.")
    return _(
        "Meld the top card with two natural %(rank)s from your hand, then take the pile.", rank=rank
    )


def going_out_allowed(p: dict[str, Any]) -> str:
    if p.get("concealed"):
        return _("Going out concealed scores %(bonus)s.", bonus=number_param(p, "bonus"))
    text = ngettext(
        "The side has the %(num)s canasta needed; going out scores %(bonus)s.",
        "The side has the %(num)s canastas needed; going out scores %(bonus)s.",
        int(p.get("needed", 1)),
        bonus=number_param(p, "bonus"),
    )
    if p.get("discard"):
        text += " " + _("Keep one card for the final discard.")
    return text


def going_out_possible(p: dict[str, Any]) -> str:
    discard = p.get("discard")
    shown = {"3b": "3\u2660", "3r": "3\u2665"}.get(str(discard), card_label(str(discard)))
    thrown = " " + _("Discard %(card)s last.", card=shown) if discard else ""
    if p.get("concealed"):
        return (
            _(
                "You may go out concealed now: your side scores %(score)s for the hand, before "
                "red threes and your partner's cards.",
                score=number_param(p, "score"),
            )
            + thrown
        )
    return (
        _(
            "You may go out now: your side scores %(score)s for the hand, before red threes "
            "and your partner's cards.",
            score=number_param(p, "score"),
        )
        + thrown
    )
