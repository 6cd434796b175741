"""Every answer of the JSON API (docs/api.md §3) as a typed shape: what the OpenAPI
description (:mod:`.openapi`) says each operation answers, and what the API tests check each
answer against. A field without a default is always there; one with a default may be left out.
Objects take further keys (docs/api.md §3: "further items may appear").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

from .spec import Spec

JsonObject = dict[str, Any]


@dataclass
class ProblemItem:
    """One problem: a stable `code`, a `message` in the reader's language (`Accept-Language`:
    de, pl, en), `where` it was found (a path into the request such as `teams[1].melds[0]`, or
    empty) and the `params` the message was made from. Referee reasons add the rules page's
    `rule` anchor and `rule_item`."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "code": "request.missing",
        "message": "This field is required.",
        "where": "ruleset",
    }

    code: Annotated[str, Spec(examples=("meld.too_few_cards",))]
    message: str
    where: str
    params: JsonObject | None = None
    rule: str | None = None
    rule_item: str | None = None


@dataclass
class Problems:
    """A request refused: 400 when it cannot be read (`request.*`), 404 for an unknown key,
    409 for a stale version or a conflicting change, 422 when it breaks a rule."""

    problems: list[ProblemItem]
    version: Annotated[int | None, Spec(description="409: the game's current version.")] = None


# ---- stateless questions ------------------------------------------------------------------------


@dataclass
class ScoredMeld:
    """One meld as it was scored: its cards, their points, its canasta bonus and its kind."""

    cards: list[str]
    points: int
    bonus: int
    kind: str


@dataclass
class ScoredSide:
    """One side's score for the hand; its `items` add up to `score`."""

    score: int
    items: dict[str, int]
    canastas: dict[str, int]
    melded: bool
    players: list[JsonObject] | None = None
    melds: list[ScoredMeld] | None = None
    details: JsonObject | None = None


@dataclass
class ScoreAnswer:
    """The score of one hand, side by side, and warnings that did not stop it."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "teams": [
            {
                "score": 1015,
                "items": {
                    "melded_cards": 115,
                    "canasta_bonus": 800,
                    "red_threes": 0,
                    "going_out": 100,
                    "in_hand": 0,
                },
                "canastas": {"natural": 1, "mixed": 0, "wild": 0},
                "melded": True,
            }
        ],
        "warnings": [],
    }

    teams: list[ScoredSide]
    warnings: list[ProblemItem]


@dataclass
class RefusedScore(Problems):
    """422: the hand breaks rules; as far as it could be scored, it still is."""

    teams: list[ScoredSide] | None = None
    warnings: list[ProblemItem] | None = None


@dataclass
class PileScore:
    """3 ist 50: one player's minus pile, its points and how many cards it holds."""

    points: int
    cards: int


@dataclass
class FiftyScoreAnswer:
    """3 ist 50: every minus pile counted; the lowest wins."""

    players: list[PileScore]
    options: JsonObject
    winners: list[int]


@dataclass
class Verdict:
    """A referee's answer: `allowed`, and the `reasons` (each with its rule), plus the facts of
    the question (`points`, `required`, `melds` …)."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "allowed": True,
        "reasons": [
            {
                "code": "meld.valid",
                "message": "Legal meld of kings: 3 natural, 0 wild, worth 30.",
                "where": "",
                "rule": "melds",
                "rule_item": "meld",
            }
        ],
        "points": 30,
    }

    allowed: bool
    reasons: list[ProblemItem]


@dataclass
class Ruling(Verdict):
    """A dispute's ruling: the verdict, the seed paragraphs it rests on and the rules quoted
    from the ruleset's page."""

    sources: list[JsonObject] = field(default_factory=list)
    quotes: list[JsonObject] = field(default_factory=list)


@dataclass
class TurnMove:
    """One legal move of the turn, the rule that allows it and why."""

    kind: str
    cards: list[str]
    melds: list[list[str]]
    points: int | None
    rule: str | None
    rule_item: str | None
    reason: JsonObject | None


@dataclass
class TurnOptions:
    """ "What may I do?": every legal move, and why others are missing."""

    moves: list[TurnMove]
    notes: list[ProblemItem]
    required: int | None
    needed: int | None


@dataclass
class FiftyMove:
    """3 ist 50: one legal move, a card played to the middle, a pile or the discard."""

    card: str
    kind: str
    to_pile: int | None
    cards: list[str]


@dataclass
class FiftyMoves:
    """3 ist 50: every legal move of the turn."""

    allowed: bool
    reasons: list[ProblemItem]
    moves: list[FiftyMove]
    left_neighbour: int


@dataclass
class RulesetSummary:
    """A ruleset in the list: its id, its name and how many may play it."""

    id: str
    name: str
    players: list[int]


@dataclass
class Rulesets:
    """Every ruleset."""

    rulesets: list[RulesetSummary]


@dataclass
class RulesetDetail:
    """A ruleset's every parameter (for `?players=`)."""

    id: str
    name: str


@dataclass
class RuleFound:
    """One rule paragraph found: its seed line, its text and the referee question it has."""

    seed: str
    line: int
    text: str
    referee: JsonObject | None
    ruleset: str | None
    summary: str


@dataclass
class RuleSearch:
    """The rule paragraphs that answer a dispute asked in words, best first."""

    results: list[RuleFound]


# ---- stored games -------------------------------------------------------------------------------


@dataclass
class Seat:
    """A place at the table: seats go round the table, the sides' players alternating in the
    order the sides name them (the first player of the first side sits at seat 0)."""

    seat: Annotated[int, Spec(description="0 for the first seat, counting round the table.")]
    name: Annotated[str, Spec(description="The player sitting there.")]
    side: Annotated[int, Spec(description="The side (index into `sides`) the player plays for.")]


@dataclass
class GameSide:
    """A side (3 ist 50: a player) with its total so far."""

    name: str
    players: list[str]
    total: Annotated[int, Spec(description="The side's total after every hand so far.")]
    minimum_meld: Annotated[
        int | None,
        Spec(
            description="Canasta: the points the side's first meld of the next hand needs, "
            "from its total (docs/rulebook.md §3)."
        ),
    ] = None
    to_target: Annotated[
        int | None,
        Spec(description="Canasta: the points the side still lacks to reach the target."),
    ] = None


@dataclass
class HandSide:
    """What one score column got in one hand: Canasta in detail, 3 ist 50 its `points`;
    `total` after the hand in both."""

    total: Annotated[int, Spec(description="The column's running total after this hand.")]
    score: Annotated[
        int | None, Spec(description="Canasta: what the side scored in this hand.")
    ] = None
    items: Annotated[
        dict[str, int] | None,
        Spec(description="Canasta: the hand's score by item (bonuses, melds, red threes …)."),
    ] = None
    canastas: Annotated[
        dict[str, int] | None, Spec(description="Canasta: the side's canastas, counted by kind.")
    ] = None
    minimum_meld: Annotated[
        int | None, Spec(description="The side's initial-meld minimum in this hand.")
    ] = None
    went_out: Annotated[bool | None, Spec(description="A player of this side went out.")] = None
    concealed: Annotated[bool | None, Spec(description="… and went out concealed.")] = None
    team: Annotated[int | None, Spec(description="The side of the game this column scores.")] = None
    alone: Annotated[
        bool | None, Spec(description="Cutthroat: the column of the player alone this hand.")
    ] = None
    points: Annotated[int | None, Spec(description="3 ist 50: the player's minus points.")] = None


@dataclass
class Hand:
    """One hand of the sheet (3 ist 50: one game of the evening)."""

    number: int
    dealer: Annotated[Seat, Spec(description="Who dealt this hand.")]
    sides: list[HandSide]
    teams: Annotated[
        list[JsonObject] | None,
        Spec(description="Canasta: the hand as it was entered, one side each (as `Side`)."),
    ] = None
    lone_player: Annotated[int | None, Spec(description="Cutthroat: the player alone.")] = None
    stock_out: Annotated[
        bool | None, Spec(description="The hand ended when the stock ran out.")
    ] = None
    warnings: list[ProblemItem] | None = None
    problems: list[ProblemItem] | None = None


@dataclass
class Game:
    """A game's sheet. `version` is what the next change sends; `hands` from `hands_from` on
    (a save answers with those it changed)."""

    view_id: str
    version: int
    name: str | None
    ruleset: str
    ruleset_name: str
    players: int
    sides: list[GameSide]
    hands_from: int
    hands: list[Hand]
    winner: Annotated[
        int | None, Spec(description="The winning side (index into `sides`) once finished.")
    ]
    finished: bool
    next_hand: Annotated[int, Spec(description="The number the next hand will have.")]
    seats: list[Seat]
    created_at: str
    updated_at: str
    id: Annotated[
        str | None,
        Spec(description="The editing key: only in answers to whoever holds it (keep it secret)."),
    ] = None
    side_ids: Annotated[
        list[str] | None,
        Spec(description="Each side's own key (it enters that side's part only); on creation."),
    ] = None
    side: Annotated[int | None, Spec(description="Asked with a side's key: that side.")] = None
    hand: Annotated[int | None, Spec(description="The hand a change saved.")] = None
    target: Annotated[int | None, Spec(description="The score that ends the game.")] = None
    next_dealer: Annotated[Seat | None, Spec(description="Who deals the next hand.")] = None
    cutthroat: Annotated[
        bool | None, Spec(description="Canasta for 3: each hand one player plays alone.")
    ] = None
    options: Annotated[
        JsonObject | None, Spec(description="The ruleset's options as the game plays them.")
    ] = None
    house_rules: Annotated[
        JsonObject | None, Spec(description="The house rules chosen for this game.")
    ] = None


@dataclass
class HandDetail(Hand):
    """One hand, with the game's version."""

    version: int = 0


@dataclass
class Imported:
    """One game of an import: its keys, its version, and whether it was stored now."""

    view_id: str
    version: int
    imported: bool
    id: str | None = None


@dataclass
class GamesImported:
    """What an import stored (`imported` false: the game was here already)."""

    games: list[Imported]


@dataclass
class Part:
    """One side's part of the open hand (null: not entered yet), and its score."""

    side: int
    part: JsonObject | None
    score: ScoredSide | None


@dataclass
class Parts:
    """The parts of the open hand; 201 with `saved` (the hand a part completed) and `game`."""

    hand: int
    parts: list[Part]
    version: int
    saved: JsonObject | None = None
    game: Game | None = None


@dataclass
class PartConflict(Problems):
    """409: the problem and, when the hand moved on meanwhile, the parts as they are now and
    the hands saved since (an entry id used again, a closed round: the problem alone)."""

    hand: int | None = None
    parts: list[Part] | None = None
    hands: list[Hand] | None = None


# ---- tables -------------------------------------------------------------------------------------


@dataclass
class Table:
    """A table: its people, a page of its games and their statistics; the keys only by its
    editing key."""

    view_id: str
    name: str
    id: str | None = None


# ---- tournaments --------------------------------------------------------------------------------


@dataclass
class TournamentCreated:
    """A tournament just created: its editing key and its view id."""

    id: str
    view_id: str


@dataclass
class TournamentTable:
    """One table of a round started: its game's keys and the names of each side."""

    table: int
    view_id: str
    sides: list[list[Any]]
    game_id: str | None = None


@dataclass
class RoundStarted:
    """The round seated and started: one game per table."""

    number: int
    tables: list[TournamentTable]
    byes: list[str | int]


@dataclass
class Tournament:
    """The whole tournament: rounds and standings; the editing keys only in the director's
    view."""

    view_id: str
    name: str
    ruleset: str
    version: int
    participants: list[JsonObject]
    rounds: list[JsonObject]
    standings: list[JsonObject]
    provisional: bool
    id: str | None = None
