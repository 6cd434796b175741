"""Referee question: may the discard pile be taken, and one way to take it (docs/rulebook.md
§5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .. import deck
from ..cards import Card
from ..laying import best_melds, go_out_with
from ..melds import check_meld
from ..problems import Problem
from ..ruleset import RuleSet
from .melding import _blocked
from .verdict import Verdict, _melds_shown


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
