"""3 ist 50's JSON requests read (docs/rulebook.md §7, docs/api.md §3): the scorer's minus
piles and the referee's "what may I play?". Each takes whatever ``json.loads`` produced and
answers with the engine's typed answer (:class:`~..rules.fifty.FiftyScore`,
:class:`~..rules.fifty.FiftyMoves`) or a :class:`~..rules.scoring.Rejected` with the
problems; never raises. The engine itself (``rules.fifty``) reads no JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.fifty.cards import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIDDLE_SIZE,
    MIN_PLAYERS,
    PLAYERS_ALLOWED,
    card_tokens,
    read_cards,
    token,
)
from ..rules.fifty.moves import echoed
from ..rules.fifty.points import card_count_problems, pile_points, read_options
from ..rules.fifty.requests import (
    FiftyMoves,
    FiftyScore,
    PileScore,
    moves_answer,
    read_card,
)
from ..rules.problems import Problem
from ..rules.scoring import Rejected


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


MAX_SEAT = 5  # six players at most (docs/rulebook.md §7)


def _read_player(data: Mapping[str, Any], players: int | None, problems: list[Problem]) -> int:
    value = data.get("player")
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 1.0 is 1, as JSON Schema counts it
    if value is None:
        problems.append(Problem("request.missing", "player", {}))
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem("request.type", "player", {"expected": "integer"}))
        return 0
    if not 0 <= value <= MAX_SEAT:
        problems.append(Problem("request.value", "player", {"minimum": 0, "maximum": MAX_SEAT}))
        return 0
    if players is not None and value >= players:
        # a seat the request allows, but not at this table: the game's rules, a 422
        problems.append(
            Problem("players.no_such_player", "player", {"player": value, "maximum": players - 1})
        )
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
