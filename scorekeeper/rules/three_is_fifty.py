"""3 ist 50 (``three-is-fifty``, RULES.md §7, seed 001): minus points and legal moves.

Not Canasta: a matching game played with a Canasta deck, lowest total wins. Suits never
matter, not even for threes, so in this module a card is just its *game rank*, a string from
:data:`GAME_RANKS`; every three is ``"3"`` (input may say ``3``, ``3r``, ``3b``, ``3h``, ``3s``
…; output always says ``"3"``). Other ranks use the output notation of CONTRACT.md §2
(``A K Q J 10`` … ``4 2 X``).

>>> pile_points(["3", "A", "K", "7"])
78
>>> [m.as_dict() for m in legal_moves(["5", "5", "9", "K"], None, [[], []], 0, ["5"])]
[{'card': '5', 'kind': 'middle', 'to_pile': 1, 'cards': ['5', '5', '5']}]

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

Request-level functions (:func:`score_request`, :func:`referee_request`) take any value that
``json.loads`` produced and return a typed answer like :mod:`.api` (:class:`FiftyScore`,
:class:`FiftyMoves`) or a :class:`~.scoring.Rejected`; the web layer turns them into statuses,
JSON and messages. They never raise.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .cards import Card, parse_cards
from .problems import Problem, RulesError
from .scoring import Rejected

RULESET_ID = "three-is-fifty"
RULESET_NAME = "3 ist 50"  # the name to show (RULES.md, the table of rulesets)

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
        raise RulesError(problems or [Problem("card.unknown", "", {"token": _token(card)})])
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


def _token(value: Any, limit: int = 20) -> str:
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
        if len(value) > 4 * limit:
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
                problems.append(Problem("card.unknown", item_where, {"token": _token(item)}))
                continue
            text = _token(item, limit=40) if isinstance(item, int) else item
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
    if len(cards) > limit or any(p.code == "request.too_large" for p in problems):
        return [], [Problem("request.too_large", where, {"limit": limit})]
    return cards, problems


def _text_tokens(text: str) -> list[str]:
    """The tokens of valid notation as answers write them (CONTRACT.md §2): a three keeps the
    colour it was given; one given without (this game accepts it) stays ``3``. The text is read
    with bare threes taken as red and as black: where the two readings differ, no colour was
    given."""
    red = parse_cards(_BARE_THREE.sub("3r", text))[0]
    black = parse_cards(_BARE_THREE.sub("3b", text))[0]
    return ["3" if r != b else r.token for r, b in zip(red, black, strict=True)]


def card_tokens(value: Any) -> list[str]:
    """:func:`read_cards` for a value it accepted, in the output notation of CONTRACT.md §2:
    threes with their colour (``3h``, ``3s``) where one was given.

    >>> card_tokens("3h 3b 3 kd")
    ['3h', '3s', '3', 'K']
    >>> card_tokens(["3s", 7, "x"])
    ['3s', '7', 'X']
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


def deck_limits(players: int) -> dict[str, int]:
    """How many cards of each game rank the deck holds.

    One Canasta deck (two packs and four jokers, 108 cards); six players may use three packs and
    six jokers, as RULES.md §1 allows for Canasta, so the check never rejects such a table.
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


# ---- options and points --------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """The game options of 3 ist 50 (house rules).

    ``joker``: minus points of a joker. The seed does not value it; the default 10 counts it
    like a picture card (RULES.md §7), and the choice is printed on the sheet.
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
        name = _token(key, 40)
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


# ---- moves ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """One legal play: the hand card ``card`` and where it (and what it takes) goes.

    ``kind`` is the rule that applies (RULES.md §7 items 1–4): ``middle`` and ``own_pile`` go to
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
        """JSON shape of CONTRACT.md §3 (``POST /api/v1/referee/three-is-fifty``)."""
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


def _distinct(ranks: Iterable[str]) -> list[str]:
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
    """Every legal move of ``player`` (RULES.md §7; seed 001 "Ausspielen von Karten").

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
    ranks = _distinct(game_ranks(hand))
    moves = [m for r in ranks for m in matching_moves(r, mid, top, pls, player)]
    if moves:
        return moves
    # Rule 4: nothing matches, any one card goes onto the discard pile.
    return [Move(r, "discard", None, (r,)) for r in ranks]


# ---- JSON requests -------------------------------------------------------------------------


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
                {"players": _token(value), "allowed": list(PLAYERS_ALLOWED)},
            )
        )
    elif piles is not None and value != len(piles):
        problems.append(Problem("piles.count", "piles", {"players": value, "piles": len(piles)}))


def score_request(data: Any) -> FiftyScore | Rejected:
    """``POST /api/v1/score`` for ``"ruleset": "three-is-fifty"`` (CONTRACT.md §3).

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
        return None, [Problem("card.unknown", where, {"token": _token(value)})]
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
    matching = _distinct(m.card for m in moves)
    reasons = [Problem("three_is_fifty.match", "", {"ranks": matching})]
    rest = [r for r in _distinct(hand) if r not in matching]
    if rest:
        reasons.append(Problem("three_is_fifty.discard_forbidden", "", {"ranks": rest}))
    return reasons


def referee_request(data: Any) -> FiftyMoves | Rejected:
    """``POST /api/v1/referee/three-is-fifty`` (CONTRACT.md §3): every legal move.

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
    # Answers write threes with the colour the request gave them (CONTRACT.md §2).
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
