"""3 ist 50 (``three-is-fifty``, docs/rulebook.md §7, seed 001): minus points and legal moves.

Not Canasta: a matching game played with a Canasta deck, lowest total wins. Suits never
matter, not even for threes, so in this module a card is just its *game rank*, a string from
:data:`GAME_RANKS`; every three is ``"3"`` (input may say ``3``, ``3r``, ``3b``, ``3h``, ``3s``
…; output always says ``"3"``). Other ranks use the output notation of docs/api.md §2
(``A K Q J 10`` … ``4 2 X``).

>>> pile_points(["3", "A", "K", "7"])
78
>>> [m.as_dict() for m in legal_moves(["5", "5", "9", "K"], None, [[], []], 0, ["5"])]
[{'card': '5', 'kind': 'middle', 'to_pile': 1, 'cards': ['5', '5', '5']}]

One module per idea: :mod:`.cards` (ranks, values, the cards of a request), :mod:`.points`
(house rules, the deck, minus points), :mod:`.moves` (the legal plays) and :mod:`.requests` (the
JSON requests); the names callers need are gathered here.

Readings chosen where the seed is open (each is cited at the code that implements it):

* Discarding is allowed only when *no* hand card matches anything (the condition of the seed is
  on the whole hand: "Habe ich keine Karte auf der Hand, die identisch ist …, so muss ich eine
  Karte oben auf den Ablagehaufen … legen"). While some card matches, the player must play a
  matching card, and the non-matching cards have no legal move this turn.
* Rule 3 ("any pile") includes the player's own pile and the left neighbour's pile: "(also
  nicht nur der meines linken Nachbarn oder meines eigenen)" names both as included.
* Rule 1 takes *all* middle cards of the rank *and* the discard pile's top card if it has the
  rank (the seed counts the top card among the "bis zu fünf Mittelkarten").
* Rule 2 moves the whole unbroken run of the rank at the top of the own pile.
* The four kinds of move never combine: one card is played and one rule applies.

The engine answers with typed values (:class:`FiftyScore`, :class:`FiftyMoves`); it reads no
JSON: the requests are read at the edge (``scorekeeper.edge.fifty``).
"""

from __future__ import annotations

from .cards import (
    CARD_VALUES,
    DEFAULT_JOKER,
    DEFAULT_PLAYERS,
    GAME_RANKS,
    HAND_SIZE,
    JOKER_RANGE,
    MAX_PILE_CARDS,
    MAX_PLAYERS,
    MIDDLE_SIZE,
    MIN_PLAYERS,
    PLAYERS_ALLOWED,
    RULESET_ID,
    RULESET_NAME,
    MoveKind,
    card_tokens,
    game_rank,
    game_ranks,
    read_cards,
    token,
)
from .moves import (
    Move,
    distinct,
    echoed,
    left_neighbour,
    legal_moves,
    matching_moves,
    top_run,
)
from .points import (
    Options,
    card_count_problems,
    card_value,
    deck_limits,
    deck_points,
    pile_points,
    read_options,
    ruleset_dict,
)
from .requests import (
    FiftyMoves,
    FiftyScore,
    PileScore,
    dealt_problems,
    moves_answer,
    read_card,
    referee_reasons,
)

__all__ = [
    "CARD_VALUES",
    "DEFAULT_JOKER",
    "DEFAULT_PLAYERS",
    "FiftyMoves",
    "FiftyScore",
    "GAME_RANKS",
    "HAND_SIZE",
    "JOKER_RANGE",
    "MAX_PILE_CARDS",
    "MAX_PLAYERS",
    "MIDDLE_SIZE",
    "MIN_PLAYERS",
    "Move",
    "MoveKind",
    "Options",
    "PLAYERS_ALLOWED",
    "PileScore",
    "RULESET_ID",
    "RULESET_NAME",
    "card_count_problems",
    "card_tokens",
    "card_value",
    "dealt_problems",
    "deck_limits",
    "deck_points",
    "distinct",
    "echoed",
    "game_rank",
    "game_ranks",
    "left_neighbour",
    "legal_moves",
    "matching_moves",
    "moves_answer",
    "pile_points",
    "read_card",
    "read_cards",
    "read_options",
    "referee_reasons",
    "ruleset_dict",
    "token",
    "top_run",
]
