"""3 ist 50: the JSON requests of the scorer and the referee, read and answered (never raise)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..problems import Problem
from ..scoring import Rejected
from .cards import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIDDLE_SIZE,
    MIN_PLAYERS,
    PLAYERS_ALLOWED,
    card_tokens,
    game_ranks,
    read_cards,
    token,
)
from .moves import Move, distinct, echoed, left_neighbour, legal_moves
from .points import Options, card_count_problems, pile_points, read_options


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


def _rejected(problems: Sequence[Problem]) -> Rejected:
    return Rejected(tuple(problems))


def _read_piles(data: Mapping[str, Any], problems: list[Problem]) -> list[list[str]] | None:
    value = data.get("piles")
    if value is None:
        problems.append(Problem("request.missing", "piles", {}))
        return None
    if not isinstance(value, list):
        problems.append(Problem("request.type", "piles", {"expected": "list of card lists"}))
        return None
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        problems.append(
            Problem(
                "players.not_allowed",
                "piles",
                {"players": len(value), "allowed": list(PLAYERS_ALLOWED)},
            )
        )
        return None
    piles = []
    for i, raw in enumerate(value):
        cards, pile_problems = read_cards(raw, f"piles[{i}]")
        problems.extend(pile_problems)
        piles.append(cards)
    return piles


def _read_players(
    data: Mapping[str, Any], piles: list[list[str]] | None, problems: list[Problem]
) -> None:
    """An optional ``players`` must agree with the number of piles."""
    value = data.get("players")
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem("request.type", "players", {"expected": "integer"}))
    elif value not in PLAYERS_ALLOWED:
        problems.append(
            Problem(
                "players.not_allowed",
                "players",
                {"players": token(value), "allowed": list(PLAYERS_ALLOWED)},
            )
        )
    elif piles is not None and value != len(piles):
        problems.append(Problem("piles.count", "piles", {"players": value, "piles": len(piles)}))


def score_request(data: Any) -> FiftyScore | Rejected:
    """``POST /api/v1/score`` for ``"ruleset": "three-is-fifty"`` (docs/api.md §3).

    Request ``{"ruleset": "three-is-fifty", "piles": [[cards], …], "options": {"joker": 10}}``
    (2 to 6 piles, one per player; optional ``players`` must equal their number). Answer: a
    :class:`FiftyScore`; else :class:`~.scoring.Rejected` (unreadable: ``request.*`` codes;
    or ``card.*``, ``options.*``, ``players.not_allowed``, ``piles.count``). Never raises.

    >>> answer = score_request({"piles": [["3", "A", "K", "7"], "X 2"]})
    >>> [p.points for p in answer.players], answer.winners
    ([78, 12], (1,))
    """
    problems: list[Problem] = []
    if not isinstance(data, dict):
        return _rejected([Problem("request.type", "", {"expected": "object"})])
    options, option_problems = read_options(data.get("options"))
    problems.extend(option_problems)
    piles = _read_piles(data, problems)
    _read_players(data, piles, problems)
    if piles is not None and not problems:
        problems.extend(card_count_problems(piles, len(piles), "piles"))
    if problems or piles is None:
        return _rejected(problems)
    points = [pile_points(p, options) for p in piles]
    best = min(points)
    return FiftyScore(
        tuple(PileScore(pts, len(p)) for pts, p in zip(points, piles, strict=True)),
        options,
        tuple(i for i, pts in enumerate(points) if pts == best),
    )


def _read_player(data: Mapping[str, Any], players: int | None, problems: list[Problem]) -> int:
    value = data.get("player")
    if value is None:
        problems.append(Problem("request.missing", "player", {}))
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem("request.type", "player", {"expected": "integer"}))
        return 0
    if players is not None and not 0 <= value < players:
        problems.append(Problem("request.value", "player", {"minimum": 0, "maximum": players - 1}))
        return 0
    return value


def _read_limited(
    data: Mapping[str, Any], key: str, maximum: int, required: bool, problems: list[Problem]
) -> list[str]:
    value = data.get(key)
    if value is None and required:
        problems.append(Problem("request.missing", key, {}))
        return []
    cards, card_problems = read_cards(value, key)
    problems.extend(card_problems)
    if len(cards) > maximum:
        problems.append(Problem(f"{key}.too_many", key, {"count": len(cards), "maximum": maximum}))
    return cards


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


def _read_discard_top(data: Mapping[str, Any], problems: list[Problem]) -> str | None:
    value = data.get("discard_top")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        problems.append(Problem("request.type", "discard_top", {"expected": "card"}))
        return None
    card, card_problems = read_card(value, "discard_top")
    problems.extend(card_problems)
    return card


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


def referee_request(data: Any) -> FiftyMoves | Rejected:
    """``POST /api/v1/referee/three-is-fifty`` (docs/api.md §3): every legal move.

    Request ``{"middle": [...], "discard_top": null, "piles": [[...], …], "player": 0,
    "hand": [...]}``: piles bottom to top in seating order (2 to 6), ``player`` the index of
    the player to move, ``middle`` (optional, at most 4 cards) the face-up middle cards,
    ``hand`` (required, at most 4 cards). Optional ``options`` are checked like in
    :func:`score_request`. Answer: :class:`FiftyMoves`, else :class:`~.scoring.Rejected`.
    Never raises.

    >>> answer = referee_request({"piles": [[], "4 4 7 7 7", []], "player": 1,
    ...                           "hand": ["4"], "middle": [], "discard_top": "9"})
    >>> answer.moves
    (Move(card='4', kind='discard', to_pile=None, cards=('4',)),)
    """
    problems: list[Problem] = []
    if not isinstance(data, dict):
        return _rejected([Problem("request.type", "", {"expected": "object"})])
    _, option_problems = read_options(data.get("options"))
    problems.extend(option_problems)
    piles = _read_piles(data, problems)
    player = _read_player(data, None if piles is None else len(piles), problems)
    middle = _read_limited(data, "middle", MIDDLE_SIZE, False, problems)
    hand = _read_limited(data, "hand", HAND_SIZE, True, problems)
    top = _read_discard_top(data, problems)
    if piles is not None and not problems:
        everything = [*piles, middle, hand, [] if top is None else [top]]
        problems.extend(card_count_problems(everything, len(piles)))
    if problems or piles is None:
        return _rejected(problems)
    answer = moves_answer(middle, top, piles, player, hand)
    # Answers write threes with the colour the request gave them (docs/api.md §2).
    given = [card_tokens(data.get(key)) for key in ("middle", "hand")]
    top_given = None if top is None else card_tokens([data["discard_top"]])[0]
    piles_given = [card_tokens(p) for p in data["piles"]]
    moves = tuple(
        echoed(m, given[0], top_given, piles_given, player, given[1]) for m in answer.moves
    )
    return FiftyMoves(answer.allowed, answer.reasons, moves, answer.left_neighbour)


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
