"""Every ruleset explained, item by item, in the reader's language (docs/rulebook.md as sentences).

Every number is read from the :class:`RuleSet`, so a house rule changes the text and is marked.
The rules page shows the items in sections (:func:`rule_book`); the referee quotes single
items (:func:`rule_items`), so an answer and the page it links to always say the same thing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from flask_babel import gettext as _
from flask_babel import ngettext

from ...rules import fifty
from ...rules.explain import SECTIONS, THREE_IS_FIFTY_SECTIONS, changed_items, section_of
from ...rules.ruleset import RuleSet
from ..words.i18n import number
from ..words.names import card_label, special_hand_name
from .play import listed, play_items
from .readings import add_readings
from .score_tables import Row, Table, bonus_table, card_value_table, per_players


@dataclass
class RuleItem:
    """One rule as a sentence or two, optionally with a table of the numbers."""

    key: str
    text: str
    changed: bool = False
    tables: list[Table] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return section_of(self.key)


@dataclass
class Section:
    """One section of the rules page: its anchor, its title and its rule items."""

    anchor: str
    title: str
    items: list[RuleItem]


def section_titles() -> dict[str, str]:
    return {
        "overview": _("Overview"),
        "cards": _("Cards and their values"),
        "melds": _("Melds and canastas"),
        "initial-meld": _("The initial meld"),
        "discard-pile": _("Taking the discard pile"),
        "going-out": _("Going out"),
        "red-threes": _("Red threes"),
        "scoring": _("Scoring a hand"),
        "moves": _("Deal and moves"),
    }


# ---- the rules, item by item ------------------------------------------------------------


def rule_items(
    rs: RuleSet, players: int | None = None, changed: set[str] | None = None
) -> dict[str, RuleItem]:
    """Every rule of ``rs`` as an item, keyed as in :mod:`scorekeeper.rules.explain`.

    With ``players`` the items say what holds for that many players (the referee quotes them);
    without, they cover every player count the ruleset allows (the rules page).
    ``changed``: the parameters a house rule changes (their items and rows get marked).
    """
    changed = changed or set()
    marked = changed_items(changed)
    counts = [players] if players else list(rs.players_allowed)
    items: dict[str, RuleItem] = {}

    def add(key: str, text: str, *tables: Table) -> None:
        items[key] = RuleItem(key, text, key in marked, list(tables))

    # overview
    add(
        "overview.players",
        _(
            "A game for %(counts)s players.",
            counts=listed([number(n) for n in rs.players_allowed]),
        ),
    )
    if rs.threes_by_colour and 3 not in rs.players_allowed:
        # docs/rulebook.md §6 settles four players; two play the same numbers, one a side.
        items["overview.players"].text += " " + _(
            "Two players play with the same numbers, one player a side. Three players are not "
            "offered: the sources give no rules for three-player partnerships in this game."
        )
    if any(n % 2 == 0 for n in rs.players_allowed):
        sides = _(
            "Partners sit opposite each other and play as a side: they meld together and "
            "score together."
        )
        if 3 in rs.players_allowed:
            sides += " " + _(
                "With three players, the first player to take the discard pile "
                "plays alone against the other two for that hand."
            )
        add("overview.sides", sides)
    targets = {n: rs.target_for(n) for n in counts}
    if len(set(targets.values())) == 1:
        goal = _(
            "The first side to reach %(target)s points wins. If both sides pass it in the "
            "same hand, the higher total wins.",
            target=number(rs.target_for(counts[0])),
        )
        add("overview.goal", goal)
    else:
        add(
            "overview.goal",
            _(
                "The first side to reach the target wins. If both sides pass it "
                "in the same hand, the higher total wins."
            ),
            per_players(rs, rs.target_for, "target" in changed),
        )

    # cards
    deck = _("Two packs of 52 cards and four jokers: 108 cards.")
    three_packs = [n for n in counts if n in rs.three_packs_for_players]
    if three_packs:
        deck += " " + _(
            "With %(counts)s players: three packs and six jokers, 162 cards.",
            counts=listed([number(n) for n in three_packs]),
        )
    add("cards.deck", deck)
    if rs.threes_by_colour:
        add(
            "cards.kinds",
            _(
                "Jokers and twos are wild cards. Fours up to aces are natural "
                "cards. Threes of both colours are laid out and scored by colour; "
                "a black three on the pile also stops it."
            ),
        )
    else:
        add(
            "cards.kinds",
            _(
                "Jokers and twos are wild cards. Fours up to aces are natural "
                "cards. Red threes are bonus cards; black threes are stop cards."
            ),
        )
    add(
        "cards.values",
        _("A card counts its points for its side when melded, and against it when left in hand."),
        card_value_table(rs, changed),
    )

    play_items(rs, players, counts, changed, add)

    # red threes
    if rs.threes_by_colour:
        _threes_items(rs, add, changed)
    red = [
        _(
            "A red three is laid out as soon as it is drawn and replaced from the stock. Each "
            "scores %(value)s.",
            value=number(rs.red_three_value),
        )
    ]
    for n in counts:
        special = rs.red_three_special_by_players.get(n, rs.red_three_special)
        for count, points in sorted(special.items()):
            sentence = _(
                "%(count)s red threes to one side score %(points)s.",
                count=number(count),
                points=number(points),
            )
            if n in rs.red_three_special_by_players:
                sentence = _("With %(players)s players: %(rule)s", players=number(n), rule=sentence)
            if sentence not in red:
                red.append(sentence)
    if not rs.threes_by_colour:
        add("red-threes.value", " ".join(red))
    if rs.red_threes_negative_without_meld and not rs.threes_by_colour:
        add(
            "red-threes.negative",
            _(
                "If the side has melded nothing by the end of the hand, "
                "its red threes count as minus points."
            ),
        )

    # scoring
    if rs.threes_by_colour or rs.has_meld_penalties():
        add(
            "scoring.formula",
            _(
                "A side scores its melded cards, its canasta bonuses, its "
                "threes and the going-out bonus, minus its penalties and the "
                "cards left in its players' hands."
            ),
            bonus_table(rs, players, changed),
        )
    else:
        add(
            "scoring.formula",
            _(
                "A side scores its melded cards, its canasta bonuses, its red "
                "threes and the going-out bonus, minus the cards left in its "
                "players' hands."
            ),
            bonus_table(rs, players, changed),
        )
    if rs.melds_minus_without_canasta:
        items["scoring.formula"].text += " " + _(
            "A side without a canasta counts its melded cards as minus points."
        )
    if rs.has_meld_penalties():
        _penalty_item(rs, add, changed)
    if rs.special_hands():
        add(
            "scoring.special_hands",
            _(
                "A special hand (14 cards shown at once by a player whose side has not melded) "
                "replaces that side's score for the hand:"
            ),
            Table(
                [_("Special hand"), _("Points")],
                [
                    Row(
                        [special_hand_name(name), number(value)], f"special_{name}_value" in changed
                    )
                    for name, value in rs.special_hands().items()
                ],
            ),
        )
    add(
        "scoring.black_three_penalty",
        _(
            "A black three left in hand costs %(penalty)s.",
            penalty=number(rs.black_three_in_hand_penalty),
        ),
    )
    if len(set(targets.values())) == 1:
        add(
            "scoring.target",
            _(
                "The game ends when a side reaches %(target)s points.",
                target=number(rs.target_for(counts[0])),
            ),
        )
    else:
        add(
            "scoring.target",
            _("The game ends when a side reaches the target:"),
            per_players(rs, rs.target_for, "target" in changed),
        )
    # Where the sources are unclear: the readings, each with the source's words.
    add_readings(rs, counts, add)
    return items


def _threes_items(rs: RuleSet, add: Callable[..., None], changed: set[str]) -> None:
    """docs/rulebook.md §6: threes of each colour scored by count, their sign by the canastas
    made."""
    rows = [
        Row([number(count), number(points)], "threes_table" in changed)
        for count, points in sorted(rs.threes_table.items())
    ]
    add(
        "red-threes.value",
        _(
            "Red and black threes are laid out as soon as they are drawn and "
            "replaced from the stock. Each colour scores by how many a side "
            "has:"
        ),
        Table([_("Threes of one colour"), _("Points")], rows),
    )
    add(
        "red-threes.negative",
        ngettext(
            "With no canasta the threes count as minus points; with %(num)s canasta they count "
            "nothing; with %(plus)s or more they count plus.",
            "With fewer than %(num)s canastas the threes count as minus points; with %(num)s they "
            "count nothing; with %(plus)s or more they count plus.",
            rs.threes_zero_canastas,
            plus=number(rs.threes_plus_canastas),
        ),
    )


def _penalty_item(rs: RuleSet, add: Callable[..., None], changed: set[str]) -> None:
    """docs/rulebook.md §6: unfinished melds of sevens, aces or wild cards, and sevens or aces
    held."""
    rows = []
    for label, key in (
        (_("Unfinished meld of sevens"), "unfinished_sevens_penalty"),
        (_("Unfinished meld of natural aces"), "unfinished_aces_penalty"),
        (_("Unfinished meld of wild cards"), "unfinished_wild_penalty"),
    ):
        if getattr(rs, key):
            rows.append(Row([label, number(-getattr(rs, key))], key in changed))
    if rs.held_sevens_aces_penalty:
        rows.append(
            Row(
                [
                    _(
                        "%(count)s or more sevens, or aces, in one player's hand at the end",
                        count=number(rs.held_sevens_aces_count),
                    ),
                    number(-rs.held_sevens_aces_penalty),
                ],
                "held_sevens_aces_penalty" in changed,
            )
        )
    add(
        "scoring.penalties",
        _("Penalties at the end of a hand (the cards still count their points as usual):"),
        Table([_("For"), _("Points")], rows),
    )


def rule_book(
    rs: RuleSet, players: int | None = None, changed: set[str] | None = None
) -> list[Section]:
    """The rules page's sections, in reading order."""
    items = rule_items(rs, players, changed)
    titles = section_titles()
    if rs.threes_by_colour:
        titles["red-threes"] = _("Red and black threes")
    return [
        Section(anchor, titles[anchor], [item for item in items.values() if item.anchor == anchor])
        for anchor in SECTIONS
    ]


# ---- 3 ist 50 ------------------------------------------------------------------------------


def three_is_fifty_book(joker: int, joker_changed: bool = False) -> list[Section]:
    """The rules of "3 ist 50" (docs/rulebook.md §7): a matching game, not Canasta."""
    low, high = fifty.MIN_PLAYERS, fifty.MAX_PLAYERS
    values = fifty.CARD_VALUES
    rows = [
        Row([_("Three"), number(values["3"])]),
        Row([_("Ace"), number(values["A"])]),
        Row([" ".join(card_label(r) for r in ("K", "Q", "J")), number(values["K"])]),
        Row([_("Other cards, 10 down to 2"), _("their number")]),
        Row([_("Joker"), number(joker)], joker_changed),
    ]
    items = [
        RuleItem(
            "overview.game",
            _(
                "Not Canasta: a matching game played with a Canasta deck, for %(low)s to %(high)s "
                "players, each for themself. The lowest total wins.",
                low=number(low),
                high=number(high),
            ),
        ),
        RuleItem(
            "cards.points",
            _(
                "Every card on a player's minus pile counts against them. "
                "Suits never matter. The source rules give the joker no "
                "value; this game counts it %(points)s.",
                points=number(joker),
            ),
            joker_changed,
            [Table([_("Card"), _("Minus points")], rows)],
        ),
        RuleItem(
            "moves.deal",
            _(
                "Deal four cards to each player and four face up to the middle. Each round deals "
                "again from the rest until the stock is used up; the last round deals only as many "
                "cards as every player can get equally. Middle cards that were taken are refilled "
                "only at the next deal."
            ),
        ),
        RuleItem(
            "moves.turn",
            _(
                "On a turn a player plays exactly one card from hand. The first "
                "of these that fits applies:"
            ),
        ),
        RuleItem(
            "moves.middle",
            _(
                "1. Same rank as one or more middle cards or the discard pile's top card: the card "
                "and all those cards of that rank go onto the left neighbour's minus pile."
            ),
        ),
        RuleItem(
            "moves.own_pile",
            _(
                "2. Same rank as the top of your own minus pile: the card and the unbroken run of "
                "that rank on top of your pile go onto the left neighbour's minus pile."
            ),
        ),
        RuleItem(
            "moves.any_pile",
            _("3. Same rank as the top of any minus pile: the card goes onto that pile."),
        ),
        RuleItem(
            "moves.discard",
            _(
                "4. No match anywhere: the card goes onto the discard pile. "
                "While any hand card matches, a player may not discard."
            ),
        ),
        RuleItem(
            "moves.reading_last_deal",
            _(
                "A reading: at each deal the hands come first, four cards each, then the middle "
                "is filled back up to four. In the last round every player gets as many cards "
                "as all can get equally, the middle takes what it needs of the rest, and the "
                "cards still left are set aside unplayed."
            ),
        ),
        RuleItem(
            "moves.dealer",
            _(
                "After each round the player to the left of the last dealer deals; the player "
                "to the dealer's left plays first."
            ),
        ),
        RuleItem(
            "moves.in_turn",
            _(
                "The players play one card each in turn, going left. Nobody plays out of turn, "
                "and players may not agree on their plays."
            ),
        ),
        RuleItem(
            "scoring.lowest",
            _(
                "When the stock is used up, every player adds up the minus "
                "points of their pile. The lowest total wins."
            ),
        ),
    ]
    titles = section_titles()
    titles["overview"] = _("Overview")
    titles["cards"] = _("Cards and their minus points")
    titles["scoring"] = _("Scoring")
    return [
        Section(anchor, titles[anchor], [i for i in items if i.anchor == anchor])
        for anchor in THREE_IS_FIFTY_SECTIONS
    ]
