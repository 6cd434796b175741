"""Tables: a group of regular players, the games they played and the statistics over them.

A table (:class:`~.models.Table`) has people (:class:`~.models.TablePlayer`); a game played at
it has a link row (:class:`~.models.TableGame`) naming the person behind every player name of
its sides. Games keep their names as text, so every page of a game reads as before; renaming or
merging people rewrites the names in the table's games (and moves each game on, so no kept page
or state shows the old name).

Statistics are derived from the games' states only (:func:`.derive.game_state` for Canasta,
:func:`.fifty.fifty_state` for 3 ist 50: the one score computation): each game is boiled down to
its :class:`GameFacts` once per version, and the table's :class:`TableStats` are summed from
them, both kept through :mod:`.cache` and proven current by one light read of the table's games
(:func:`stamp`). Every function takes the caller's session and never commits.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, lazyload, selectinload

from ..rules.problems import Problem
from ..rules.ruleset import PRESETS
from . import cache, fifty
from .derive import game_state
from .errors import GameProblems
from .games import KEY, clean_name
from .models import Game, Table, TableGame, TablePlayer, utcnow
from .rating import START, rate_game

MAX_PLAYERS = 40  # people at one table: a club, not a city
MAX_GAMES = 5_000  # games one table keeps (an import is refused beyond it)
FIFTY = fifty.RULESET_ID
LOAD_BATCH = 200  # games read at once when their facts must be derived


# ---- reading ---------------------------------------------------------------------------------
def get_table(session: Session, key: Any) -> Table | None:
    """The table with this editing key, or None (also for malformed keys)."""
    if not isinstance(key, str) or not KEY.match(key):
        return None
    return session.get(Table, key)


def get_by_view(session: Session, view_id: Any) -> Table | None:
    if not isinstance(view_id, str) or not KEY.match(view_id):
        return None
    return session.scalars(select(Table).where(Table.view_id == view_id)).first()


def people(session: Session, table: Table) -> list[TablePlayer]:
    """The table's people in the order they joined."""
    query = (
        select(TablePlayer)
        .where(TablePlayer.table_id == table.id)
        .order_by(TablePlayer.position, TablePlayer.id)
    )
    return list(session.scalars(query))


def tables_of(session: Session, keys: Sequence[str]) -> list[Table]:
    """The tables among these editing keys (a phone's list), newest change first."""
    wanted = [k for k in keys if isinstance(k, str) and KEY.match(k)][:50]
    if not wanted:
        return []
    query = select(Table).where(Table.id.in_(wanted)).order_by(Table.updated_at.desc())
    return list(session.scalars(query))


# ---- making and changing -------------------------------------------------------------------
def _names(value: Any, where: str, problems: list[Problem], minimum: int) -> list[str]:
    if not isinstance(value, list):
        problems.append(
            Problem(
                "request.missing" if value is None else "request.type", where, {"expected": "list"}
            )
        )
        return []
    if not minimum <= len(value) <= MAX_PLAYERS:
        problems.append(
            Problem("table.players", where, {"minimum": minimum, "maximum": MAX_PLAYERS})
        )
        return []
    names = [clean_name(v, f"{where}[{i}]", problems) for i, v in enumerate(value)]
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name and name.casefold() in seen:
            problems.append(Problem("table.player_twice", f"{where}[{i}]", {"name": name}))
        seen.add(name.casefold())
    return names


def create_table(session: Session, name: Any, players: Any) -> Table:
    """A new table with its people (flushed, not committed). ``players``: 2..40 distinct
    names. Raises :class:`GameProblems`."""
    problems: list[Problem] = []
    clean = clean_name(name, "name", problems) if name is not None else ""
    if name is None:
        problems.append(Problem("request.missing", "name", {}))
    names = _names(players, "players", problems, 2)
    if problems:
        raise GameProblems(problems)
    now = utcnow()
    table = Table(name=clean, version=1, created_at=now, updated_at=now)
    session.add(table)
    session.flush()
    for i, person in enumerate(names):
        session.add(TablePlayer(table_id=table.id, name=person, position=i))
    session.flush()
    return table


def add_person(session: Session, table: Table, name: Any) -> TablePlayer:
    """A new person at the table (``table.player_twice`` when the name is taken)."""
    problems: list[Problem] = []
    clean = clean_name(name, "name", problems)
    if problems:
        raise GameProblems(problems)
    known = {p.name.casefold(): p for p in people(session, table)}
    if clean.casefold() in known:
        raise GameProblems([Problem("table.player_twice", "name", {"name": clean})])
    return _person(session, table, clean, known)


def _touch(table: Table) -> None:
    table.version += 1
    table.updated_at = utcnow()


def _person(
    session: Session, table: Table, name: str, known: dict[str, TablePlayer]
) -> TablePlayer:
    found = known.get(name.casefold())
    if found is not None:
        return found
    if len(known) >= MAX_PLAYERS:
        raise GameProblems(
            [Problem("table.players", "sides", {"minimum": 2, "maximum": MAX_PLAYERS})]
        )
    person = TablePlayer(table_id=table.id, name=name, position=len(known))
    session.add(person)
    session.flush()
    known[name.casefold()] = person
    _touch(table)
    return person


def attach(session: Session, table: Table, game: Game) -> TableGame:
    """Link a new game to the table: each player name of its sides is the table's person of
    that name (case does not matter; the game then spells it as the table does), a new name
    joins the table. One person plays once per game (``table.player_twice``)."""
    known = {p.name.casefold(): p for p in people(session, table)}
    ids: list[list[int]] = []
    sides = [dict(side) for side in game.sides]
    seen: set[int] = set()
    for c, side in enumerate(sides):
        names = [str(n) for n in side.get("players") or []]
        column: list[int] = []
        spelled: list[str] = []
        for j, name in enumerate(names):
            person = _person(session, table, name, known)
            if person.id in seen:
                where = f"sides[{c}].players[{j}]"
                raise GameProblems([Problem("table.player_twice", where, {"name": name})])
            seen.add(person.id)
            column.append(person.id)
            spelled.append(person.name)
        if len(names) == 1 and side.get("name") == names[0]:
            side["name"] = spelled[0]
        side["players"] = spelled
        ids.append(column)
    if sides != game.sides:
        game.sides = sides
    link = TableGame(game_id=game.id, table_id=table.id, players=ids)
    session.add(link)
    table.updated_at = utcnow()
    session.flush()
    return link


def join_table(session: Session, game: Game, key: Any) -> None:
    """Link a game just created to the table with editing key ``key`` (None: no table)."""
    if key is None:
        return
    table = get_table(session, key)
    if table is None:
        raise GameProblems([Problem("table.not_found", "table", {})])
    attach(session, table, game)


def _move_on(game: Game) -> None:
    # A game whose names changed is a new version: every kept state and page of it is stale.
    game.version += 1
    game.updated_at = utcnow()
    game.summary = None


def linked_games(session: Session, table: Table) -> list[tuple[TableGame, Game]]:
    """The table's games with their link rows, oldest first."""
    query = (
        select(TableGame, Game)
        .join(Game, Game.id == TableGame.game_id)
        .where(TableGame.table_id == table.id)
        .order_by(Game.created_at, Game.id)
        .options(lazyload(Game.hands), lazyload(Game.revisions))
    )
    return [(link, game) for link, game in session.execute(query)]


def _renamed_sides(game: Game, link: TableGame, names: dict[int, str]) -> list[dict[str, Any]]:
    sides = []
    for c, side in enumerate(game.sides):
        ids = link.players[c] if c < len(link.players) else []
        old = list(side.get("players") or [])
        new = [names.get(ids[j], old[j]) if j < len(ids) else old[j] for j in range(len(old))]
        out = {**side, "players": new}
        if len(old) == 1 and side.get("name") == old[0]:
            out["name"] = new[0]
        sides.append(out)
    return sides


def rename(session: Session, table: Table, player_id: Any, name: Any) -> TablePlayer:
    """Rename a person; every game of the table follows."""
    problems: list[Problem] = []
    person = _find(session, table, player_id, "player")
    clean = clean_name(name, "name", problems)
    if problems:
        raise GameProblems(problems)
    for other in people(session, table):
        if other.id != person.id and other.name.casefold() == clean.casefold():
            raise GameProblems([Problem("table.player_twice", "name", {"name": clean})])
    person.name = clean
    for link, game in linked_games(session, table):
        if any(person.id in column for column in link.players):
            game.sides = _renamed_sides(game, link, {person.id: clean})
            _move_on(game)
    _touch(table)
    session.flush()
    return person


def merge(session: Session, table: Table, keep_id: Any, gone_id: Any) -> TablePlayer:
    """Two entries of one person become one (``keep`` stays, ``gone`` goes): every game of
    ``gone`` names ``keep`` instead. Refused when both played in one game."""
    keep = _find(session, table, keep_id, "keep")
    gone = _find(session, table, gone_id, "merge")
    if keep.id == gone.id:
        raise GameProblems([Problem("table.merge_same", "merge", {})])
    links = linked_games(session, table)
    for link, _game in links:
        flat = [p for column in link.players for p in column]
        if keep.id in flat and gone.id in flat:
            raise GameProblems([Problem("table.merge_together", "merge", {"name": keep.name})])
    for link, game in links:
        if any(gone.id in column for column in link.players):
            link.players = [[keep.id if p == gone.id else p for p in col] for col in link.players]
            game.sides = _renamed_sides(game, link, {keep.id: keep.name})
            _move_on(game)
    session.delete(gone)
    _touch(table)
    session.flush()
    return keep


def _find(session: Session, table: Table, player_id: Any, where: str) -> TablePlayer:
    if isinstance(player_id, str) and player_id.isascii() and player_id.isdigit():
        player_id = int(player_id[:12])
    person = (
        session.get(TablePlayer, player_id)
        if isinstance(player_id, int) and not isinstance(player_id, bool) and 0 < player_id < 2**31
        else None
    )
    if person is None or person.table_id != table.id:
        raise GameProblems([Problem("table.player_unknown", where, {})])
    return person


def delete_table(session: Session, table: Table) -> None:
    """Delete the table and every game it played (the games are the table's)."""
    ids = select(TableGame.game_id).where(TableGame.table_id == table.id)
    session.execute(
        delete(Game).where(Game.id.in_(ids)).execution_options(synchronize_session=False)
    )
    session.execute(delete(TablePlayer).where(TablePlayer.table_id == table.id))
    session.delete(table)
    session.flush()


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
    went_out: int = 0
    concealed: int = 0
    red_threes: int = 0
    red_threes_known: int = 0  # hands whose red threes are known for this column alone
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


def _red_threes(teams: Any, team: int) -> int | None:
    """A column's red threes in one hand, when the entry says them for it alone."""
    if (
        not isinstance(teams, list)
        or not 0 <= team < len(teams)
        or not isinstance(teams[team], dict)
    ):
        return None
    value = teams[team].get("red_threes", 0)
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], int):
        return value[0]
    return None


def canasta_facts(game: Game, ids: list[list[int]]) -> GameFacts:
    state = game_state(game)
    cols: list[ColumnFacts] = []
    for c, column in enumerate(state.columns):
        hands = points = natural = mixed = wild = out = concealed = threes = known = 0
        best: int | None = None
        best_number = 0
        for row in state.hands:
            if c >= len(row.scores):
                continue
            score = row.scores[c]
            hands += 1
            points += score.score
            natural += score.canastas.get("natural", 0)
            mixed += score.canastas.get("mixed", 0)
            wild += score.canastas.get("wild", 0)
            out += score.went_out and not score.concealed
            concealed += score.concealed
            red = _red_threes(row.teams, score.team)
            if red is not None:
                threes += red
                known += 1
            if best is None or score.score > best:
                best, best_number = score.score, row.number
        cols.append(
            ColumnFacts(
                column.name,
                tuple(ids[c]) if c < len(ids) else (),
                column.total,
                hands,
                points,
                natural,
                mixed,
                wild,
                out,
                concealed,
                threes,
                known,
                best,
                best_number,
            )
        )
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
    red_threes_known: int = 0
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
        self.red_threes_known += column.red_threes_known
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
            for column in ids:
                for p in column:
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


def is_canasta(ruleset: str) -> bool:
    return ruleset in PRESETS
