"""A table's statistics: each game boiled down to its :class:`GameFacts` once per version (from
the games' states only: :func:`.derive.game_state` for Canasta, :func:`.fifty.fifty_state` for
3 ist 50, the one score computation), and the table's :class:`TableStats` summed from them, both
kept through :mod:`.cache` and proven current by one light read of the table's games
(:func:`stamp`): per player and partnership, head-to-head, records and the rating.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from . import cache, fifty
from .derive import game_state
from .fold import fold_columns
from .models import Game, Table, TableGame
from .rating import START, rate_game
from .tables import FIFTY, LOAD_BATCH


# ---- what one game adds ------------------------------------------------------------------------
@dataclass(frozen=True)
class ColumnFacts:
    """One score column of one game: its people and what it did over the game's hands."""

    name: str
    players: tuple[int, ...]
    total: int
    hands: int  # Canasta: hands; 3 ist 50: games of the evening (decks)
    points: int  # the sum of its hand scores (3 ist 50: minus points)
    natural: int = 0
    mixed: int = 0
    wild: int = 0
    went_out: int = 0  # every going out, the concealed ones included (store.fold)
    concealed: int = 0  # of them, concealed
    red_threes: int = 0
    # hands that say this column's canastas and red threes (a side entered as its total only
    # says neither): the canastas and red threes above are counted over these
    known: int = 0
    best_hand: int | None = None
    best_hand_number: int = 0


@dataclass(frozen=True)
class GameFacts:
    """A game of the table boiled down to what the statistics need."""

    game_id: str
    view_id: str
    kind: str  # "canasta" or "fifty"
    ruleset: str
    created_at: datetime
    finished: bool
    winners: tuple[int, ...]
    hands: int
    columns: tuple[ColumnFacts, ...]


def canasta_facts(game: Game, ids: list[list[int]]) -> GameFacts:
    state = game_state(game)
    cols = [
        ColumnFacts(
            column.name,
            tuple(ids[c]) if c < len(ids) else (),
            column.total,
            fold.hands,
            fold.points,
            fold.canastas_of("natural"),
            fold.canastas_of("mixed"),
            fold.canastas_of("wild"),
            fold.went_out,
            fold.concealed,
            fold.red_threes,
            fold.known,
            fold.best,
            fold.best_number,
        )
        for c, (column, fold) in enumerate(zip(state.columns, fold_columns(state), strict=True))
    ]
    winners = () if state.winner is None else (state.winner,)
    return GameFacts(
        game.id,
        game.view_id,
        "canasta",
        game.ruleset,
        game.created_at,
        state.finished,
        winners,
        len(state.hands),
        tuple(cols),
    )


def fifty_facts(game: Game, ids: list[list[int]]) -> GameFacts:
    state = fifty.fifty_state(game)
    cols = [
        ColumnFacts(
            name,
            tuple(ids[c]) if c < len(ids) else (),
            state.totals[c] if c < len(state.totals) else 0,
            len(state.rows),
            sum(row.scores[c].points for row in state.rows),
        )
        for c, name in enumerate(state.players)
    ]
    return GameFacts(
        game.id,
        game.view_id,
        "fifty",
        game.ruleset,
        game.created_at,
        state.finished,
        tuple(state.winners),
        len(state.rows),
        tuple(cols),
    )


def facts_of(game: Game, people: Sequence[Sequence[int]]) -> GameFacts:
    """The game's facts (``people``: its link row's), kept per version
    (:func:`.cache.table_game`)."""

    def make() -> GameFacts:
        ids = [list(column) for column in people]
        return fifty_facts(game, ids) if game.ruleset == FIFTY else canasta_facts(game, ids)

    stamp = (game.version, game.updated_at, _ids(people))
    found: GameFacts = cache.table_game(game.id, stamp, make)
    return found


def _ids(people: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(column) for column in people)


# ---- the table's statistics --------------------------------------------------------------------
@dataclass
class Figures:
    """A player's or a partnership's figures over the table's Canasta games (3 ist 50 apart)."""

    games: int = 0  # finished games
    wins: int = 0
    hands: int = 0
    points: int = 0
    natural: int = 0
    mixed: int = 0
    wild: int = 0
    went_out: int = 0
    concealed: int = 0
    red_threes: int = 0
    known: int = 0  # hands that say the canastas and red threes (ColumnFacts.known)
    best_hand: int | None = None
    highest_game: int | None = None
    lowest_game: int | None = None
    fifty_games: int = 0
    fifty_wins: int = 0
    fifty_decks: int = 0
    fifty_points: int = 0

    @property
    def average_hand(self) -> int:
        return round(self.points / self.hands) if self.hands else 0

    @property
    def win_rate(self) -> int:
        """Per cent of finished games won."""
        return round(100 * self.wins / self.games) if self.games else 0

    @property
    def canastas(self) -> int:
        return self.natural + self.mixed + self.wild

    @property
    def canastas_per_hand(self) -> float | None:
        """Canastas per hand that says them, to two places; None: no hand says them."""
        return round(self.canastas / self.known, 2) if self.known else None

    @property
    def fifty_average(self) -> int:
        """Average minus points per 3-ist-50 game (deck) played."""
        return round(self.fifty_points / self.fifty_decks) if self.fifty_decks else 0

    def add(self, column: ColumnFacts, kind: str, finished: bool, won: bool) -> None:
        if kind == "fifty":
            self.fifty_decks += column.hands
            self.fifty_points += column.points
            if finished:
                self.fifty_games += 1
                self.fifty_wins += won
            return
        self.hands += column.hands
        self.points += column.points
        self.natural += column.natural
        self.mixed += column.mixed
        self.wild += column.wild
        self.went_out += column.went_out
        self.concealed += column.concealed
        self.red_threes += column.red_threes
        self.known += column.known
        if column.best_hand is not None:
            self.best_hand = (
                column.best_hand
                if self.best_hand is None
                else max(self.best_hand, column.best_hand)
            )
        if finished:
            self.games += 1
            self.wins += won
            self.highest_game = (
                column.total if self.highest_game is None else max(self.highest_game, column.total)
            )
            self.lowest_game = (
                column.total if self.lowest_game is None else min(self.lowest_game, column.total)
            )


@dataclass(frozen=True)
class Record:
    """A table record and the game it comes from."""

    kind: str  # best_hand, highest_game, lowest_game, widest_margin
    value: int
    names: str
    game_id: str
    view_id: str
    hand: int  # the hand's number (0: a whole game)


@dataclass
class Meeting:
    """Two players (or partnerships) on different sides of finished Canasta games."""

    games: int = 0
    first: int = 0  # won by the first
    second: int = 0


@dataclass
class TableStats:
    """A table's statistics: its games, the figures of each player and partnership, the ratings and
    the records."""

    games: list[GameFacts]  # newest first
    players: dict[int, Figures]
    partnerships: dict[tuple[int, int], Figures]
    rating: dict[int, float]
    form: dict[int, list[float]]  # each player's rating after each of their rated games
    players_met: dict[tuple[int, int], Meeting] = field(default_factory=dict)
    partnerships_met: dict[tuple[tuple[int, int], tuple[int, int]], Meeting] = field(
        default_factory=dict
    )
    records: list[Record] = field(default_factory=list)

    def games_page(self, number: int, size: int) -> tuple[list[GameFacts], int, int]:
        """Page ``number`` (from 1) of the games, ``size`` a page, newest first: the games, the
        page's number (one past the last is the last) and how many pages there are."""
        pages = max(1, -(-len(self.games) // size))
        number = min(max(1, number), pages)
        return self.games[(number - 1) * size : number * size], number, pages


def summed(items: Sequence[GameFacts]) -> TableStats:
    """Everything the table page shows, from the games' facts (oldest first)."""
    players: dict[int, Figures] = {}
    pairs: dict[tuple[int, int], Figures] = {}
    ratings: dict[int, float] = {}
    form: dict[int, list[float]] = {}
    met: dict[tuple[int, int], Meeting] = {}
    pairs_met: dict[tuple[tuple[int, int], tuple[int, int]], Meeting] = {}
    best: dict[str, Record] = {}

    def offer(kind: str, value: int, names: str, facts: GameFacts, hand: int, low: bool) -> None:
        old = best.get(kind)
        if old is None or (value < old.value if low else value > old.value):
            best[kind] = Record(kind, value, names, facts.game_id, facts.view_id, hand)

    for facts in items:
        for c, column in enumerate(facts.columns):
            won = c in facts.winners
            for p in column.players:
                players.setdefault(p, Figures()).add(column, facts.kind, facts.finished, won)
            if len(column.players) == 2:
                a, b = sorted(column.players)
                pairs.setdefault((a, b), Figures()).add(column, facts.kind, facts.finished, won)
            if facts.kind == "canasta" and column.best_hand is not None:
                offer(
                    "best_hand",
                    column.best_hand,
                    column.name,
                    facts,
                    column.best_hand_number,
                    False,
                )
        if facts.kind != "canasta" or not facts.finished:
            continue
        winner = facts.winners[0] if facts.winners else -1
        totals = [c.total for c in facts.columns]
        top = facts.columns[winner] if winner >= 0 else None
        if top is not None:
            offer("highest_game", top.total, top.name, facts, 0, False)
            others = [t for i, t in enumerate(totals) if i != winner]
            if others:
                offer("widest_margin", top.total - max(others), top.name, facts, 0, False)
        low = min(range(len(totals)), key=lambda i: totals[i])
        offer("lowest_game", totals[low], facts.columns[low].name, facts, 0, True)
        for c, first in enumerate(facts.columns):
            for d in range(c + 1, len(facts.columns)):
                second = facts.columns[d]
                for p in first.players:
                    for q in second.players:
                        _meet(met, p, q, c, d, winner)
                if len(first.players) == 2 and len(second.players) == 2:
                    pa = (min(first.players), max(first.players))
                    pb = (min(second.players), max(second.players))
                    _meet(pairs_met, pa, pb, c, d, winner)
        ids = [list(column.players) for column in facts.columns]
        if all(ids):
            ratings.update(rate_game(ratings, ids, totals))
            for people in ids:
                for p in people:
                    form.setdefault(p, []).append(ratings[p])
    kinds = ("best_hand", "highest_game", "lowest_game", "widest_margin")
    return TableStats(
        list(reversed(items)),
        players,
        pairs,
        ratings,
        form,
        met,
        pairs_met,
        [best[k] for k in kinds if k in best],
    )


def _meet(table: dict[Any, Meeting], p: Any, q: Any, c: int, d: int, winner: int) -> None:
    if p == q:
        return
    key, first_col = ((p, q), c) if p < q else ((q, p), d)
    second_col = d if first_col == c else c
    meeting = table.setdefault(key, Meeting())
    meeting.games += 1
    meeting.first += winner == first_col
    meeting.second += winner == second_col


def stamp(session: Session, table: Table) -> Hashable:
    """What proves the table's kept statistics current: the table's own version and, over its
    games, their number, newest change and the sum of their versions (every change of a game
    moves its version and ``updated_at`` on). One aggregate read over an index."""
    row = session.execute(
        select(func.count(), func.max(Game.updated_at), func.sum(Game.version))
        .select_from(TableGame)
        .join(Game, Game.id == TableGame.game_id)
        .where(TableGame.table_id == table.id)
    ).one()
    return (table.version, row[0], row[1], row[2])


def table_stats(session: Session, table: Table) -> TableStats:
    """The table's statistics, kept while :func:`stamp` says nothing changed; a change of one
    game derives that game's facts only (the others' are kept per version)."""

    def make() -> TableStats:
        # plain rows, not objects: a thousand games are read on every change of one of them
        rows = session.execute(
            select(TableGame.game_id, TableGame.players, Game.version, Game.updated_at)
            .join(Game, Game.id == TableGame.game_id)
            .where(TableGame.table_id == table.id)
            .order_by(Game.created_at, Game.id)
        )
        found: dict[str, GameFacts] = {}
        stale: dict[str, list[list[int]]] = {}
        order: list[str] = []
        for game_id, people, version, updated_at in rows:
            order.append(game_id)
            kept = cache.table_game_kept(game_id, (version, updated_at, _ids(people)))
            if kept is None:
                stale[game_id] = people
            else:
                found[game_id] = kept
        # Games whose facts are not kept (after a start: all of them) are read in batches with
        # their hands and history, not one by one, and derived apart from the session: their
        # states are then not kept (a table's thousand old games would push the games being
        # played out of the states cache) and read no more rows.
        keys = list(stale)
        for start in range(0, len(keys), LOAD_BATCH):
            batch = keys[start : start + LOAD_BATCH]
            query = (
                select(Game)
                .where(Game.id.in_(batch))
                .options(selectinload(Game.hands), selectinload(Game.revisions))
                # a game this session read before the stamp is read again, not reused
                .execution_options(populate_existing=True)
            )
            for game in list(session.scalars(query)):
                session.expunge(game)
                found[game.id] = facts_of(game, stale[game.id])
        facts = [found[key] for key in order if key in found]
        return summed(facts)

    found: TableStats = cache.table_stats(table.id, stamp(session, table), make)
    return found


def rated(stats: TableStats, player: int) -> int:
    return round(stats.rating.get(player, START))
