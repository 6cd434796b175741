"""Melds: legality with the exact reason, points and canasta kind (docs/rulebook.md §2).

>>> from .ruleset import get_ruleset
>>> from .cards import parse_cards
>>> german = get_ruleset("german")
>>> m = check_meld(parse_cards("9 9 9 2")[0], german)
>>> m.legal, m.points, m.kind.value
(True, 80, 'meld')
>>> check_meld(parse_cards("7 7 7 7 7 2 2")[0], german).total
425
>>> [p.code for p in check_meld(parse_cards("8 8 2 2 X")[0], german).problems]
['meld.too_few_natural']
>>> check_meld(parse_cards("8 8 2 2 X")[0], get_ruleset("polish")).legal
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .cards import Card
from .problems import Problem
from .ruleset import RuleSet


class MeldKind(StrEnum):
    """What a meld is (docs/rulebook.md §2): a meld of fewer cards than a canasta, or a canasta and
    which kind of canasta; the value is the word the JSON API and the score items use."""

    MELD = "meld"
    """Not (yet) a canasta."""
    NATURAL = "natural"
    """A canasta without wild cards ("clean", "pure")."""
    MIXED = "mixed"
    """A canasta with wild cards in it ("dirty")."""
    WILD = "wild"
    """A canasta of wild cards only, where the ruleset allows one."""


NATURAL = MeldKind.NATURAL
MIXED = MeldKind.MIXED
WILD = MeldKind.WILD


@dataclass(frozen=True)
class Meld:
    """A checked meld; ``kind`` says whether it is a canasta, and of which kind."""

    cards: tuple[Card, ...]
    rank: str | None  # the natural rank, "3b" for black threes, "wild" for all-wild melds
    naturals: int
    wilds: int
    points: int
    kind: MeldKind
    bonus: int
    problems: tuple[Problem, ...] = field(default=())

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def is_canasta(self) -> bool:
        return self.kind in (NATURAL, MIXED, WILD)

    @property
    def total(self) -> int:
        """Card points plus canasta bonus (seven kings = 70 + 500 = 570)."""
        return self.points + self.bonus


def meld_rank(cards: Sequence[Card]) -> str | None:
    """The rank a meld is of: its natural rank, "3b", "wild" when all wild, or None if mixed."""
    ranks = {c.rank for c in cards if not c.is_wild}
    if not ranks:
        return "wild" if cards else None
    if len(ranks) == 1:
        return ranks.pop()
    return None


def check_meld(
    cards: Sequence[Card],
    rs: RuleSet,
    *,
    going_out: bool = False,
    initial_meld: bool = False,
    new_meld: bool = False,
    where: str = "",
) -> Meld:
    """Check one meld as laid on the table and compute its points.

    ``going_out``: the meld is laid in a going-out turn (black threes allowed, docs/rulebook.md §2).
    ``initial_meld``: the meld is (or may have been) laid in the side's initial meld, where
    American rules let aces be mixed (docs/rulebook.md §6). ``new_meld``: a meld the side starts
    after
    its initial meld, which the American rules keep clean until it holds five natural cards
    (docs/rulebook.md §6, parameter ``new_meld_clean_until``).

    >>> from .ruleset import get_ruleset
    >>> from .cards import parse_cards
    >>> am = get_ruleset("american")
    >>> [p.code for p in check_meld(parse_cards("7 7 7 2")[0], am).problems]
    ['meld.sevens_wild']
    >>> check_meld(parse_cards("A A A 2")[0], am, initial_meld=True).legal
    True
    >>> check_meld(parse_cards("2 2 2 2 X X X")[0], am).total  # docs/rulebook.md §6: wild canasta
    2230
    >>> [p.code for p in check_meld(parse_cards("K K X")[0], am, new_meld=True).problems]
    ['meld.new_not_clean']
    """
    problems: list[Problem] = []
    # the cards counted in one pass (a live preview checks every meld on each keystroke)
    wilds = naturals = black_threes = red_threes = points = 0
    distinct: set[str] = set()  # the ranks of its natural cards and black threes
    for c in cards:
        if c.is_wild:
            wilds += 1
        elif c.is_natural:
            naturals += 1
            distinct.add(c.rank)
        elif c.is_black_three:
            black_threes += 1
            distinct.add(c.rank)
        elif c.is_red_three:
            red_threes += 1
        points += rs.card_value(c)
    size = len(cards)
    rank = meld_rank(cards)

    def problem(code: str, **params: object) -> None:
        problems.append(Problem(code, where, dict(params)))

    if red_threes:
        # docs/rulebook.md §2: red threes are never melded, they are laid out as bonus cards.
        problem("meld.red_three")
    if len(distinct) > 1:
        problem("meld.mixed_ranks", ranks=sorted(distinct))

    if black_threes and not problems:
        if rs.threes_by_colour:
            # docs/rulebook.md §6: black threes are laid out like red threes, never melded.
            problem("meld.black_threes", reason="laid_out")
            return Meld(tuple(cards), "3b", 0, wilds, points, MeldKind.MELD, 0, tuple(problems))
        # docs/rulebook.md §2: black threes only when going out, 3 or 4 of them, no wild card.
        if not going_out:
            problem(
                "meld.black_threes",
                reason="not_going_out",
                minimum=rs.black_three_meld_min,
                maximum=rs.black_three_meld_max,
            )
        if wilds:
            problem("meld.black_threes", reason="wild")
        if size < rs.black_three_meld_min:
            problem("meld.too_small", size=size, minimum=rs.black_three_meld_min)
        elif black_threes > rs.black_three_meld_max:
            problem("meld.black_threes", reason="too_many", maximum=rs.black_three_meld_max)
        return Meld(tuple(cards), "3b", 0, wilds, points, MeldKind.MELD, 0, tuple(problems))

    kind = MeldKind.MELD
    bonus = 0
    if not problems:
        if size < rs.min_meld_size:
            problem("meld.too_small", size=size, minimum=rs.min_meld_size)
        if rs.max_meld_size and size > rs.max_meld_size:
            problem("meld.too_many_cards", size=size, maximum=rs.max_meld_size)
        if naturals == 0 and size and rs.wild_meld_open and rs.allows_wild_canasta():
            # docs/rulebook.md §6: wild cards alone make a meld of 3 or more that grows to a
            # canasta.
            if size >= rs.canasta_size and not problems:
                kind, bonus = WILD, rs.wild_canasta_score([c.rank for c in cards])
        elif naturals == 0 and size:
            # All wild: only a complete wild canasta where the ruleset knows one (docs/rulebook.md
            # §2).
            if not rs.allows_wild_canasta():
                if wilds > rs.max_wild_per_meld:
                    problem("meld.too_many_wild", wilds=wilds, maximum=rs.max_wild_per_meld)
                problem(
                    "meld.too_few_natural",
                    naturals=0,
                    wilds=wilds,
                    minimum=max(rs.min_natural_per_meld, 1),
                    rule="no_wild_canasta",
                )
            elif size < rs.canasta_size:
                # A wild canasta is only laid complete, in one turn (seed 003).
                if wilds > rs.max_wild_per_meld:
                    problem("meld.too_many_wild", wilds=wilds, maximum=rs.max_wild_per_meld)
                problem(
                    "meld.too_few_natural",
                    naturals=0,
                    wilds=wilds,
                    minimum=rs.min_natural_per_meld,
                    wild_canasta=rs.canasta_size,
                    rule="wild_incomplete",
                )
            elif not problems:
                kind, bonus = WILD, rs.wild_canasta_bonus
        else:
            if wilds and rank == "7" and rs.sevens_never_mixed:
                # docs/rulebook.md §6: sevens are never mixed.
                problem("meld.sevens_wild", wilds=wilds)
            elif wilds and rank == "A" and rs.aces_mixed_only_in_initial_meld and not initial_meld:
                # docs/rulebook.md §6: aces are mixed only in the side's initial meld.
                problem("meld.aces_wild", wilds=wilds)
            elif wilds and new_meld and naturals < rs.new_meld_clean_until:
                # docs/rulebook.md §6 (seed 002): "any new melds begun ... after a team's initial
                # meld
                # must be clean until they contain at least five cards".
                problem("meld.new_not_clean", naturals=naturals, minimum=rs.new_meld_clean_until)
            if wilds > rs.max_wild_per_meld:
                problem("meld.too_many_wild", wilds=wilds, maximum=rs.max_wild_per_meld)
            if rs.natural_at_least_wild and naturals < wilds:
                problem(
                    "meld.too_few_natural",
                    naturals=naturals,
                    wilds=wilds,
                    minimum=wilds,
                    rule="match_wild",
                )
            elif naturals < rs.min_natural_per_meld and size >= rs.min_meld_size:
                problem(
                    "meld.too_few_natural",
                    naturals=naturals,
                    wilds=wilds,
                    minimum=rs.min_natural_per_meld,
                    rule="min_natural",
                )
            if not problems and size >= rs.canasta_size:
                if wilds:
                    kind, bonus = MIXED, rs.mixed_canasta_bonus
                else:
                    kind, bonus = NATURAL, natural_canasta_bonus(rs, rank)
    if size == 0:
        problems = [Problem("meld.too_small", where, {"size": 0, "minimum": rs.min_meld_size})]
    return Meld(tuple(cards), rank, naturals, wilds, points, kind, bonus, tuple(problems))


def natural_canasta_bonus(rs: RuleSet, rank: str | None) -> int:
    """docs/rulebook.md §6: a natural canasta of sevens or of aces has its own bonus where set."""
    if rank == "7" and rs.sevens_canasta_bonus:
        return rs.sevens_canasta_bonus
    if rank == "A" and rs.aces_canasta_bonus:
        return rs.aces_canasta_bonus
    return rs.natural_canasta_bonus


def canasta_label(rs: RuleSet, meld: Meld) -> str:
    """Which canasta ``meld`` is, as a note names it: natural, mixed, wild, or ``sevens`` /
    ``aces`` for a natural canasta of those where it has its own bonus (docs/rulebook.md §6)."""
    special = natural_canasta_bonus(rs, meld.rank) != rs.natural_canasta_bonus
    if meld.kind is MeldKind.NATURAL and special:
        return "sevens" if meld.rank == "7" else "aces"
    return str(meld.kind.value)


def unfinished_penalty(rs: RuleSet, meld: Meld) -> int:
    """docs/rulebook.md §6: what an unfinished meld of sevens, of natural aces or of wild cards
    costs at
    the end of the hand (0 for any other meld). Mixed aces (laid in the initial meld) are an
    ordinary meld."""
    if meld.is_canasta or not meld.legal:
        return 0
    if meld.rank == "7":
        return rs.unfinished_sevens_penalty
    if meld.rank == "A" and meld.wilds == 0:
        return rs.unfinished_aces_penalty
    if meld.rank == "wild":
        return rs.unfinished_wild_penalty
    return 0


def count_canastas(melds: Sequence[Meld]) -> dict[str, int]:
    counts = Counter(m.kind for m in melds if m.is_canasta)
    return {NATURAL: counts[NATURAL], MIXED: counts[MIXED], WILD: counts[WILD]}
