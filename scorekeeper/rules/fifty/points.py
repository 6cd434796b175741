"""3 ist 50: the house rules, the deck of a player count and the minus points of a pile."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..problems import Problem, RulesError
from .cards import (
    CARD_VALUES,
    DEFAULT_JOKER,
    DEFAULT_PLAYERS,
    GAME_RANKS,
    HAND_SIZE,
    JOKER_RANGE,
    MIDDLE_SIZE,
    PLAYERS_ALLOWED,
    RULESET_ID,
    RULESET_NAME,
    game_rank,
    game_ranks,
    token,
)


def deck_limits(players: int) -> dict[str, int]:
    """How many cards of each game rank the deck holds.

    One Canasta deck (two packs and four jokers, 108 cards); six players may use three packs and
    six jokers, as docs/rulebook.md §1 allows for Canasta, so the check never rejects such a table.
    """
    packs = 3 if players >= 6 else 2
    limits = {rank: 4 * packs for rank in GAME_RANKS}
    limits["X"] = 2 * packs
    return limits


def deck_points(players: int, options: Options | Mapping[str, Any] | None = None) -> int:
    """All minus points the deck holds: no pile, and no game's sum, can exceed it.

    Seed 001 values; two packs and four jokers (10 points each by default) up to five players:

    >>> deck_points(4)
    1176
    >>> deck_points(4, {"joker": 0})
    1136
    """
    opts = _options(options)
    return sum(
        n * (opts.joker if rank == "X" else CARD_VALUES[rank])
        for rank, n in deck_limits(players).items()
    )


def card_count_problems(
    groups: Iterable[Iterable[str]], players: int, where: str = ""
) -> list[Problem]:
    """``card.too_many`` for every rank seen more often than the deck holds it."""
    counts: Counter[str] = Counter()
    for group in groups:
        counts.update(group)
    limits = deck_limits(players)
    return [
        Problem("card.too_many", where, {"rank": rank, "count": n, "maximum": limits[rank]})
        for rank, n in sorted(counts.items(), key=lambda kv: GAME_RANKS.index(kv[0]))
        if n > limits[rank]
    ]


@dataclass(frozen=True)
class Options:
    """The game options of 3 ist 50 (house rules).

    ``joker``: minus points of a joker. The seed does not value it; the default 10 counts it
    like a picture card (docs/rulebook.md §7), and the choice is printed on the sheet.
    """

    joker: int = DEFAULT_JOKER

    def as_dict(self) -> dict[str, int]:
        """JSON shape, as accepted by :func:`read_options`."""
        return {"joker": self.joker}


def read_options(value: Any, where: str = "options") -> tuple[Options, list[Problem]]:
    """Options from a JSON object: ``None`` or ``{"joker": 0..100}``. Never raises.

    >>> read_options({"joker": 25})
    (Options(joker=25), [])
    >>> read_options({"joker": True, "jokers": 1})[1]
    [Problem('options.invalid', 'options.joker', {'key': 'joker'}), \
Problem('options.unknown', 'options.jokers', {'key': 'jokers'})]
    """
    if value is None:
        return Options(), []
    if isinstance(value, Options):
        value = value.as_dict()
    if not isinstance(value, Mapping):
        return Options(), [Problem("request.type", where, {"expected": "object"})]
    problems: list[Problem] = []
    joker = DEFAULT_JOKER
    for key, item in value.items():
        name = token(key, 40)
        if key != "joker":
            problems.append(Problem("options.unknown", f"{where}.{name}", {"key": name}))
            continue
        low, high = JOKER_RANGE
        if isinstance(item, bool) or not isinstance(item, int) or not low <= item <= high:
            problems.append(Problem("options.invalid", f"{where}.joker", {"key": "joker"}))
            continue
        joker = item
    return Options(joker=joker), problems


def _options(options: Options | Mapping[str, Any] | None) -> Options:
    if isinstance(options, Options):
        return options
    checked, problems = read_options(options)
    if problems:
        raise RulesError(problems)
    return checked


def card_value(card: Card | str, options: Options | Mapping[str, Any] | None = None) -> int:
    """Minus points of one card.

    >>> card_value("3b"), card_value("A"), card_value("X"), card_value("X", {"joker": 0})
    (50, 11, 10, 0)
    """
    rank = game_rank(card)
    if rank == "X":
        return _options(options).joker
    return CARD_VALUES[rank]


def pile_points(
    cards: Iterable[Card | str], options: Options | Mapping[str, Any] | None = None
) -> int:
    """Minus points of a minus pile (seed 001 "Abrechnung"); lower is better.

    Raises :class:`RulesError` on an unknown card or an invalid option.

    >>> pile_points(["3", "A", "K", "7"]), pile_points("X 2", {"joker": 25})
    (78, 27)
    """
    opts = _options(options)
    return sum(card_value(c, opts) for c in game_ranks(cards))


def ruleset_dict(players: int = DEFAULT_PLAYERS) -> dict[str, Any]:
    """Every parameter of the game, JSON-ready (``GET /api/v1/rulesets/three-is-fifty``), in
    the envelope of a Canasta ruleset's (``id``, ``name``, ``players_allowed``, ``players``).

    >>> d = ruleset_dict(6)
    >>> d["card_values"]["3"], d["joker"], d["deck"]["X"], d["deck_points"]
    (50, 10, 6, 1764)
    """
    options = Options()
    return {
        "id": RULESET_ID,
        "name": RULESET_NAME,
        "players_allowed": list(PLAYERS_ALLOWED),
        "default_players": DEFAULT_PLAYERS,
        "players": players,
        "lowest_wins": True,
        "card_values": dict(CARD_VALUES),
        "joker": options.joker,
        "options": {
            "joker": {
                "default": DEFAULT_JOKER,
                "minimum": JOKER_RANGE[0],
                "maximum": JOKER_RANGE[1],
            }
        },
        "hand_size": HAND_SIZE,
        "middle_size": MIDDLE_SIZE,
        "deck": deck_limits(players),
        "deck_points": deck_points(players, options),
    }
