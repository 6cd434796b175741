"""Tables: a stored game and its hands, and the tables (groups of players) games belong to.

Only what was entered is stored: the ruleset, the house rules, the sides and each hand's entry
exactly as the API request gave it. Totals, initial-meld minimums and the winner are derived by
re-scoring the hands with the rules engine (``store.games.game_state``), so a corrected hand or
a fixed rule can never leave a stale total behind.
"""

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    String,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from .db import Base

# No ``from __future__ import annotations`` here: SQLAlchemy reads each ``Mapped[...]`` as the
# object it is, instead of evaluating some 260 strings at every start (about 20 M instructions);
# a class named before it is defined is quoted.

# secrets.token_urlsafe(16): 128 random bits in 22 characters (docs/api.md §3 asks ≥ 96 bits).
KEY_BYTES = 16


def new_key() -> str:
    """A fresh unguessable key (edit id or view id)."""
    return secrets.token_urlsafe(KEY_BYTES)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that always comes back timezone-aware in UTC (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        # SQLite stores text without a zone: store naive UTC there.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Game(Base):
    """One game at one table. ``id`` grants editing; ``view_id`` only reading."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(43), primary_key=True, default=new_key)
    view_id: Mapped[str] = mapped_column(String(43), unique=True, index=True, default=new_key)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    ruleset: Mapped[str] = mapped_column(String(20))
    players: Mapped[int] = mapped_column(Integer)
    # House rules exactly as given (validated with RuleSet.with_options at creation).
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # [{"name": "Wir", "players": ["Anna", "Ben"]}, …]: one entry per score column. In 3-player
    # cutthroat every player is a column of their own (docs/rulebook.md §4 "3 players").
    sides: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    target: Mapped[int] = mapped_column(Integer)
    # Bumped by every change of the hands (conditional UPDATE, see store.games).
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    # The game this one was started from with "same players again": the chain of games of one
    # evening at one table. SET NULL: the chain may lose a link, never a game.
    previous_id: Mapped[str | None] = mapped_column(
        String(43), ForeignKey("games.id", ondelete="SET NULL"), nullable=True, index=True
    )
    # What the next save needs of the derived sheet: {"engine", "version",
    # "updated_at", "hands", "totals"}, written by a save in its version bump (store.games). It
    # is trusted only while its engine fingerprint, version and ``updated_at`` are the game's;
    # any other change of the hands leaves it stale (or clears it), and the sheet is derived.
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    # The seat (in dealing order) that deals the first hand: "same players again" continues the
    # rotation of the game it was started from instead of giving the deal back to seat 0.
    first_dealer: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    hands: Mapped[list["Hand"]] = relationship(
        back_populates="game",
        order_by="Hand.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
        lazy="selectin",
    )
    revisions: Mapped[list["HandRevision"]] = relationship(
        back_populates="game",
        order_by="HandRevision.id",
        cascade="all, delete-orphan",
        passive_deletes=True,
        lazy="selectin",
    )
    # One per side of a partnership game (none in 3-player cutthroat or 3 ist 50): the side's
    # key and its part of the open hand (store.parts). Read only where used.
    side_rows: Mapped[list["GameSide"]] = relationship(
        order_by="GameSide.side",
        cascade="all, delete-orphan",
        passive_deletes=True,
        lazy="select",
    )

    def __repr__(self) -> str:
        return f"<Game {self.ruleset} {self.players}p v{self.version} hands={len(self.hands)}>"


class Hand(Base):
    """One hand as entered: the ``teams`` list of the API request, unchanged."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_hands_game_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)  # 1, 2, 3 … in playing order
    teams: Mapped[list[Any]] = mapped_column(JSON)
    # 3-player cutthroat: the player (column index) who played alone; the other two were
    # partners and ``teams`` is [lone side, partnership]. None: the sides of the game as set up,
    # or (cutthroat, stock out before the pile was taken) everyone alone.
    lone_player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stock_out: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # What the rules engine made of ``teams`` when it was saved (scores, items, problems),
    # tagged with the engine's fingerprint (store.games.ENGINE_VERSION): deriving the sheet
    # reads it instead of scoring every hand again; a stale or missing one is scored anew.
    scored: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)

    game: Mapped[Game] = relationship(back_populates="hands")

    def __repr__(self) -> str:
        return f"<Hand {self.number} of {self.game_id[:4]}…>"


class HandRevision(Base):
    """A hand as it was before a correction or a deletion (corrections leave a
    trace). Who changed it cannot be known (anyone with the link may); when, and what it was
    before, can.

    ``kind`` is ``"corrected"`` or ``"deleted"``. ``version`` is the game's version right after
    the change: a deletion can be undone only while the game is still at that version, so an
    undo never overwrites a newer change. Undoing a deletion removes its row, which makes the
    hand's earlier corrections (rows of the same number before it) belong to it again; a new
    hand under the same number only owns the rows after the deletion.
    """

    __tablename__ = "hand_revisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    teams: Mapped[list[Any]] = mapped_column(JSON)  # the entry before the change
    lone_player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stock_out: Mapped[bool] = mapped_column(Boolean, default=False)
    entered_at: Mapped[datetime] = mapped_column(UTCDateTime)  # when that entry was made
    hand_created_at: Mapped[datetime] = mapped_column(UTCDateTime)  # the hand's first entry
    changed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    version: Mapped[int] = mapped_column(Integer)

    game: Mapped[Game] = relationship(back_populates="revisions")

    def __repr__(self) -> str:
        return f"<HandRevision {self.kind} hand {self.number} of {self.game_id[:4]}…>"


class EntryReceipt(Base):
    """An ``entry_id`` a game has taken: a phone names each hand entry (a new hand or a
    correction) with an id of its own, so an entry sent twice (the answer was lost, the outbox
    sent it again) is recognised and answered as the first time instead of stored twice.

    ``number`` is the hand the entry made or corrected; ``created`` whether it made a new one
    (the first answer was 201, else 200). Unique per game: a second save under an id the game
    has fails at the database even when two copies race. ``content``: a digest of what the
    entry said (:func:`.receipts.digest`; null for a receipt kept before digests were), so that
    the same id with other content is told apart from a repeat. ``deleted_at_version``: the
    game's version when the hand the entry made or corrected was deleted (null: it is there),
    cleared again when that deletion is undone.
    """

    __tablename__ = "entry_receipts"
    __table_args__ = (UniqueConstraint("game_id", "entry_id", name="uq_entry_receipts_game_entry"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    entry_id: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)
    created: Mapped[bool] = mapped_column(Boolean)
    saved_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    content: Mapped[str | None] = mapped_column(String(64), default=None)
    deleted_at_version: Mapped[int | None] = mapped_column(Integer, default=None)

    def __repr__(self) -> str:
        return f"<EntryReceipt {self.entry_id} hand {self.number} of {self.game_id[:4]}…>"


class Table(Base):
    """A group of regular players and every game they played together. ``id`` grants
    everything (new games, renames, export, deletion); ``view_id`` only reading."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(43), primary_key=True, default=new_key)
    view_id: Mapped[str] = mapped_column(String(43), unique=True, index=True, default=new_key)
    name: Mapped[str] = mapped_column(String(40))
    # Bumped by every change of the table itself (players added, renamed, merged): a kept
    # aggregate of the table is proven current by it and by its games' versions.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<Table {self.name!r} v{self.version}>"


class TablePlayer(Base):
    """A person at a table. Games name their players as text (``Game.sides``); the link row
    (:class:`TableGame`) says which person each of those names is."""

    __tablename__ = "table_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(40))
    position: Mapped[int] = mapped_column(Integer, default=0)
    # The name casefolded (set with the name, see ``_fold``): one name once per table whatever
    # its case. The store checks it under the table's lock; the unique constraint is the
    # database's own guard behind that check.
    folded: Mapped[str] = mapped_column(String(80))

    __table_args__ = (
        UniqueConstraint("table_id", "name", name="uq_table_players_name"),
        UniqueConstraint("table_id", "folded", name="uq_table_players_folded"),
    )

    @validates("name")
    def _fold(self, _key: str, value: str) -> str:
        self.folded = fold(value)
        return value


def fold(name: str) -> str:
    """A person's name as the table compares it: case does not matter (``Quinn``, ``quinn``)."""
    return name.casefold()[:80]


class TableMerge(Base):
    """A merge of two people of a table (``gone`` into ``keep``), kept so that it can be undone
    and shown in the table's trail. ``games``: per game the merge changed, the places
    ``[column, seat]`` where ``gone`` played and the game's version right after the merge;
    ``participants``: the tournament participants it moved from ``gone`` to ``keep``.
    ``table_version``: the table's version right after the merge; the merge can be undone
    while the table is still at it (no later change of its people depends on it)."""

    __tablename__ = "table_merges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    keep_id: Mapped[int] = mapped_column(Integer)
    keep_name: Mapped[str] = mapped_column(String(40))
    gone_id: Mapped[int] = mapped_column(Integer)
    gone_name: Mapped[str] = mapped_column(String(40))
    gone_position: Mapped[int] = mapped_column(Integer)
    games: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    participants: Mapped[list[int]] = mapped_column(JSON)
    table_version: Mapped[int] = mapped_column(Integer)
    merged_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class TableGame(Base):
    """A game played at a table. ``players`` is parallel to ``Game.sides``: per score column,
    the :class:`TablePlayer` ids of its players in the order of the side's names."""

    __tablename__ = "table_games"

    game_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    table_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    players: Mapped[list[list[int]]] = mapped_column(JSON)


class Tournament(Base):
    """A club tournament: many tables, rounds seated by lot, standings summed from the tables'
    games. ``id`` grants directing it (rounds, seating, absences); ``view_id`` only reading.

    ``players`` is the usual table size; ``round_end`` says when a round is over
    (``tournament.model.RoundEnd``) with ``round_end_value`` its hands, target or minutes;
    ``seed`` makes every lot of the tournament (seatings, first dealers) repeatable."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(43), primary_key=True, default=new_key)
    view_id: Mapped[str] = mapped_column(String(43), unique=True, index=True, default=new_key)
    name: Mapped[str] = mapped_column(String(40))
    ruleset: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    players: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(12))
    scoring: Mapped[str] = mapped_column(String(16))
    points: Mapped[dict[str, int]] = mapped_column(JSON)
    round_end: Mapped[str] = mapped_column(String(10))
    round_end_value: Mapped[int] = mapped_column(Integer)
    odd: Mapped[str] = mapped_column(String(10))
    seed: Mapped[int] = mapped_column(Integer)
    # The table the participants came from (its games then include the tournament's games);
    # SET NULL: deleting the table leaves the tournament as it was.
    table_id: Mapped[str | None] = mapped_column(
        String(43), ForeignKey("tables.id", ondelete="SET NULL"), nullable=True, index=True
    )
    # Bumped by every change of the tournament itself (rounds, seating, absences), not by the
    # hands of its games: a kept view is proven current by it and by its games' versions.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<Tournament {self.name!r} v{self.version}>"


class TournamentParticipant(Base):
    """A player (format individual) or a fixed pair (format pairs), numbered 0, 1, 2 … in the
    order the director entered them."""

    __tablename__ = "tournament_participants"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_tournament_participants_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[str]] = mapped_column(JSON)  # one name, or a pair's two
    absent: Mapped[bool] = mapped_column(Boolean, default=False)
    table_player_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("table_players.id", ondelete="SET NULL"), nullable=True
    )


class TournamentRound(Base):
    """One round: its seating (proposed, then confirmed with one game per table) and when it
    started, when its end was called and when it was closed.

    ``seating``: ``{"tables": [{"number", "sides": [[participant, …], …]}], "byes": [...]}``."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_tournament_rounds_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(10))
    seating: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    ending_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class TournamentGame(Base):
    """The game played at one table of one round."""

    __tablename__ = "tournament_games"

    game_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    round_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournament_rounds.id", ondelete="CASCADE"), index=True
    )
    table: Mapped[int] = mapped_column(Integer)


class GameSide(Base):
    """One side of a partnership game: its own key (a link for the side's phones, which read
    the game and enter this side's part of the open hand, nothing else) and that part while
    the hand is not saved (``store.parts``).

    ``hand`` is the hand the part is for (None, or an older number: no part of the open
    hand); ``version`` the game's version after the part last changed, which a phone's stale
    copy is checked against (two phones of one side never overwrite each other unseen).
    """

    __tablename__ = "game_sides"
    __table_args__ = (UniqueConstraint("game_id", "side", name="uq_game_sides_game_side"),)

    key: Mapped[str] = mapped_column(String(43), primary_key=True, default=new_key)
    game_id: Mapped[str] = mapped_column(
        String(43), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    side: Mapped[int] = mapped_column(Integer)
    hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    part: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    entry_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    def __repr__(self) -> str:
        return f"<GameSide {self.side} of {self.game_id[:4]}…>"
