"""Every ruleset explained, item by item, in the reader's language (RULES.md as sentences).

Every number is read from the :class:`RuleSet`, so a house rule changes the text and is marked.
The rules page shows the items in sections (:func:`rule_book`); the referee quotes single
items (:func:`rule_items`), so an answer and the page it links to always say the same thing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from ..rules import three_is_fifty
from ..rules.explain import SECTIONS, THREE_IS_FIFTY_SECTIONS, changed_items, section_of
from ..rules.ruleset import RuleSet
from .i18n import number
from .messages import card_label, special_hand_name
from .readings import add_readings
from .rule_tables import Row, Table, bonus_table, card_value_table, minimum_table, per_players


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


def _listed(items: list[str], style: str = "or") -> str:
    return format_list(items, style=style, locale=get_locale() or "en")


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
            counts=_listed([number(n) for n in rs.players_allowed]),
        ),
    )
    if rs.threes_by_colour and 3 not in rs.players_allowed:
        # RULES.md §6 settles four players; two play the same numbers, one a side.
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
            counts=_listed([number(n) for n in three_packs]),
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

    # melds
    add(
        "melds.size",
        _(
            "A meld is at least %(size)s cards of the same rank; wild cards may "
            "stand in for natural cards.",
            size=number(rs.min_meld_size),
        ),
    )
    if rs.max_meld_size:
        add(
            "melds.max_size",
            _("A meld holds at most %(size)s cards.", size=number(rs.max_meld_size)),
        )
    if rs.natural_at_least_wild:
        natural = _("A meld needs at least as many natural cards as wild cards.")
        if (rs.min_meld_size + 1) // 2 < rs.min_natural_per_meld:
            natural += " " + ngettext(
                "It needs at least %(num)s natural card.",
                "It needs at least %(num)s natural cards.",
                rs.min_natural_per_meld,
            )
    elif rs.max_wild_per_meld <= rs.min_natural_per_meld:
        natural = ngettext(
            "A mixed meld needs at least %(num)s natural card.",
            "A mixed meld needs at least %(num)s natural cards.",
            rs.min_natural_per_meld,
        )
    else:
        natural = ngettext(
            "A meld needs at least %(num)s natural card; it may hold more wild "
            "cards than natural ones.",
            "A meld needs at least %(num)s natural cards; it may hold more wild "
            "cards than natural ones.",
            rs.min_natural_per_meld,
        )
    add("melds.natural", natural)
    add(
        "melds.wild_limit",
        ngettext(
            "A meld holds at most %(num)s wild card.",
            "A meld holds at most %(num)s wild cards.",
            rs.max_wild_per_meld,
        ),
    )
    add(
        "melds.canasta",
        _(
            "A meld of %(size)s or more cards is a canasta. A natural canasta "
            "(no wild card) earns a bonus of %(natural)s, a mixed canasta "
            "%(mixed)s.",
            size=number(rs.canasta_size),
            natural=number(rs.natural_canasta_bonus),
            mixed=number(rs.mixed_canasta_bonus),
        ),
    )
    if rs.sevens_never_mixed or rs.sevens_canasta_bonus:
        sevens = []
        if rs.sevens_never_mixed:
            sevens.append(_("Sevens are never mixed: a meld of sevens takes no wild card."))
        if rs.sevens_canasta_bonus:
            sevens.append(
                _("A canasta of sevens earns %(bonus)s.", bonus=number(rs.sevens_canasta_bonus))
            )
        add("melds.sevens", " ".join(sevens))
    if rs.aces_mixed_only_in_initial_meld or rs.aces_canasta_bonus:
        aces = []
        if rs.aces_mixed_only_in_initial_meld:
            aces.append(
                _(
                    "Aces take wild cards only when laid in the side's initial meld; "
                    "such a meld of aces counts as an ordinary meld."
                )
            )
        if rs.aces_canasta_bonus:
            aces.append(
                _("A natural canasta of aces earns %(bonus)s.", bonus=number(rs.aces_canasta_bonus))
            )
        add("melds.aces", " ".join(aces))
    if rs.allows_wild_canasta() and rs.wild_meld_open:
        wild = _(
            "Wild cards alone make a meld of %(low)s to %(size)s cards. As a canasta it "
            "earns %(bonus)s.",
            low=number(rs.min_meld_size),
            size=number(rs.canasta_size),
            bonus=number(rs.wild_canasta_bonus),
        )
        if rs.wild_canasta_jokers_bonus:
            wild += " " + _(
                "With all four jokers: %(bonus)s.", bonus=number(rs.wild_canasta_jokers_bonus)
            )
        if rs.wild_canasta_twos_bonus:
            wild += " " + _("Of twos only: %(bonus)s.", bonus=number(rs.wild_canasta_twos_bonus))
        add("melds.wild_canasta", wild)
    elif rs.allows_wild_canasta():
        add(
            "melds.wild_canasta",
            _(
                "A canasta of %(size)s wild cards only earns a bonus of "
                "%(bonus)s; it is laid complete, in one turn.",
                size=number(rs.canasta_size),
                bonus=number(rs.wild_canasta_bonus),
            ),
        )
    else:
        add(
            "melds.wild_canasta",
            _("Wild cards alone never make a meld: there are no wild canastas."),
        )
    add(
        "melds.one_per_rank",
        _("A side has only one meld of each rank: more cards of that rank join it."),
    )
    add("melds.opponents", _("Nobody adds cards to the opponents' melds."))
    add("melds.red_threes", _("Red threes are never melded."))
    black = [number(n) for n in range(rs.black_three_meld_min, rs.black_three_meld_max + 1)]
    if rs.threes_by_colour:
        add(
            "melds.black_threes",
            _("Black threes are never melded: they are laid out like red threes."),
        )
    else:
        add(
            "melds.black_threes",
            _(
                "Black threes are melded only when going out: %(counts)s "
                "of them, without wild cards.",
                counts=_listed(black),
            ),
        )
    seven = rs.canasta_size * rs.high_value
    add(
        "melds.value",
        _(
            "A meld is worth the points of its cards; a canasta's bonus comes on "
            "top (%(size)s kings: %(cards)s + %(bonus)s = %(total)s).",
            size=number(rs.canasta_size),
            cards=number(seven),
            bonus=number(rs.natural_canasta_bonus),
            total=number(seven + rs.natural_canasta_bonus),
        ),
    )

    # initial meld
    tables = [minimum_table(rs, counts[0] if players else None, changed="minimum_table" in changed)]
    if not players:
        for n, _table in sorted(rs.minimum_table_by_players.items()):
            extra = minimum_table(rs, n)
            extra.caption = _("With %(players)s players", players=number(n))
            tables.append(extra)
    add(
        "initial-meld.minimum",
        _(
            "A side's first meld in a hand must count at least a minimum, "
            "set by the side's total score before the hand."
        ),
        *tables,
    )
    add(
        "initial-meld.counted",
        _(
            "Only the cards laid down in that turn count: cards from hand "
            "and the top card of the discard pile. The rest of the pile, "
            "red threes and canasta bonuses do not count."
        ),
    )
    add("initial-meld.several", _("Several melds may be laid down at once to reach the minimum."))
    if rs.concealed_needs_minimum:
        add("initial-meld.concealed", _("A player who goes out concealed needs the minimum too."))
    else:
        add("initial-meld.concealed", _("A player who goes out concealed needs no minimum."))

    # discard pile
    add(
        "discard-pile.blocked",
        _("Nobody may take the pile while a wild card or a black three lies on top."),
    )
    if rs.black_three_pile_when_going_out:
        add(
            "discard-pile.black_three_exception",
            _(
                "Exception: a player who goes out may take a pile stopped by a black three by "
                "melding that black three with black threes from hand."
            ),
        )
    if rs.pile_needs_natural_pair_always:
        add(
            "discard-pile.frozen",
            _(
                "The pile is taken only by melding its top card with two natural cards of the same "
                "rank from your hand (they may join your side's meld of that rank while it stays "
                "within the largest meld). A side that has not melded must also reach its minimum."
            ),
        )
    elif rs.frozen_needs_natural_pair:
        add(
            "discard-pile.frozen",
            _(
                "The pile is frozen for everyone once it holds a wild card, or when a red three "
                "was "
                "turned up as its first card. To "
                "take a frozen pile, meld its top card with two natural cards of the same rank "
                "from your hand."
            ),
        )
    else:
        add("discard-pile.frozen", _("A frozen pile is taken like any other pile."))
    if not rs.pile_needs_natural_pair_always:
        add(
            "discard-pile.open",
            _(
                "When the pile is not frozen, its top card may go onto your "
                "side's meld of that rank, or into a new meld with cards "
                "from your hand."
            ),
        )
    add(
        "discard-pile.show",
        _(
            "Show the meld with the top card before taking the rest of the "
            "pile. The other cards of the pile never count toward the initial "
            "meld."
        ),
    )

    # going out
    if rs.going_out_needs_discard:
        add(
            "going-out.how",
            _(
                "A player goes out by melding all their cards but one and "
                "discarding it: the final discard is needed. Only one side goes "
                "out in a hand."
            ),
        )
    else:
        add(
            "going-out.how",
            _(
                "A player goes out by melding all their cards, with or without "
                "a final discard. Only one side goes out in a hand."
            ),
        )
    needed = {n: rs.canastas_needed(n) for n in counts}
    if players:
        canastas = ngettext(
            "With %(players)s players, a side needs %(num)s canasta to go out.",
            "With %(players)s players, a side needs %(num)s canastas to go out.",
            needed[players],
            players=number(players),
        )
        add("going-out.canastas", canastas)
    elif len(set(needed.values())) == 1:
        add(
            "going-out.canastas",
            ngettext(
                "A side needs %(num)s canasta to go out.",
                "A side needs %(num)s canastas to go out.",
                needed[counts[0]],
            ),
        )
    else:
        add(
            "going-out.canastas",
            _("The canastas a side needs to go out:"),
            Table(
                [_("Players"), _("Canastas")],
                [
                    Row([number(n), number(k)], "canastas_to_go_out" in changed)
                    for n, k in needed.items()
                ],
            ),
        )
    if rs.concealed_going_out_bonus == rs.going_out_bonus:
        add(
            "going-out.bonus",
            _("Going out earns %(bonus)s, concealed or not.", bonus=number(rs.going_out_bonus)),
        )
    else:
        add(
            "going-out.bonus",
            _(
                "Going out earns %(bonus)s; going out concealed earns %(concealed)s instead.",
                bonus=number(rs.going_out_bonus),
                concealed=number(rs.concealed_going_out_bonus),
            ),
        )
    add(
        "going-out.concealed",
        _(
            "Going out concealed: the player has melded nothing earlier in the hand, melds the "
            "whole hand in one turn including at least one complete canasta of their own, and adds "
            "nothing to the partner's melds."
        ),
    )
    add("going-out.stock", _("When the stock runs out, nobody earns the going-out bonus."))

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
    # Where the sources are unclear: the readings, each with the source's words (issue 14).
    add_readings(rs, counts, add)
    return items


def _threes_items(rs: RuleSet, add: Callable[..., None], changed: set[str]) -> None:
    """RULES.md §6: threes of each colour scored by count, their sign by the canastas made."""
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
    """RULES.md §6: unfinished melds of sevens, aces or wild cards, and sevens or aces held."""
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
    """The rules of "3 ist 50" (RULES.md §7): a matching game, not Canasta."""
    low, high = three_is_fifty.MIN_PLAYERS, three_is_fifty.MAX_PLAYERS
    values = three_is_fifty.CARD_VALUES
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
