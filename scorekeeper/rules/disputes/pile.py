"""The black three that stops the pile for one turn and the red three taken with the pile."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import referee
from ..cards import Card
from ..problems import Problem
from ..ruleset import RuleSet
from .ruling import Ruling, sources_for

# ---- the black three on the pile ------------------------------------------------------------


def black_three_block(
    rs: RuleSet,
    players: int,
    pile: Sequence[Card],
    *,
    going_out: bool = False,
    hand: Sequence[Card] = (),
    side_melds: Sequence[Sequence[Card]] = (),
) -> Ruling:
    """Does a black three stop the pile, and for how long? (seed 000:97, 000:114, 002:208,
    003:104)

    ``pile``: the discard pile bottom to top. ``allowed``: whether the player about to draw may
    take the pile as far as stop cards go (the usual rules for taking it still apply).
    Facts: ``blocked``, ``black_three_on_top``, ``frozen`` (a wild card in the pile, or a red
    three as its first card), ``turns`` (1: a black three stops the next player only).

    >>> from ..ruleset import get_ruleset
    >>> from ..cards import parse_cards
    >>> r = black_three_block(get_ruleset("german"), 4, parse_cards("K 3s")[0])
    >>> r.allowed, r.reasons[0].code
    (False, 'pile_block.black_three')
    >>> black_three_block(get_ruleset("german"), 4, parse_cards("K 3s 9")[0]).allowed
    True
    """
    sources = sources_for("black-three-block", rs.id)
    top = pile[-1]
    below = list(pile[:-1])
    frozen = any(c.is_wild for c in pile) or pile[0].is_red_three
    facts: dict[str, Any] = {
        "blocked": False,
        "black_three_on_top": top.is_black_three,
        "frozen": frozen,
        "turns": 1,
    }
    if top.is_black_three:
        facts["blocked"] = True
        reasons: list[Problem] = [Problem("pile_block.black_three", "pile", {})]
        if rs.black_three_pile_when_going_out:
            if going_out:
                verdict = referee.discard_pile(
                    rs, players, top, side_melds=side_melds, hand=list(hand), going_out=True
                )
                if verdict.allowed:
                    facts["blocked"] = False
                    facts["melds"] = [list(m) for m in verdict.melds or ()]
                    return Ruling(
                        "black-three-block",
                        True,
                        (Problem("pile_block.exception_used", "pile", {}), *verdict.reasons),
                        facts,
                        sources,
                    )
                reasons.extend(verdict.reasons[:1])
            else:
                # seed 003:100: unless the player melds that black three going out.
                reasons.append(Problem("pile_block.exception", "pile", {}))
        return Ruling("black-three-block", False, tuple(reasons), facts, sources)
    if top.is_wild:
        return Ruling(
            "black-three-block",
            False,
            (Problem("discard_pile.blocked", "pile", {"reason": "wild"}),),
            {**facts, "blocked": True},
            sources,
        )
    reasons = []
    if any(c.is_black_three for c in below):
        # seed 000:97: "Nachdem eine weitere Karte auf die schwarze Drei gelegt wurde, ist die
        # Wirkung des Stoppers verflogen"; seed 003:104.
        reasons.append(Problem("pile_block.covered", "pile", {}))
    else:
        reasons.append(Problem("pile_block.none", "pile", {}))
    if frozen:
        reason = "wild" if any(c.is_wild for c in pile) else "red_three"
        reasons.append(Problem("discard_pile.frozen", "pile", {"reason": reason, "rank": top.rank}))
    return Ruling("black-three-block", True, tuple(reasons), facts, sources)


# ---- the red three taken with the pile ------------------------------------------------------


def red_three_from_pile(rs: RuleSet, players: int, red_threes: int = 1) -> Ruling:
    """Does a red three taken with the discard pile get a replacement card? (seed 003:80)

    ``allowed``: whether a replacement is drawn (never). Facts: ``replacement`` (False),
    ``laid_out`` (True), ``scores`` (what each red three scores, as any red three),
    ``stated``: whether the ruleset's seed says so in words (seed 003:80) or it is this
    scorekeeper's reading (the seed gives the replacement only for a red three drawn from the
    stock), ``possible``: whether the pile can hold a red three at all.

    >>> from ..ruleset import get_ruleset
    >>> r = red_three_from_pile(get_ruleset("polish"), 4)
    >>> r.allowed, r.facts["stated"], r.sources[0].line
    (False, True, 80)
    """
    sources = sources_for("red-three-from-pile", rs.id)
    stated = rs.id == "polish" and not rs.threes_by_colour
    # A red three reaches the pile only as its first card, turned up at the deal (seed 000:91,
    # 003:80); where no card is turned up (seed 002:278) and threes are laid out at once, it
    # never does.
    possible = not rs.threes_by_colour
    facts: dict[str, Any] = {
        "replacement": False,
        "laid_out": True,
        "scores": rs.red_three_value,
        "stated": stated,
        "possible": possible,
        "red_threes": red_threes,
    }
    if not possible:
        return Ruling(
            "red-three-from-pile",
            False,
            (Problem("pile_red_three.never", "", {}),),
            facts,
            sources,
        )
    code = "pile_red_three.no_replacement" if stated else "pile_red_three.reading"
    return Ruling(
        "red-three-from-pile",
        False,
        (Problem(code, "", {"count": red_threes, "value": rs.red_three_value, "frozen": True}),),
        facts,
        sources,
    )
