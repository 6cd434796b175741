"""3 ist 50: the legal plays of a turn (the four rules of seed 001)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from .cards import MIN_PLAYERS, MoveKind, game_rank, game_ranks


@dataclass(frozen=True)
class Move:
    """One legal play: the hand card ``card`` and where it (and what it takes) goes.

    ``kind`` is the rule that applies (docs/rulebook.md §7 items 1–4): ``middle`` and ``own_pile``
    go to
    the left neighbour, ``any_pile`` to ``to_pile``, ``discard`` onto the discard pile
    (``to_pile`` ``None``). ``cards`` lists every card that moves, the hand card first, then
    the middle cards and the discard pile's top card (``middle``) or the run taken from the own
    pile (``own_pile``). All of them have the same rank.
    """

    card: str
    kind: MoveKind
    to_pile: int | None
    cards: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON shape of docs/api.md §3 (``POST /api/v1/referee/three-is-fifty``)."""
        return {
            "card": self.card,
            "kind": self.kind,
            "to_pile": self.to_pile,
            "cards": list(self.cards),
        }


def left_neighbour(player: int, players: int) -> int:
    """Whoever sits left of ``player``: the next in seating order (and the next to play)."""
    return (player + 1) % players


def top_run(pile: Sequence[str]) -> int:
    """How many cards of the top card's rank lie on top of ``pile`` without a break.

    >>> top_run(["4", "4", "7", "7", "7"]), top_run([])
    (3, 0)
    """
    if not pile:
        return 0
    n = 0
    for rank in reversed(pile):
        if rank != pile[-1]:
            break
        n += 1
    return n


def distinct(ranks: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ranks))


def matching_moves(
    rank: str,
    middle: Sequence[str],
    discard_top: str | None,
    piles: Sequence[Sequence[str]],
    player: int,
) -> list[Move]:
    """The moves of rules 1–3 for a hand card of ``rank`` (empty: the card matches nothing)."""
    left = left_neighbour(player, len(piles))
    moves: list[Move] = []
    # Rule 1 (seed: "legt zusätzlich alle Karten der gleichen Zahl/Bildes aus den vier
    # Mittelkarten oder die oberste Karte des Ablagehaufens ebenfalls vor seinen linken
    # Nachbarn"): every middle card of the rank and the discard top, if it has the rank, go too.
    taken = [c for c in middle if c == rank]
    if discard_top == rank:
        taken.append(discard_top)
    if taken:
        moves.append(Move(rank, "middle", left, (rank, *taken)))
    # Rule 2 (seed: "alle Karten derselben Zahl/Bildes von seinem Minushaufens …, solange diese
    # Zahlen oben auf dem Minushaufen liegen"): the unbroken run at the top, never covered cards.
    own = piles[player]
    if own and own[-1] == rank:
        moves.append(Move(rank, "own_pile", left, (rank,) * (1 + top_run(own))))
    # Rule 3 (seed: "irgendeiner obersten Karte eines Minushaufens (also nicht nur der meines
    # linken Nachbarn oder meines eigenen)"): any pile, the own and the neighbour's included.
    for i, pile in enumerate(piles):
        if pile and pile[-1] == rank:
            moves.append(Move(rank, "any_pile", i, (rank,)))
    return moves


def legal_moves(
    middle: Iterable[Card | str],
    discard_top: Card | str | None,
    piles: Sequence[Iterable[Card | str]],
    player: int,
    hand: Iterable[Card | str],
) -> list[Move]:
    """Every legal move of ``player`` (docs/rulebook.md §7; seed 001 "Ausspielen von Karten").

    ``piles`` are the minus piles in seating order, each listed bottom to top; the left
    neighbour of player ``i`` is ``(i + 1) % len(piles)``. Equal hand cards give one set of
    moves. Order: hand order, then per card ``middle``, ``own_pile``, ``any_pile`` by pile.

    Discarding is legal only when no hand card matches a middle card, the discard pile's top
    card or the top of any minus pile; then every hand card may be discarded. The seed puts the
    condition on the whole hand: "Habe ich keine Karte auf der Hand, die identisch ist mit einer
    der bis zu fünf Mittelkarten oder der obersten Karte eines Minushaufens, so muss ich eine
    Karte oben auf den Ablagehaufen … legen". So while one card matches, the others cannot be
    discarded and have no move. An empty hand has no move.

    Raises :class:`RulesError` on unknown cards and ``ValueError`` on fewer than 2 piles or a
    ``player`` without a pile.

    >>> moves = legal_moves([], None, [["4", "4", "7", "7", "7"], []], 0, ["7", "4"])
    >>> [(m.kind, m.to_pile, m.cards) for m in moves]
    [('own_pile', 1, ('7', '7', '7', '7')), ('any_pile', 0, ('7',))]
    """
    mid = game_ranks(middle)
    top = None if discard_top is None else game_rank(discard_top)
    pls = [game_ranks(p) for p in piles]
    if len(pls) < MIN_PLAYERS:
        raise ValueError("3 ist 50 needs at least two minus piles")
    if not 0 <= player < len(pls):
        raise ValueError(f"player {player} has no minus pile")
    ranks = distinct(game_ranks(hand))
    moves = [m for r in ranks for m in matching_moves(r, mid, top, pls, player)]
    if moves:
        return moves
    # Rule 4: nothing matches, any one card goes onto the discard pile.
    return [Move(r, "discard", None, (r,)) for r in ranks]


def echoed(
    move: Move,
    middle: Sequence[str],
    discard_top: str | None,
    piles: Sequence[Sequence[str]],
    player: int,
    hand: Sequence[str],
) -> Move:
    """``move`` with the cards as they were given (tokens of :func:`card_tokens`), so a three
    is answered with its colour: the hand card, then the middle cards and the discard top of its
    rank (``middle``) or the run from the own pile (``own_pile``), as :class:`Move` lists them.

    >>> move = Move("3", "middle", 1, ("3", "3"))
    >>> echoed(move, ["3s", "K"], None, [[], []], 0, ["4", "3h"]).cards
    ('3h', '3s')
    """

    def same(cards: Iterable[str]) -> list[str]:
        return [c for c in cards if game_rank(c) == move.card]

    card = next(iter(same(hand)), move.card)
    taken: list[str] = []
    if move.kind == "middle":
        taken = same(middle) + same([] if discard_top is None else [discard_top])
    elif move.kind == "own_pile":
        own = piles[player]
        taken = list(own[len(own) - top_run(game_ranks(own)) :])
    return Move(card, move.kind, move.to_pile, (card, *taken))
