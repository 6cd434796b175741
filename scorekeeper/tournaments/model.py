"""What a club tournament is made of, as plain values: the seating of a round, the result of a
table, a participant's standing, and the read model the pages, the API and the PDFs show.

Participants are numbered 0, 1, 2 … in the order the director entered them; a participant is
one player (format ``individual``) or a fixed pair (format ``pairs``). Everything here is
frozen, so a seating or a result can be kept, compared and hashed.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import enum
from dataclasses import dataclass, field


class Format(enum.StrEnum):
    """Who sits together."""

    #: Every participant is one player; partners change from round to round.
    INDIVIDUAL = "individual"
    #: Every participant is a fixed partnership of two players who always play on one side.
    PAIRS = "pairs"


class Scoring(enum.StrEnum):
    """What ranks the participants first."""

    #: Each table game gives its sides match points (win, draw, loss); points break ties.
    MATCH_POINTS = "match_points"
    #: The sum of the participant's sides' game totals.
    POINTS = "points"


class OddCount(enum.StrEnum):
    """What happens to participants that do not fill a table of the usual size."""

    #: They sit the round out (a bye), the ones with the fewest byes so far first.
    BYE = "bye"
    #: They are seated at a table of another size the ruleset allows (6, 3 or 2 players).
    LARGER = "larger"


class RoundEnd(enum.StrEnum):
    """When a round is over (``round_end`` of the API: ``{"hands": N}``, ``{"target": T}`` or
    ``{"minutes": M}``)."""

    #: Every table plays N hands.
    HANDS = "hands"
    #: Until a table reaches the target; then every table finishes the hand it is playing.
    TARGET = "target"
    #: A time; the director calls time, then every table finishes the hand it is playing.
    MINUTES = "minutes"


class RoundState(enum.StrEnum):
    #: Seating proposed, may still be changed by hand; no games exist yet.
    PROPOSED = "proposed"
    #: Games created, tables playing (standings provisional).
    PLAYING = "playing"
    #: The director closed the round (or every table reported): its results are final.
    CLOSED = "closed"


@dataclass(frozen=True)
class Points:
    """Match points per table game; the defaults are the clubs' usual 2/1/0."""

    win: int = 2
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class SeatingRules:
    """The hard rules of a seating.

    ``table_size``: players at a table as the director chose (4, or 2, 3, 6 where the ruleset
    allows). ``allowed_sizes``: every player count the ruleset allows (tables of another size
    are used only with ``OddCount.LARGER``). ``sides``: for each table size, the number of
    sides (score columns): 2 → 2 sides of one, 3 → 3 sides of one (cutthroat), 4 → 2 sides
    of two, 6 → 3 sides of two. In format ``pairs`` every side is one pair, so only sizes whose
    sides have two players are possible (4 and 6).
    """

    format: Format
    table_size: int
    allowed_sizes: tuple[int, ...]
    odd: OddCount = OddCount.BYE
    sides: dict[int, int] = field(default_factory=lambda: {2: 2, 3: 3, 4: 2, 6: 3})


@dataclass(frozen=True)
class TableSeating:
    """One table of a round. ``sides``: per side (score column), the participants on it in
    seat order (individual: the players of the side; pairs: the one pair of the side).
    Table numbers run 1, 2, 3 … as printed on the table cards."""

    number: int
    sides: tuple[tuple[int, ...], ...]

    @property
    def participants(self) -> tuple[int, ...]:
        return tuple(p for side in self.sides for p in side)


@dataclass(frozen=True)
class Seating:
    """Where everybody sits in one round, and who sits it out."""

    tables: tuple[TableSeating, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeatingCost:
    """How far a seating is from the ideal, in the order that matters: repeated partners
    first, then repeated opponents, then uneven byes, then a participant at the same table
    number again. Lower is better; tuples compare in that order."""

    partners: int = 0
    opponents: int = 0
    byes: int = 0
    same_table: int = 0

    def key(self) -> tuple[int, int, int, int]:
        return (self.partners, self.opponents, self.byes, self.same_table)


@dataclass(frozen=True)
class Refusal:
    """Why a seating breaks a hard rule: ``code`` is a problem code (``seating.*``, listed in
    docs/api.md §5), ``params`` fill its translated message."""

    code: str
    params: dict[str, int | str] = field(default_factory=dict)


@dataclass(frozen=True)
class TableResult:
    """What one table's game gave in one round: per side, its participants and game total.
    ``reported``: the table reached the round's end (else its total is provisional)."""

    round: int
    table: int
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    reported: bool


@dataclass(frozen=True)
class Standing:
    """One participant's place. Equal places share a rank (1, 2, 2, 4)."""

    participant: int
    rank: int
    match_points: int
    points: int
    played: int


# The read model: one tournament as the director's page, the public standings, the projector,
# the JSON API and the PDFs show it (built by ``store.tournaments.view``).


@dataclass(frozen=True)
class ParticipantView:
    """One participant as the tournament's pages show it: number, name, players, absent or not."""

    number: int
    #: A player's name, or a pair's two names joined ("Anna & Ben").
    name: str
    players: tuple[str, ...]
    absent: bool = False


@dataclass(frozen=True)
class TableView:
    """One table of a round. ``game_id`` (the editing key) is set only in the director's view;
    ``view_id`` opens the game read-only. ``sides``: per side, the player names in seat order;
    ``participants``: per side, the participant numbers."""

    number: int
    game_id: str | None
    view_id: str | None
    sides: tuple[tuple[str, ...], ...]
    participants: tuple[tuple[int, ...], ...]
    hands: int = 0
    totals: tuple[int, ...] = ()
    reported: bool = False
    #: Seat (in dealing order) that deals the first hand.
    first_dealer: int = 0


@dataclass(frozen=True)
class RoundView:
    """One round as the pages show it: its state, its tables, its byes and its times."""

    number: int
    state: RoundState
    tables: tuple[TableView, ...]
    byes: tuple[str, ...] = ()
    #: When the games were created, and (minutes, target) when time was called or the first
    #: table reached the target; ISO 8601 UTC, None while not yet.
    started_at: str | None = None
    ending_at: str | None = None


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: a participant's place and name."""

    standing: Standing
    name: str


@dataclass(frozen=True)
class TournamentView:
    """A whole tournament as the pages, the API and the sheets show it."""

    id: str | None  # the director's key; None in the read-only view
    view_id: str
    name: str
    ruleset: str
    options: dict[str, object]
    players: int
    format: Format
    scoring: Scoring
    points: Points
    round_end: RoundEnd
    round_end_value: int
    odd: OddCount
    participants: tuple[ParticipantView, ...]
    rounds: tuple[RoundView, ...]
    standings: tuple[StandingRow, ...]
    #: True while a table of a round that is not closed has not reported.
    provisional: bool
    #: Bumped by every change of the tournament itself (not by hands entered at its tables).
    version: int = 1
