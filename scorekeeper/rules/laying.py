"""Laying a hand out: the melds a hand can make, for the referee and "what may I do?".

Two searches, both exact within their bounds (docs/rulebook.md §2–§5):

* :func:`best_melds`: which melds to lay from a hand (optionally around the discard pile's top
  card) — the most points, and the fewest cards that still reach a minimum. A small dynamic
  programme over the natural ranks, with the jokers and twos used as its state.
* :func:`lay_out_all`: can every card of a hand be laid on the side's melds and new ones (going
  out), and how, with the most canastas (up to those needed) and the most points.

Legality always comes from :func:`~.melds.check_meld`, so every ruleset parameter (and every
house rule) applies without this module knowing the ruleset.

>>> from .ruleset import get_ruleset
>>> from .cards import parse_cards
>>> german = get_ruleset("german")
>>> plan = best_melds(german, parse_cards("K K K 2 4 4 4 9")[0], required=90, keep=1)
>>> plan.most_points.points, [len(m) for m in plan.most_points.melds]
(95, [3, 4])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import NATURAL_RANKS, Card
from .melds import Meld, check_meld
from .ruleset import RuleSet

MAX_HAND = 40  # the searches are bounded to hands of this many cards (docs/rulebook.md deals 11–15)

JOKER = Card("X")
TWO = Card("2")
BLACK_THREE = Card("3b")


@dataclass(frozen=True)
class Pick:
    """Melds chosen from a hand: the melds (cards as laid), their card points, cards used."""

    melds: tuple[tuple[Card, ...], ...]
    points: int
    cards: int


@dataclass(frozen=True)
class MeldPlan:
    """The answer of :func:`best_melds`: the pick with the most points, and the pick that
    reaches ``required`` with the fewest cards (``None`` when nothing reaches it)."""

    most_points: Pick | None
    fewest_cards: Pick | None


class _Legal:
    """check_meld answers cached for one search (a meld's legality here depends only on its
    rank, its natural count and its wild cards)."""

    def __init__(
        self, rs: RuleSet, going_out: bool = False, initial: bool = False, new: bool = False
    ):
        self.rs = rs
        self.going_out = going_out
        self.initial = initial
        self.new = new
        self.cache: dict[tuple[str, int, int, int], Meld] = {}

    def meld(self, rank: str, naturals: int, jokers: int, twos: int) -> Meld:
        key = (rank, naturals, jokers, twos)
        found = self.cache.get(key)
        if found is None:
            cards = [Card(rank)] * naturals if rank != "wild" else []
            cards += [JOKER] * jokers + [TWO] * twos
            found = check_meld(
                cards,
                self.rs,
                going_out=self.going_out,
                initial_meld=self.initial,
                new_meld=self.new,
            )
            self.cache[key] = found
        return found


def _wild_splits(jokers: int, twos: int, most: int) -> list[tuple[int, int]]:
    return [(j, t) for j in range(min(jokers, most) + 1) for t in range(min(twos, most - j) + 1)]


def best_melds(
    rs: RuleSet,
    hand: Sequence[Card],
    *,
    required: int = 0,
    keep: int = 0,
    top: Card | None = None,
    top_naturals: int = 0,
    initial: bool = False,
    new: bool = False,
) -> MeldPlan:
    """The melds a hand can lay in one turn (an initial meld: nothing joins the table).

    ``required``: the minimum the pick must count; ``keep``: cards that must stay in hand (one
    for the discard after drawing); ``top``: the discard pile's top card, which must be melded
    (with at least ``top_naturals`` natural cards of its rank from hand, 2 for a frozen pile)
    and counts toward the minimum (docs/rulebook.md §3). ``initial``: the melds are the side's
    initial
    meld (American aces may be mixed in it); ``new``: new melds of a side that has melded
    (American: clean until five cards). docs/rulebook.md §6.
    """
    counts = Counter(c.rank for c in hand)
    jokers, twos = counts["X"], counts["2"]
    total = len(hand)
    legal = _Legal(rs, initial=initial, new=new)
    ranks = [r for r in NATURAL_RANKS if counts[r] >= 1 or (top is not None and r == top.rank)]
    if top is not None and top.rank in ranks:
        ranks.remove(top.rank)
        ranks.insert(0, top.rank)
    most_wild = rs.max_wild_per_meld if rs.max_wild_per_meld else 0
    # State: (jokers used, twos used, cards used) -> (points, melds as (rank, n, j, t)).
    states: dict[tuple[int, int, int], tuple[int, tuple[tuple[str, int, int, int], ...]]] = {
        (0, 0, 0): (0, ())
    }

    def options(rank: str) -> list[tuple[int, int, int, int, int]]:
        """(naturals from hand, jokers, twos, points, cards from hand) for one rank's meld."""
        out: list[tuple[int, int, int, int, int]] = []
        forced = top is not None and rank == top.rank
        low = top_naturals if forced else 1
        extra = 1 if forced else 0
        if not forced:
            out.append((0, 0, 0, 0, 0))
        for n in range(max(low, 0), counts[rank] + 1):
            for j, t in _wild_splits(jokers, twos, max(most_wild, 0)):
                if n + extra + j + t == 0:
                    continue
                m = legal.meld(rank, n + extra, j, t)
                if m.legal:
                    out.append((n, j, t, m.points, n + j + t))
        return out

    all_ranks = list(ranks)
    wild_only = [
        (j, t)
        for j in range(jokers + 1)
        for t in range(twos + 1)
        if j + t and legal.meld("wild", 0, j, t).legal
    ]
    for rank in [*all_ranks, "wild"]:
        opts = (
            [(0, 0, 0, 0, 0)]
            + [(0, j, t, legal.meld("wild", 0, j, t).points, j + t) for j, t in wild_only]
            if rank == "wild"
            else options(rank)
        )
        nxt: dict[tuple[int, int, int], tuple[int, tuple[tuple[str, int, int, int], ...]]] = {}
        for (uj, ut, uc), (points, picked) in states.items():
            for n, j, t, p, c in opts:
                if uj + j > jokers or ut + t > twos or uc + c > total - keep:
                    continue
                key = (uj + j, ut + t, uc + c)
                value = points + p
                chosen = picked + ((rank, n, j, t),) if c or (top and rank == top.rank) else picked
                old = nxt.get(key)
                if old is None or value > old[0]:
                    nxt[key] = (value, chosen)
        states = nxt

    def as_pick(points: int, picked: tuple[tuple[str, int, int, int], ...], used: int) -> Pick:
        melds = []
        for rank, n, j, t in picked:
            cards = [top] if (top is not None and rank == top.rank) else []
            if rank != "wild":
                cards += [Card(rank)] * n
            melds.append(tuple([*cards, *([JOKER] * j), *([TWO] * t)]))
        return Pick(tuple(m for m in melds if m), points, used)

    candidates = [
        (points, -used, picked, used)
        for (_, _, used), (points, picked) in states.items()
        if picked and points >= required
    ]
    if top is not None:
        candidates = [c for c in candidates if any(r == top.rank for r, *_ in c[2])]
    if not candidates:
        return MeldPlan(None, None)
    best = max(candidates, key=lambda c: (c[0], c[1]))
    fewest = max(candidates, key=lambda c: (c[1], c[0]))
    return MeldPlan(as_pick(best[0], best[2], best[3]), as_pick(fewest[0], fewest[2], fewest[3]))


# ---- going out ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LaidOut:
    """Every card of a hand laid out: the side's melds after the turn and what went where.

    ``melds``: all the side's melds after the turn (those on the table, grown, and the new
    ones); ``laid``: per meld the cards laid this turn (empty for a meld left as it was);
    ``new``: which melds the turn started; ``canastas``: the side's canastas after the turn.
    """

    melds: tuple[tuple[Card, ...], ...]
    laid: tuple[tuple[Card, ...], ...]
    new: tuple[bool, ...]
    canastas: int
    own_canastas: int
    bonus: int


def lay_out_all(
    rs: RuleSet,
    cards: Sequence[Card],
    side_melds: Sequence[Sequence[Card]],
    *,
    may_join: bool = True,
    needed: int = 0,
    melded: bool | None = None,
) -> LaidOut | None:
    """Lay every card of ``cards`` out in one going-out turn, or ``None`` when it cannot be done.

    Cards of a rank join the side's meld of that rank (docs/rulebook.md §5 "Going out"), or start a
    new
    one; wild cards go where they keep every meld legal; black threes make their own meld
    (3 or 4, docs/rulebook.md §2); leftover wild cards a wild meld where the ruleset has one.
    ``may_join=False`` (going out concealed): nothing joins the partner's melds. Among the ways,
    the one with the most canastas up to ``needed``, then the most canasta bonus.
    ``melded``: the side has made its initial meld (default: it has melds on the table); new
    melds then follow the rules for melds started later, else they are the initial meld
    (docs/rulebook.md §6).
    """
    if len(cards) > MAX_HAND:
        return None
    counts = Counter(c.rank for c in cards)
    if counts["3r"]:
        return None
    after_initial = bool(side_melds) if melded is None else melded
    legal = _Legal(rs, going_out=True, initial=not after_initial, new=after_initial)
    table = [list(m) for m in side_melds]
    rank_of = {}
    for i, meld in enumerate(table):
        naturals = {c.rank for c in meld if c.is_natural}
        if len(naturals) == 1:
            rank_of[naturals.pop()] = i
    jokers, twos = counts["X"], counts["2"]
    wilds = jokers + twos
    # Each slot: (table index or None, rank, naturals in it, wilds already in it, laid naturals)
    slots: list[tuple[int | None, str, int, int, int]] = []
    for i, meld in enumerate(table):
        rank = next((c.rank for c in meld if c.is_natural), "wild")
        slots.append(
            (i, rank, sum(1 for c in meld if c.is_natural), sum(1 for c in meld if c.is_wild), 0)
        )
    for rank in NATURAL_RANKS:
        n = counts[rank]
        if not n:
            continue
        if rank in rank_of:
            if not may_join:
                return None
            i = rank_of[rank]
            idx, r, nat, wild, _ = slots[i]
            slots[i] = (idx, r, nat + n, wild, n)
        else:
            slots.append((None, rank, n, 0, n))
    black = counts["3b"]
    if black and not check_meld([BLACK_THREE] * black, rs, going_out=True).legal:
        return None
    # Dynamic programme over the slots: wild cards used -> {canastas: (bonus, choices)}.
    Choice = tuple[int, ...]
    states: dict[int, dict[int, tuple[int, int, Choice]]] = {0: {0: (0, 0, ())}}
    for idx, rank, nat, _wild, laid in slots:
        options: list[tuple[int, Meld]] = []
        joinable = idx is None or may_join
        for w in range(0, wilds + 1 if joinable else 1):
            # Which wild card goes where changes neither legality nor a canasta's kind
            # (docs/rulebook.md §2 counts wild cards), so the search counts them as jokers.
            if idx is None:
                m = legal.meld(rank, nat, w, 0)
            else:
                grown = [*table[idx], *([Card(rank)] * laid if rank != "wild" else [])]
                # A meld of aces with wild cards on the table was laid in the initial meld
                # and stays an ordinary meld (docs/rulebook.md §6).
                mixed = any(c.is_wild for c in table[idx])
                m = check_meld([*grown, *([JOKER] * w)], rs, going_out=True, initial_meld=mixed)
            if m.legal:
                options.append((w, m))
        if not options:
            return None
        nxt: dict[int, dict[int, tuple[int, int, Choice]]] = {}
        for used, by_count in states.items():
            for canastas, (bonus, own, choice) in by_count.items():
                for w, m in options:
                    if used + w > wilds:
                        continue
                    c = canastas + (1 if m.is_canasta else 0)
                    o = own + (1 if m.is_canasta and idx is None else 0)
                    b = bonus + m.bonus
                    slot = nxt.setdefault(used + w, {})
                    old = slot.get(c)
                    if old is None or (b, o) > (old[0], old[1]):
                        slot[c] = (b, o, (*choice, w))
        states = nxt
    best: tuple[tuple[int, int, int], int, int, int, Choice] | None = None
    for used, by_count in states.items():
        rest = wilds - used
        extra_canasta = 0
        extra_bonus = 0
        if rest:
            j = max(0, min(jokers, rest))
            m = legal.meld("wild", 0, j, rest - j)
            if not m.legal:
                continue
            extra_canasta = 1 if m.is_canasta else 0
            extra_bonus = m.bonus
        for canastas, (bonus, own, choice) in by_count.items():
            total = canastas + extra_canasta
            key = (min(total, needed), own + extra_canasta, bonus + extra_bonus)
            if best is None or key > best[0]:
                best = (key, total, own + extra_canasta, rest, (*choice, bonus + extra_bonus))
    if best is None:
        return None
    _key, total, own, rest, choice = best
    pool = [c for c in cards if c.is_wild]
    pool.sort(key=lambda c: c.rank != "X")  # jokers first, as counted above
    melds: list[tuple[Card, ...]] = []
    laid_cards: list[tuple[Card, ...]] = []
    new: list[bool] = []
    for (idx, rank, _nat, _wild, laid), w in zip(slots, choice[:-1], strict=True):
        added = ([Card(rank)] * laid if rank != "wild" else []) + pool[:w]
        pool = pool[w:]
        before = table[idx] if idx is not None else []
        melds.append(tuple([*before, *added]))
        laid_cards.append(tuple(added))
        new.append(idx is None)
    if rest:
        melds.append(tuple(pool))
        laid_cards.append(tuple(pool))
        new.append(True)
    if black:
        melds.append(tuple([BLACK_THREE] * black))
        laid_cards.append(tuple([BLACK_THREE] * black))
        new.append(True)
    return LaidOut(tuple(melds), tuple(laid_cards), tuple(new), total, own, choice[-1])


def go_out_with(
    rs: RuleSet,
    cards: Sequence[Card],
    side_melds: Sequence[Sequence[Card]],
    *,
    needed: int,
    may_join: bool = True,
    discard: bool | None = None,
    melded: bool | None = None,
) -> tuple[LaidOut, Card | None] | None:
    """The best way to go out with ``cards``: lay them all out, or all but one final discard.

    ``discard``: ``None`` with or without a final discard (docs/rulebook.md §4), ``True`` only with
    one
    (a ruleset whose going out ends with a discard), ``False`` without (the drawn card is still
    to come). The best way has the most canastas up to ``needed``, then the most bonus, then
    discards the card worth least. ``None`` when the cards cannot all be laid out.

    >>> from .ruleset import get_ruleset
    >>> from .cards import parse_cards
    >>> way, thrown = go_out_with(get_ruleset("german"), parse_cards("7 7 9")[0],
    ...                           [parse_cards("7777722")[0]], needed=1)
    >>> len(way.melds[0]), thrown
    (9, Card('9'))
    """
    ways: list[tuple[tuple[int, int, int, int], LaidOut, Card | None]] = []
    choices: list[Card | None] = [] if discard is True else [None]
    if discard is not False:
        seen: set[str] = set()
        for card in cards:
            if card.rank not in seen:
                seen.add(card.rank)
                choices.append(card)
    for thrown in choices:
        rest = list(cards)
        if thrown is not None:
            rest.remove(thrown)
        way = lay_out_all(rs, rest, side_melds, may_join=may_join, needed=needed, melded=melded)
        if way is None:
            continue
        cost = rs.card_value(thrown) if thrown is not None else 0
        ways.append(((min(way.canastas, needed), way.own_canastas, way.bonus, -cost), way, thrown))
    if not ways:
        return None
    _key, way, thrown = max(ways, key=lambda w: w[0])
    return way, thrown
