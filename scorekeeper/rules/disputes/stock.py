"""The end of the stock (red threes as the last cards, the pile when the stock is empty) and
the two-player draw."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import referee
from ..cards import Card
from ..melds import meld_rank
from ..problems import Problem
from ..ruleset import RuleSet
from .ruling import Ruling, _src, sources_for

# ---- the end of the stock ------------------------------------------------------------------


def _laid_out(rs: RuleSet, card: Card) -> bool:
    """Whether a card drawn from the stock is laid out and replaced: red threes (seed 000:108,
    002:258, 003:80), and black threes too where threes of both colours are laid out
    (seed 002:39, 002:63 "If the last card drawn from the stock is a three")."""
    return card.is_red_three or (rs.threes_by_colour and card.is_black_three)


def _pile_when_empty(
    rs: RuleSet,
    players: int,
    top_card: Card | None,
    *,
    pile_frozen: bool,
    side_melds: Sequence[Sequence[Card]],
    side_has_melded: bool,
    hand: Sequence[Card] | None,
    cumulative_score: int,
) -> tuple[str, list[Problem], dict[str, Any]]:
    """What the pile means with the stock empty: ``"no"`` (the hand ends), ``"may"`` or
    ``"must"``, the reasons and the facts (``take``: whether this player can take it)."""
    facts: dict[str, Any] = {}
    if not rs.stock_out_pile:
        # seed 003:114: the hand ends when a player cannot draw from the stock.
        return "no", [Problem("stock.empty_ends", "stock", {})], facts
    rule = "may"
    reasons: list[Problem] = []
    if top_card is None:
        reasons.append(Problem("stock.empty_pile", "stock", {"forced": rs.stock_out_pile_forced}))
        return rule, reasons, facts
    melded = side_has_melded or bool(side_melds)
    matches = any(meld_rank(m) == top_card.rank for m in side_melds)
    if rs.stock_out_pile_forced and not pile_frozen and matches and not top_card.is_black_three:
        # seed 002:256: "a player must take the discard if the pile is not frozen and if the
        # discard matches any previous meld of that player's side".
        rule = "must"
    if hand is None and rule != "must":
        reasons.append(Problem("stock.empty_pile", "stock", {"forced": rs.stock_out_pile_forced}))
        return rule, reasons, facts
    verdict = referee.discard_pile(
        rs,
        players,
        top_card,
        pile_has_wild=pile_frozen,
        side_has_melded=melded,
        side_melds=side_melds,
        hand=list(hand or ()),
        cumulative_score=cumulative_score,
    )
    if rule == "must" and hand is None:
        facts["take"] = True
        reasons.append(Problem("stock.empty_must_take", "top_card", {"rank": top_card.rank}))
        return rule, reasons, facts
    facts["take"] = verdict.allowed
    if verdict.allowed:
        facts["melds"] = [list(m) for m in verdict.melds or ()]
        code = "stock.empty_must_take" if rule == "must" else "stock.empty_may_take"
        reasons.append(Problem(code, "top_card", {"rank": top_card.rank}))
    else:
        rule = "no"
        reasons.append(Problem("stock.empty_cannot_take", "top_card", {"rank": top_card.rank}))
        reasons.extend(verdict.reasons[:1])
    return rule, reasons, facts


def end_of_stock(
    rs: RuleSet,
    players: int,
    *,
    stock: int,
    drawn: Sequence[Card] | None = None,
    top_card: Card | None = None,
    pile_frozen: bool = False,
    side_melds: Sequence[Sequence[Card]] = (),
    side_has_melded: bool = True,
    hand: Sequence[Card] | None = None,
    cumulative_score: int = 0,
    kind: str = "end-of-stock",
) -> Ruling:
    """The last cards of the stock (seed 000:133-134, 002:254-260, 002:59-65, 002:129-133,
    003:114).

    ``stock``: the cards in the stock when the player's turn begins (0: empty). ``drawn``:
    what the draw brought, in order, the replacements of laid-out threes included.
    ``allowed``: whether the play goes on for this player (a meld and a discard, or taking the
    pile). Facts: ``hand_ends``, ``may_meld``, ``may_discard``, ``pile`` (with the stock empty:
    ``"may"``, ``"must"`` or ``"no"``; else None), ``draw`` (cards a draw takes),
    ``going_out_bonus`` (0 once the stock has run out: nobody went out), ``left`` (cards left
    in the stock after the draw).

    >>> from ..ruleset import get_ruleset
    >>> r = end_of_stock(get_ruleset("classic"), 2, stock=2, drawn=[Card("3r"), Card("3r")])
    >>> r.reasons[0].code, r.facts["hand_ends"]
    ('stock.red_threes_last', True)
    >>> end_of_stock(get_ruleset("polish"), 4, stock=0).facts["pile"]
    'no'
    """
    sources = sources_for(kind, rs.id) or sources_for("end-of-stock", rs.id)
    per_draw = rs.stock_draw(players)
    facts: dict[str, Any] = {
        "hand_ends": False,
        "may_meld": True,
        "may_discard": True,
        "pile": None,
        "draw": per_draw,
        "left": stock,
        "going_out_bonus": None,
    }
    if stock == 0:
        rule, reasons, pile_facts = _pile_when_empty(
            rs,
            players,
            top_card,
            pile_frozen=pile_frozen,
            side_melds=side_melds,
            side_has_melded=side_has_melded,
            hand=hand,
            cumulative_score=cumulative_score,
        )
        facts.update(pile_facts)
        facts["pile"] = rule
        facts["draw"] = 0
        facts["going_out_bonus"] = 0
        ends = rule == "no"
        facts["hand_ends"] = True if ends else None
        facts["may_meld"] = not ends
        facts["may_discard"] = not ends
        # seed 000:136, 002:258: a hand that ends so is scored with nobody going out.
        reasons.append(Problem("stock.no_going_out_bonus", "", {}))
        return Ruling(kind, not ends, tuple(reasons), facts, sources)

    cards = list(drawn or ())
    reasons = []
    if len(cards) > stock:
        return Ruling(
            kind,
            False,
            (Problem("stock.too_many_drawn", "drawn", {"stock": stock, "drawn": len(cards)}),),
            facts,
            sources,
        )
    take = min(per_draw, stock)
    left = stock
    kept = 0
    threes = 0
    ends = False
    for i, card in enumerate(cards):
        left -= 1
        if _laid_out(rs, card):
            threes += 1
            # Each three laid out asks for a replacement from the stock (seed 000:108).
            if left == 0:
                ends = True
                if i != len(cards) - 1:
                    return Ruling(
                        kind,
                        False,
                        (Problem("stock.too_many_drawn", "drawn", {"stock": stock}),),
                        facts,
                        sources,
                    )
        else:
            kept += 1
    facts["left"] = left
    if ends:
        # seed 000:134, 002:258-260, 002:63-65, 002:133: no replacement, the hand ends at
        # once; the player neither melds nor discards.
        facts.update(hand_ends=True, may_meld=False, may_discard=False, going_out_bonus=0)
        code = "stock.red_threes_last" if threes > 1 else "stock.red_three_last"
        reasons.append(
            Problem(
                code,
                "drawn",
                {"threes": threes, "black": rs.threes_by_colour, "draw": per_draw},
            )
        )
        if rs.threes_by_colour:
            # seed 002:65: "the three will count 5 points against that player's team".
            reasons.append(Problem("stock.last_three_counts", "drawn", {}))
        return Ruling(kind, False, tuple(reasons), facts, sources)
    if cards and kept < per_draw and left == 0:
        # seed 002:129, 002:131: one card left (or a red three among the last two) is a
        # complete draw; the turn goes on as though two cards had been drawn.
        reasons.append(Problem("draw.one_card", "drawn", {"draw": per_draw, "kept": kept}))
    elif not cards:
        facts["left"] = stock - take
        if stock <= per_draw:
            reasons.append(
                Problem(
                    "stock.last_cards", "stock", {"stock": stock, "draw": per_draw, "take": take}
                )
            )
        else:
            reasons.append(Problem("draw.stock", "stock", {"stock": stock, "draw": per_draw}))
            return Ruling(kind, True, tuple(reasons), facts, sources)
    else:
        reasons.append(Problem("stock.play_on", "drawn", {"left": left}))
    if facts["left"] == 0:
        # The next player finds the stock empty: the pile rules of the end of the stock.
        rule, _reasons, _facts = _pile_when_empty(
            rs,
            players,
            None,
            pile_frozen=False,
            side_melds=(),
            side_has_melded=True,
            hand=None,
            cumulative_score=0,
        )
        facts["next_pile"] = rule
        reasons.append(
            Problem(
                "stock.next_empty",
                "stock",
                {"forced": rs.stock_out_pile_forced, "pile": rs.stock_out_pile},
            )
        )
    return Ruling(kind, True, tuple(reasons), facts, sources)


def two_player_draw(
    rs: RuleSet,
    *,
    stock: int | None = None,
    drawn: Sequence[Card] | None = None,
) -> Ruling:
    """How many cards a player of a two-player game draws, and what the last cards of the stock
    do (seed 002:129-133; seed 003:27-29 draws one).

    ``allowed``: whether the ruleset has a two-player game. Facts: ``draw``, ``discard`` (one
    card ends each turn), ``cards_dealt`` where the seed says; with ``stock``: those of
    :func:`end_of_stock`.

    >>> from ..ruleset import get_ruleset
    >>> two_player_draw(get_ruleset("classic")).facts["draw"]
    2
    >>> two_player_draw(get_ruleset("german")).allowed
    False
    """
    sources = sources_for("two-player-draw", rs.id)
    if 2 not in rs.players_allowed:
        return Ruling(
            "two-player-draw",
            False,
            (Problem("draw.no_two_players", "players", {"allowed": list(rs.players_allowed)}),),
            {"draw": None, "discard": None},
            # seed 000:9: "Canasta wird zu viert gespielt".
            _src("000:9", "000:12") if rs.id == "german" else (),
        )
    per_draw = rs.stock_draw(2)
    facts: dict[str, Any] = {"draw": per_draw, "discard": 1}
    # seed 002:3 "Bei zwei Spielern erhält jeder 15 Karten"; seed 003:27 "15 kart (w wersji 1
    # na 1)".
    facts["cards_dealt"] = 15 if sources else None
    reasons: list[Problem] = [
        Problem("draw.count", "", {"draw": per_draw, "stated": bool(sources)})
    ]
    if stock is None:
        return Ruling("two-player-draw", True, tuple(reasons), facts, sources)
    ruling = end_of_stock(rs, 2, stock=stock, drawn=drawn, kind="two-player-draw")
    merged = {**dict(ruling.facts), **facts}
    return Ruling(
        "two-player-draw",
        ruling.allowed,
        (*ruling.reasons, *reasons),
        merged,
        sources + tuple(s for s in ruling.sources if s not in sources),
    )
