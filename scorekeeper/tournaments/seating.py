"""Who sits where in a round of a club tournament.

The engine follows what the clubs named in the tournament issue do on paper:

* The first round is a pure lot, as the Burgdorf club draws its seats: nothing is known yet
  that one seating could improve on.
* From the second round on, seats change "so that partners and opponents repeat as little as
  possible". Ebbeling's canasta tournament spec orders what counts: a repeated partner weighs
  far more than a repeated opponent, then byes that fall unevenly, then a participant at the
  same table number again. :class:`~.model.SeatingCost` keeps these four counts and compares
  them in that order; no number of repeated opponents outweighs one repeated partner.
  canasta-spielen.com's rotation for four players (N-S/O-W, N-O/S-W, N-W/S-O) is the small
  case of this: three rounds and nobody partners anyone twice.
* Moving tables is the American Canasta Society's way for pairs (one table per game); here
  it is the last thing weighed: a participant who sits at the same table number again.

Hard rules come first and are never traded for a lower cost: every present participant is
seated or sits out exactly once, absent ones nowhere, a pair stays together (in format pairs a
participant *is* a pair and every side is one pair), every table has a size the ruleset allows.
An odd count is handled as the director chose: ``OddCount.BYE`` lets the remainder sit out,
the ones with the fewest byes so far first (so nobody sits out twice before everybody sat out
once); ``OddCount.LARGER`` uses other allowed sizes so that everyone plays, and gives byes only
where no combination of sizes seats everyone.

The seating is improved by a local search: participants change places (between tables, sides,
or with one sitting out who has had as many byes), a change is kept when the seating gets no
worse, and when the search stalls it starts again from the best seating found with a few
random changes. Table numbers are only labels, so they are given afterwards, the way that
seats the fewest participants at a number they had before. Everything is drawn by
``random.Random(seed)``, so the same input gives the same seating; the search stops after a
number of steps that grows with the size of the round, or earlier at a seating where nobody
meets anyone again, and a time guard ends it on a machine far slower than expected (only then
can the answer depend on the machine).
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Collection, Sequence

from .assignment import assign
from .model import (
    Format,
    OddCount,
    Refusal,
    Seating,
    SeatingCost,
    SeatingRules,
    TableSeating,
)

#: Search steps per seat (at least ``MIN_STEPS``): enough for 40 tables to find a seating
#: without repeats when one exists, few enough to answer well within a second.
STEPS_PER_SEAT = 400
MIN_STEPS = 10000
#: Steps without a better seating (per seat, at least ``STALL_STEPS``) before the search
#: restarts from the best one found with ``KICK`` random exchanges; chosen on rounds of
#: twelve players where a seating without repeats exists but is hard to reach.
STALL_STEPS = 150
STALL_PER_SEAT = 3
KICK = 6
#: A guard, not a budget: the steps end the search long before this on a usual machine.
TIME_LIMIT = 0.8
#: Seatings weighed by the round after them, in a field of up to so many participants (a
#: larger field rarely needs it: 160 players go twelve rounds without a repeat).
LOOKAHEAD = 4
LOOKAHEAD_UP_TO = 40


def units(rules: SeatingRules, size: int) -> int:
    """Participants at a table of ``size`` players: every player in format individual, one
    pair per side in format pairs."""
    return size if rules.format is Format.INDIVIDUAL else rules.sides.get(size, 0)


def possible_sizes(rules: SeatingRules) -> tuple[int, ...]:
    """The allowed sizes a table of this format can have. In format pairs every side is one
    pair of two players, so only sizes whose sides hold two players remain (4 and 6)."""
    found = []
    for size in rules.allowed_sizes:
        sides = rules.sides.get(size, 0)
        if sides < 2 or size % sides:
            continue
        if rules.format is Format.PAIRS and size // sides != 2:
            continue
        found.append(size)
    return tuple(found)


def table_sizes(rules: SeatingRules, count: int) -> tuple[list[int], int]:
    """The table sizes for ``count`` present participants and how many sit out.

    BYE: as many tables of the usual size as the count fills, the rest sit out. LARGER: the
    fewest byes any combination of allowed sizes leaves (none where one seats everyone), then
    the fewest tables of another size, then rather larger tables than smaller ones (14 players
    at tables of four: 4, 4, 6), then the fewest tables. Default-size tables come first.
    """
    sizes = possible_sizes(rules)
    if rules.table_size not in sizes:
        raise ValueError(f"table size {rules.table_size} is not possible for {rules.format}")
    usual = units(rules, rules.table_size)
    others = [s for s in sizes if s != rules.table_size] if rules.odd is OddCount.LARGER else []
    best: tuple[tuple[int, ...], list[int]] | None = None
    # Tables of another size need never be as many as a table of the usual size holds: that
    # many could be swapped for tables of the usual size, seating the same number.
    for extra in itertools.product(range(usual), repeat=len(others)):
        seated = sum(k * units(rules, s) for k, s in zip(extra, others, strict=True))
        if seated > count:
            continue
        plain = (count - seated) // usual
        byes = count - seated - plain * usual
        off = sum(extra)
        smaller = sum(k for k, s in zip(extra, others, strict=True) if s < rules.table_size)
        spread = sum(k * abs(s - rules.table_size) for k, s in zip(extra, others, strict=True))
        key = (byes, off, smaller, spread, plain + off)
        if best is None or key < best[0]:
            chosen = [rules.table_size] * plain
            for k, s in sorted(zip(extra, others, strict=True), key=lambda ks: -ks[1]):
                chosen += [s] * k
            best = (key, chosen)
    assert best is not None
    return best[1], best[0][0]


def _shape(rules: SeatingRules, size: int) -> tuple[int, int]:
    """(sides, participants per side) of a table of ``size`` players."""
    sides = rules.sides[size]
    return sides, (size // sides if rules.format is Format.INDIVIDUAL else 1)


class _History:
    """What earlier rounds tell about pairs of participants: partnered, opposed, at which
    table numbers, and how often each sat out."""

    def __init__(self, history: Sequence[Seating]) -> None:
        self.partners: Counter[tuple[int, int]] = Counter()
        self.opponents: Counter[tuple[int, int]] = Counter()
        self.tables: Counter[tuple[int, int]] = Counter()
        self.byes: Counter[int] = Counter()
        for seating in history:
            self.byes.update(seating.byes)
            for table in seating.tables:
                for i, side in enumerate(table.sides):
                    for p in side:
                        self.tables[(p, table.number)] += 1
                    for a, b in itertools.combinations(side, 2):
                        self.partners[_pair(a, b)] += 1
                    for other in table.sides[i + 1 :]:
                        for a in side:
                            for b in other:
                                self.opponents[_pair(a, b)] += 1


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def cost(seating: Seating, history: Sequence[Seating], format: Format) -> SeatingCost:
    """How far ``seating`` is from the ideal, given the earlier rounds.

    ``partners``: for every two participants on one side, the earlier rounds they were partners
    (always 0 in format pairs, where a side is one fixed pair). ``opponents``: for every two
    participants at one table on different sides, the earlier rounds they were opponents.
    ``byes``: how many more byes the participants sitting out have had than the same number of
    participants with the fewest byes (0 when byes go to those with the fewest so far).
    ``same_table``: for every seated participant, the earlier rounds it sat at this table number.
    """
    past = _History(history)
    partners = opponents = same_table = 0
    for table in seating.tables:
        for i, side in enumerate(table.sides):
            same_table += sum(past.tables[(p, table.number)] for p in side)
            if format is Format.INDIVIDUAL:
                partners += sum(
                    past.partners[_pair(a, b)] for a, b in itertools.combinations(side, 2)
                )
            for other in table.sides[i + 1 :]:
                opponents += sum(past.opponents[_pair(a, b)] for a in side for b in other)
    everyone = [p for t in seating.tables for p in t.participants] + list(seating.byes)
    fewest = sorted(past.byes[p] for p in everyone)[: len(seating.byes)]
    byes = sum(past.byes[p] for p in seating.byes) - sum(fewest)
    return SeatingCost(partners, opponents, byes, same_table)


def check(
    rules: SeatingRules,
    participants: Sequence[int],
    seating: Seating,
    absent: Collection[int] = (),
) -> list[Refusal]:
    """The hard rules for a seating changed by hand; an empty list when it keeps them all.

    Per table in order: ``seating.numbering`` (tables are numbered 1, 2, 3 … in order, as on
    the cards), ``seating.table_size`` (a player count the ruleset allows for this format;
    also another size than the usual one, which a director may choose by hand even where the
    odd count is handled by byes),
    ``seating.side_size`` (the sides a table of that size has, each with its players; in
    format pairs one pair each). Then per participant: ``seating.unknown`` (not in the
    tournament), ``seating.absent`` (marked absent yet seated), ``seating.twice``,
    ``seating.missing`` (present but neither seated nor sitting out).
    """
    refusals: list[Refusal] = []
    sizes = possible_sizes(rules)
    per_side = 1 if rules.format is Format.PAIRS else 0
    for position, table in enumerate(seating.tables, start=1):
        if table.number != position:
            refusals.append(Refusal("seating.numbering", {"table": table.number}))
        count = sum(len(side) for side in table.sides)
        size = count * (2 if rules.format is Format.PAIRS else 1)
        if size not in sizes:
            refusals.append(Refusal("seating.table_size", {"table": table.number, "size": size}))
            continue
        sides, players = _shape(rules, size)
        if len(table.sides) != sides or any(len(s) != (per_side or players) for s in table.sides):
            refusals.append(Refusal("seating.side_size", {"table": table.number}))
    known = set(participants)
    away = set(absent)
    seen = Counter(p for t in seating.tables for p in t.participants)
    seen.update(seating.byes)
    for p in sorted(seen):
        if p not in known:
            refusals.append(Refusal("seating.unknown", {"participant": p}))
        elif p in away:
            refusals.append(Refusal("seating.absent", {"participant": p}))
        if seen[p] > 1:
            refusals.append(Refusal("seating.twice", {"participant": p}))
    for p in sorted(known - away - set(seen)):
        refusals.append(Refusal("seating.missing", {"participant": p}))
    return refusals


def swap(seating: Seating, a: int, b: int) -> Seating:
    """``a`` and ``b`` change places: seats, sides, tables, or a seat and a bye. A participant
    that is not in the seating takes the other's place (so a late arrival can replace someone;
    :func:`check` then names the one left out). Neither in the seating is a ``ValueError``."""

    def place(p: int) -> int:
        return b if p == a else a if p == b else p

    inside = {p for t in seating.tables for p in t.participants} | set(seating.byes)
    if a not in inside and b not in inside:
        raise ValueError(f"neither {a} nor {b} is in the seating")
    tables = tuple(
        TableSeating(t.number, tuple(tuple(place(p) for p in side) for side in t.sides))
        for t in seating.tables
    )
    return Seating(tables, tuple(place(p) for p in seating.byes))


def propose(
    rules: SeatingRules,
    participants: Sequence[int],
    history: Sequence[Seating],
    absent: Collection[int] = (),
    seed: int = 0,
) -> Seating:
    """The seating of the next round by lot (``random.Random(seed)``: the same input gives the
    same seating), keeping the hard rules and with the lowest cost the search finds.

    Up to ``LOOKAHEAD_UP_TO`` participants, ``LOOKAHEAD`` seatings are drawn and searched, and
    of those with the lowest cost the one is taken after which the next round can repeat the
    fewest partners, then opponents: in a small field one careless round can make a repeat
    unavoidable in the next (twelve players: a fourth round without any repeat then comes in
    three lots of four instead of one in three; eight players: the classic seven rounds).

    ``history``: the earlier rounds' seatings (the ones that were played). Raises
    ``ValueError`` when the usual table size is impossible for the format.
    """
    rng = random.Random(seed)
    away = set(absent)
    present = [p for p in dict.fromkeys(participants) if p not in away]
    sizes, bye_count = table_sizes(rules, len(present))
    shapes = [_shape(rules, s) for s in sizes]
    deadline = time.perf_counter() + TIME_LIMIT
    if not history or len(present) > LOOKAHEAD_UP_TO:
        return _seat(shapes, present, bye_count, history, rng, deadline)
    best: tuple[tuple[tuple[int, ...], ...], Seating] | None = None
    for _ in range(LOOKAHEAD):
        lot = random.Random(rng.randrange(2**32))
        seating = _seat(shapes, present, bye_count, history, lot, deadline)
        after = [*history, seating]
        following = _seat(shapes, present, bye_count, after, lot, deadline, quick=True)
        key = (
            cost(seating, history, rules.format).key(),
            cost(following, after, rules.format).key()[:2],
        )
        if best is None or key < best[0]:
            best = (key, seating)
    assert best is not None
    return best[1]


def _seat(
    shapes: list[tuple[int, int]],
    present: list[int],
    bye_count: int,
    history: Sequence[Seating],
    rng: random.Random,
    deadline: float,
    quick: bool = False,
) -> Seating:
    """One seating by the lot of ``rng``: byes to the fewest byes so far, then the search
    (``quick``: only until no partner or opponent repeats, for a look at the next round)."""
    past = _History(history)
    order = present[:]
    rng.shuffle(order)
    # Fewest byes so far sit out first; among equals the lot decides (the shuffle above).
    order.sort(key=lambda p: past.byes[p])
    byes, seated = order[:bye_count], order[bye_count:]
    rng.shuffle(seated)
    if history and seated:
        search = _Search(shapes, seated, byes, past, len(history), rng)
        seated, byes = search.run(deadline, search.bound - 1 if quick else 0)
    tables: list[tuple[tuple[int, ...], ...]] = []
    at = 0
    for sides, players in shapes:
        tables.append(tuple(tuple(seated[at + k * players :][:players]) for k in range(sides)))
        at += sides * players
    numbers = _numbering(tables, past)
    ordered = sorted(zip(numbers, tables, strict=True))
    return Seating(tuple(TableSeating(n, sides) for n, sides in ordered), tuple(sorted(byes)))


def _numbering(tables: list[tuple[tuple[int, ...], ...]], past: _History) -> list[int]:
    """Table numbers 1 … n for the tables, so that as few participants as possible sit at a
    number they sat at before (exactly: an assignment problem)."""
    count = len(tables)
    if not past.tables:
        return list(range(1, count + 1))
    at = [
        [sum(past.tables[(p, n)] for side in t for p in side) for n in range(1, count + 1)]
        for t in tables
    ]
    return [column + 1 for column in assign(at)]


class _Search:
    """The local search over one round's seats. Seats are slots in table order, side by side;
    the participants sitting out fill extra slots after them (table -1). The cost is one
    number: repeated partners weighted above all repeated opponents together, so the order of
    :class:`SeatingCost` holds. Byes stay even because a seat changes with a bye only between
    participants with as many byes so far; table numbers are labels, given afterwards.

    Among seatings that repeat as few partners and opponents, the one where fewer participants
    meet again at all (a former partner now an opponent, or the other way round) is taken: it
    brings new faces to each table and leaves more room for the rounds still to come (twelve
    players then go eleven rounds without a repeated partner far more often)."""

    def __init__(
        self,
        shapes: list[tuple[int, int]],
        seated: list[int],
        byes: list[int],
        past: _History,
        rounds: int,
        rng: random.Random,
    ) -> None:
        self.rng = rng
        people = seated + byes
        self.people = people
        n = len(people)
        index = {p: i for i, p in enumerate(people)}
        self.n = n
        # Each weight is above the most all that is weighed after it can add up to: a
        # participant has at most five others at its table, met at most once a round.
        bound = n * 5 * rounds + 1
        self.bound = bound
        opponent_weight = bound
        partner_weight = bound * opponent_weight
        self.same = [0] * (n * n)
        self.opp = [0] * (n * n)
        for (a, b), c in (past.partners + past.opponents).items():
            if a in index and b in index:
                i, j = index[a], index[b]
                pair = (i * n + j, j * n + i)
                for at in pair:
                    # Meeting again in any role is weighed last (see the class).
                    self.same[at] = past.partners[(a, b)] * partner_weight + c
                    self.opp[at] = past.opponents[(a, b)] * opponent_weight + c
        self.bye_count = [past.byes[p] for p in people]
        self.table: list[int] = []
        self.side: list[int] = []
        self.members: list[list[int]] = []
        for t, (sides, players) in enumerate(shapes):
            slots = []
            for s in range(sides):
                for _ in range(players):
                    slots.append(len(self.table))
                    self.table.append(t)
                    self.side.append(s)
            self.members.append(slots)
        self.table += [-1] * len(byes)
        self.side += [0] * len(byes)
        self.seats = len(seated)
        self.seat = list(range(n))  # slot -> index into people

    def total(self) -> int:
        n, seat, same, opp = self.n, self.seat, self.same, self.opp
        cost = 0
        for slots in self.members:
            for x, i in enumerate(slots):
                p = seat[i]
                for j in slots[x + 1 :]:
                    q = seat[j]
                    cost += same[p * n + q] if self.side[i] == self.side[j] else opp[p * n + q]
        return cost

    def conflict(self, i: int) -> int:
        """What the participant in slot ``i`` adds to the cost."""
        t = self.table[i]
        if t < 0:
            return 0
        n, p, side = self.n, self.seat[i], self.side[i]
        found = 0
        for j in self.members[t]:
            if j != i:
                q = self.seat[j]
                found += self.same[p * n + q] if self.side[j] == side else self.opp[p * n + q]
        return found

    def delta(self, i: int, j: int) -> int | None:
        """The change of the cost if slots ``i`` and ``j`` exchange participants; None when the
        exchange changes nothing or is not allowed."""
        table, side, seat, n = self.table, self.side, self.seat, self.n
        same, opp = self.same, self.opp
        ti, tj = table[i], table[j]
        p, q = seat[i], seat[j]
        if ti == tj:
            if ti < 0 or side[i] == side[j]:
                return None
            si, sj = side[i], side[j]
            d = 0
            for k in self.members[ti]:
                sk = side[k]
                if k in (i, j) or sk not in (si, sj):
                    continue
                z = seat[k]
                moved = same[p * n + z] - opp[p * n + z] - same[q * n + z] + opp[q * n + z]
                d += moved if sk == sj else -moved
            return d
        if (ti < 0 or tj < 0) and self.bye_count[p] != self.bye_count[q]:
            return None
        d = 0
        for t, s, leaves, comes, slot in ((ti, side[i], p, q, i), (tj, side[j], q, p, j)):
            if t < 0:
                continue
            for k in self.members[t]:
                if k != slot:
                    z = seat[k]
                    w = same if side[k] == s else opp
                    d += w[comes * n + z] - w[leaves * n + z]
        return d

    def run(self, deadline: float, enough: int = 0) -> tuple[list[int], list[int]]:
        rng, seat = self.rng, self.seat
        slots = len(seat)
        steps = max(MIN_STEPS, STEPS_PER_SEAT * slots)
        current = self.total()
        best, best_seat = current, seat[:]
        stalled, patience = 0, max(STALL_STEPS, STALL_PER_SEAT * slots)
        for step in range(steps):
            if best <= enough:
                break
            if step & 255 == 0 and time.perf_counter() > deadline:
                break
            i = rng.randrange(self.seats)
            # Mostly move someone who adds to the cost: that is where a change can help.
            if self.conflict(i) == 0 and rng.random() < 0.9:
                continue
            j = rng.randrange(slots - 1)
            if j >= i:
                j += 1
            d = self.delta(i, j)
            if d is None or d > 0:
                stalled += 1
            else:
                seat[i], seat[j] = seat[j], seat[i]
                current += d
                if current < best:
                    best, best_seat, stalled = current, seat[:], 0
                else:
                    stalled += 1
            if stalled > patience:
                # Start again from the best seating with a few random exchanges.
                seat[:] = best_seat
                for _ in range(KICK):
                    a, b = rng.randrange(self.seats), rng.randrange(slots)
                    if self.delta(a, b) is not None:
                        seat[a], seat[b] = seat[b], seat[a]
                current, stalled = self.total(), 0
        seat[:] = best_seat
        people = self.people
        return [people[s] for s in seat[: self.seats]], [people[s] for s in seat[self.seats :]]
