"""Every request body and query of the JSON API (docs/api.md §3) as a typed value.

The typed reader (:func:`.reading.read_into`) reads any class here by its type hints, each field
by the :class:`~.spec.Spec` it is annotated with (bounds, kind); the OpenAPI description
(:mod:`.openapi`) is written from the same classes, so what is read and what is described cannot
drift apart. Fields typed with the ``Read*`` aliases are read into the engine's values (cards);
the others describe the JSON they take and are read as it (a name tidied, a number bounded).
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from ..rules.cards import Card as EngineCard
from .spec import CARD, CARD_LISTS, CARDS, Spec, strict

# ---- shared pieces ------------------------------------------------------------------------------

#: a field the readers want although it has a default here
REQUIRED = Spec(required=True)

Cards = Annotated[str | list[str | int], CARDS]
Card = Annotated[str | int, CARD]
#: cards that must be given (never null)
Group = Annotated[str | list[str | int], Spec(kind="cards")]
#: one card that must be given (never null)
OneCard = Annotated[str | int, Spec(kind="card")]
#: the cards left in the stock (or ``stock_empty``)
Stock = Annotated[int | None, Spec(minimum=0, maximum=162)]
_STOCK_GIVEN: list[dict[str, Any]] = [
    {"required": ["stock"], "properties": {"stock": {"type": "integer"}}},
    {"required": ["stock_empty"], "properties": {"stock_empty": {"const": True}}},
]
#: an empty stock has no cards: `stock`, when given with `stock_empty: true`, is 0
_EMPTY_STOCK: dict[str, Any] = {
    "if": {"required": ["stock_empty"], "properties": {"stock_empty": {"const": True}}},
    "then": {"properties": {"stock": {"enum": [0, None]}}},
}
#: cards that are there: a text with a card in it, or a list of at least one
_SOME_CARDS: dict[str, Any] = {
    "anyOf": [{"type": "string", "pattern": "\\S"}, {"type": "array", "minItems": 1}]
}
CardLists = Annotated[
    list[Group], Spec(max_items=30, description="Groups of cards (melds), each as `cards`.")
]
RulesetId = Annotated[
    str,
    Spec(
        description="A ruleset's id (`GET /api/v1/rulesets`): german, polish, classic, american, "
        "three-is-fifty …",
        examples=("german",),
    ),
]
Players = Annotated[
    int | None,
    Spec(
        minimum=1,
        maximum=12,
        description="How many play (the ruleset's default when left out); one the ruleset "
        "deals for (`players.not_allowed` otherwise).",
        examples=(4,),
    ),
]
HouseRules = Annotated[
    dict[str, Any] | None,
    Spec(
        description="House rules: ruleset parameters overridden (`GET /api/v1/rulesets/{id}` "
        "lists them); an unknown key is `options.unknown`.",
        examples=({"going_out_bonus": 200},),
    ),
]
Score = Annotated[int, Spec(minimum=-(10**7), maximum=10**7)]

# What the typed reader (:func:`.reading.read_into`) fills: the engine's values, described by
# the JSON they are read from.
#: cards read into the engine's cards
ReadCards = Annotated[list[EngineCard], CARDS]
#: one card, or none
ReadCard = Annotated[EngineCard | None, CARD]
#: groups of cards (melds)
ReadCardLists = Annotated[list[list[EngineCard]], CARD_LISTS]
#: a yes or no; null reads as the default
Flag = Annotated[bool, Spec(nullable=True)]
Version = Annotated[
    int,
    Spec(
        minimum=0,
        description="The game's version the client last saw; a stale one answers 409 "
        "`game.version_conflict` with the current one.",
    ),
]
EntryId = Annotated[
    str | None,
    Spec(
        max_length=64,
        pattern="^[A-Za-z0-9_-]{8,64}$",
        description="A client's id for this entry: the same entry sent again is answered as the "
        "first time and saved once.",
    ),
]


@strict
@dataclass
class Adjustment:
    """Points the table agreed to add or take away (docs/api.md §3 "Adjustments")."""

    points: Annotated[int, Spec(minimum=-10_000, maximum=10_000)]
    note: Annotated[str, Spec(max_length=80)] = ""


@strict
@dataclass
class Quick:
    """A side counted the quick way, as players count at the table (docs/api.md §3)."""

    natural_canastas: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    mixed_canastas: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    wild_canastas: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    meld_points: Annotated[
        int,
        Spec(
            minimum=0,
            maximum=100_000,
            description="The card values of everything the side melded, the canastas' cards "
            "included; the canasta bonuses come from the counts.",
        ),
    ] = 0
    hand_points: Annotated[
        int,
        Spec(
            minimum=0,
            maximum=100_000,
            description="The card values left in hand, without the black threes: a positive "
            "number, subtracted.",
        ),
    ] = 0
    black_threes_in_hand: Annotated[
        int,
        Spec(
            minimum=0,
            maximum=12,
            description="Black threes left in hand, each at the ruleset's penalty "
            "(docs/rulebook.md §4).",
        ),
    ] = 0
    melded: Annotated[
        bool | None,
        Spec(
            description="Whether the side melded at all (its red threes count minus when not); "
            "worked out from the other counts when left out."
        ),
    ] = None
    sevens_canastas: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    aces_canastas: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    wild_canastas_jokers: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    wild_canastas_twos: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    unfinished_sevens: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    unfinished_aces: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    unfinished_wild: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    sevens_aces_held: Annotated[int, Spec(minimum=0, maximum=30)] = 0


RedThrees = Annotated[
    int
    | Annotated[list[Annotated[int, Spec(minimum=0, maximum=12)]], Spec(min_items=1, max_items=6)],
    Spec(
        minimum=0,
        maximum=12,
        description="Red threes laid out: a number, or one number per player where a side's "
        "players score their own (3-player cutthroat).",
    ),
]


@strict
@dataclass
class Side:
    """One side (team) of a hand, in one of three shapes: in detail (`melds`, `hands`), quick
    (`quick`), or as one `total`."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "melds": ["K K K K K K K", "A A 2"],
        "hands": ["5 9", ""],
        "red_threes": 1,
        "went_out": True,
    }
    #: one shape at a time: a `total` (a number) with nothing but who went out and the
    #: adjustments; `quick` without `melds` and `hands`
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "allOf": [
            {
                "if": {"required": ["total"]},
                "then": {
                    "properties": {"total": {"type": "integer"}},
                    "propertyNames": {"enum": ["total", "went_out", "concealed", "adjustments"]},
                },
            },
            {
                "if": {"required": ["quick"], "properties": {"quick": {"type": "object"}}},
                "then": {"not": {"anyOf": [{"required": ["melds"]}, {"required": ["hands"]}]}},
            },
        ]
    }

    melds: Annotated[
        CardLists | None,
        Spec(
            description="The side's melds, one entry per meld: its cards as one text "
            "(`K K K 2`) or a list of single cards; a canasta is a meld of 7 or more."
        ),
    ] = None
    hands: Annotated[
        list[Cards] | None,
        Spec(
            max_items=6,
            description="The cards left in hand, one entry per player of the side in the order "
            'the side names them; `""` for a player with none left (the one who went out).',
        ),
    ] = None
    quick: Quick | None = None
    red_threes: RedThrees = 0
    went_out: Annotated[
        bool | None,
        Spec(description="A player of this side went out (one side at most)."),
    ] = False
    concealed: Annotated[
        bool | None, Spec(description="With `went_out`: that player went out concealed.")
    ] = False
    black_threes: Annotated[
        int, Spec(minimum=0, maximum=12, description="Black threes laid out (American).")
    ] = 0
    special_hand: Annotated[
        str | None,
        Spec(description="American: `straight`, `pairs` or `garbage`.", extra={"minLength": 1}),
    ] = None
    adjustments: Annotated[list[Adjustment] | None, Spec(max_items=5)] = None
    total: Annotated[
        int | None,
        Spec(
            minimum=-100_000,
            maximum=100_000,
            description="The side's score for the hand as one number (a multiple of 5); "
            "with `went_out`, `concealed` and `adjustments` only.",
        ),
    ] = None


# ---- stateless questions ------------------------------------------------------------------------


@dataclass
class ScoreRequest:
    """`POST /api/v1/score`: one hand scored for every side."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "ruleset": "german",
        "players": 4,
        "teams": [
            {"melds": ["K K K K K K K", "A A 2"], "hands": ["", ""], "went_out": True},
            {"melds": ["9 9 9"], "hands": ["5 9", "X"], "red_threes": 1},
        ],
    }

    ruleset: RulesetId
    teams: Annotated[list[Side], Spec(min_items=1, max_items=6)]
    players: Players = None
    options: HouseRules = None


@dataclass
class FiftyScoreRequest:
    """`POST /api/v1/score` for 3 ist 50: one minus pile per player (docs/rulebook.md §7)."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "ruleset": "three-is-fifty",
        "piles": ["3 A K 7", "X 2"],
    }

    ruleset: Literal["three-is-fifty"]
    piles: Annotated[list[Cards], Spec(min_items=2, max_items=6)]
    players: Annotated[int | None, Spec(minimum=2, maximum=6)] = None
    options: Annotated[
        dict[str, int] | None, Spec(description='`{"joker": 0..100}`: what a joker counts.')
    ] = None


@dataclass
class Asked:
    """What every referee question names: the ruleset, the players and the house rules."""

    ruleset: RulesetId
    players: Players = None
    options: HouseRules = None


@dataclass
class MeldQuestion(Asked):
    """`POST /api/v1/referee/meld`: is this a legal meld, and what is it worth?"""

    EXAMPLE: ClassVar[dict[str, Any]] = {"ruleset": "german", "cards": "K K K 2"}

    cards: Annotated[list[EngineCard], Spec(kind="cards", nullable=True, required=True)] = field(
        default_factory=list
    )
    going_out: Flag = False
    initial_meld: Annotated[
        bool, Spec(nullable=True, description="American: laid as the side's initial meld.")
    ] = False


@dataclass
class InitialMeldQuestion(Asked):
    """`POST /api/v1/referee/initial-meld`: do these melds reach the initial meld's minimum?"""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "ruleset": "german",
        "cumulative_score": 1600,
        "melds": ["K K K", "A A 2"],
    }

    cumulative_score: Score = 0
    melds: ReadCardLists = field(default_factory=list)
    top_card: ReadCard = None
    side_melds: ReadCardLists = field(default_factory=list)


@dataclass
class DiscardPileQuestion(Asked):
    """`POST /api/v1/referee/discard-pile`: may the player take the pile?"""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "ruleset": "german",
        "top_card": "K",
        "hand": "K K 5 9",
        "side_has_melded": True,
    }

    top_card: Annotated[OneCard, REQUIRED] = ""
    pile_has_wild: bool | None = False
    red_three_upcard: bool | None = False
    side_has_melded: bool | None = True
    side_melds: CardLists | None = None
    hand: Cards | None = None
    cumulative_score: Score = 0
    going_out: bool | None = False


@strict
@dataclass
class Canastas:
    """A side's canastas by kind."""

    natural: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    mixed: Annotated[int, Spec(minimum=0, maximum=30)] = 0
    wild: Annotated[int, Spec(minimum=0, maximum=30)] = 0


@dataclass
class GoOutQuestion(Asked):
    """`POST /api/v1/referee/go-out`: may the side go out now?"""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "ruleset": "german",
        "side_canastas": {"natural": 1, "mixed": 1},
    }

    side_canastas: Canastas | None = None
    concealed: bool | None = False
    player_melded_before: bool | None = False
    side_melds: CardLists | None = None
    melds: CardLists | None = None


@dataclass
class OptionsQuestion(Asked):
    """`POST /api/v1/referee/options` ("What may I do?"): every legal move of the turn."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "ruleset": "german",
        "hand": "K K 7 7 7 9 X",
        "top_card": "K",
    }
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = _EMPTY_STOCK

    hand: Annotated[Cards, REQUIRED] = ""
    side_melds: CardLists | None = None
    side_has_melded: bool | None = None
    cumulative_score: Score = 0
    top_card: Card | None = None
    pile_frozen: bool | None = False
    pile_has_wild: bool | None = False
    red_three_upcard: bool | None = False
    frozen_by: Cards | None = None
    drawn: bool | None = False
    player_melded_before: bool | None = False
    stock: Annotated[int | None, Spec(minimum=0, maximum=162)] = None
    stock_empty: bool | None = False


@dataclass
class FiftyMovesQuestion:
    """`POST /api/v1/referee/three-is-fifty`: every legal move of a turn of 3 ist 50."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "piles": [[], "4 4 7 7 7", []],
        "player": 1,
        "hand": ["4"],
        "middle": [],
        "discard_top": "9",
    }

    piles: Annotated[
        list[Cards],
        Spec(min_items=2, max_items=6, description="Each player's pile, bottom to top."),
    ]
    player: Annotated[int, Spec(minimum=0, maximum=5)]
    hand: Annotated[Cards, Spec(kind="cards", description="At most 4 cards.")]
    middle: Annotated[Cards | None, Spec(description="The face-up middle, at most 4 cards.")] = None
    discard_top: Card | None = None
    options: dict[str, int] | None = None


Answer = Annotated[
    bool | Literal["yes", "no"] | None,
    Spec(description="The partner's answer: yes or no (true, false)."),
]


@dataclass
class PartnerPermissionQuestion(Asked):
    """`POST /api/v1/referee/partner-permission`: "May I go out?" asked of the partner."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"ruleset": "german", "answer": "yes"}

    answer: Answer = None
    hand: Cards | None = None
    side_melds: CardLists | None = None
    drawn: bool | None = True
    melded_since_draw: bool | None = False
    asked_before: bool | None = False


@dataclass
class StockQuestion(Asked):
    """`POST /api/v1/referee/end-of-stock` and `…/two-player-draw`: the last cards of the
    stock."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"ruleset": "german", "stock": 0, "top_card": "K"}
    #: the stock's count (or ``stock_empty``) is needed
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {"anyOf": _STOCK_GIVEN, **_EMPTY_STOCK}

    stock: Stock = None
    stock_empty: bool | None = False
    drawn: Cards | None = None
    top_card: Card | None = None
    pile_frozen: bool | None = False
    side_melds: CardLists | None = None
    side_has_melded: bool | None = True
    hand: Cards | None = None
    cumulative_score: Score = 0


@dataclass
class TwoPlayerDrawQuestion(StockQuestion):
    """`POST /api/v1/referee/two-player-draw`: the cards drawn from a short stock (its count, or
    `stock_empty`, is needed with `drawn`)."""

    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "allOf": [
            {
                "if": {"required": ["drawn"], "properties": {"drawn": _SOME_CARDS}},
                "then": {"anyOf": _STOCK_GIVEN},
            },
            _EMPTY_STOCK,
        ]
    }


@dataclass
class BlackThreeQuestion(Asked):
    """`POST /api/v1/referee/black-three-block`: what a black three on the pile blocks."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"ruleset": "german", "pile": "K 3s"}
    #: the pile, or only its top card
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "if": {"required": ["pile"]},
        "then": {"properties": {"pile": _SOME_CARDS}},
        "else": {
            "required": ["top_card"],
            "properties": {"top_card": {"type": ["string", "integer"]}},
        },
    }

    pile: Cards | None = None
    top_card: Card | None = None
    going_out: bool | None = False
    hand: Cards | None = None
    side_melds: CardLists | None = None


@dataclass
class RedThreeQuestion(Asked):
    """`POST /api/v1/referee/red-three-from-pile`: a red three taken with the pile."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"ruleset": "german", "red_threes": 1}

    red_threes: Annotated[int, Spec(minimum=1, maximum=6, description="How many were taken.")] = 1


@dataclass
class FiftyDealQuestion:
    """`POST /api/v1/referee/three-is-fifty-deal`: the deal, the middle, the dealer, the turn."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"players": 4, "question": "deal", "stock": 40}

    #: each question needs its own fields
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "allOf": [
            {
                "if": {"properties": {"question": {"const": "deal"}}},
                "then": {"required": ["stock"], "properties": {"stock": {"type": "integer"}}},
            },
            {
                "if": {"properties": {"question": {"const": "dealer"}}, "required": ["question"]},
                "then": {"required": ["dealer"], "properties": {"dealer": {"type": "integer"}}},
            },
            {
                "if": {"properties": {"question": {"const": "turn"}}, "required": ["question"]},
                "then": {
                    "required": ["player", "turn"],
                    "properties": {"player": {"type": "integer"}, "turn": {"type": "integer"}},
                },
            },
        ]
    }

    players: Annotated[int, Spec(minimum=2, maximum=6)]
    question: Literal["deal", "refill", "dealer", "turn"] = "deal"
    stock: Stock = None
    middle: Annotated[int, Spec(minimum=0, maximum=4)] = 0
    round_over: bool | None = False
    dealer: Annotated[int | None, Spec(minimum=0, maximum=5)] = None
    player: Annotated[int | None, Spec(minimum=0, maximum=5)] = None
    turn: Annotated[int | None, Spec(minimum=0, maximum=5)] = None


# ---- stored games -------------------------------------------------------------------------------

Name = Annotated[
    str,
    Spec(max_length=40, min_length=1, visible=True, description="1 to 40 visible characters."),
]


@dataclass
class NewSide:
    """A side of a new game: its name and its players' names."""

    name: Annotated[Name, REQUIRED] = ""
    players: Annotated[
        list[Name] | None,
        Spec(
            description="The side's players' names (Canasta: required). Seats go round the "
            "table, the sides' players alternating in this order; the first player of the "
            "first side deals first."
        ),
    ] = None


@dataclass
class NewGame:
    """`POST /api/v1/games`: a new game of Canasta (or, with `three-is-fifty`, of 3 ist 50:
    `players` then a list of names)."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "ruleset": "german",
        "players": 4,
        "sides": [
            {"name": "Us", "players": ["Anna", "Ben"]},
            {"name": "Them", "players": ["Cleo", "Dan"]},
        ],
    }

    #: names as `players` for 3 ist 50 only
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "if": {"properties": {"ruleset": {"not": {"const": "three-is-fifty"}}}},
        "then": {
            "properties": {
                "players": {"type": ["integer", "null"]},
                "sides": {"items": {"required": ["name", "players"]}},
            }
        },
        "else": {
            "required": ["players"],
            "properties": {
                "players": {"type": ["integer", "array"]},
                "stop_after": {"type": ["integer", "null"]},
            },
        },
    }

    ruleset: RulesetId
    players: Annotated[
        int | list[Name] | None,
        Spec(description="How many play (3 ist 50: or names); the ruleset's default if left out."),
    ] = None
    sides: Annotated[list[NewSide], REQUIRED] = field(default_factory=list)
    options: HouseRules = None
    target: Annotated[
        int | None,
        Spec(minimum=100, maximum=1_000_000, description="The score that ends the game."),
    ] = None
    name: Annotated[
        str | None,
        Spec(max_length=40, visible=True, description="The game's name (empty: none)."),
    ] = None
    table: Annotated[
        str | None, Spec(description="A table's editing key: the game joins that table.")
    ] = None
    stop_after: Annotated[
        Any, Spec(description="3 ist 50: games in the evening (other rulesets do not read it).")
    ] = None


@dataclass
class FiftyEntry:
    """One player's minus pile of 3 ist 50: its cards, or its counted points."""

    cards: Cards | None = None
    points: int | None = None


@dataclass
class HandEntry:
    """`POST /api/v1/games/{key}/hands`, `PUT …/hands/{number}`: a hand (Canasta: `teams`, as for
    `/score`; 3 ist 50: `piles`, `points` or `players`)."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "version": 1,
        "teams": [{"total": 1230, "went_out": True}, {"total": -90}],
        "entry_id": "3b1f0e8c-hand-1",
    }
    #: the hand itself in one of its shapes: a body without any is refused
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "if": {"properties": {"teams": False, "piles": False, "points": False, "players": False}},
        "then": False,
    }

    version: Annotated[Version, REQUIRED] = 0
    teams: Annotated[
        list[Side] | list[FiftyEntry] | None,
        Spec(
            description="Canasta: one entry per side of the game, in the order of its `sides`, "
            "each in any shape of `Side`."
        ),
    ] = None
    lone_player: Annotated[int | None, Spec(description="Cutthroat: the player alone.")] = None
    stock_out: bool | None = False
    entry_id: EntryId = None
    piles: list[Cards] | None = None
    points: list[int] | None = None
    players: list[FiftyEntry] | None = None


@dataclass
class VersionOnly:
    """`DELETE …/hands/{number}`: the game's version (also as `?version=`)."""

    version: Version | None = None


@dataclass
class UndoDelete:
    """`POST /api/v1/games/{key}/undo`: bring back the hand deleted last."""

    version: Version | None = None
    revision: Annotated[int | None, Spec(description="The deletion on offer when left out.")] = None


@dataclass
class GamesImport:
    """`POST /api/v1/games/import`: a backup (`scorekeeper export`, a phone's file), or
    `{"games": [...]}` of games as `GET /api/v1/games/{key}` gives them."""

    games: Annotated[
        list[
            Annotated[
                dict[str, Any],
                Spec(
                    extra={"required": ["ruleset"], "properties": {"ruleset": {"type": "string"}}}
                ),
            ]
        ],
        Spec(min_items=1, max_items=100, required=True),
    ] = field(default_factory=list)
    format: Annotated[int | str | None, Spec(description="The backup's format.")] = None


@dataclass
class PartPut:
    """`PUT /api/v1/games/{key}/parts/{side}`: a side's part of the open hand."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"part": {"total": 1230, "went_out": True}, "version": 1}

    part: Side
    entry_id: EntryId = None
    version: Version | None = None
    hand: Annotated[int | None, Spec(description="The open hand's number.")] = None


@dataclass
class PartDelete:
    """`DELETE /api/v1/games/{key}/parts/{side}`: a side's part taken back."""

    version: Version | None = None
    hand: int | None = None


# ---- tables -------------------------------------------------------------------------------------


@dataclass
class NewTable:
    """`POST /api/v1/tables`: a table of regular players."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"name": "Thursdays", "players": ["Anna", "Ben", "Cleo"]}

    name: Name
    players: Annotated[
        list[Name],
        Spec(
            min_items=2,
            max_items=40,
            required=True,
            description="2 to 40 people, no name twice (case does not count).",
        ),
    ] = field(default_factory=list)


@dataclass
class Rename:
    """`PUT /api/v1/tables/{key}/players/{player}`: a person renamed in every game."""

    name: Name


#: a person of a table: their id (`players[].id`), or its digits as text
PersonId = Annotated[
    int | str,
    Spec(description="A person's id at the table (`players[].id`), or its digits as text."),
]


@dataclass
class Merge:
    """`POST /api/v1/tables/{key}/merge`: two entries of one person become `keep`."""

    keep: PersonId
    merge: PersonId


#: one of an export's people: a name, or as the export writes it, `{"id", "name"}`
Person = Annotated[
    Any,
    Spec(
        extra={
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "required": ["name"],
                    "properties": {"name": {"type": "string"}},
                },
            ]
        }
    ),
]


@dataclass
class TableImport:
    """`POST /api/v1/tables/import`: a table as `GET …/{key}/export` gives it."""

    name: Annotated[str, REQUIRED] = ""
    players: Annotated[list[Person], REQUIRED] = field(default_factory=list)
    games: list[dict[str, Any]] | None = None
    format: Annotated[
        Literal["scorekeeper-table"], Spec(description="The export's format.", required=True)
    ] = "scorekeeper-table"


# ---- tournaments --------------------------------------------------------------------------------

#: match points of one result (`tournament.points` outside)
MatchPoint = Annotated[int, Spec(minimum=0, maximum=100)]
#: a participant's number in a seating (participants are numbered from 0)
SeatNumber = Annotated[int, Spec(minimum=0, maximum=9_999)]
#: the round's end: exactly one kind, within its bounds
_ROUND_END: dict[str, Any] = {
    "minProperties": 1,
    "maxProperties": 1,
    "properties": {
        "hands": {"type": "integer", "minimum": 1, "maximum": 50},
        "target": {"type": "integer", "minimum": 100, "maximum": 1_000_000},
        "minutes": {"type": "integer", "minimum": 1, "maximum": 600},
    },
    "additionalProperties": False,
}


@strict
@dataclass
class MatchPoints:
    """What a win, a draw and a loss earn (a win no less than a draw, a draw no less than a
    loss: `tournament.points_order`)."""

    win: MatchPoint = 2
    draw: MatchPoint = 1
    loss: MatchPoint = 0


@dataclass
class NewTournament:
    """`POST /api/v1/tournaments`: a club tournament of individuals or pairs."""

    #: individuals are names, pairs two names each; with a table, the participants may be
    #: left out (individuals: all of its people)
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "allOf": [
            {
                "if": {"required": ["format"], "properties": {"format": {"const": "pairs"}}},
                "then": {
                    "required": ["participants"],
                    "properties": {
                        "participants": {
                            "type": "array",
                            "items": {"type": "array", "minItems": 2},
                        }
                    },
                },
                "else": {"properties": {"participants": {"items": {"type": "string"}}}},
            },
            {
                "if": {"required": ["table"], "properties": {"table": {"type": "string"}}},
                "else": {
                    "required": ["participants"],
                    "properties": {"participants": {"type": "array"}},
                },
            },
        ]
    }
    EXAMPLE: ClassVar[dict[str, Any]] = {
        "name": "Spring cup",
        "ruleset": "german",
        "players": 4,
        "format": "individual",
        "scoring": "match_points",
        "round_end": {"hands": 4},
        "participants": ["Anna", "Ben", "Cleo", "Dan"],
    }

    name: Name
    ruleset: RulesetId
    players: Players = None
    options: HouseRules = None
    format: Literal["individual", "pairs"] | None = "individual"
    scoring: Literal["match_points", "points"] | None = "match_points"
    points: MatchPoints | None = None
    round_end: Annotated[
        dict[str, int],
        Spec(
            description='One of `{"hands": n}` (1 to 50), `{"target": points}` (100 to '
            '1,000,000), `{"minutes": n}` (1 to 600).',
            required=True,
            extra=_ROUND_END,
        ),
    ] = field(default_factory=dict)
    odd: Literal["bye", "larger"] | None = "bye"
    participants: Annotated[
        list[Name | Annotated[list[Name], Spec(min_items=1, max_items=2)]] | None,
        Spec(
            max_items=400,
            description="Names, enough for one table, no name twice (pairs: two names each). "
            "With a `table`, each must be one of its people; left out, all of them take part.",
        ),
    ] = None
    table: Annotated[
        str | None,
        Spec(description="A table's editing key: its people take part, spelled as it does."),
    ] = None


@dataclass
class SeatedTable:
    """One table of a seating: its number and, per side, its participants in seat order."""

    number: SeatNumber
    sides: Annotated[list[Annotated[list[SeatNumber], Spec(max_items=6)]], Spec(max_items=6)]


@dataclass
class Seating:
    """`PUT …/rounds/{number}/seating`: a proposed round seated by hand (any value of another
    shape is `request.type` at `seating`)."""

    tables: Annotated[list[SeatedTable], Spec(max_items=400)]
    byes: Annotated[list[SeatNumber], Spec(max_items=400)] = field(default_factory=list)


@dataclass
class Swap:
    """`POST …/rounds/{number}/swap`: two participants of a proposed round change places (a
    number no participant has is `seating.unknown`)."""

    a: Annotated[int, Spec(description="A participant's number.")]
    b: Annotated[int, Spec(description="The other participant's number.")]


@dataclass
class Absence:
    """`PUT …/participants/{number}`: the next seatings leave the participant out (or in)."""

    absent: bool


@dataclass
class NoBody:
    """No body is needed but an empty JSON object (`{}`)."""

    EXAMPLE: ClassVar[dict[str, Any]] = {}
