"""Referee question: may a side go out, and its going-out bonus (docs/rulebook.md §5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import deck
from ..cards import Card
from ..melds import check_meld, count_canastas
from ..problems import Problem
from ..ruleset import RuleSet
from ..scoring import same_rank_problems
from .melding import join_melds
from .verdict import Verdict


def go_out(
    rs: RuleSet,
    players: int,
    side_canastas: dict[str, int],
    *,
    concealed: bool = False,
    player_melded_before: bool = False,
    melds: Sequence[Sequence[Card]] | None = None,
    side_melds: Sequence[Sequence[Card]] | None = None,
) -> Verdict:
    """May this player go out (concealed or not)? (docs/rulebook.md §4)

    ``melds`` is what the player lays down in the going-out turn; ``None`` means
    "not told", and then the concealed check cannot ask for a canasta of the
    player's own in that turn (the side's canastas are taken as theirs).
    ``side_melds``: the side's melds already on the table; when given, each group laid joins
    the side's meld of its rank or starts a new one, and the canastas are counted after that
    (docs/rulebook.md §5 "Going out"); ``side_canastas`` is then not needed.
    """
    impossible = deck.too_many(rs, players, [*(melds or ()), *(side_melds or ())])
    if impossible:
        return Verdict(False, tuple(impossible))
    needed = rs.canastas_needed(players)
    groups = [list(m) for m in (melds or ())]
    reasons: list[Problem] = []
    if side_melds is not None:
        for i, cards in enumerate(side_melds):
            reasons.extend(check_meld(cards, rs, going_out=True, where=f"side_melds[{i}]").problems)
        after, touched, into = join_melds(side_melds, groups, rs)
        # Melds started now come after the side's initial meld when it has melds on the table
        # (docs/rulebook.md §6); a meld of aces with wild cards on the table was its initial meld.
        checked_all = [
            check_meld(
                cards,
                rs,
                going_out=True,
                where=f"melds[{i}]",
                new_meld=bool(side_melds) and i >= len(side_melds),
                initial_meld=not side_melds
                or (i < len(side_melds) and any(c.is_wild for c in side_melds[i])),
            )
            for i, cards in enumerate(after)
        ]
        reasons.extend(
            p
            for i, m in enumerate(checked_all)
            if touched[i] and i >= len(side_melds)
            for p in m.problems
        )
        for g, i in enumerate(into):
            if i < len(side_melds):
                reasons.extend(
                    Problem(p.code, f"melds[{g}]", p.params) for p in checked_all[i].problems
                )
        if not reasons:
            reasons.extend(same_rank_problems(checked_all[len(side_melds) :], ""))
        counts = count_canastas(checked_all)
        new_canastas = sum(
            1 for i, m in enumerate(checked_all) if i >= len(side_melds) and m.is_canasta
        )
        joined = any(i < len(side_melds) for i in into)
        points = sum(rs.card_value(c) for g in groups for c in g)
        have = sum(counts.values())
        if concealed and joined:
            reasons.append(Problem("going_out.concealed", "melds", {"reason": "joined"}))
    else:
        checked = [
            check_meld(cards, rs, going_out=True, where=f"melds[{i}]")
            for i, cards in enumerate(groups)
        ]
        for m in checked:
            reasons.extend(m.problems)
        reasons.extend(same_rank_problems(checked, ""))
        counts = dict(side_canastas)
        new_canastas = sum(1 for m in checked if m.is_canasta)
        have = sum(side_canastas.values()) + new_canastas
        points = sum(m.points + m.bonus for m in checked)
    if counts.get("wild") and not rs.allows_wild_canasta():
        # docs/rulebook.md §2: only the Polish rules know wild canastas.
        reasons.append(Problem("quick.wild_canasta", "side_canastas.wild", {}))
    if concealed and not rs.concealed_needs_all_canastas:
        # A house rule: one canasta of the player's own is enough to go out concealed.
        needed = min(needed, 1)
    if have < needed:
        reasons.append(
            Problem(
                "going_out.not_enough_canastas", "side_canastas", {"needed": needed, "have": have}
            )
        )
    if concealed and not rs.concealed_going_out:
        # docs/rulebook.md §6: American Canasta knows going out only (bonus 100), no concealed way.
        reasons.append(Problem("going_out.concealed", "concealed", {"reason": "not_in_rules"}))
    elif concealed:
        if player_melded_before:
            reasons.append(
                Problem("going_out.concealed", "player_melded_before", {"reason": "melded_before"})
            )
        if new_canastas == 0 and melds is not None:
            reasons.append(Problem("going_out.concealed", "melds", {"reason": "no_canasta"}))
    bonus = rs.concealed_going_out_bonus if concealed else rs.going_out_bonus
    facts: dict[str, Any] = {"needed": needed, "canastas": have, "bonus": bonus, "points": points}
    if reasons:
        return Verdict(False, tuple(reasons), **facts)
    return Verdict(
        True,
        (
            Problem(
                "going_out.allowed",
                "",
                {
                    "needed": needed,
                    "have": have,
                    "bonus": bonus,
                    "concealed": concealed,
                    # docs/rulebook.md §6: the American player keeps a final discard.
                    "discard": rs.going_out_needs_discard,
                },
            ),
        ),
        **facts,
    )
