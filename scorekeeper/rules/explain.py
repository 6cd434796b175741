"""Which rule a referee answer rests on: reason codes → items of a ruleset's rules page.

Pure data. The rules page (web layer) writes every item in the reader's language; this module
only names the items, groups them into the page's sections (the anchors of
:func:`scorekeeper.rules.referee.rule_anchor`) and lists the ruleset parameters each item
quotes, so that a page can mark the items a house rule changes.

>>> rule_item("meld.too_few_natural", {"rule": "match_wild"})
'melds.natural'
>>> section_of(rule_item("discard_pile.allowed", {"how": "natural_pair"}, frozen=True))
'discard-pile'
>>> sorted(changed_items({"two_value"}))
['cards.values']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .referee import rule_anchor

# The sections of a Canasta rules page, in reading order (docs/rulebook.md §1–§5 plus the overview).
SECTIONS: tuple[str, ...] = (
    "overview",
    "cards",
    "melds",
    "initial-meld",
    "discard-pile",
    "going-out",
    "red-threes",
    "scoring",
)
# The sections of the rules page of "3 ist 50" (docs/rulebook.md §7).
THREE_IS_FIFTY_SECTIONS: tuple[str, ...] = ("overview", "cards", "moves", "scoring")

_CARD_VALUES = (
    "joker_value",
    "two_value",
    "ace_value",
    "high_value",
    "low_value",
    "black_three_value",
)

# Every item of a rules page, in reading order, with the RuleSet parameters its text quotes.
ITEM_PARAMS: dict[str, tuple[str, ...]] = {
    "overview.players": ("players_allowed",),
    "overview.sides": (),
    "overview.goal": ("target",),
    "overview.draw": ("stock_draw_by_players",),
    "cards.deck": (),
    "cards.kinds": (),
    "cards.values": _CARD_VALUES,
    "melds.size": ("min_meld_size",),
    "melds.max_size": ("max_meld_size",),
    "melds.natural": (
        "natural_at_least_wild",
        "min_natural_per_meld",
        "min_meld_size",
        "new_meld_clean_until",
    ),
    "melds.wild_limit": ("max_wild_per_meld",),
    "melds.canasta": ("canasta_size", "natural_canasta_bonus", "mixed_canasta_bonus"),
    "melds.wild_canasta": (
        "wild_canasta_bonus",
        "canasta_size",
        "wild_meld_open",
        "wild_canasta_jokers_bonus",
        "wild_canasta_twos_bonus",
    ),
    "melds.sevens": ("sevens_never_mixed", "sevens_canasta_bonus"),
    "melds.aces": ("aces_mixed_only_in_initial_meld", "aces_canasta_bonus"),
    "melds.one_per_rank": (),
    "melds.opponents": (),
    "melds.red_threes": (),
    "melds.black_threes": ("black_three_meld_min", "black_three_meld_max"),
    "melds.value": ("high_value", "canasta_size", "natural_canasta_bonus"),
    "initial-meld.minimum": ("minimum_table",),
    "initial-meld.counted": (),
    "initial-meld.several": (),
    "initial-meld.concealed": ("concealed_needs_minimum",),
    "discard-pile.blocked": (),
    "discard-pile.black_three_exception": ("black_three_pile_when_going_out",),
    "discard-pile.black_three_turn": (),
    "discard-pile.frozen": (
        "frozen_needs_natural_pair",
        "pile_needs_natural_pair_always",
        "pile_onto_meld_max",
    ),
    "discard-pile.open": (),
    "discard-pile.show": (),
    "going-out.how": ("going_out_needs_discard",),
    "going-out.canastas": ("canastas_to_go_out",),
    "going-out.bonus": ("going_out_bonus", "concealed_going_out_bonus"),
    "going-out.concealed": ("concealed_going_out",),
    "going-out.permission": (
        "partner_permission",
        "partner_permission_before_melds",
        "partner_permission_once",
        "partner_permission_when_able",
    ),
    "going-out.stock_pile": ("stock_out_pile", "stock_out_pile_forced"),
    "going-out.stock_red_three": ("threes_by_colour",),
    # Readings of the seeds where they are unclear, each on its section's page.
    "initial-meld.reading_thresholds": ("minimum_table",),
    "discard-pile.not_melded": ("pile_frozen_until_melded",),
    "melds.reading_wild_canasta": ("wild_canasta_bonus",),
    "melds.reading_black_threes": ("black_three_meld_min", "black_three_meld_max"),
    "going-out.reading_concealed": ("concealed_needs_all_canastas", "canastas_to_go_out"),
    "going-out.reading_stock": ("stock_out_pile",),
    "red-threes.reading_from_pile": (),
    "scoring.reading_black_three": ("black_three_in_hand_penalty",),
    "overview.reading_tie": ("target",),
    "going-out.stock": (),
    "red-threes.value": (
        "red_three_value",
        "red_three_special",
        "threes_by_colour",
        "threes_table",
    ),
    "red-threes.from_pile": (),
    "red-threes.negative": (
        "red_threes_negative_without_meld",
        "threes_zero_canastas",
        "threes_plus_canastas",
    ),
    "scoring.formula": ("melds_minus_without_canasta",),
    "scoring.penalties": (
        "unfinished_sevens_penalty",
        "unfinished_aces_penalty",
        "unfinished_wild_penalty",
        "held_sevens_aces_penalty",
        "held_sevens_aces_count",
    ),
    "scoring.special_hands": (
        "special_straight_value",
        "special_pairs_value",
        "special_garbage_value",
    ),
    "scoring.black_three_penalty": ("black_three_in_hand_penalty",),
    "scoring.target": ("target",),
}

# The items of the "3 ist 50" page and the game options they quote.
THREE_IS_FIFTY_ITEMS: dict[str, tuple[str, ...]] = {
    "overview.game": (),
    "cards.points": ("joker",),
    "moves.deal": (),
    "moves.turn": (),
    "moves.middle": (),
    "moves.own_pile": (),
    "moves.any_pile": (),
    "moves.discard": (),
    "moves.dealer": (),
    "moves.in_turn": (),
    "moves.reading_last_deal": (),
    "scoring.lowest": (),
}

# Reason code → item, where one item covers the code whatever its parameters.
_ITEM_OF_CODE: dict[str, str] = {
    "meld.too_small": "melds.size",
    "meld.mixed_ranks": "melds.size",
    "meld.too_large": "melds.max_size",
    "meld.too_many_cards": "melds.max_size",
    "meld.sevens_wild": "melds.sevens",
    "meld.aces_wild": "melds.aces",
    "special_hand.unknown": "scoring.special_hands",
    "special_hand.melded": "scoring.special_hands",
    "black_threes.not_laid_out": "red-threes.value",
    "meld.too_many_wild": "melds.wild_limit",
    "meld.red_three": "melds.red_threes",
    "meld.black_threes": "melds.black_threes",
    "meld.same_rank_twice": "melds.one_per_rank",
    "meld.legal": "melds.value",
    "meld.black_threes_going_out": "melds.black_threes",
    "initial_meld.not_needed": "initial-meld.minimum",
    "discard_pile.black_three_exit": "discard-pile.black_three_exception",
    "initial_meld.below_minimum": "initial-meld.minimum",
    "initial_meld.reached": "initial-meld.minimum",
    "discard_pile.blocked": "discard-pile.blocked",
    "discard_pile.frozen": "discard-pile.frozen",
    "discard_pile.no_meld": "discard-pile.open",
    "discard_pile.meld_too_large": "discard-pile.frozen",
    "meld.new_not_clean": "melds.natural",
    "meld.one_card_left": "melds.size",
    "going_out.not_enough_canastas": "going-out.canastas",
    "going_out.concealed": "going-out.concealed",
    "going_out.two_sides": "going-out.how",
    "going_out.cards_in_hand": "going-out.how",
    "red_threes.too_many": "red-threes.value",
    "red_threes.per_partner": "red-threes.value",
    "card.unknown": "cards.kinds",
    "card.too_many": "cards.deck",
    "three_is_fifty.match": "moves.turn",
    "three_is_fifty.illegal_move": "moves.turn",
    "three_is_fifty.hand_empty": "moves.turn",
    "three_is_fifty.no_match": "moves.discard",
    "three_is_fifty.discard_forbidden": "moves.discard",
    # scorekeeper.rules.disputes
    "permission.no_rule": "going-out.permission",
    "permission.no_partner": "going-out.permission",
    "permission.may_ask": "going-out.permission",
    "permission.draw_first": "going-out.permission",
    "permission.after_melds": "going-out.permission",
    "permission.asked_before": "going-out.permission",
    "permission.not_able": "going-out.permission",
    "permission.yes": "going-out.permission",
    "permission.no": "going-out.permission",
    "permission.yes_not_able": "going-out.canastas",
    "stock.empty_ends": "going-out.stock_pile",
    "stock.empty_pile": "going-out.stock_pile",
    "stock.empty_must_take": "going-out.stock_pile",
    "stock.empty_may_take": "going-out.stock_pile",
    "stock.empty_cannot_take": "going-out.stock_pile",
    "stock.next_empty": "going-out.stock_pile",
    "stock.no_going_out_bonus": "going-out.stock",
    "stock.red_three_last": "going-out.stock_red_three",
    "stock.red_threes_last": "going-out.stock_red_three",
    "stock.last_three_counts": "going-out.stock_red_three",
    "stock.too_many_drawn": "going-out.stock_red_three",
    "draw.one_card": "overview.draw",
    "stock.last_cards": "going-out.stock_red_three",
    "draw.stock": "overview.draw",
    "stock.play_on": "going-out.stock_red_three",
    "draw.count": "overview.draw",
    "draw.no_two_players": "overview.players",
    "pile_block.black_three": "discard-pile.black_three_turn",
    "pile_block.covered": "discard-pile.black_three_turn",
    "pile_block.none": "discard-pile.blocked",
    "pile_block.exception": "discard-pile.black_three_exception",
    "pile_block.exception_used": "discard-pile.black_three_exception",
    "pile_red_three.no_replacement": "red-threes.from_pile",
    "pile_red_three.reading": "red-threes.reading_from_pile",
    "pile_red_three.never": "red-threes.from_pile",
    "fifty_deal.deal": "moves.deal",
    "fifty_deal.last_deal": "moves.deal",
    "fifty_deal.last_deal_rule": "moves.deal",
    "fifty_deal.game_over": "moves.deal",
    "fifty_deal.refill": "moves.deal",
    "fifty_deal.no_refill": "moves.deal",
    "fifty_deal.dealer": "moves.dealer",
    "fifty_deal.in_turn": "moves.in_turn",
    "fifty_deal.out_of_turn": "moves.in_turn",
}


def section_of(item: str) -> str:
    """The section (page anchor) an item belongs to: ``melds.natural`` → ``melds``."""
    return item.split(".", 1)[0]


def rule_item(
    code: str,
    params: Mapping[str, Any] | None = None,
    *,
    frozen: bool = False,
    concealed: bool = False,
) -> str:
    """The rules-page item a reason rests on.

    ``frozen``: the discard pile in question is frozen (an allowed take then rests on the
    frozen-pile rule); ``concealed``: the player asked about going out concealed.
    """
    params = params or {}
    if code == "meld.too_few_natural":
        if params.get("rule") in ("wild_incomplete", "no_wild_canasta"):
            return "melds.wild_canasta"
        return "melds.natural"
    if code == "meld.canasta":
        return "melds.wild_canasta" if params.get("kind") == "wild" else "melds.canasta"
    if code == "discard_pile.allowed":
        if params.get("how") == "black_threes_going_out":
            return "discard-pile.black_three_exception"
        if "frozen" in params:
            # The verdict itself says whether the pile was frozen.
            frozen = bool(params["frozen"])
        return "discard-pile.frozen" if frozen else "discard-pile.open"
    if code == "going_out.allowed":
        if concealed or params.get("concealed"):
            return "going-out.concealed"
        return "going-out.canastas"
    if code in _ITEM_OF_CODE:
        return _ITEM_OF_CODE[code]
    # A code added later: the first item of the section its prefix points to.
    section = rule_anchor(code)
    for item in (*ITEM_PARAMS, *THREE_IS_FIFTY_ITEMS):
        if section_of(item) == section:
            return item
    return "overview.players"


def changed_items(changed_params: Iterable[str]) -> set[str]:
    """The items whose text quotes a parameter that a house rule changes."""
    changed = set(changed_params)
    return {item for item, params in ITEM_PARAMS.items() if changed.intersection(params)}
