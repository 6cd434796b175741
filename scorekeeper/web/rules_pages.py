"""The rules pages: every ruleset explained in the reader's language (``/rules/<ruleset_id>``).

Every number on the page is read from the :class:`RuleSet`, so a house rule given with
``?options=<json>`` changes the text and is marked. The referee quotes the same items
(:func:`rule_items`), so an answer and the page it links to always say the same thing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from babel.lists import format_list
from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from ..rules import three_is_fifty
from ..rules.cards import NATURAL_RANKS
from ..rules.explain import SECTIONS, THREE_IS_FIFTY_SECTIONS, changed_items, section_of
from ..rules.problems import Problem
from ..rules.ruleset import PRESETS, RULESET_IDS, RuleSet, get_ruleset
from .i18n import number
from .messages import card_label, message, ruleset_title
from .options import option_labels

bp = Blueprint("rules_pages", __name__)

# Longest JSON text of house rules read from a URL.
MAX_OPTIONS_TEXT = 4000


@dataclass
class Row:
    """One table row; ``changed``: a house rule changed it; ``current``: the row that applies."""

    cells: list[str]
    changed: bool = False
    current: bool = False


@dataclass
class Table:
    head: list[str]
    rows: list[Row]
    caption: str = ""


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


@dataclass
class HouseRules:
    """House rules read from ``?options=``: the ruleset with them, and what they change."""

    ruleset: RuleSet
    options: dict[str, Any] | None = None
    text: str = ""
    changes: list[tuple[str, str, str]] = field(default_factory=list)  # label, preset, house
    notes: list[str] = field(default_factory=list)


# ---- names and labels --------------------------------------------------------------------

def ruleset_label(ruleset_id: str) -> str:
    """The short name of a ruleset in the reader's language (segmented controls, comparisons)."""
    names = {"german": _("German"), "polish": _("Polish"), "classic": _("Classic"),
             three_is_fifty.RULESET_ID: _("3 is 50")}
    return names.get(ruleset_id, ruleset_id)


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


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _listed(items: list[str], style: str = "or") -> str:
    return format_list(items, style=style, locale=get_locale() or "en")


def option_value(key: str, value: Any) -> str:
    """A house-rule value as the reader reads it."""
    if isinstance(value, bool):
        return _yes_no(value)
    if isinstance(value, int):
        return number(value)
    if isinstance(value, dict):
        return ", ".join(f"{number(k)}: {number(v)}" for k, v in sorted(value.items()))
    if isinstance(value, tuple | list):
        return ", ".join(f"{_score_range(value, i)}: {number(row[1])}"
                         for i, row in enumerate(value))
    return str(value)


def read_house_rules(base: RuleSet, text: str | None) -> HouseRules:
    """The ruleset with the house rules of a URL's ``options`` (JSON), or notes why not."""
    house = HouseRules(ruleset=base)
    if not text:
        return house
    if len(text) > MAX_OPTIONS_TEXT:
        house.notes.append(_("The house rules in the link could not be read; the ruleset's "
                             "own rules apply."))
        return house
    try:
        options = json.loads(text)
    except (ValueError, RecursionError):
        house.notes.append(_("The house rules in the link could not be read; the ruleset's "
                             "own rules apply."))
        return house
    if options in (None, {}):
        return house
    rs, problems = base.with_options(options)
    if problems:
        house.notes.extend(message(p) for p in problems[:5])
        house.notes.append(_("The ruleset's own rules apply."))
        return house
    house.ruleset = rs
    house.options = options
    house.text = json.dumps(options, separators=(",", ":"), ensure_ascii=False)
    labels = option_labels()
    for key, value in rs.options_against(base).items():
        house.changes.append((labels.get(key, key), option_value(key, getattr(base, key)),
                              option_value(key, value)))
    return house


# ---- tables ------------------------------------------------------------------------------

def _score_range(table: Any, i: int) -> str:
    """The scores a row of a minimum table covers: "below 0", "0 – 1,495", "3,000 and more"."""
    threshold = table[i][0]
    if len(table) == 1:
        return _("any score")
    if i == 0:
        return _("below %(score)s", score=number(table[1][0]))
    if i == len(table) - 1:
        return _("%(score)s and more", score=number(threshold))
    upper = table[i + 1][0]
    upper -= 5 if upper % 5 == 0 and upper - 5 >= threshold else 1
    return f"{number(threshold)} \u2013 {number(upper)}"


def minimum_table(rs: RuleSet, players: int | None, score: int | None = None,
                  changed: bool = False) -> Table:
    """The initial-meld minimums by the side's score; ``score`` marks the row that applies."""
    table = rs.minimum_table_for(players)
    current = None
    if score is not None:
        for i, (threshold, _minimum) in enumerate(table):
            if i == 0 or score >= threshold:
                current = i
    rows = [Row([_score_range(table, i), number(minimum) if minimum else _("none")],
                changed=changed, current=(i == current))
            for i, (_threshold, minimum) in enumerate(table)]
    return Table([_("Side's score"), _("Minimum")], rows)


def card_value_table(rs: RuleSet, changed: set[str]) -> Table:
    high = " ".join(card_label(r) for r in reversed(NATURAL_RANKS[4:10]))
    low = " ".join(card_label(r) for r in reversed(NATURAL_RANKS[:4]))
    rows = [
        Row([_("Joker"), number(rs.joker_value)], "joker_value" in changed),
        Row([_("Two"), number(rs.two_value)], "two_value" in changed),
        Row([_("Ace"), number(rs.ace_value)], "ace_value" in changed),
        Row([high, number(rs.high_value)], "high_value" in changed),
        Row([low, number(rs.low_value)], "low_value" in changed),
        Row([_("Black three"), number(rs.black_three_value)], "black_three_value" in changed),
        Row([_("Red three"), _("bonus card")]),
    ]
    return Table([_("Card"), _("Points")], rows)


def _per_players(rs: RuleSet, value: Any, changed: bool) -> Table:
    return Table([_("Players"), ""],
                 [Row([number(n), number(value(n))], changed) for n in rs.players_allowed])


def bonus_table(rs: RuleSet, players: int | None, changed: set[str]) -> Table:
    count = players or rs.default_players
    rows = [
        Row([_("Natural canasta"), number(rs.natural_canasta_bonus)],
            "natural_canasta_bonus" in changed),
        Row([_("Mixed canasta"), number(rs.mixed_canasta_bonus)],
            "mixed_canasta_bonus" in changed),
    ]
    if rs.allows_wild_canasta():
        rows.append(Row([_("Wild canasta"), number(rs.wild_canasta_bonus)],
                        "wild_canasta_bonus" in changed))
    rows += [
        Row([_("Going out"), number(rs.going_out_bonus)], "going_out_bonus" in changed),
        Row([_("Going out concealed"), number(rs.concealed_going_out_bonus)],
            "concealed_going_out_bonus" in changed),
        Row([_("Each red three"), number(rs.red_three_score(1, count))],
            "red_three_value" in changed),
        Row([_("Black three left in hand"), number(-rs.black_three_in_hand_penalty)],
            "black_three_in_hand_penalty" in changed),
    ]
    return Table([_("For"), _("Points")], rows)


# ---- the rules, item by item ------------------------------------------------------------

def rule_items(rs: RuleSet, players: int | None = None,
               changed: set[str] | None = None) -> dict[str, RuleItem]:
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
    add("overview.players", _("A game for %(counts)s players.",
                              counts=_listed([number(n) for n in rs.players_allowed])))
    if any(n % 2 == 0 for n in rs.players_allowed):
        sides = _("Partners sit opposite each other and play as a side: they meld together and "
                  "score together.")
        if 3 in rs.players_allowed:
            sides += " " + _("With three players, the first player to take the discard pile "
                             "plays alone against the other two for that hand.")
        add("overview.sides", sides)
    targets = {n: rs.target_for(n) for n in counts}
    if len(set(targets.values())) == 1:
        goal = _("The first side to reach %(target)s points wins. If both sides pass it in the "
                 "same hand, the higher total wins.", target=number(rs.target_for(counts[0])))
        add("overview.goal", goal)
    else:
        add("overview.goal", _("The first side to reach the target wins. If both sides pass it "
                               "in the same hand, the higher total wins."),
            _per_players(rs, rs.target_for, "target" in changed))

    # cards
    deck = _("Two packs of 52 cards and four jokers: 108 cards.")
    three_packs = [n for n in counts if n in rs.three_packs_for_players]
    if three_packs:
        deck += " " + _("With %(counts)s players: three packs and six jokers, 162 cards.",
                        counts=_listed([number(n) for n in three_packs]))
    add("cards.deck", deck)
    add("cards.kinds", _("Jokers and twos are wild cards. Fours up to aces are natural cards. "
                         "Red threes are bonus cards; black threes are stop cards."))
    add("cards.values", _("A card counts its points for its side when melded, and against it "
                          "when left in hand."), card_value_table(rs, changed))

    # melds
    add("melds.size", _("A meld is at least %(size)s cards of the same rank; wild cards may "
                        "stand in for natural cards.", size=number(rs.min_meld_size)))
    if rs.max_meld_size:
        add("melds.max_size", _("A meld holds at most %(size)s cards.",
                                size=number(rs.max_meld_size)))
    if rs.natural_at_least_wild:
        natural = _("A meld needs at least as many natural cards as wild cards.")
        if (rs.min_meld_size + 1) // 2 < rs.min_natural_per_meld:
            natural += " " + ngettext("It needs at least %(num)s natural card.",
                                      "It needs at least %(num)s natural cards.",
                                      rs.min_natural_per_meld)
    else:
        natural = ngettext("A meld needs at least %(num)s natural card; it may hold more wild "
                           "cards than natural ones.",
                           "A meld needs at least %(num)s natural cards; it may hold more wild "
                           "cards than natural ones.", rs.min_natural_per_meld)
    add("melds.natural", natural)
    add("melds.wild_limit", ngettext("A meld holds at most %(num)s wild card.",
                                     "A meld holds at most %(num)s wild cards.",
                                     rs.max_wild_per_meld))
    add("melds.canasta", _("A meld of %(size)s or more cards is a canasta. A natural canasta "
                           "(no wild card) earns a bonus of %(natural)s, a mixed canasta "
                           "%(mixed)s.", size=number(rs.canasta_size),
                           natural=number(rs.natural_canasta_bonus),
                           mixed=number(rs.mixed_canasta_bonus)))
    if rs.allows_wild_canasta():
        add("melds.wild_canasta", _("A canasta of %(size)s wild cards only earns a bonus of "
                                    "%(bonus)s; it is laid complete, in one turn.",
                                    size=number(rs.canasta_size),
                                    bonus=number(rs.wild_canasta_bonus)))
    else:
        add("melds.wild_canasta", _("Wild cards alone never make a meld: there are no wild "
                                    "canastas."))
    add("melds.one_per_rank", _("A side has only one meld of each rank: more cards of that rank "
                                "join it."))
    add("melds.opponents", _("Nobody adds cards to the opponents' melds."))
    add("melds.red_threes", _("Red threes are never melded."))
    black = [number(n) for n in range(rs.black_three_meld_min, rs.black_three_meld_max + 1)]
    add("melds.black_threes", _("Black threes are melded only when going out: %(counts)s of "
                                "them, without wild cards.", counts=_listed(black)))
    seven = rs.canasta_size * rs.high_value
    add("melds.value", _("A meld is worth the points of its cards; a canasta's bonus comes on "
                         "top (%(size)s kings: %(cards)s + %(bonus)s = %(total)s).",
                         size=number(rs.canasta_size), cards=number(seven),
                         bonus=number(rs.natural_canasta_bonus),
                         total=number(seven + rs.natural_canasta_bonus)))

    # initial meld
    tables = [minimum_table(rs, counts[0] if players else None,
                            changed="minimum_table" in changed)]
    if not players:
        for n, _table in sorted(rs.minimum_table_by_players.items()):
            extra = minimum_table(rs, n)
            extra.caption = _("With %(players)s players", players=number(n))
            tables.append(extra)
    add("initial-meld.minimum", _("A side's first meld in a hand must count at least a minimum, "
                                  "set by the side's total score before the hand."), *tables)
    add("initial-meld.counted", _("Only the cards laid down in that turn count: cards from hand "
                                  "and the top card of the discard pile. The rest of the pile, "
                                  "red threes and canasta bonuses do not count."))
    add("initial-meld.several", _("Several melds may be laid down at once to reach the "
                                  "minimum."))
    if rs.concealed_needs_minimum:
        add("initial-meld.concealed", _("A player who goes out concealed needs the minimum too."))
    else:
        add("initial-meld.concealed", _("A player who goes out concealed needs no minimum."))

    # discard pile
    add("discard-pile.blocked", _("Nobody may take the pile while a wild card or a black three "
                                  "lies on top."))
    if rs.black_three_pile_when_going_out:
        add("discard-pile.black_three_exception", _(
            "Exception: a player who goes out may take a pile stopped by a black three by "
            "melding that black three with black threes from hand."))
    if rs.frozen_needs_natural_pair:
        add("discard-pile.frozen", _(
            "The pile is frozen for everyone once it holds a wild card, or when a red three was "
            "turned up as its first card; it is frozen for a side that has not melded yet. To "
            "take a frozen pile, meld its top card with two natural cards of the same rank "
            "from your hand."))
    else:
        add("discard-pile.frozen", _("A frozen pile is taken like any other pile."))
    add("discard-pile.open", _("When the pile is not frozen, its top card may go onto your "
                               "side's meld of that rank, or into a new meld with cards from "
                               "your hand."))
    add("discard-pile.show", _("Show the meld with the top card before taking the rest of the "
                               "pile. The other cards of the pile never count toward the initial "
                               "meld."))

    # going out
    add("going-out.how", _("A player goes out by melding all their cards, with or without a "
                           "final discard. Only one side goes out in a hand."))
    needed = {n: rs.canastas_needed(n) for n in counts}
    if players:
        canastas = ngettext("With %(players)s players, a side needs %(num)s canasta to go out.",
                            "With %(players)s players, a side needs %(num)s canastas to go "
                            "out.", needed[players], players=number(players))
        add("going-out.canastas", canastas)
    elif len(set(needed.values())) == 1:
        add("going-out.canastas", ngettext("A side needs %(num)s canasta to go out.",
                                           "A side needs %(num)s canastas to go out.",
                                           needed[counts[0]]))
    else:
        add("going-out.canastas", _("The canastas a side needs to go out:"),
            Table([_("Players"), _("Canastas")],
                  [Row([number(n), number(k)], "canastas_to_go_out" in changed)
                   for n, k in needed.items()]))
    add("going-out.bonus", _("Going out earns %(bonus)s; going out concealed earns %(concealed)s "
                             "instead.", bonus=number(rs.going_out_bonus),
                             concealed=number(rs.concealed_going_out_bonus)))
    add("going-out.concealed", _(
        "Going out concealed: the player has melded nothing earlier in the hand, melds the "
        "whole hand in one turn including at least one complete canasta of their own, and adds "
        "nothing to the partner's melds."))
    add("going-out.stock", _("When the stock runs out, nobody earns the going-out bonus."))

    # red threes
    red = [_("A red three is laid out as soon as it is drawn and replaced from the stock. Each "
             "scores %(value)s.", value=number(rs.red_three_value))]
    for n in counts:
        special = rs.red_three_special_by_players.get(n, rs.red_three_special)
        for count, points in sorted(special.items()):
            sentence = _("%(count)s red threes to one side score %(points)s.",
                         count=number(count), points=number(points))
            if n in rs.red_three_special_by_players:
                sentence = _("With %(players)s players: %(rule)s", players=number(n),
                             rule=sentence)
            if sentence not in red:
                red.append(sentence)
    add("red-threes.value", " ".join(red))
    if rs.red_threes_negative_without_meld:
        add("red-threes.negative", _("If the side has melded nothing by the end of the hand, "
                                     "its red threes count as minus points."))

    # scoring
    add("scoring.formula", _("A side scores its melded cards, its canasta bonuses, its red "
                             "threes and the going-out bonus, minus the cards left in its "
                             "players' hands."), bonus_table(rs, players, changed))
    add("scoring.black_three_penalty", _("A black three left in hand costs %(penalty)s.",
                                         penalty=number(rs.black_three_in_hand_penalty)))
    if len(set(targets.values())) == 1:
        add("scoring.target", _("The game ends when a side reaches %(target)s points.",
                                target=number(rs.target_for(counts[0]))))
    else:
        add("scoring.target", _("The game ends when a side reaches the target:"),
            _per_players(rs, rs.target_for, "target" in changed))
    return items


def rule_book(rs: RuleSet, players: int | None = None,
              changed: set[str] | None = None) -> list[Section]:
    """The rules page's sections, in reading order."""
    items = rule_items(rs, players, changed)
    titles = section_titles()
    return [Section(anchor, titles[anchor],
                    [item for item in items.values() if item.anchor == anchor])
            for anchor in SECTIONS]


# ---- the page ----------------------------------------------------------------------------

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
        RuleItem("overview.game", _(
            "Not Canasta: a matching game played with a Canasta deck, for %(low)s to %(high)s "
            "players, each for themself. The lowest total wins.", low=number(low),
            high=number(high))),
        RuleItem("cards.points", _("Every card on a player's minus pile counts against them. "
                                   "Suits never matter. The source rules give the joker no "
                                   "value; this game counts it %(points)s.",
                                   points=number(joker)), joker_changed,
                 [Table([_("Card"), _("Minus points")], rows)]),
        RuleItem("moves.deal", _(
            "Deal four cards to each player and four face up to the middle. Each round deals "
            "again from the rest until the stock is used up; the last round deals only as many "
            "cards as every player can get equally. Middle cards that were taken are refilled "
            "only at the next deal.")),
        RuleItem("moves.turn", _("On a turn a player plays exactly one card from hand. The first "
                                 "of these that fits applies:")),
        RuleItem("moves.middle", _(
            "1. Same rank as one or more middle cards or the discard pile's top card: the card "
            "and all those cards of that rank go onto the left neighbour's minus pile.")),
        RuleItem("moves.own_pile", _(
            "2. Same rank as the top of your own minus pile: the card and the unbroken run of "
            "that rank on top of your pile go onto the left neighbour's minus pile.")),
        RuleItem("moves.any_pile", _("3. Same rank as the top of any minus pile: the card goes "
                                     "onto that pile.")),
        RuleItem("moves.discard", _("4. No match anywhere: the card goes onto the discard pile. "
                                    "While any hand card matches, a player may not discard.")),
        RuleItem("scoring.lowest", _("When the stock is used up, every player adds up the minus "
                                     "points of their pile. The lowest total wins.")),
    ]
    titles = section_titles()
    titles["overview"] = _("Overview")
    titles["cards"] = _("Cards and their minus points")
    titles["scoring"] = _("Scoring")
    return [Section(anchor, titles[anchor], [i for i in items if i.anchor == anchor])
            for anchor in THREE_IS_FIFTY_SECTIONS]


# ---- the page ----------------------------------------------------------------------------

RULES_PAGES: tuple[str, ...] = (*RULESET_IDS, three_is_fifty.RULESET_ID)


def _ruleset_links() -> list[tuple[str, str, str]]:
    return [(rid, ruleset_label(rid), url_for("rules_pages.show", ruleset_id=rid))
            for rid in RULES_PAGES]


@bp.get("/rules/<ruleset_id>")
def show(ruleset_id: str) -> str:
    if ruleset_id == three_is_fifty.RULESET_ID:
        return _show_three_is_fifty()
    if ruleset_id not in PRESETS:
        abort(404)
    base = get_ruleset(ruleset_id)
    house = read_house_rules(base, request.args.get("options"))
    changed = set(house.ruleset.options_against(base))
    return render_template(
        "rules/show.html", title=ruleset_title(house.ruleset), base_id=base.id, house=house,
        sections=rule_book(house.ruleset, None, changed), ruleset_links=_ruleset_links(),
        referee=True,
    )


def _show_three_is_fifty() -> str:
    house = HouseRules(ruleset=get_ruleset("german"))
    joker = three_is_fifty.DEFAULT_JOKER
    text = request.args.get("options")
    if text:
        try:
            raw = json.loads(text) if len(text) <= MAX_OPTIONS_TEXT else None
        except (ValueError, RecursionError):
            raw = None
        options, problems = three_is_fifty.read_options(raw)
        if raw is None or problems:
            house.notes.extend(message(p) for p in problems[:5])
            house.notes.append(_("The house rules in the link could not be read; the ruleset's "
                                 "own rules apply."))
        elif options.joker != joker:
            house.changes.append((_("Value of a joker"), number(joker), number(options.joker)))
            house.text = json.dumps(options.as_dict(), separators=(",", ":"))
            joker = options.joker
    changed = joker != three_is_fifty.DEFAULT_JOKER
    return render_template(
        "rules/show.html", title=_("3 is 50"), base_id=three_is_fifty.RULESET_ID, house=house,
        sections=three_is_fifty_book(joker, changed), ruleset_links=_ruleset_links(),
        referee=False,
    )


def unknown_ruleset_note(value: str) -> str:
    return message(Problem("ruleset.unknown", "ruleset", {"ruleset": value[:40]}))
