"""Scoring one hand for every side, and the whole-hand checks (docs/rulebook.md §2 and §4).

One score computation serves the API, the live preview, the stored game and the PDF.

>>> from .ruleset import get_ruleset
>>> from .cards import parse_cards
>>> rs = get_ruleset("german")
>>> melds = [parse_cards("KKK2")[0], parse_cards("7777722")[0]]
>>> us = SideEntry(melds=melds, hands=[[], parse_cards("5 Q")[0]], red_threes=1, went_out=True)
>>> them = SideEntry(quick=QuickEntry(mixed_canastas=1, meld_points=155, hand_points=40))
>>> result = score_hand(rs, 4, [us, them])
>>> [s.score for s in result.sides], result.problems
([690, 415], [])
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import deck
from .cards import Card
from .melds import MIXED, NATURAL, WILD, Meld, check_meld, count_canastas, unfinished_penalty
from .problems import Problem
from .ruleset import RuleSet

#: The items of a side's score, in the order a breakdown shows them (docs/api.md §3): the one
#: place that lists them, for the engine, the pages, the API and the PDF.
ITEM_KEYS: tuple[str, ...] = ("melded_cards", "canasta_bonus", "red_threes", "going_out", "in_hand")
#: Items only the rulesets that use them have (docs/rulebook.md §6): black threes laid out and
# scored
#: like red threes, penalties (unfinished melds of sevens, aces or wild cards; sevens or aces
#: held at the end), and a special hand, which replaces every other item.
EXTRA_ITEM_KEYS: tuple[str, ...] = ("black_threes", "penalties", "special_hand")
#: Every item in the order a breakdown shows them.
ALL_ITEM_KEYS: tuple[str, ...] = (
    "melded_cards",
    "canasta_bonus",
    "red_threes",
    "black_threes",
    "going_out",
    "penalties",
    "in_hand",
    "special_hand",
)

#: The one item of a side entered as its total only (the hand's score as the table counted it).
TOTAL = "total"
#: The bounds of a side's total: a side that has not melded may lose a lot (cards in hand).
MAX_TOTAL = 100_000
#: Every score in Canasta is a multiple of this (card values, bonuses, penalties).
TOTAL_STEP = 5

#: A side's agreed corrections at the table (table penalties, agreed corrections; a
#: house agreement, in no seed): the sum of its ``adjustments``, an item only when it has some.
ADJUSTMENTS = "adjustments"
#: The bounds of adjustments: per side and hand, points each way, note length.
MAX_ADJUSTMENTS = 5
MAX_ADJUSTMENT_POINTS = 10_000
MAX_ADJUSTMENT_NOTE = 80

#: The quick-entry fields of special canastas and penalties, with the parameter that prices
#: each (a ruleset whose parameter is 0 does not know the field).
SPECIAL_QUICK_FIELDS: dict[str, str] = {
    "sevens_canastas": "sevens_canasta_bonus",
    "aces_canastas": "aces_canasta_bonus",
    "wild_canastas_jokers": "wild_canasta_jokers_bonus",
    "wild_canastas_twos": "wild_canasta_twos_bonus",
    "unfinished_sevens": "unfinished_sevens_penalty",
    "unfinished_aces": "unfinished_aces_penalty",
    "unfinished_wild": "unfinished_wild_penalty",
    "sevens_aces_held": "held_sevens_aces_penalty",
}


def _rule_item_keys(rs: RuleSet) -> tuple[str, ...]:
    if not (rs.threes_by_colour or rs.has_meld_penalties() or rs.special_hands()):
        return ITEM_KEYS
    return ALL_ITEM_KEYS


def item_keys(rs: RuleSet) -> tuple[str, ...]:
    """The items a side's score can have under ``rs``, in the order a breakdown shows them:
    the ruleset's, then :data:`ADJUSTMENTS` (present in a score only when entered)."""
    return (*_rule_item_keys(rs), ADJUSTMENTS)


# Sides a hand may have, by player count (docs/rulebook.md §4, seed 002: 3-player cutthroat has a
# lone
# player against a temporary pair, or everyone alone when the stock ran out before the pile was
# taken; six players play two teams of three or three teams of two).
SIDE_COUNTS: dict[int, tuple[int, ...]] = {2: (2,), 3: (2, 3), 4: (2,), 5: (5,), 6: (2, 3)}


@dataclass
class QuickEntry:
    """A side counted the way players count at the table (docs/api.md §3 ``quick``)."""

    natural_canastas: int = 0
    mixed_canastas: int = 0
    wild_canastas: int = 0
    meld_points: int = 0
    hand_points: int = 0
    black_threes_in_hand: int = 0
    melded: bool | None = None  # None: derived from meld points and canastas
    # docs/rulebook.md §6 (American): special canastas and penalties, counted like the others.
    sevens_canastas: int = 0
    aces_canastas: int = 0
    wild_canastas_jokers: int = 0  # all four jokers in it
    wild_canastas_twos: int = 0  # twos only
    unfinished_sevens: int = 0
    unfinished_aces: int = 0
    unfinished_wild: int = 0
    sevens_aces_held: int = 0  # times a player ended holding three or more sevens or aces

    @property
    def has_melded(self) -> bool:
        if self.melded is not None:
            return self.melded
        return bool(self.meld_points or self.canastas)

    @property
    def canastas(self) -> int:
        return (
            self.natural_canastas
            + self.mixed_canastas
            + self.wild_canastas
            + self.sevens_canastas
            + self.aces_canastas
            + self.wild_canastas_jokers
            + self.wild_canastas_twos
        )

    def special(self, name: str) -> int:
        value: int = getattr(self, name)
        return value


@dataclass(frozen=True)
class Adjustment:
    """Points a table agreed to add to (or take from) a side for one hand, with why (a table
    penalty, an agreed correction)."""

    points: int
    note: str = ""


@dataclass
class SideEntry:
    """What is entered for one side after a hand: in detail, quick, or only its total."""

    melds: list[list[Card]] | None = None
    hands: list[list[Card]] | None = None
    quick: QuickEntry | None = None
    red_threes: int | list[int] = 0
    went_out: bool = False
    concealed: bool = False
    black_threes: int = 0  # laid out (docs/rulebook.md §6), where threes are scored by colour
    special_hand: str | None = None  # docs/rulebook.md §6: "straight", "pairs" or "garbage"
    adjustments: list[Adjustment] = field(default_factory=list)
    # The hand's score as the table counted it: nothing else of the hand is known.
    total: int | None = None

    @property
    def red_three_counts(self) -> list[int]:
        return list(self.red_threes) if isinstance(self.red_threes, list) else [self.red_threes]

    def scores_red_threes_per_player(self, players: int) -> bool:
        """docs/rulebook.md §4: only in 3-player cutthroat do partners score their own red
        threes."""
        return isinstance(self.red_threes, list) and players == 3


@dataclass(frozen=True)
class SideScore:
    """The score of one side: total, items (which add up to it, keys :data:`ITEM_KEYS`) and
    the canastas by kind; for a hand in detail also its checked melds."""

    score: int
    items: dict[str, int]
    canastas: dict[str, int]
    melds: list[Meld] = field(default_factory=list)
    melded: bool = False
    # Per-player scores where a side's players score their own red threes (cutthroat).
    player_scores: list[int] | None = None
    details: dict[str, int] = field(default_factory=dict)


@dataclass
class HandResult:
    """Every side's score of one hand, what is wrong with the hand and what is worth a word."""

    sides: list[SideScore]
    problems: list[Problem]
    warnings: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class ScoreAnswer:
    """The answer to "score this hand": each side's score (in the order of the request) and
    the warnings (things worth a word that break no rule, such as going out with cards in
    hand). A hand that breaks rules is a :class:`Rejected` instead."""

    sides: tuple[SideScore, ...]
    warnings: tuple[Problem, ...] = ()


def held_points(rs: RuleSet, cards: Iterable[Card]) -> int:
    """What cards left in hand count (negative): each card's value, a black three the
    ruleset's penalty for one held instead."""
    black_threes = 0
    points = 0
    for c in cards:
        if c.is_black_three:
            black_threes += 1
        else:
            points += rs.card_value(c)
    return -(points + black_threes * rs.black_three_in_hand_penalty)


def score_side(rs: RuleSet, players: int, side: SideEntry, where: str = "") -> SideScore:
    """Score one side without cross-side checks (meld problems are collected elsewhere)."""
    if side.total is not None:
        return _score_total(side)
    details: dict[str, int] = {}
    penalties = 0
    if side.quick is not None:
        q = side.quick
        melds: list[Meld] = []
        melded = q.has_melded
        melded_cards = q.meld_points
        canastas: dict[str, int] = {
            NATURAL: q.natural_canastas + q.sevens_canastas + q.aces_canastas,
            MIXED: q.mixed_canastas,
            WILD: q.wild_canastas + q.wild_canastas_jokers + q.wild_canastas_twos,
        }
        canasta_bonus = (
            q.natural_canastas * rs.natural_canasta_bonus
            + q.mixed_canastas * rs.mixed_canasta_bonus
            + q.wild_canastas * rs.wild_canasta_bonus
        )
        for name, param in SPECIAL_QUICK_FIELDS.items():
            each = getattr(rs, param)
            if not each:  # a ruleset without it: its count adds nothing
                continue
            value = q.special(name) * each
            if name.startswith(("sevens_canastas", "aces_canastas", "wild_canastas_")):
                canasta_bonus += value
            else:
                penalties -= value
        black_threes = q.black_threes_in_hand
        in_hand = -(q.hand_points + black_threes * rs.black_three_in_hand_penalty)
    else:
        melds = [
            # A mixed meld of aces in a scored hand was laid in the side's initial meld.
            check_meld(cards, rs, going_out=side.went_out, initial_meld=True, where=f"melds[{i}]")
            for i, cards in enumerate(side.melds or [])
        ]
        melded = bool(melds)
        melded_cards = canasta_bonus = 0
        for m in melds:
            melded_cards += m.points
            canasta_bonus += m.bonus
            penalties -= unfinished_penalty(rs, m)
        canastas = count_canastas(melds)
        hand_cards = [c for hand in (side.hands or []) for c in hand]
        if rs.held_sevens_aces_penalty:
            # docs/rulebook.md §6: three or more sevens or aces left in a hand, each time.
            for hand in side.hands or []:
                held = Counter(c.rank for c in hand)
                penalties -= rs.held_sevens_aces_penalty * sum(
                    1 for rank in ("7", "A") if held[rank] >= rs.held_sevens_aces_count
                )
        black_threes = sum(1 for c in hand_cards if c.is_black_three)
        in_hand = held_points(rs, hand_cards)
        details["cards_in_hand"] = len(hand_cards)
    details["black_threes_in_hand"] = black_threes
    canasta_count = sum(canastas.values())
    if rs.melds_minus_without_canasta and not canasta_count:
        melded_cards = -melded_cards

    laid_black = 0
    if rs.threes_by_colour:
        # docs/rulebook.md §6: threes scored per colour by count, their sign by the canastas made.
        per_player_red = [rs.threes_score(sum(side.red_three_counts), canasta_count)]
        laid_black = rs.threes_score(side.black_threes, canasta_count)
    else:
        # docs/rulebook.md §4: red threes count against a side that has melded nothing.
        sign = -1 if (not melded and rs.red_threes_negative_without_meld) else 1
        # Elsewhere a list of red threes per player is one side's red threes (four = 800).
        counts = (
            side.red_three_counts
            if side.scores_red_threes_per_player(players)
            else [sum(side.red_three_counts)]
        )
        per_player_red = [sign * rs.red_three_score(n, players) for n in counts]
    red_threes = sum(per_player_red)

    if side.concealed:
        going_out = rs.concealed_going_out_bonus
    elif side.went_out:
        going_out = rs.going_out_bonus
    else:
        going_out = 0
    items = dict(
        zip(ITEM_KEYS, (melded_cards, canasta_bonus, red_threes, going_out, in_hand), strict=True)
    )
    keys = _rule_item_keys(rs)
    if keys != ITEM_KEYS:
        items.update(black_threes=laid_black, penalties=penalties, special_hand=0)
        if side.special_hand:
            # docs/rulebook.md §6: a special hand replaces the hand's score.
            items = dict.fromkeys(items, 0)
            items["special_hand"] = rs.special_hands().get(side.special_hand, 0)
        items = {key: items[key] for key in keys}
    if side.adjustments:
        # agreed at the table, so added whatever else the hand scored (also to a
        # special hand).
        items[ADJUSTMENTS] = sum(a.points for a in side.adjustments)
    score = sum(items.values())
    player_scores = None
    if side.scores_red_threes_per_player(players):
        base = score - red_threes
        player_scores = [base + r for r in per_player_red]
    return SideScore(score, items, canastas, melds, melded, player_scores, details)


def _score_total(side: SideEntry) -> SideScore:
    """A side entered as its total: the total is its one item; canastas and melds are not
    known (an empty ``canastas``, so statistics leave the side out rather than count 0)."""
    assert side.total is not None
    items = {TOTAL: side.total}
    if side.adjustments:
        items[ADJUSTMENTS] = sum(a.points for a in side.adjustments)
    return SideScore(sum(items.values()), items, {}, melded=side.went_out or side.concealed)


def going_out_least(rs: RuleSet, players: int, concealed: bool) -> int:
    """The least a side that went out scores (docs/rulebook.md §2, §4): the going-out bonus and the
    bonuses of the canastas it must have, each at least a mixed one. Cards left in a
    partner's hand can take it lower, so falling short is worth a word, not a refusal."""
    bonus = rs.concealed_going_out_bonus if concealed else rs.going_out_bonus
    least_canasta = min(rs.natural_canasta_bonus, rs.mixed_canasta_bonus)
    return bonus + rs.canastas_needed(players) * least_canasta


def _total_problems(
    rs: RuleSet, players: int, side: SideEntry, where: str
) -> tuple[list[Problem], list[Problem]]:
    """What can still be checked of a side entered as its total: problems and warnings."""
    assert side.total is not None
    problems: list[Problem] = []
    warnings: list[Problem] = []
    if side.total % TOTAL_STEP:
        problems.append(
            Problem(
                "total.not_multiple_of_5",
                f"{where}.total",
                {"value": side.total, "step": TOTAL_STEP},
            )
        )
    if side.went_out or side.concealed:
        least = going_out_least(rs, players, side.concealed)
        if side.total < least:
            warnings.append(
                Problem(
                    "total.below_going_out",
                    f"{where}.total",
                    {"minimum": least, "value": side.total},
                )
            )
    return problems, warnings


def score_hand(rs: RuleSet, players: int, sides: list[SideEntry]) -> HandResult:
    """Score every side of a hand and check the hand as a whole."""
    scores = [score_side(rs, players, side) for side in sides]
    problems: list[Problem] = []
    warnings: list[Problem] = []

    if len(sides) not in SIDE_COUNTS.get(players, (2,)):
        problems.append(
            Problem(
                "teams.count",
                "teams",
                {
                    "teams": len(sides),
                    "players": players,
                    "allowed": list(SIDE_COUNTS.get(players, (2,))),
                },
            )
        )
    max_per_side = math.ceil(players / len(sides)) if sides else players

    went_out = [i for i, s in enumerate(sides) if s.went_out or s.concealed or s.special_hand]
    if len(went_out) > 1:
        problems.append(
            Problem("going_out.two_sides", "teams", {"sides": [i + 1 for i in went_out]})
        )

    needed = rs.canastas_needed(players)
    red_total = 0
    for i, (side, result) in enumerate(zip(sides, scores, strict=True)):
        where = f"teams[{i}]"
        problems.extend(p.at(where) for m in result.melds for p in m.problems)
        problems.extend(same_rank_problems(result.melds, where))
        if side.concealed and not rs.concealed_going_out:
            # docs/rulebook.md §6: no concealed going out in these rules (it would change nothing).
            problems.append(
                Problem("going_out.concealed", f"{where}.concealed", {"reason": "not_in_rules"})
            )
        elif side.concealed and not side.went_out:
            problems.append(
                Problem("going_out.concealed", f"{where}.concealed", {"reason": "not_out"})
            )
        counts = side.red_three_counts
        if (
            isinstance(side.red_threes, list)
            and side.hands is not None
            and side.quick is None
            and len(counts) != len(side.hands)
        ):
            # One number per player: as many as the side lists hands.
            problems.append(
                Problem(
                    "red_threes.players",
                    f"{where}.red_threes",
                    {"red_threes": len(counts), "hands": len(side.hands)},
                )
            )
        problems.extend(_special_hand_problems(rs, side, result, where))
        if side.total is not None:
            found, worth_a_word = _total_problems(rs, players, side, where)
            problems.extend(found)
            warnings.extend(worth_a_word)
        elif (side.went_out or side.concealed) and not side.special_hand:
            have = sum(result.canastas.values())
            if have < needed:
                problems.append(
                    Problem(
                        "going_out.not_enough_canastas",
                        f"{where}.went_out",
                        {"needed": needed, "have": have},
                    )
                )
            if side.hands is not None and side.hands and all(side.hands):
                warnings.append(Problem("going_out.cards_in_hand", f"{where}.hands", {}))
        counts = side.red_three_counts
        if isinstance(side.red_threes, list) and len(counts) > max_per_side:
            problems.append(
                Problem(
                    "request.value", f"{where}.red_threes", {"minimum": 1, "maximum": max_per_side}
                )
            )
        if any(n < 0 for n in counts):
            problems.append(Problem("request.value", f"{where}.red_threes", {"minimum": 0}))
        red_total += sum(counts)
        if side.hands is not None:
            if len(side.hands) > max_per_side:
                problems.append(
                    Problem(
                        "hands.too_many_players",
                        f"{where}.hands",
                        {"hands": len(side.hands), "maximum": max_per_side},
                    )
                )
            for h, hand in enumerate(side.hands):
                if any(c.is_red_three for c in hand):
                    problems.append(Problem("hand.red_three", f"{where}.hands[{h}]", {}))
        if side.quick is not None:
            problems.extend(p.at(where) for p in _quick_problems(rs, side))
    if red_total > rs.red_threes_in_deck(players):
        problems.append(
            Problem(
                "red_threes.too_many",
                "teams",
                {"count": red_total, "maximum": rs.red_threes_in_deck(players)},
            )
        )
    problems.extend(_card_count_problems(rs, players, sides))
    return HandResult(scores, problems, warnings)


def same_rank_problems(melds: list[Meld], where: str) -> list[Problem]:
    """docs/rulebook.md §2: cards of one rank join the side's one meld of that rank."""
    seen: dict[str, int] = {}
    problems = []
    for i, meld in enumerate(melds):
        if meld.rank is None or meld.rank == "wild":
            continue
        if meld.rank in seen:
            path = f"{where}.melds[{i}]" if where else f"melds[{i}]"
            problems.append(
                Problem(
                    "meld.same_rank_twice",
                    path,
                    {"rank": meld.rank, "first": seen[meld.rank] + 1, "second": i + 1},
                )
            )
        else:
            seen[meld.rank] = i
    return problems


def _card_count_problems(rs: RuleSet, players: int, sides: list[SideEntry]) -> list[Problem]:
    """Card counts against the decks: 2 packs + 4 jokers (3 packs + 6 for six players)."""
    counts: Counter[str] = Counter()
    for side in sides:
        for group in (side.melds or []) + (side.hands or []):
            counts.update(c.rank for c in group)
    for side in sides:
        # docs/rulebook.md §6: black threes laid out count against the deck like those in hand.
        counts["3b"] += max(side.black_threes, 0)
    return deck.count_problems(rs, players, counts, "teams")


def _special_hand_problems(
    rs: RuleSet, side: SideEntry, result: SideScore, where: str
) -> list[Problem]:
    """docs/rulebook.md §6: a special hand is one of the ruleset's, laid by a side that has not
    melded;
    black threes are laid out only where threes are scored by colour."""
    problems = []
    if side.black_threes and not rs.threes_by_colour:
        problems.append(Problem("black_threes.not_laid_out", f"{where}.black_threes", {}))
    if side.special_hand is None:
        return problems
    if side.special_hand not in rs.special_hands():
        problems.append(
            Problem(
                "special_hand.unknown",
                f"{where}.special_hand",
                {"hand": str(side.special_hand)[:20], "allowed": sorted(rs.special_hands())},
            )
        )
    elif result.melds or (
        side.quick is not None and (side.quick.meld_points or side.quick.canastas)
    ):
        problems.append(Problem("special_hand.melded", f"{where}.special_hand", {}))
    return problems


def _quick_problems(rs: RuleSet, side: SideEntry) -> list[Problem]:
    q = side.quick
    assert q is not None
    problems: list[Problem] = []
    fields = {
        "natural_canastas": q.natural_canastas,
        "mixed_canastas": q.mixed_canastas,
        "wild_canastas": q.wild_canastas,
        "meld_points": q.meld_points,
        "hand_points": q.hand_points,
        "black_threes_in_hand": q.black_threes_in_hand,
        **{name: q.special(name) for name in SPECIAL_QUICK_FIELDS},
    }
    for name, value in fields.items():
        if value < 0:
            problems.append(Problem("request.value", f"quick.{name}", {"minimum": 0}))
    if problems:
        return problems
    for name, param in SPECIAL_QUICK_FIELDS.items():
        if q.special(name) and not getattr(rs, param):
            problems.append(Problem("quick.not_in_rules", f"quick.{name}", {"field": name}))
    if q.wild_canastas and not rs.allows_wild_canasta():
        problems.append(Problem("quick.wild_canasta", "quick.wild_canastas", {}))
    step = math.gcd(
        rs.joker_value,
        rs.two_value,
        rs.ace_value,
        rs.high_value,
        rs.low_value,
        rs.black_three_value,
    )
    if step > 1:
        for name in ("meld_points", "hand_points"):
            value = fields[name]
            if value % step:
                problems.append(
                    Problem("quick.points_step", f"quick.{name}", {"step": step, "value": value})
                )
    min_wild = min(rs.two_value, rs.joker_value)
    size = rs.canasta_size
    least = (
        q.natural_canastas * size * rs.low_value
        + q.mixed_canastas * ((size - 1) * rs.low_value + min_wild)
        + q.wild_canastas * size * min_wild
        + q.sevens_canastas * size * rs.low_value
        + q.aces_canastas * size * rs.ace_value
        + q.wild_canastas_jokers * (4 * rs.joker_value + (size - 4) * rs.two_value)
        + q.wild_canastas_twos * size * rs.two_value
    )
    if q.meld_points < least:
        problems.append(
            Problem(
                "quick.meld_points_low",
                "quick.meld_points",
                {"minimum": least, "value": q.meld_points},
            )
        )
    if q.melded is False and (q.meld_points or q.canastas):
        problems.append(Problem("quick.melded", "quick.melded", {}))
    return problems


@dataclass(frozen=True)
class Rejected:
    """A request the engine refused to answer, and why.

    ``problems`` with ``request.*`` codes mean the request could not be read (a wrong shape or
    type); any other code means it was read and breaks a rule. ``scored`` is the hand scored
    as far as that was possible, for a hand that breaks rules (so a form can still show it).

    >>> Rejected((Problem("request.missing", "teams"),)).unreadable
    True
    >>> Rejected((Problem("meld.too_small", "teams[0].melds[0]"),)).unreadable
    False
    """

    problems: tuple[Problem, ...]
    scored: ScoreAnswer | None = None

    @property
    def unreadable(self) -> bool:
        """True when the request itself was unreadable, not merely against the rules."""
        return any(p.code.startswith("request.") for p in self.problems)
