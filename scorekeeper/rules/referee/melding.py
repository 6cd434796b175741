"""Referee questions on melds: one meld, the initial meld (docs/rulebook.md §2–§4) and how
melds laid join a side's melds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import deck
from ..cards import Card
from ..melds import check_meld, meld_rank
from ..problems import Problem
from ..ruleset import RuleSet
from ..scoring import same_rank_problems
from .verdict import Verdict, _melds_shown


def meld(
    rs: RuleSet,
    cards: Sequence[Card],
    going_out: bool = False,
    initial_meld: bool = False,
    players: int | None = None,
) -> Verdict:
    """Is this meld legal, and what is it worth? (``initial_meld``: laid as the side's initial
    meld, where American rules let aces be mixed, docs/rulebook.md §6.) More of a rank than the
    decks
    of ``players`` hold (None: of the most decks the ruleset uses) is ``card.too_many``.

    >>> from ..ruleset import get_ruleset
    >>> from ..cards import parse_cards
    >>> meld(get_ruleset("german"), parse_cards("A" * 9)[0], players=4).reasons
    (Problem('card.too_many', '', {'rank': 'A', 'count': 9, 'maximum': 8}),)
    """
    impossible = deck.too_many(rs, players, [cards])
    if impossible:
        return Verdict(False, tuple(impossible))
    m = check_meld(cards, rs, going_out=going_out, initial_meld=initial_meld)
    facts: dict[str, Any] = {
        "points": m.points,
        "bonus": m.bonus,
        "total": m.total,
        "kind": m.kind,
        "naturals": m.naturals,
        "wilds": m.wilds,
    }
    if not m.legal:
        return Verdict(False, m.problems, **facts)
    if m.rank == "3b":
        # docs/rulebook.md §2: black threes are melded only when going out; they are no canasta.
        return Verdict(
            True,
            (Problem("meld.black_threes_going_out", "", {"size": len(cards), "points": m.points}),),
            **facts,
        )
    code = "meld.canasta" if m.is_canasta else "meld.legal"
    params = {
        "rank": m.rank,
        "naturals": m.naturals,
        "wilds": m.wilds,
        "points": m.points,
        "kind": m.kind,
        "bonus": m.bonus,
        "size": len(cards),
    }
    return Verdict(True, (Problem(code, "", params),), **facts)


def _top_meld_index(melds: list[list[Card]], top: Card) -> int | None:
    for i, cards in enumerate(melds):
        if any(c.rank == top.rank for c in cards):
            return i
    return None


def initial_meld(
    rs: RuleSet,
    players: int,
    cumulative_score: int,
    melds: Sequence[Sequence[Card]],
    top_card: Card | None = None,
    side_melds: Sequence[Sequence[Card]] = (),
) -> Verdict:
    """Does this initial meld reach the side's minimum? (docs/rulebook.md §3)

    ``melds`` are the melds laid down in the turn. With ``top_card`` (the discard pile's top
    card) the pile is frozen for a side that has not melded (docs/rulebook.md §5), so its meld
    needs two
    natural cards of that rank from hand. If the meld of that rank lists three or more natural
    cards of it, the top card is taken to be among them; with fewer it is added to that meld.
    Only the top card counts toward the minimum, never the rest of the pile or any bonus.
    With ``side_melds`` (the side's melds on the table) the side has melded already: there is
    no minimum, and the cards laid join the side's melds of their rank (docs/rulebook.md §5).
    """
    # The top card is among the melds' cards when its meld lists three or more of its rank
    # (see above), else it is one more card on the table.
    top_apart = top_card is not None and not any(
        sum(c.rank == top_card.rank for c in m) >= 3 for m in melds
    )
    impossible = deck.too_many(rs, players, [*melds, *side_melds, top_card if top_apart else None])
    if impossible:
        return Verdict(False, tuple(impossible))
    if side_melds:
        return _after_initial_meld(rs, melds, side_melds, top_card)
    required = rs.initial_meld_minimum(cumulative_score, players)
    laid = [list(m) for m in melds]
    reasons: list[Problem] = []
    if top_card is not None:
        block = _blocked(top_card)
        if block is not None:
            reasons.append(block)
        else:
            idx = _top_meld_index(laid, top_card)
            if idx is None:
                reasons.append(Problem("discard_pile.no_meld", "top_card", {"rank": top_card.rank}))
            else:
                in_meld = sum(1 for c in laid[idx] if c.rank == top_card.rank)
                from_hand = in_meld - 1 if in_meld >= 3 else in_meld
                if in_meld < 3:
                    laid[idx] = [top_card, *laid[idx]]
                if from_hand < 2 and rs.frozen_needs_natural_pair and rs.pile_frozen_until_melded:
                    reasons.append(
                        Problem(
                            "discard_pile.frozen",
                            f"melds[{idx}]",
                            {"reason": "not_melded", "rank": top_card.rank},
                        )
                    )
    checked = [
        check_meld(cards, rs, initial_meld=True, where=f"melds[{i}]")
        for i, cards in enumerate(laid)
    ]
    for m in checked:
        reasons.extend(m.problems)
    reasons.extend(same_rank_problems(checked, ""))
    if not laid:
        reasons.append(Problem("meld.too_small", "melds", {"size": 0, "minimum": rs.min_meld_size}))
    counted = sum(m.points for m in checked)
    facts: dict[str, Any] = {"required": required, "counted": counted, "melds": _melds_shown(laid)}
    if counted < required:
        reasons.append(
            Problem(
                "initial_meld.below_minimum", "melds", {"required": required, "counted": counted}
            )
        )
    if reasons:
        return Verdict(False, tuple(reasons), **facts)
    return Verdict(
        True,
        (Problem("initial_meld.reached", "", {"required": required, "counted": counted}),),
        **facts,
    )


def join_melds(
    side_melds: Sequence[Sequence[Card]],
    melds: Sequence[Sequence[Card]],
    rs: RuleSet | None = None,
) -> tuple[list[list[Card]], list[bool], list[int]]:
    """The side's melds after a turn: each group laid joins the side's meld of its rank or
    starts a new one (docs/rulebook.md §5 "Going out"; §2 one meld per rank).

    A group of wild cards only that is no meld by itself (with ``rs`` to judge) is laid off
    onto the first of the side's melds that stays legal with it.

    Returns the melds, which of them hold cards laid this turn, and for each group laid the
    index of the meld it went into.

    >>> from ..cards import parse_cards
    >>> after, touched, into = join_melds([parse_cards("7777722")[0]], [parse_cards("77")[0]])
    >>> [len(m) for m in after], touched, into
    ([9], [True], [0])
    """
    after = [list(m) for m in side_melds]
    touched = [False] * len(after)
    into: list[int] = []
    by_rank: dict[str, int] = {}
    for i, meld in enumerate(after):
        rank = meld_rank(meld)
        if rank is not None and rank != "wild":
            by_rank.setdefault(rank, i)
    for group in melds:
        rank = meld_rank(group)
        target = by_rank.get(rank) if rank is not None and rank != "wild" else None
        if (
            rank == "wild"
            and rs is not None
            and side_melds
            and not check_meld(group, rs, going_out=True).legal
        ):
            target = next(
                (
                    k
                    for k, m in enumerate(after[: len(side_melds)])
                    if check_meld([*m, *group], rs, going_out=True).legal
                ),
                0,
            )
        if target is not None:
            i = target
            after[i].extend(group)
        else:
            i = len(after)
            after.append(list(group))
            touched.append(False)
        touched[i] = True
        into.append(i)
    return after, touched, into


def _after_initial_meld(
    rs: RuleSet,
    melds: Sequence[Sequence[Card]],
    side_melds: Sequence[Sequence[Card]],
    top_card: Card | None,
) -> Verdict:
    """The side has melded already: no minimum; the groups join the side's melds."""
    groups = [list(m) for m in melds]
    reasons: list[Problem] = []
    if top_card is not None:
        block = _blocked(top_card)
        if block is not None:
            reasons.append(block)
        elif not any(c.rank == top_card.rank for g in groups for c in g) and not any(
            c.rank == top_card.rank for m in side_melds for c in m
        ):
            reasons.append(Problem("discard_pile.no_meld", "top_card", {"rank": top_card.rank}))
        else:
            idx = _top_meld_index(groups, top_card)
            if idx is None:
                groups.append([top_card])
            else:
                groups[idx] = [top_card, *groups[idx]]
    after, touched, _into = join_melds(side_melds, groups, rs)
    # Melds started now come after the side's initial meld (docs/rulebook.md §6: clean until five).
    checked = [
        check_meld(
            m,
            rs,
            where=f"melds[{i}]",
            new_meld=i >= len(side_melds),
            initial_meld=i < len(side_melds) and any(c.is_wild for c in side_melds[i]),
        )
        for i, m in enumerate(after)
        if touched[i]
    ]
    for m in checked:
        reasons.extend(m.problems)
    laid = sum(rs.card_value(c) for g in groups for c in g)
    facts: dict[str, Any] = {
        "required": 0,
        "counted": laid,
        "melds": _melds_shown([m for i, m in enumerate(after) if touched[i]]),
    }
    if reasons:
        return Verdict(False, tuple(reasons), **facts)
    return Verdict(True, (Problem("initial_meld.not_needed", "", {"counted": laid}),), **facts)


def _blocked(top: Card) -> Problem | None:
    """docs/rulebook.md §5: never takeable under a wild card or a black three."""
    if top.is_wild:
        return Problem("discard_pile.blocked", "top_card", {"reason": "wild"})
    if top.is_black_three:
        return Problem("discard_pile.blocked", "top_card", {"reason": "black_three"})
    if top.is_red_three:
        return Problem("discard_pile.blocked", "top_card", {"reason": "red_three"})
    return None


def best_initial_melds(
    rs: RuleSet, hand: Sequence[Card], forced: list[Card] | None = None
) -> list[list[Card]]:
    """The most valuable set of melds a hand can lay at once (for the initial-meld question).

    ``forced`` is a meld that must be laid (the top card with its natural pair). Every rank with
    enough natural cards is melded; a rank with one card too few is melded when a wild card is
    left for it (most valuable ranks first); remaining wild cards, most valuable first, go into
    any meld that stays legal. All card values are positive, so this maximises the count.
    """
    forced_rank = forced[0].rank if forced else None
    by_rank: dict[str, list[Card]] = {}
    for c in hand:
        if c.is_natural and c.rank != forced_rank:
            by_rank.setdefault(c.rank, []).append(c)
    wild_pool = sorted((c for c in hand if c.is_wild), key=rs.card_value, reverse=True)
    melds: list[list[Card]] = [list(forced)] if forced else []
    short: list[list[Card]] = []
    for cards in by_rank.values():
        if check_meld(cards, rs, initial_meld=True).legal:
            melds.append(list(cards))
        elif len(cards) + 1 >= rs.min_meld_size:
            short.append(list(cards))
    short.sort(key=lambda cs: sum(rs.card_value(c) for c in cs), reverse=True)
    for cards in short:
        if wild_pool and check_meld([*cards, wild_pool[-1]], rs, initial_meld=True).legal:
            # The least valuable wild card is enough to complete it; the rest go to any meld.
            melds.append([*cards, wild_pool.pop()])
    for m in melds:
        while wild_pool and check_meld([*m, wild_pool[0]], rs, initial_meld=True).legal:
            m.append(wild_pool.pop(0))
    return melds
