"""The rules of play as rule-book items: melds, the initial meld, the discard pile and going
out (docs/rulebook.md §2, §3, §5, §4 "going out"). :func:`.rule_book.rule_items` calls it between
the
overview and the scoring; every number is read from the :class:`RuleSet`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from ...rules.ruleset import RuleSet
from ..words.i18n import number
from .score_tables import Row, Table, minimum_table


def listed(items: list[str], style: Literal["standard", "or"] = "or") -> str:
    """Items joined as the reader writes a list ("a, b or c")."""
    return format_list(items, style=style, locale=get_locale() or "en")


def play_items(
    rs: RuleSet,
    players: int | None,
    counts: list[int],
    changed: set[str],
    add: Callable[..., None],
) -> None:
    """The items of the sections melds, initial meld, discard pile and going out."""
    # melds
    add(
        "melds.size",
        _(
            "A meld is at least %(size)s cards of the same rank; wild cards may "
            "stand in for natural cards.",
            size=number(rs.min_meld_size),
        )
        # docs/rulebook.md §5, every ruleset (seeds 000 and 002): never one card left but to go out.
        + " "
        + _(
            "Nobody melds or adds to a meld so that a single card is left in hand, unless "
            "the side may then go out by discarding it."
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
    if rs.new_meld_clean_until:
        # docs/rulebook.md §6 (seed 002): "must be clean until they contain at least five cards".
        natural += " " + ngettext(
            "After the side's initial meld, a new meld takes no wild card until it holds "
            "%(num)s natural card.",
            "After the side's initial meld, a new meld takes no wild card until it holds "
            "%(num)s natural cards.",
            rs.new_meld_clean_until,
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
            # docs/rulebook.md §6: the -2,000 is for unfinished natural aces only.
            aces.append(
                _(
                    "Complete, such a meld of aces is a mixed canasta (%(bonus)s); "
                    "unfinished, it costs no penalty.",
                    bonus=number(rs.mixed_canasta_bonus),
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
                counts=listed(black),
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
    # Where nobody goes out concealed (docs/rulebook.md §6) there is no minimum for it to speak of.
    if rs.concealed_going_out and rs.concealed_needs_minimum:
        add("initial-meld.concealed", _("A player who goes out concealed needs the minimum too."))
    elif rs.concealed_going_out:
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
    # docs/rulebook.md §6 (American): the top card joins a meld of at most this many cards.
    onto = (
        ngettext(
            "The top card joins your side's meld of its rank only while that meld holds at "
            "most %(num)s card.",
            "The top card joins your side's meld of its rank only while that meld holds at "
            "most %(num)s cards.",
            rs.pile_onto_meld_max,
        )
        if rs.pile_onto_meld_max
        else ""
    )
    if rs.pile_needs_natural_pair_always and onto:
        add(
            "discard-pile.frozen",
            _(
                "The pile is taken only by melding its top card with two natural cards of the "
                "same rank from your hand. A side that has not melded must also reach its "
                "minimum."
            )
            + " "
            + onto,
        )
    elif rs.pile_needs_natural_pair_always:
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
            )
            + (" " + onto if onto else ""),
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
    if not rs.concealed_going_out:
        add("going-out.bonus", _("Going out earns %(bonus)s.", bonus=number(rs.going_out_bonus)))
    elif rs.concealed_going_out_bonus == rs.going_out_bonus:
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
    if rs.concealed_going_out:
        add(
            "going-out.concealed",
            _(
                "Going out concealed: the player has melded nothing earlier in the hand, melds "
                "the whole hand in one turn including at least one complete canasta of their own, "
                "and adds nothing to the partner's melds."
            ),
        )
    else:
        add(
            "going-out.concealed",
            _("These rules know no going out concealed: going out scores its usual bonus."),
        )
    add("going-out.stock", _("When the stock runs out, nobody earns the going-out bonus."))
    _disputes_items(rs, players, counts, add)


def _disputes_items(
    rs: RuleSet, players: int | None, counts: list[int], add: Callable[..., None]
) -> None:
    """The rules the referee's disputes quote (scorekeeper.rules.disputes): asking the
    partner, the end of the stock, the black three's one turn, the red three from the pile."""
    if not rs.partner_permission:
        add(
            "going-out.permission",
            _("These rules know no asking the partner “May I go out?”: each player decides alone."),
        )
    else:
        ask = [
            _(
                "After drawing, a player may ask the partner “May I go out?”. The partner "
                "answers yes or no, and the answer binds: after a yes the player must go out in "
                "that turn, after a no the player may not."
            )
        ]
        if rs.partner_permission_before_melds:
            ask.append(_("Ask before melding anything but the pile's top card."))
        if rs.partner_permission_when_able:
            ask.append(_("Ask only when you are able to go out."))
        if rs.partner_permission_once:
            ask.append(_("The question may be asked only once in each hand."))
        add("going-out.permission", " ".join(ask))
    if not rs.stock_out_pile:
        add(
            "going-out.stock_pile",
            _(
                "When the stock is used up, the hand ends as soon as a player cannot draw from "
                "it; nobody takes the discard pile instead."
            ),
        )
    elif rs.stock_out_pile_forced:
        add(
            "going-out.stock_pile",
            _(
                "When the stock is used up, play goes on while each player takes the discard "
                "pile. A player must take it when it is not frozen and its top card matches a "
                "meld of their side. Whoever draws from the empty stock instead ends the hand."
            ),
        )
    else:
        add(
            "going-out.stock_pile",
            _(
                "When the stock is used up, play goes on while the players can and want to "
                "take the discard pile. As soon as one cannot or will not, the hand ends."
            ),
        )
    if rs.threes_by_colour:
        add(
            "going-out.stock_red_three",
            _(
                "If the last card drawn from the stock is a three, no card is left to replace "
                "it: the hand ends at once, the player neither melds nor discards, and the "
                "three counts 5 points against the side."
            ),
        )
    else:
        add(
            "going-out.stock_red_three",
            _(
                "If the last card of the stock is a red three (or the last two are), no card is "
                "left to replace it: the hand ends at once, and the player neither melds nor "
                "discards."
            ),
        )
    add(
        "discard-pile.black_three_turn",
        _(
            "A black three on top stops the pile for the next player only. It does not "
            "freeze the pile: once another card lies on it, it stops nothing."
        ),
    )
    if rs.threes_by_colour:
        add(
            "red-threes.from_pile",
            _(
                "No card is turned up to start the discard pile, and threes are laid out as "
                "soon as they are drawn: a three never lies in the pile."
            ),
        )
    else:
        add(
            "red-threes.from_pile",
            _(
                "A red three taken with the discard pile (it can only be the pile's first "
                "card) is laid out and scores as usual, but no replacement card is drawn for it."
            ),
        )
    twos = [n for n in counts if rs.stock_draw(n) > 1]
    if twos:
        add(
            "overview.draw",
            _(
                "With two players, a turn draws two cards from the stock and ends with one "
                "discard. When only one card is left, or a red three is among the last two, "
                "drawing it counts as a complete draw."
            ),
        )
    else:
        add(
            "overview.draw",
            _(
                "A turn begins by drawing one card from the stock or taking the whole discard "
                "pile, and ends with one discard."
            ),
        )
