"""Club tournaments: the tournament, its participants, its rounds and the game of each table.

The pairing engine (:mod:`scorekeeper.tournaments.seating`) decides who sits where and
:mod:`scorekeeper.tournaments.standings` how the participants rank; this module stores what they
decide, creates each table's game with :func:`.games.create_game` (the phones at the table
enter hands as in any game) and reads the whole tournament back as one
:class:`~scorekeeper.tournaments.model.TournamentView`.

A round is proposed (seating by lot, changeable by hand), then confirmed (one game per table),
then closed. A table has *reported* when it reached the round's end: ``hands`` mode, it has N
hands (its result counts the first N only); ``target`` mode, its game has a winner or it has a
hand made after the first hand that brought any table of the round to the target; ``minutes``
mode, it has a hand made after the director called time. Every table of a closed round has
reported. A game with a winner has reported in every mode (it takes no further hand).

One module per step: :mod:`.common` (bounds, problems, reading by key, a stored seating),
:mod:`.setup` (a new tournament checked and stored), :mod:`.rounds` (proposing, changing,
confirming, closing rounds) and :mod:`.read_model` (the whole tournament read back, kept while
nothing changed); the names callers use are gathered here.

Every function takes the caller's session and never commits; bad input raises
:class:`GameProblems` and changes nothing.
"""

from __future__ import annotations

from .common import (
    MAX_PARTICIPANTS,
    MAX_ROUNDS,
    PAIR_TABLES,
    POINTS_MAX,
    ROUND_END_BOUNDS,
    get_by_view,
    get_tournament,
    participants_of,
    round_of,
    rounds_of,
    rules_of,
    seating_json,
    seating_of,
)
from .read_model import (
    GameTournament,
    game_tournament,
    game_tournament_by_view,
    kept_by_key,
    make_view,
    stamp,
    view,
)
from .rounds import (
    call_time,
    close_round,
    confirm_round,
    propose_round,
    set_absent,
    set_seating,
    start_round,
    swap,
)
from .setup import (
    create_tournament,
)

__all__ = [
    "GameTournament",
    "MAX_PARTICIPANTS",
    "MAX_ROUNDS",
    "PAIR_TABLES",
    "POINTS_MAX",
    "ROUND_END_BOUNDS",
    "call_time",
    "close_round",
    "confirm_round",
    "create_tournament",
    "game_tournament",
    "game_tournament_by_view",
    "get_by_view",
    "get_tournament",
    "kept_by_key",
    "make_view",
    "participants_of",
    "propose_round",
    "round_of",
    "rounds_of",
    "rules_of",
    "seating_json",
    "seating_of",
    "set_absent",
    "set_seating",
    "stamp",
    "start_round",
    "swap",
    "view",
]
