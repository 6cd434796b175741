"""3 ist 50: the answers of the scorer and the referee (a pile's points, the legal moves with
their reasons); the JSON requests are read at the edge (``scorekeeper.edge.fifty``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import Card
from ..problems import Problem
from .cards import (
    HAND_SIZE,
    MIDDLE_SIZE,
    game_ranks,
    read_cards,
    token,
)
from .moves import Move, distinct, left_neighbour, legal_moves
from .points import Options


@dataclass(frozen=True)
class PileScore:
    """One player's minus pile counted: its minus points and how many cards it holds."""

    points: int
    cards: int


@dataclass(frozen=True)
class FiftyScore:
    """The answer to "count these minus piles": one :class:`PileScore` per player in seating
    order, the options counted with, and the winners (the players with the fewest points)."""

    players: tuple[PileScore, ...]
    options: Options
    winners: tuple[int, ...]


@dataclass(frozen=True)
class FiftyMoves:
    """The answer to "what may I play?": every legal :class:`Move`, the reasons (codes
    ``three_is_fifty.*``, see :func:`referee_reasons`) and who the left neighbour is.
    ``allowed`` is false only for an empty hand."""

    allowed: bool
    reasons: tuple[Problem, ...]
    moves: tuple[Move, ...]
    left_neighbour: int


def read_card(value: str | int, where: str) -> tuple[str | None, list[Problem]]:
    """Exactly one card (the discard pile's top card): its game rank, or the problems.

    >>> read_card("3h", "discard_top"), read_card("K K", "discard_top")[1]
    (('3', []), [Problem('card.unknown', 'discard_top', {'token': 'K K'})])
    """
    cards, card_problems = read_cards([value], where)
    if card_problems:
        return None, [Problem(p.code, where, p.params) for p in card_problems]
    if len(cards) != 1:
        return None, [Problem("card.unknown", where, {"token": token(value)})]
    return cards[0], []


def dealt_problems(middle: Sequence[str], hand: Sequence[str]) -> list[Problem]:
    """More middle or hand cards than are dealt (seed 001: four of each).

    >>> dealt_problems(["K"], ["K"] * 5)
    [Problem('hand.too_many', 'hand', {'count': 5, 'maximum': 4})]
    """
    return [
        Problem(f"{key}.too_many", key, {"count": len(cards), "maximum": most})
        for key, cards, most in (("middle", middle, MIDDLE_SIZE), ("hand", hand, HAND_SIZE))
        if len(cards) > most
    ]


def referee_reasons(moves: Sequence[Move], hand: Sequence[str]) -> list[Problem]:
    """Why these moves and no others: the reasons of a referee answer (codes ``three_is_fifty.*``).

    * ``three_is_fifty.hand_empty``: no card to play (the answer is "not allowed").
    * ``three_is_fifty.no_match``: nothing matches, so any one card goes onto the discard pile.
    * ``three_is_fifty.match`` with ``ranks``: these hand cards match and one of them must be
      played; plus ``three_is_fifty.discard_forbidden`` with ``ranks`` for the hand cards that
      match nothing and so cannot be played this turn.
    """
    if not hand:
        return [Problem("three_is_fifty.hand_empty", "hand", {})]
    if all(m.kind == "discard" for m in moves):
        return [Problem("three_is_fifty.no_match", "", {})]
    matching = distinct(m.card for m in moves)
    reasons = [Problem("three_is_fifty.match", "", {"ranks": matching})]
    rest = [r for r in distinct(hand) if r not in matching]
    if rest:
        reasons.append(Problem("three_is_fifty.discard_forbidden", "", {"ranks": rest}))
    return reasons


def moves_answer(
    middle: Iterable[Card | str],
    discard_top: Card | str | None,
    piles: Sequence[Iterable[Card | str]],
    player: int,
    hand: Iterable[Card | str],
) -> FiftyMoves:
    """:func:`legal_moves` with the reasons of the referee: the answer to "what may I play?".

    >>> answer = moves_answer(["K"], None, [[], []], 0, ["K", "4"])
    >>> answer.allowed, [r.code for r in answer.reasons], answer.left_neighbour
    (True, ['three_is_fifty.match', 'three_is_fifty.discard_forbidden'], 1)
    """
    ranks = game_ranks(hand)
    moves = legal_moves(middle, discard_top, piles, player, ranks)
    return FiftyMoves(
        bool(moves),
        tuple(referee_reasons(moves, ranks)),
        tuple(moves),
        left_neighbour(player, len(piles)),
    )
