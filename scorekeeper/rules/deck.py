"""The cards there are: no question about a table may show more of a rank than the decks hold.

Canasta is played with "zwei Sets von je 52 Karten plus 4 Joker" (seed 000:15): 8 cards of
each rank (4 red and 4 black threes), 4 jokers. A ruleset that deals a third deck for some
player counts (the 6-player Classic game, :attr:`.RuleSet.three_packs_for_players`) has 12 and
6. Scoring and every referee question count what they are shown against these numbers and
answer ``card.too_many`` for a rank seen more often.

>>> from .ruleset import get_ruleset
>>> from .cards import parse_cards
>>> aces = parse_cards("A" * 9)[0]
>>> too_many(get_ruleset("german"), 4, [aces])
[Problem('card.too_many', '', {'rank': 'A', 'count': 9, 'maximum': 8})]
>>> too_many(get_ruleset("german"), 4, [aces[:5], parse_cards("AAA X")[0]])
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .cards import Card
from .problems import Problem
from .ruleset import RuleSet


def limits(rs: RuleSet, players: int | None) -> dict[str, int]:
    """How many of each rank the decks hold for ``players`` (None: the player count of the
    ruleset that plays with the most decks, for a question that does not say)."""
    counts = rs.players_allowed if players is None else (players,)
    packs = max(rs.packs(n) for n in counts)
    threes = 2 * packs  # of one colour: 2 per pack
    return {"X": 2 * packs, "3r": threes, "3b": threes, "": 4 * packs}


def count_problems(
    rs: RuleSet, players: int | None, counts: Counter[str], where: str = ""
) -> list[Problem]:
    """``card.too_many`` for every rank of ``counts`` above what the decks hold."""
    most = limits(rs, players)
    problems = []
    for rank, count in sorted(counts.items()):
        limit = most.get(rank, most[""])
        if count > limit:
            problems.append(
                Problem("card.too_many", where, {"rank": rank, "count": count, "maximum": limit})
            )
    return problems


def too_many(
    rs: RuleSet,
    players: int | None,
    groups: Iterable[Iterable[Card] | Card | None],
    where: str = "",
) -> list[Problem]:
    """:func:`count_problems` for every card of ``groups`` together (a group is a meld, a
    hand, the side's melds …; a single card such as the top of the pile may stand alone)."""
    counts: Counter[str] = Counter()
    for group in groups:
        if group is None:
            continue
        if isinstance(group, Card):
            counts[group.rank] += 1
        else:
            counts.update(card.rank for card in group)
    return count_problems(rs, players, counts, where)
