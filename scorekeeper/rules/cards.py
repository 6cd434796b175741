"""Cards and the card notation of docs/api.md §2.

Suits never matter in Canasta except for threes, so a card is its rank; threes carry their
colour in the rank (``3r`` red, ``3b`` black).

>>> parse_cards("K K K 2")[0]
[Card('K'), Card('K'), Card('K'), Card('2')]
>>> [str(c) for c in parse_cards("kkk2, 10 JK 3h")[0]]
['K', 'K', 'K', '2', '10', 'X', '3r']
>>> [str(c) for c in parse_cards("B D W A")[0]]
['J', 'Q', 'J', 'A']
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .problems import Problem, RulesError

NATURAL_RANKS: tuple[str, ...] = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
WILD_RANKS: tuple[str, ...] = ("2", "X")
THREE_RANKS: tuple[str, ...] = ("3r", "3b")
RANKS: tuple[str, ...] = NATURAL_RANKS + WILD_RANKS + THREE_RANKS

# Longest alternatives first: "JOKER" before "JK" before "J", "10" before "1".
_TOKEN = re.compile(
    r"(?P<joker>JOKER|JK|X)"
    r"|(?P<ten>10|T)"
    r"|(?P<red3>3[HDR\u2665\u2666\u2661\u2662])"
    r"|(?P<black3>3[SCB\u2660\u2663\u2664\u2667])"
    r"|(?P<bare3>3)"
    r"|(?P<digit>[2-9])"
    r"|(?P<face>[AKQJDBW])",
    re.IGNORECASE,
)
_FACE = {"A": "A", "K": "K", "Q": "Q", "J": "J", "D": "Q", "B": "J", "W": "J"}
_SUIT_SYMBOLS = "\u2665\u2666\u2660\u2663\u2661\u2662\u2664\u2667"
_SEPARATORS = re.compile(r"[\s,;]+")

# Letters shown to a reader (docs/api.md §2: the UI shows the reader's language).
LETTERS: dict[str, dict[str, str]] = {
    "en": {},
    "de": {"J": "B", "Q": "D"},
    "pl": {"J": "W", "Q": "D"},
}

MAX_CARDS_IN_TEXT = 500

#: Threes as written in answers: a colour is required on input (docs/api.md §2), and the suit
#: letters are the English notation every request reads.
THREE_TOKENS: dict[str, str] = {"3r": "3h", "3b": "3s"}


@dataclass(frozen=True, order=False)
class Card:
    """A Canasta card, identified by its rank (threes by colour)."""

    rank: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise RulesError([Problem("card.unknown", "", {"token": self.rank})])

    @classmethod
    def from_str(cls, token: str) -> Card:
        """One card from one token.

        >>> Card.from_str("Dame") if False else Card.from_str("D")
        Card('Q')
        >>> Card.from_str("3s")
        Card('3b')
        """
        cards, problems = parse_cards(token)
        if problems or len(cards) != 1:
            raise RulesError(problems or [Problem("card.unknown", "", {"token": token})])
        return cards[0]

    def __repr__(self) -> str:
        return f"Card({self.rank!r})"

    def __str__(self) -> str:
        return self.rank

    @property
    def is_wild(self) -> bool:
        return self.rank in WILD_RANKS

    @property
    def is_natural(self) -> bool:
        """Natural cards are four up to ace (docs/rulebook.md §1)."""
        return self.rank in NATURAL_RANKS

    @property
    def is_red_three(self) -> bool:
        return self.rank == "3r"

    @property
    def is_black_three(self) -> bool:
        return self.rank == "3b"

    @property
    def token(self) -> str:
        """The card in the output notation of docs/api.md §2, which input reads back: English
        letters and ``X``; threes with a suit letter, ``3h`` red and ``3s`` black.

        >>> Card("3b").token, Card("3r").token, Card("Q").token
        ('3s', '3h', 'Q')
        """
        return THREE_TOKENS.get(self.rank, self.rank)

    def label(self, lang: str = "en") -> str:
        """The letter(s) a reader of ``lang`` expects (``B`` for a jack in German)."""
        return LETTERS.get(lang, {}).get(self.rank, self.rank)


_SUITED_RUN = re.compile(
    r"(?:(?:JOKER|JK|10|[2-9TAKQJDBWX])[HDSC\u2665\u2666\u2660\u2663\u2661\u2662\u2664\u2667])+",
    re.IGNORECASE,
)


def _parse_chunk(chunk: str, where: str, cards: list[Card], problems: list[Problem]) -> None:
    # A run where every card carries a suit ("9h9d", "KdKd") reads every "d" as diamonds.
    suited = _SUITED_RUN.fullmatch(chunk) is not None
    i = 0
    start_count = len(cards)
    n = len(chunk)
    while i < n:
        m = _TOKEN.match(chunk, i)
        if m is None:
            # Report the unreadable rest of this chunk as one token.
            problems.append(Problem("card.unknown", where, {"token": chunk[i:]}))
            return
        kind = m.lastgroup
        text = m.group(0)
        i = m.end()
        if kind == "joker":
            cards.append(Card("X"))
        elif kind == "ten":
            cards.append(Card("10"))
        elif kind == "red3":
            cards.append(Card("3r"))
            continue
        elif kind == "black3":
            cards.append(Card("3b"))
            continue
        elif kind == "bare3":
            problems.append(
                Problem("card.unknown", where, {"token": text, "reason": "three_colour"})
            )
            continue
        elif kind == "digit":
            cards.append(Card(text))
        else:
            cards.append(Card(_FACE[text.upper()]))
        # An optional suit after a rank is accepted and ignored (docs/api.md §2).
        if i < n:
            nxt = chunk[i]
            if nxt in _SUIT_SYMBOLS or nxt in "hHsScC":
                i += 1
            elif nxt in "dD" and (suited or (i == n - 1 and len(cards) - start_count == 1)):
                # "Kd" and "9h9d" carry suits; "KDD" (no suit after each card) is K, Q, Q.
                i += 1


#: Texts this short ("K", "10", "KKK2", "K K K 2") are read once and kept (:func:`_read_text`).
TEXT_KEPT = 32


@lru_cache(maxsize=4096)
def _read_text(text: str) -> tuple[Card, ...] | None:
    """The cards of a short text that reads without a problem, else None (then it is read
    again, with its place, for the problems). Kept: the live preview and the score API read the
    same few tokens over and over."""
    cards: list[Card] = []
    problems: list[Problem] = []
    for chunk in _SEPARATORS.split(text):
        if chunk:
            _parse_chunk(chunk, "", cards, problems)
    return tuple(cards) if cards and not problems else None


def parse_cards(value: Any, where: str = "") -> tuple[list[Card], list[Problem]]:
    """Cards from notation: a string (``"KKK2"``, ``"K, K, 10"``) or a list of tokens.

    Returns the cards that could be read and a problem for every token that could not.

    >>> parse_cards("K Z")[1]
    [Problem('card.unknown', '', {'token': 'Z'})]
    >>> parse_cards("3")[1]
    [Problem('card.unknown', '', {'token': '3', 'reason': 'three_colour'})]
    >>> [str(c) for c in parse_cards("9h9d KdKd")[0]]
    ['9', '9', 'K', 'K']
    >>> [str(c) for c in parse_cards("Kd 9\u2665")[0]]
    ['K', '9']
    """
    cards: list[Card] = []
    problems: list[Problem] = []
    if isinstance(value, str):
        items: list[Any] | tuple[Any, ...] = (value,)
    elif isinstance(value, list | tuple):
        items = value
    else:
        return [], [Problem("request.type", where, {"expected": "cards"})]
    listed = not isinstance(value, str)
    for i, item in enumerate(items):
        if isinstance(item, Card):
            cards.append(item)
            continue
        if isinstance(item, str) and len(item) <= TEXT_KEPT:
            read = _read_text(item)
            if read is not None:
                cards.extend(read)
                if len(cards) > MAX_CARDS_IN_TEXT:
                    problems.append(
                        Problem("request.too_large", where, {"limit": MAX_CARDS_IN_TEXT})
                    )
                    break
                continue
        item_where = f"{where}[{i}]" if listed else where
        if isinstance(item, bool) or not isinstance(item, str | int):
            problems.append(Problem("card.unknown", item_where, {"token": _short(item)}))
            continue
        text = str(item)
        if len(text) > 4 * MAX_CARDS_IN_TEXT:
            problems.append(Problem("request.too_large", item_where, {"limit": MAX_CARDS_IN_TEXT}))
            continue
        chunks = [c for c in _SEPARATORS.split(text) if c]
        if not chunks and listed:
            problems.append(Problem("card.unknown", item_where, {"token": ""}))
        for chunk in chunks:
            _parse_chunk(chunk, item_where, cards, problems)
        if len(cards) > MAX_CARDS_IN_TEXT:
            problems.append(Problem("request.too_large", where, {"limit": MAX_CARDS_IN_TEXT}))
            break
    return cards, problems


def json_text(value: Any, limit: int = 20) -> str:
    """A value from a request as its sender wrote it: a text as it is, anything else in JSON
    (``null``, ``true``, ``["9"]``; never Python's ``None`` or ``['9']``), shortened to
    ``limit`` characters.

    >>> json_text(None), json_text(["9"]), json_text(True), json_text("K")
    ('null', '["9"]', 'true', 'K')
    """
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _short(value: Any) -> str:
    return json_text(value, 20)


def cards_to_str(cards: Iterable[Card]) -> list[str]:
    """The output notation: English letters and ``X``."""
    return [c.rank for c in cards]
