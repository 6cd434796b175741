"""3 ist 50: its ranks, card values and the cards of a request (every three is ``"3"``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, Literal

from ..cards import THREE_RANKS, Card, parse_cards
from ..problems import Problem, RulesError

RULESET_ID = "three-is-fifty"
RULESET_NAME = "3 ist 50"  # the name to show (docs/rulebook.md, the table of rulesets)

#: Every rank of the game; threes are one rank (suits never matter).
GAME_RANKS: tuple[str, ...] = (
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "X",
    "3",
)

#: Minus points per card (seed 001 "Werte der Karten je Karte": 3 = 50, Asse 11, Bilder 10,
#: Zahl ihr Zahlenwert). The joker has no value in the seed: it is the option ``joker``.
CARD_VALUES: dict[str, int] = {
    "3": 50,
    "A": 11,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 9,
    "8": 8,
    "7": 7,
    "6": 6,
    "5": 5,
    "4": 4,
    "2": 2,
}

DEFAULT_JOKER = 10
JOKER_RANGE = (0, 100)

MIN_PLAYERS = 2
MAX_PLAYERS = 6
PLAYERS_ALLOWED: tuple[int, ...] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
DEFAULT_PLAYERS = 4
MAX_PILE_CARDS = 200  # per pile (or hand, or middle) in a request
MAX_TEXT = 2000  # characters of one text of cards (the API's description says as much)
HAND_SIZE = 4  # seed 001: "Jeder Spieler erhält 4 Karten auf die Hand"
MIDDLE_SIZE = 4  # seed 001: "Offen auf den Tisch werden 4 Karten ausgelegt"

MoveKind = Literal["middle", "own_pile", "any_pile", "discard"]


# ---- cards ---------------------------------------------------------------------------------

# A "3" that is not followed by a colour or suit is a three all the same in this game; it gets
# a colour before the shared parser sees it (which otherwise reports ``card.unknown``,
# reason ``three_colour``).
_BARE_THREE = re.compile(
    r"3(?![HDRSCB\u2665\u2666\u2661\u2662\u2660\u2663\u2664\u2667])", re.IGNORECASE
)


def game_rank(card: Card | str) -> str:
    """The game rank of one card: threes of either colour become ``"3"``.

    >>> game_rank(Card("3b")), game_rank("3h"), game_rank("3"), game_rank("d")
    ('3', '3', '3', 'Q')
    """
    if isinstance(card, Card):
        return "3" if card.rank in ("3r", "3b") else card.rank
    if card in CARD_VALUES or card == "X":
        return card
    cards, problems = read_cards(card)
    if problems or len(cards) != 1:
        raise RulesError(problems or [Problem("card.unknown", "", {"token": token(card)})])
    return cards[0]


def game_ranks(cards: Iterable[Card | str]) -> list[str]:
    """:func:`game_rank` of every card; a string is read as notation (``"4 4 7 7 7"``).

    Raises :class:`RulesError` on an unknown card.
    """
    if isinstance(cards, str):
        ranks, problems = read_cards(cards, limit=len(cards) + 1)
        if problems:
            raise RulesError(problems)
        return ranks
    return [game_rank(c) for c in cards]


def token(value: Any, limit: int = 20) -> str:
    """A short, safe text for a value in a problem (never raises, even on huge ints)."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, bool) or value is None:
        text = {True: "true", False: "false", None: "null"}[value]
    elif isinstance(value, int):
        text = str(value) if -(10**12) < value < 10**12 else "\u2026"
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, list | tuple):
        text = "[\u2026]"
    elif isinstance(value, dict):
        text = "{\u2026}"
    else:
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _read_text(text: str, where: str) -> tuple[list[str], list[Problem]]:
    cards, problems = parse_cards(_BARE_THREE.sub("3r", text), where)
    if problems:
        # Report the tokens as they were written, not as rewritten above.
        original = [
            p for p in parse_cards(text, where)[1] if p.params.get("reason") != "three_colour"
        ]
        return [], original or problems
    return [game_rank(c) for c in cards], []


def read_cards(
    value: Any, where: str = "", limit: int = MAX_PILE_CARDS
) -> tuple[list[str], list[Problem]]:
    """Game ranks from card notation: a string (``"4 4 7 7 7"``, ``"3KKA"``) or a list of tokens.

    Like :func:`.cards.parse_cards`, but a three needs no colour. ``None`` is no cards. More
    than ``limit`` cards is ``request.too_large``; a value that is neither a string nor a list
    is ``request.type``. Never raises.

    >>> read_cards("3 3s 3h A X")
    (['3', '3', '3', 'A', 'X'], [])
    >>> read_cards(["K", 3, "Z"], "hand")[1]
    [Problem('card.unknown', 'hand[2]', {'token': 'Z'})]
    """
    if value is None:
        return [], []
    if isinstance(value, str):
        if len(value) > max(4 * limit, MAX_TEXT):
            return [], [Problem("request.too_large", where, {"limit": limit})]
        cards, problems = _read_text(value, where)
    elif isinstance(value, list | tuple):
        if len(value) > limit:
            return [], [Problem("request.too_large", where, {"limit": limit})]
        cards, problems = [], []
        for i, item in enumerate(value):
            item_where = f"{where}[{i}]"
            if isinstance(item, Card):
                cards.append(game_rank(item))
                continue
            if isinstance(item, bool) or not isinstance(item, str | int):
                problems.append(Problem("card.unknown", item_where, {"token": token(item)}))
                continue
            text = token(item, limit=40) if isinstance(item, int) else item
            if len(text) > 4 * limit:
                problems.append(Problem("request.too_large", item_where, {"limit": limit}))
                continue
            if not text.strip():
                problems.append(Problem("card.unknown", item_where, {"token": ""}))
                continue
            got, item_problems = _read_text(text, item_where)
            cards.extend(got)
            problems.extend(item_problems)
    else:
        return [], [Problem("request.type", where, {"expected": "cards"})]
    if len(cards) > MAX_PILE_CARDS and not any(p.code == "request.too_large" for p in problems):
        # a text of the length taken, or entries of several cards each: more cards than the
        # largest deck holds (docs/rulebook.md §1, three packs), so some rank is seen too often
        rank, count = Counter(cards).most_common(1)[0]
        return [], [
            Problem("card.too_many", where, {"rank": rank, "count": count, "maximum": most(rank)})
        ]
    if len(cards) > limit or any(p.code == "request.too_large" for p in problems):
        return [], [Problem("request.too_large", where, {"limit": limit})]
    return cards, problems


def most(rank: str) -> int:
    """The most cards of ``rank`` the largest deck holds (three packs and six jokers)."""
    return 6 if rank == "X" else 12


#: A three as written, with what follows its 3 (no other card of the notation has a 3 in it).
_THREE_WRITTEN = re.compile(
    r"3([HDRSCB\u2665\u2666\u2661\u2662\u2660\u2663\u2664\u2667]?)", re.IGNORECASE
)
#: A suit symbol as the letter of the output notation.
_SUIT_LETTERS = dict(
    zip("\u2665\u2666\u2661\u2662\u2660\u2663\u2664\u2667", "hdhdscsc", strict=True)
)


def _text_tokens(text: str) -> list[str]:
    """The tokens of valid notation as answers write them (docs/api.md §2): a three keeps the
    suit or colour it was given (``3c`` stays ``3c``, ``3♥`` becomes ``3h``), so that an answer
    names the very card the player holds; one given without (this game accepts it) stays
    ``3``. Every other card is written in the output notation (``d`` → ``Q``)."""
    cards = parse_cards(_BARE_THREE.sub("3r", text))[0]
    written = iter(_THREE_WRITTEN.finditer(text))
    out: list[str] = []
    for card in cards:
        if card.rank not in THREE_RANKS:
            out.append(card.token)
            continue
        suit = next(written).group(1)
        out.append("3" + _SUIT_LETTERS.get(suit, suit.lower()))
    return out


def card_tokens(value: Any) -> list[str]:
    """:func:`read_cards` for a value it accepted, in the output notation of docs/api.md §2:
    threes as they were given (``3c``, ``3h``, ``3b``; a symbol as its letter).

    >>> card_tokens("3h 3b 3 kd 3\u2663")
    ['3h', '3b', '3', 'K', '3c']
    >>> card_tokens(["3s", 7, "x", "3C"])
    ['3s', '7', 'X', '3c']
    """
    if value is None:
        return []
    if isinstance(value, str):
        return _text_tokens(value)
    out: list[str] = []
    for item in value:
        if isinstance(item, Card):
            out.append(item.token)
        else:
            out.extend(_text_tokens(str(item)))
    return out
