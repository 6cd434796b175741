"""The state of a Canasta game: what is derived from its stored hands (totals, minimums,
the dealer, the winner, every hand's scores and its corrections). Plain frozen dataclasses;
:mod:`.derive` makes them, every page, PDF and API answer reads them."""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..rules.problems import Problem
from ..rules.ruleset import RuleSet


@dataclass(frozen=True)
class Column:
    """One score column: a side, or one player in 3-player cutthroat."""

    name: str
    players: list[str]
    total: int
    minimum_meld: int  # initial-meld minimum for the next hand (docs/rulebook.md §3)
    to_target: int  # points still missing to the target (0 once reached)


@dataclass(frozen=True)
class HandScore:
    """What one column got in one hand."""

    score: int
    items: dict[str, int]  # melded_cards, canasta_bonus, red_threes, going_out, in_hand
    canastas: dict[str, int]
    total: int  # cumulative, after this hand
    minimum_meld: int  # the initial-meld minimum the column had in this hand
    went_out: bool
    concealed: bool
    team: int  # index into the hand's ``teams`` this column scored with
    alone: bool  # 3-player cutthroat: played alone in this hand (False in partnership games)


@dataclass(frozen=True)
class Seat:
    """A player at the table: seat index in dealing order, name and score column."""

    seat: int
    name: str
    column: int


@dataclass(frozen=True)
class Correction:
    """What a corrected hand was before one correction: the earlier entry re-scored,
    when it had been entered and when it was changed."""

    entered_at: datetime
    changed_at: datetime
    scores: list[int]  # per column, as the earlier entry scored


@dataclass(frozen=True)
class HandRow:
    """One stored hand, re-scored."""

    number: int
    teams: list[Any]  # the entry as stored (the API request's ``teams``)
    lone_player: int | None
    stock_out: bool
    scores: list[HandScore]  # one per column, in column order
    dealer: Seat
    created_at: datetime
    updated_at: datetime
    problems: list[Problem] = field(default_factory=list)  # only if the rules changed since
    warnings: list[Problem] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)  # oldest first

    @property
    def corrected(self) -> bool:
        return bool(self.corrections)


@dataclass(frozen=True)
class GameState:
    """The whole state of a game, derived from its hands.

    ``winner`` (docs/rulebook.md §4): after the last hand, if one or more columns have reached
    ``target``, the column with the highest total wins. If the highest total is shared by two
    columns at or above the target there is no winner yet: the game goes on until a hand breaks
    the tie. ``finished`` is ``winner is not None``; a finished game takes no new hand, but its
    hands can still be corrected or the last one deleted, and the winner follows.

    It carries ``view_id`` but not the editing key, so a read-only page can be rendered from it
    without leaking the key.
    """

    view_id: str
    name: str | None
    ruleset: str
    ruleset_name: str
    players: int
    cutthroat: bool
    options: dict[str, Any]  # house rules as given at creation
    house_rules: dict[str, Any]  # effective parameters that differ from the preset
    target: int
    columns: list[Column]
    hands: list[HandRow]
    winner: int | None
    next_dealer: Seat
    seats: list[Seat]
    version: int
    created_at: datetime
    updated_at: datetime
    rules: RuleSet  # the rules the hands are scored with (house rules applied)
    base_rules: RuleSet  # the preset the house rules change
    # Hands before the first row of ``hands`` that this state leaves out: only the answer of a
    # save that read no hand but its own (:func:`changed_state`); never cached, never shown.
    skipped: int = 0

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def margin(self) -> int | None:
        """How far the winner is ahead of the next column (None while nobody has won)."""
        if self.winner is None:
            return None
        others = [c.total for i, c in enumerate(self.columns) if i != self.winner]
        return self.columns[self.winner].total - max(others, default=0)

    @property
    def next_hand(self) -> int:
        return self.skipped + len(self.hands) + 1
