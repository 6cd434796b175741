"""What the rules pages say beyond the numbers: the table procedures the app does not compute
(who sits where, dealing, the turn card) and the settled readings of points the sources leave
open. The rule map (``rule_map.json``) points at these items by their anchors.

Each item names the rulesets whose page shows it; its text may depend on the ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext as _

from ...rules import fifty


@dataclass(frozen=True)
class TableItem:
    """One table procedure of the rules pages: its anchor, its rulesets and its text."""

    anchor: str
    rulesets: frozenset[str]
    text: Callable[[str], str]


def _rs(*ids: str) -> frozenset[str]:
    return frozenset(ids)


CANASTA = _rs("german", "polish", "classic", "american")
FIFTY = fifty.RULESET_ID


def _deal(rid: str) -> str:
    if rid == "polish":
        return _(
            "Each player gets 11 cards with four players and 15 with two. The rest is the "
            "stock, face down; its top card is turned up to start the discard pile."
        )
    if rid == "classic":
        return _(
            "Each player gets 11 cards with four players, 15 with two and 13 with three or six. "
            "The rest is the stock, face down; its top card is turned up to start the discard "
            "pile. A wild card or a red three turned up freezes the pile from the start."
        )
    if rid == "american":
        return _(
            "Each player gets 13 cards; the rest is the stock. No card is turned up: the first "
            "player starts the discard pile with a discard."
        )
    return _(
        "Each player gets 11 cards. The rest is the stock, face down; its top card is turned up "
        "to start the discard pile."
    )


def _end_of_stock(rid: str) -> str:
    if rid == "polish":
        first = _(
            "When the stock is empty, the hand ends as soon as a player cannot draw from it: "
            "the discard pile is not taken any more, and the hand is scored as it stands, even "
            "without the canastas needed to go out."
        )
    elif rid == "classic":
        first = _(
            "When the stock is empty, play goes on as long as each player takes the previous "
            "player's discard under the usual rules; a player must take it when the pile is not "
            "frozen and the discard matches a meld of the player's side. The hand ends when a "
            "player who may draw from the stock chooses to, or cannot take the discard."
        )
    else:
        first = _(
            "When the stock is empty, play goes on as long as each player can and will take the "
            "discard pile under the usual rules. The hand ends as soon as a player cannot or "
            "will not take it."
        )
    return " ".join(
        [
            _("A reading:"),
            first,
            _(
                "A red three drawn as the last card of the stock ends the hand at once: that "
                "player neither melds nor discards, and the red three counts for the side like "
                "any other. Nobody earns the going-out bonus."
            ),
        ]
    )


def _ask_partner(rid: str) -> str:
    text = _(
        "A reading: after drawing (or taking the pile) and before melding, a player who could "
        "go out may ask the partner “May I go out?”. The partner must answer yes or no, and "
        "the answer binds: after a yes the player must go out in this turn; after a no the "
        "player may not go out in this turn and keeps at least one card after discarding. "
        "Nobody has to ask."
    )
    if rid == "american":
        text += " " + _("In these rules a side may ask only once per hand.")
    return text


def _black_three(rid: str) -> str:
    text = _(
        "A reading: a black three on top blocks the discard pile for the next player's turn "
        "only. That player cannot take it and discards onto it; once covered, the black "
        "three no longer counts and the pile is as it was. A black three never freezes the "
        "pile."
    )
    if rid == "polish":
        text += " " + _(
            "In these rules that player may still take it by melding the black three while "
            "going out."
        )
    return text


ITEMS: tuple[TableItem, ...] = (
    TableItem(
        "table-seating",
        _rs("german", "classic"),
        lambda rid: _(
            "Before the first hand each player draws a card: the two highest play together "
            "against the two lowest, and partners sit opposite each other (often called "
            "North–South against East–West). The player with the highest card deals first."
        ),
    ),
    TableItem("table-deal", _rs("german", "polish", "classic", "american"), _deal),
    TableItem(
        "table-dealer",
        _rs("american"),
        lambda rid: _(
            "The deal passes to the left after each hand, and the player to the dealer's left "
            "plays first."
        ),
    ),
    TableItem(
        "table-no-take-back",
        _rs("german"),
        lambda rid: _(
            "Melded cards stay on the table: a wild card in a meld can never be taken back or "
            "exchanged for a natural card."
        ),
    ),
    TableItem(
        "table-red-threes",
        _rs("german", "polish", "classic"),
        lambda rid: _(
            "A red three in the hand dealt is laid out face up at once and replaced by the top "
            "card of the stock; so is a red three drawn later. The scorekeeper only needs how "
            "many each side has."
        ),
    ),
    TableItem(
        "table-closed-canasta",
        _rs("american"),
        lambda rid: _(
            "A natural canasta is closed: from then on neither side may start or add to a meld "
            "of that rank (its cards are dead), except in a special hand of a side that has not "
            "melded. The players keep track of this; the referee does not ask."
        ),
    ),
    TableItem(
        "table-turn-card",
        _rs("american"),
        lambda rid: _(
            "The ninth card from the bottom of the stock is turned sideways: the turn card. "
            "Whoever draws it says so: eight cards are left and no more bonus cards are drawn."
        ),
    ),
    TableItem(
        "table-two-player",
        _rs("classic"),
        lambda rid: _(
            "Two players: 15 cards each; a player draws two cards from the stock and discards "
            "one, and needs two canastas to go out. When one card is left in the stock, drawing "
            "it counts as a full draw. A red three among the last two cards gets no replacement "
            "(it counts as a one-card draw); a red three drawn alone as the last card ends the "
            "hand at once, without a meld or a discard."
        ),
    ),
    TableItem(
        "table-cutthroat",
        _rs("classic"),
        lambda rid: _(
            "Three players (cutthroat): the first player to take the discard pile plays alone "
            "and the other two are partners for that hand. A player who goes out before anyone "
            "took the pile is the lone player; when the stock runs out before anyone took it, "
            "everyone scores alone. Each player keeps an own total and meets the minimum of "
            "that total; partners combine melds but not red threes."
        ),
    ),
    TableItem("settled-black-three", _rs("german", "polish", "classic"), _black_three),
    TableItem("settled-ask-partner", _rs("german", "classic", "american"), _ask_partner),
    TableItem("settled-end-of-stock", CANASTA, _end_of_stock),
    TableItem(
        "settled-red-three-pile",
        _rs("polish"),
        lambda rid: _(
            "A red three that comes into a hand with the discard pile (turned up as the pile's "
            "first card) is laid out like the others and counts as they do, but no replacement "
            "card is drawn for it."
        ),
    ),
    TableItem(
        "settled-variants",
        _rs("classic", "american"),
        lambda rid: _(
            "The source lists older and local variants (stricter or looser initial melds, "
            "threes kept in hand, bonus packets at the first meld). This scorekeeper follows "
            "the main rules; a variant that the new-game form offers as a house rule is marked "
            "on this page when chosen. The source's German part near its end describes play "
            "to the right and laying off after going out; it contradicts the rest and is not "
            "followed."
        ),
    ),
    TableItem(
        "settled-fifty-deal",
        _rs(FIFTY),
        lambda rid: _(
            "A reading: each new round is dealt by the player to the left of the last dealer, "
            "and the player to the new dealer's left begins. Middle cards taken during a round "
            "are replaced only at the next deal (the discard pile is not a middle card). In the "
            "last round every player gets the same number of cards; cards left over are set "
            "aside and not played. The source does not say who deals first: agree at the table."
        ),
    ),
    TableItem(
        "settled-fifty-table",
        _rs(FIFTY),
        lambda rid: _(
            "Only the player whose turn it is plays a card; playing out of turn is not allowed, "
            "and so are agreements between players."
        ),
    ),
)


@dataclass(frozen=True)
class ShownItem:
    """A table procedure in a ruleset's words, as its rules page shows it."""

    anchor: str
    text: str


def table_items(ruleset_id: str) -> list[ShownItem]:
    """The table procedures of a ruleset's page (anchors ``table-…``)."""
    return [
        ShownItem(i.anchor, i.text(ruleset_id))
        for i in ITEMS
        if ruleset_id in i.rulesets and i.anchor.startswith("table-")
    ]


def settled_items(ruleset_id: str) -> list[ShownItem]:
    """The readings this app settled for a ruleset's page (anchors ``settled-…``)."""
    return [
        ShownItem(i.anchor, i.text(ruleset_id))
        for i in ITEMS
        if ruleset_id in i.rulesets and i.anchor.startswith("settled-")
    ]
