"""Referee questions: meld, initial meld, taking the discard pile, going out (docs/rulebook.md
§2–§5).

Each answer is a :class:`Verdict`: allowed or not, the reasons as problem codes (positive
answers carry a reason too, so the reader sees which rule applied), and the facts the question
is about (a meld's points, the minimum and what counts toward it, one way to take the pile…).

>>> from .ruleset import get_ruleset
>>> from .cards import parse_cards
>>> melds = [parse_cards("KKK2")[0], parse_cards("444")[0]]
>>> v = initial_meld(get_ruleset("german"), 4, 2000, melds)
>>> v.allowed, v.required, v.counted
(True, 90, 95)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import deck
from .cards import Card, cards_to_str
from .laying import best_melds, go_out_with
from .melds import check_meld, count_canastas, meld_rank
from .problems import Problem
from .ruleset import RuleSet
from .scoring import same_rank_problems

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

    >>> from .ruleset import get_ruleset
    >>> from .cards import parse_cards
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

    >>> from .cards import parse_cards
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


def discard_pile(
    rs: RuleSet,
    players: int,
    top_card: Card,
    *,
    pile_has_wild: bool = False,
    red_three_upcard: bool = False,
    side_has_melded: bool = True,
    side_melds: Sequence[Sequence[Card]] = (),
    hand: Sequence[Card] = (),
    cumulative_score: int = 0,
    going_out: bool = False,
) -> Verdict:
    """May I take the discard pile? If so, one way to do it (docs/rulebook.md §5)."""
    impossible = deck.too_many(rs, players, [top_card, hand, *side_melds])
    if impossible:
        return Verdict(False, tuple(impossible), melds=())
    hand = list(hand)
    counts = Counter(c.rank for c in hand)
    none: tuple[tuple[str, ...], ...] = ()
    block = _blocked(top_card)
    if block is not None:
        if (
            top_card.is_black_three
            and rs.black_three_pile_when_going_out
            and going_out
            and counts["3b"] + 1 >= rs.black_three_meld_min
        ):
            return _black_three_exit(rs, players, top_card, hand, side_melds)
        return Verdict(False, (block,), melds=none)

    frozen_reason = None
    if pile_has_wild:
        frozen_reason = "wild"
    elif red_three_upcard:
        frozen_reason = "red_three"
    elif not side_has_melded and rs.pile_frozen_until_melded:
        # docs/rulebook.md §5: frozen against a side that has not melded (not in the Polish rules).
        frozen_reason = "not_melded"
    if frozen_reason is None and rs.pile_needs_natural_pair_always:
        # docs/rulebook.md §6, seed 002: the American pile is taken only with a natural pair of its
        # rank.
        frozen_reason = "always"
    rank = top_card.rank
    naturals = [c for c in hand if c.rank == rank]
    wilds = [c for c in hand if c.is_wild]
    existing = next((list(m) for m in side_melds if any(c.rank == rank for c in m)), None)
    needs_pair = bool(frozen_reason) and rs.frozen_needs_natural_pair

    top_meld: list[Card] | None = None
    how = ""
    if needs_pair:
        if len(naturals) >= 2:
            top_meld = [top_card, *naturals[:2]]
            how = "natural_pair"
        else:
            return Verdict(
                False,
                (
                    Problem(
                        "discard_pile.frozen",
                        "top_card",
                        {"reason": frozen_reason, "rank": rank, "have": len(naturals)},
                    ),
                ),
                melds=none,
            )
    elif existing is not None and side_has_melded:
        top_meld = [top_card]
        how = "existing_meld"
    if (
        existing is not None
        and side_has_melded
        and rs.pile_onto_meld_max
        and len(existing) > rs.pile_onto_meld_max
    ):
        # docs/rulebook.md §5/§6 (seed 002): the top card joins an existing meld only while it has
        # three or four cards.
        return Verdict(
            False,
            (
                Problem(
                    "discard_pile.meld_too_large",
                    "side_melds",
                    {"rank": rank, "size": len(existing), "maximum": rs.pile_onto_meld_max},
                ),
            ),
            melds=none,
        )
    elif len(naturals) >= 2:
        top_meld = [top_card, *naturals[:2]]
        how = "natural_pair"
    elif naturals and wilds and check_meld([top_card, naturals[0], wilds[0]], rs).legal:
        top_meld = [top_card, naturals[0], wilds[0]]
        how = "with_wild"
    if top_meld is None:
        return Verdict(
            False,
            (Problem("discard_pile.no_meld", "top_card", {"rank": rank, "have": len(naturals)}),),
            melds=none,
        )

    shown = [*existing, *top_meld] if (existing is not None and side_has_melded) else list(top_meld)
    check = check_meld(shown, rs, initial_meld=not side_has_melded)
    if not check.legal:
        return Verdict(
            False,
            (
                Problem("discard_pile.no_meld", "top_card", {"rank": rank, "have": len(naturals)}),
                *check.problems,
            ),
            melds=none,
        )
    melds_to_show = [shown]

    required: int | None = None
    counted: int | None = None
    if not side_has_melded:
        # docs/rulebook.md §3: the top card and cards from hand count; the rest of the pile never
        # does.
        required = rs.initial_meld_minimum(cumulative_score, players)
        counted = check.points
        if counted < required:
            # The most valuable melds around the top card (laying.best_melds searches them all).
            plan = best_melds(
                rs, hand, top=top_card, top_naturals=2 if needs_pair else 1, initial=True
            )
            if plan.most_points is not None and plan.most_points.points > counted:
                melds_to_show = [list(m) for m in plan.most_points.melds]
                counted = plan.most_points.points
        if counted < required:
            return Verdict(
                False,
                (
                    Problem(
                        "initial_meld.below_minimum",
                        "hand",
                        {"required": required, "counted": counted},
                    ),
                ),
                melds=none,
                required=required,
                counted=counted,
            )
    # The verdict names whether the pile was frozen, so the rule it quotes is the one it rests
    # on (an unfrozen Polish pile is no frozen pile).
    return Verdict(
        True,
        (
            Problem(
                "discard_pile.allowed",
                "",
                {"how": how, "rank": rank, "frozen": frozen_reason or ""},
            ),
        ),
        melds=_melds_shown(melds_to_show),
        required=required,
        counted=counted,
        how=how,
    )


def _black_three_exit(
    rs: RuleSet,
    players: int,
    top_card: Card,
    hand: list[Card],
    side_melds: Sequence[Sequence[Card]],
) -> Verdict:
    """seed 003: a pile blocked by a black three may be taken by a player who melds that black
    three while getting rid of all cards ("którą gracz zaraz zamelduje pozbywając się
    wszystkich swoich kart"); the hand ends only when the side has its required canastas
    ("jeśli dana strona ma już ułożoną wymaganą liczbę kanast"), counted with the melds on the
    table (docs/rulebook.md §5)."""
    none: tuple[tuple[str, ...], ...] = ()
    threes = [top_card] + [c for c in hand if c.is_black_three]
    meld_threes = threes[: rs.black_three_meld_max]
    rest = [c for c in hand if not c.is_black_three] + threes[rs.black_three_meld_max :]
    needed = rs.canastas_needed(players)
    table = [*[list(m) for m in side_melds], meld_threes]
    way = go_out_with(rs, rest, table, needed=needed)
    if way is None:
        return Verdict(
            False,
            (Problem("discard_pile.black_three_exit", "hand", {"reason": "cards_left"}),),
            melds=none,
        )
    laid, _thrown = way
    if laid.canastas < needed:
        return Verdict(
            False,
            (
                Problem(
                    "going_out.not_enough_canastas",
                    "side_melds",
                    {"needed": needed, "have": laid.canastas},
                ),
            ),
            melds=none,
            needed=needed,
            canastas=laid.canastas,
        )
    grown = [list(m) for m, cards in zip(laid.melds, laid.laid, strict=True) if cards]
    shown = [meld_threes, *[m for m in grown if m != meld_threes]]
    return Verdict(
        True,
        (Problem("discard_pile.allowed", "", {"how": "black_threes_going_out"}),),
        melds=_melds_shown(shown),
        needed=needed,
        canastas=laid.canastas,
    )


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
