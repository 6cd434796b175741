"""The referee's rulings on table disputes in words (:mod:`scorekeeper.rules.disputes`): the
partner's "may I go out?", the end of the stock, the black three, the red three from the pile,
the two-player draw and the deal of "3 ist 50". :data:`.messages.MESSAGES` takes them in.
Pure, as the rest of this package: the phone's engine words them the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .names import card_label
from .reasons import number_param
from .words import gettext as _
from .words import ngettext


def _may_ask(p: dict[str, Any]) -> str:
    parts = [
        _(
            "After drawing (or taking the pile) you may ask your partner “May I go out?”. "
            "The partner must answer yes or no, and the answer binds you."
        )
    ]
    if p.get("before_melds"):
        parts.append(_("Ask before melding anything but the pile's top card."))
    if p.get("when_able"):
        parts.append(_("Ask only when you are able to go out."))
    if p.get("once"):
        parts.append(_("The question may be asked only once in each hand."))
    return " ".join(parts)


def _yes(p: dict[str, Any]) -> str:
    if p.get("discard"):
        return _(
            "Your partner said yes: you must go out in this turn, melding all your cards but "
            "one and discarding it."
        )
    return _(
        "Your partner said yes: you must go out in this turn, melding all your cards (the last "
        "one may be your discard)."
    )


def _empty_pile(p: dict[str, Any]) -> str:
    if p.get("forced"):
        return _(
            "The stock is empty: play goes on only while each player takes the discard pile. "
            "You must take it when it is not frozen and its top card matches a meld of your "
            "side. If you do not take it, the hand ends."
        )
    return _(
        "The stock is empty: play goes on only while each player can and wants to take the "
        "discard pile. If you cannot or do not want to take it, the hand ends."
    )


def _next_empty(p: dict[str, Any]) -> str:
    if not p.get("pile", True):
        return _("The stock is now empty: the hand ends when the next player cannot draw.")
    if p.get("forced"):
        return _(
            "The stock is now empty: the next player must take the pile when it is not frozen "
            "and its top card matches a meld of their side; play goes on only while players "
            "take the pile."
        )
    return _(
        "The stock is now empty: play goes on only while players take the discard pile; "
        "whoever cannot or will not take it ends the hand."
    )


def _last_three(p: dict[str, Any]) -> str:
    if p.get("black"):
        return _(
            "A three as the last card of the stock: it is laid out, but no card is left to "
            "replace it, so the hand ends at once. The player may neither meld nor discard."
        )
    return _(
        "A red three as the last card of the stock: it is laid out, but no card is left to "
        "replace it, so the hand ends at once. The player may neither meld nor discard."
    )


def _draw_count(p: dict[str, Any]) -> str:
    draw = int(p.get("draw", 1))
    text = ngettext(
        "With two players, each turn draws %(num)s card from the stock and ends with one discard.",
        "With two players, each turn draws %(num)s cards from the stock and ends with one discard.",
        draw,
    )
    if not p.get("stated"):
        text += " " + _(
            "A reading: the source describes no two-player game for these rules, so the "
            "draw of the four-player game holds."
        )
    return text


def _fifty_deal(p: dict[str, Any]) -> str:
    return _(
        "Deal — cards for every player: %(each)s; for the middle, to fill it back up to four: "
        "%(refill)s.",
        each=number_param(p, "each"),
        refill=number_param(p, "refill"),
    )


def _fifty_last(p: dict[str, Any]) -> str:
    return _(
        "The last deal — cards for every player: %(each)s; for the middle: %(refill)s; set "
        "aside unplayed: %(set_aside)s. No player may hold more cards than another.",
        each=number_param(p, "each"),
        refill=number_param(p, "refill"),
        set_aside=number_param(p, "set_aside"),
    )


DISPUTE_MESSAGES: dict[str, Callable[[dict[str, Any]], str]] = {
    "permission.no_rule": lambda p: _(
        "These rules know no asking the partner: each player decides alone whether to go out "
        "(when the side has its canastas)."
    ),
    "permission.no_partner": lambda p: _(
        "With two players there is no partner to ask: each player decides alone whether to go out."
    ),
    "permission.may_ask": _may_ask,
    "permission.draw_first": lambda p: _(
        "Ask only after drawing from the stock or taking the pile."
    ),
    "permission.after_melds": lambda p: _(
        "Too late to ask: the question comes right after the draw, before any meld but the "
        "one with the pile's top card."
    ),
    "permission.asked_before": lambda p: _(
        "You have asked once in this hand already: the question may be asked only once in "
        "each hand."
    ),
    "permission.not_able": lambda p: ngettext(
        "Ask only when you are able to go out: these cards cannot go out now (your side needs "
        "%(num)s canasta).",
        "Ask only when you are able to go out: these cards cannot go out now (your side needs "
        "%(num)s canastas).",
        int(p.get("needed", 1)),
    ),
    "permission.yes": _yes,
    "permission.no": lambda p: _(
        "Your partner said no: you may not go out in this turn. Keep at least one card in "
        "hand after your discard."
    ),
    "permission.yes_not_able": lambda p: ngettext(
        "A yes binds only a player who can go out: with these cards your side cannot (it "
        "needs %(num)s canasta).",
        "A yes binds only a player who can go out: with these cards your side cannot (it "
        "needs %(num)s canastas).",
        int(p.get("needed", 1)),
    ),
    "stock.empty_ends": lambda p: _(
        "The stock is empty: the hand ends as soon as a player cannot draw from it. Nobody "
        "takes the discard pile instead."
    ),
    "stock.empty_pile": _empty_pile,
    "stock.empty_must_take": lambda p: _(
        "The stock is empty and the pile is not frozen: its top card (%(rank)s) matches a "
        "meld of your side, so you must take the pile.",
        rank=_rank(p),
    ),
    "stock.empty_may_take": lambda p: _(
        "The stock is empty: you may take the pile (its top card %(rank)s fits). If you do "
        "not, the hand ends.",
        rank=_rank(p),
    ),
    "stock.empty_cannot_take": lambda p: _(
        "The stock is empty and you cannot take the pile: the hand ends now."
    ),
    "stock.no_going_out_bonus": lambda p: _(
        "A hand that ends with the stock used up is scored with nobody going out: no "
        "going-out bonus."
    ),
    "stock.red_three_last": _last_three,
    "stock.red_threes_last": lambda p: _(
        "Red threes as the last cards of the stock: no card is left to replace them, so the "
        "hand ends at once. The player may neither meld nor discard."
    ),
    "stock.last_three_counts": lambda p: _(
        "The three drawn last counts 5 points against the player's side."
    ),
    "stock.too_many_drawn": lambda p: _(
        "More cards drawn than the stock holds (%(stock)s).", stock=number_param(p, "stock")
    ),
    "draw.one_card": lambda p: ngettext(
        "Only one card came from the last cards of the stock: it counts as a complete draw. "
        "Meld and discard as though you had drawn %(num)s card.",
        "Only one card came from the last cards of the stock: it counts as a complete draw. "
        "Meld and discard as though you had drawn %(num)s cards.",
        int(p.get("draw", 2)),
    ),
    "stock.last_cards": lambda p: ngettext(
        "The stock holds its last card: draw it. If it is a red three, the hand ends at once "
        "(no meld, no discard); if not, play on as usual.",
        "The stock holds its last %(num)s cards: draw them. If a red three comes when no card "
        "is left to replace it, the hand ends at once (no meld, no discard).",
        int(p.get("stock", 1)),
    ),
    "draw.stock": lambda p: ngettext(
        "The stock still holds %(stock)s cards: draw %(num)s card as usual.",
        "The stock still holds %(stock)s cards: draw %(num)s cards as usual.",
        int(p.get("draw", 1)),
        stock=number_param(p, "stock"),
    ),
    "stock.play_on": lambda p: ngettext(
        "Play on as usual: meld and discard. %(num)s card is left in the stock.",
        "Play on as usual: meld and discard. %(num)s cards are left in the stock.",
        int(p.get("left", 0)),
    ),
    "stock.next_empty": _next_empty,
    "draw.count": _draw_count,
    "draw.no_two_players": lambda p: _("These rules know no two-player game."),
    "pile_block.black_three": lambda p: _(
        "A black three on top stops the pile for the next player only: they cannot take it "
        "this turn and draw from the stock. It does not freeze the pile: once another card "
        "lies on it, the pile may be taken again as usual."
    ),
    "pile_block.covered": lambda p: _(
        "The black three is covered: it stopped the pile for one turn only. It does not "
        "freeze the pile, so the usual rules for taking it apply."
    ),
    "pile_block.none": lambda p: _(
        "No black three lies on top: only the usual rules for taking the pile apply."
    ),
    "pile_block.exception": lambda p: _(
        "Exception in these rules: a player who goes out may take it by melding that black "
        "three with black threes from hand."
    ),
    "pile_block.exception_used": lambda p: _(
        "You go out melding this black three: in these rules that takes the pile."
    ),
    "pile_red_three.no_replacement": lambda p: _(
        "A red three taken with the discard pile is laid out at once and scores %(value)s like "
        "any red three, but no replacement card is drawn for it.",
        value=number_param(p, "value"),
    ),
    "pile_red_three.reading": lambda p: _(
        "A red three taken with the discard pile is laid out at once and scores %(value)s like "
        "any red three. No replacement card is drawn: the source gives one only for a red "
        "three drawn from the stock (a reading).",
        value=number_param(p, "value"),
    ),
    "pile_red_three.never": lambda p: _(
        "In these rules no card is turned up to start the pile and threes are laid out as "
        "soon as they are drawn, so a red three never lies in the pile."
    ),
    "fifty_deal.deal": _fifty_deal,
    "fifty_deal.last_deal": _fifty_last,
    "fifty_deal.last_deal_rule": lambda p: _(
        "In the last round every player gets as many cards as all can get equally; the cards "
        "left over are set aside unplayed. Enter the cards left in the stock to count them."
    ),
    "fifty_deal.game_over": lambda p: _(
        "Too few cards are left to give every player one (%(stock)s for %(players)s players): "
        "they are set aside, and the game is scored.",
        stock=number_param(p, "stock"),
        players=number_param(p, "players"),
    ),
    "fifty_deal.refill": lambda p: _(
        "The round is over: at the next deal the middle is filled back up to four (cards to "
        "add: %(refill)s).",
        refill=number_param(p, "refill"),
    ),
    "fifty_deal.no_refill": lambda p: _(
        "Middle cards that were taken stay gone during the round: the middle is filled up "
        "again only at the next deal."
    ),
    "fifty_deal.dealer": lambda p: _(
        "Player %(next)s deals next (left of player %(dealer)s), and player %(first)s, to the "
        "dealer's left, plays first.",
        next=number_param(p, "next"),
        dealer=number_param(p, "dealer"),
        first=number_param(p, "first"),
    ),
    "fifty_deal.in_turn": lambda p: _(
        "Player %(player)s is on turn and plays one card.", player=number_param(p, "player")
    ),
    "fifty_deal.out_of_turn": lambda p: _(
        "Only the player on turn plays: it is player %(turn)s's turn, not player "
        "%(player)s's. Playing out of turn is not allowed.",
        turn=number_param(p, "turn"),
        player=number_param(p, "player"),
    ),
}


def _rank(p: dict[str, Any]) -> str:
    rank = p.get("rank")
    return card_label(rank) if isinstance(rank, str) and rank else ""
