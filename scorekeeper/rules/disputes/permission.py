"""The partner's "may I go out?" ("Darf ich ausmachen?")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from ..laying import go_out_with
from ..problems import Problem
from ..ruleset import RuleSet
from .ruling import Ruling, _src, sources_for

# ---- "Darf ich ausmachen?" ----------------------------------------------------------------


def partner_permission(
    rs: RuleSet,
    players: int,
    *,
    answer: str | None = None,
    drawn: bool = True,
    melded_since_draw: bool = False,
    asked_before: bool = False,
    hand: Sequence[Card] | None = None,
    side_melds: Sequence[Sequence[Card]] = (),
) -> Ruling:
    """The partner's answer to "May I go out?" and what it binds (seed 000:125, 002:248-252,
    002:51-55).

    ``answer``: ``"yes"``, ``"no"`` or None (may I ask now?). ``allowed``: with an answer,
    whether the player may go out this turn; without, whether the player may ask now.
    Facts: ``rule_exists``, ``may_ask``, ``must_go_out``, ``may_go_out``, and with ``hand``
    (the player's cards after drawing) and ``side_melds``: ``able`` and one way to go out
    (``melds``, ``discard``).

    >>> from ..ruleset import get_ruleset
    >>> partner_permission(get_ruleset("polish"), 4, answer="yes").reasons[0].code
    'permission.no_rule'
    >>> partner_permission(get_ruleset("classic"), 4, answer="yes").facts["must_go_out"]
    True
    """
    sources = sources_for("partner-permission", rs.id)
    facts: dict[str, Any] = {
        "rule_exists": rs.partner_permission,
        "may_ask": False,
        "must_go_out": False,
        "may_go_out": None,
        "answer": answer,
    }
    if not rs.partner_permission:
        # seed 003 has no such question: the player decides alone (seed 003:112); a house rule
        # that drops it cites the seed rule it sets aside.
        return Ruling(
            "partner-permission",
            False,
            (Problem("permission.no_rule", "ruleset", {}),),
            facts,
            sources or _src("003:112"),
        )
    if not rs.has_partner(players):
        return Ruling(
            "partner-permission",
            False,
            (Problem("permission.no_partner", "players", {"players": players}),),
            facts,
            sources,
        )
    needed = rs.canastas_needed(players)
    able: bool | None = None
    way: dict[str, Any] = {}
    if hand is not None:
        # Whether the cards can go out now (the side's canastas counted after laying them).
        out = go_out_with(
            rs,
            list(hand),
            [list(m) for m in side_melds],
            needed=needed,
            discard=True if rs.going_out_needs_discard else None,
            melded=bool(side_melds),
        )
        able = out is not None and out[0].canastas >= needed
        facts["able"] = able
        if able and out is not None:
            laid, thrown = out
            way["melds"] = [
                [c.token for c in m]
                for m, cards in zip(laid.melds, laid.laid, strict=True)
                if cards
            ]
            way["discard"] = thrown.token if thrown else None
    refusals: list[Problem] = []
    if not drawn:
        refusals.append(Problem("permission.draw_first", "drawn", {}))
    if melded_since_draw and rs.partner_permission_before_melds:
        refusals.append(Problem("permission.after_melds", "melded_since_draw", {}))
    if asked_before and rs.partner_permission_once:
        refusals.append(Problem("permission.asked_before", "asked_before", {}))
    if able is False and rs.partner_permission_when_able:
        refusals.append(Problem("permission.not_able", "hand", {"needed": needed}))
    facts["may_ask"] = not refusals
    params = {"needed": needed, "discard": rs.going_out_needs_discard}
    if answer is None:
        if refusals:
            return Ruling("partner-permission", False, tuple(refusals), facts, sources)
        return Ruling(
            "partner-permission",
            True,
            (
                Problem(
                    "permission.may_ask",
                    "",
                    {
                        **params,
                        "before_melds": rs.partner_permission_before_melds,
                        "once": rs.partner_permission_once,
                        "when_able": rs.partner_permission_when_able,
                    },
                ),
            ),
            facts,
            sources,
        )
    if answer == "no":
        # seed 000:125 "die Antwort ist bindend"; seed 002:250 "you are not allowed to go out";
        # seed 002:53 "you must keep at least one card in your hand after discarding".
        facts["may_go_out"] = False
        return Ruling(
            "partner-permission",
            False,
            (Problem("permission.no", "answer", params), *refusals),
            facts,
            sources,
        )
    # "yes": seed 002:250 "If the answer is "yes", you must go out"; seed 000:125 binding.
    facts["must_go_out"] = True
    facts["may_go_out"] = True
    reasons: list[Problem] = [Problem("permission.yes", "answer", params)]
    if able is False:
        # The referee never tells a player to go out illegally: the yes binds only a
        # player who can (the side still needs its canastas, seed 000:123, 002:242).
        facts["must_go_out"] = False
        facts["may_go_out"] = False
        reasons = [Problem("permission.yes_not_able", "hand", {"needed": needed})]
    facts.update(way)
    return Ruling(
        "partner-permission", bool(facts["may_go_out"]), (*reasons, *refusals), facts, sources
    )
