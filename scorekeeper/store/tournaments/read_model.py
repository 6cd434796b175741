"""The whole tournament read back as one :class:`~scorekeeper.tournaments.model.TournamentView`
(kept in :mod:`..cache` while nothing changed), and the tournament a game belongs to."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session, lazyload

from ...tournaments import standings as ranking
from ...tournaments.model import (
    Format,
    OddCount,
    ParticipantView,
    Points,
    RoundEnd,
    RoundState,
    RoundView,
    Scoring,
    StandingRow,
    TableResult,
    TableView,
    TournamentView,
)
from .. import cache, stamps
from ..db import session_scope
from ..derive import game_state
from ..games import KEY
from ..models import (
    Game,
    Tournament,
    TournamentGame,
    TournamentParticipant,
    TournamentRound,
)
from ..state import GameState
from .common import participants_of, rounds_of, seating_of

T = TypeVar("T")


@dataclass(frozen=True)
class GameTournament:
    """What a game page shows of the tournament its game belongs to."""

    name: str
    view_id: str
    round: int
    table: int
    round_end: RoundEnd
    round_end_value: int
    #: the director has closed the round: the table takes no new hand (corrections stay open)
    closed: bool = False


def game_tournament(session: Session, game_id: Any) -> GameTournament | None:
    """The tournament, round and table of a game (by its editing key), or None for a game of
    no tournament."""
    if not isinstance(game_id, str) or not KEY.match(game_id):
        return None
    return _tournament_of(session, TournamentGame.game_id == game_id)


def game_tournament_by_view(session: Session, view_id: Any) -> GameTournament | None:
    """The same for the game with this read-only key (the other phones' view)."""
    if not isinstance(view_id, str) or not KEY.match(view_id):
        return None
    inner = select(Game.id).where(Game.view_id == view_id).scalar_subquery()
    return _tournament_of(session, TournamentGame.game_id == inner)


def _tournament_of(session: Session, which: ColumnElement[bool]) -> GameTournament | None:
    row = session.execute(
        select(
            Tournament.name,
            Tournament.view_id,
            TournamentRound.number,
            TournamentGame.table,
            Tournament.round_end,
            Tournament.round_end_value,
            TournamentRound.state,
        )
        .select_from(TournamentGame)
        .join(TournamentRound, TournamentRound.id == TournamentGame.round_id)
        .join(Tournament, Tournament.id == TournamentRound.tournament_id)
        .where(which)
    ).first()
    if row is None:
        return None
    return GameTournament(
        row[0],
        row[1],
        row[2],
        row[3],
        RoundEnd(row[4]),
        row[5],
        RoundState(row[6]) is RoundState.CLOSED,
    )


def stamp(session: Session, t: Tournament) -> Hashable:
    """What proves a kept view current (:func:`.stamps.tournament_stamp_query`), read in the
    session that builds the view, so the two are of one moment."""
    row = session.execute(stamps.tournament_stamp_query().where(Tournament.id == t.id)).first()
    if row is None:
        return (None,)
    return tuple(row[1:])


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _games_of(session: Session, rounds: Sequence[TournamentRound]) -> dict[int, dict[int, Game]]:
    """Per round id, per table number, its game (its row only: the state is kept)."""
    ids = [r.id for r in rounds if RoundState(r.state) is not RoundState.PROPOSED]
    out: dict[int, dict[int, Game]] = {}
    if not ids:
        return out
    query = (
        select(TournamentGame.round_id, TournamentGame.table, Game)
        .join(Game, Game.id == TournamentGame.game_id)
        .where(TournamentGame.round_id.in_(ids))
        .options(lazyload(Game.hands), lazyload(Game.revisions))
    )
    for round_id, number, game in session.execute(query):
        out.setdefault(round_id, {})[number] = game
    return out


def _reached(state: GameState, target: int) -> datetime | None:
    """When a hand first brought a column of the game to ``target``."""
    for row in state.hands:
        if any(score.total >= target for score in row.scores):
            return row.created_at
    return None


def round_view(
    session: Session,
    t: Tournament,
    found: TournamentRound,
    people: Sequence[TournamentParticipant],
    editing: bool,
    games: Mapping[int, Game] | None = None,
) -> RoundView:
    if games is None:
        games = _games_of(session, [found]).get(found.id, {})
    by_number = {p.number: p for p in people}
    seating = seating_of(found.seating)
    end = RoundEnd(t.round_end)
    state = RoundState(found.state)
    states = {n: game_state(g) for n, g in games.items()}
    ending = found.ending_at if end is RoundEnd.MINUTES else None
    if end is RoundEnd.TARGET:
        reached = [r for s in states.values() if (r := _reached(s, t.round_end_value))]
        ending = min(reached) if reached else None
    tables_out = []
    for seated in seating.tables:
        game = games.get(seated.number)
        names = tuple(
            tuple(name for p in side for name in by_number[p].players) for side in seated.sides
        )
        if game is None:
            tables_out.append(TableView(seated.number, None, None, names, seated.sides))
            continue
        gs = states[seated.number]
        hands = len(gs.hands)
        if end is RoundEnd.HANDS:
            counted = gs.hands[: t.round_end_value]
            totals = (
                tuple(counted[-1].scores[c].total for c in range(len(gs.columns)))
                if counted
                else tuple(0 for _ in gs.columns)
            )
            reported = hands >= t.round_end_value
        else:
            totals = tuple(c.total for c in gs.columns)
            reported = ending is not None and any(row.created_at > ending for row in gs.hands)
        reported = reported or gs.winner is not None or state is RoundState.CLOSED
        tables_out.append(
            TableView(
                number=seated.number,
                game_id=game.id if editing else None,
                view_id=game.view_id,
                sides=names,
                participants=seated.sides,
                hands=hands,
                totals=totals,
                reported=reported,
                first_dealer=game.first_dealer,
            )
        )
    return RoundView(
        number=found.number,
        state=state,
        tables=tuple(tables_out),
        byes=tuple(_name(by_number[p]) for p in seating.byes if p in by_number),
        started_at=_iso(found.started_at),
        ending_at=_iso(ending),
    )


def _name(p: TournamentParticipant) -> str:
    return " & ".join(p.players)


def view(session: Session, t: Tournament, editing: bool) -> TournamentView:
    """The whole tournament as the pages, the API and the PDFs show it (``editing``: with the
    editing keys of the tournament and its games). Kept while :func:`stamp` says nothing
    changed (:func:`.cache.tournament_view`): then it costs one light read."""
    if cache.flushed(session) or session.new or session.dirty or session.deleted:
        # What this session changed is not committed: a view of it is not kept (a rollback
        # would leave it under a stamp the next real change takes).
        return make_view(session, t, editing)

    def fresh() -> TournamentView:
        # What the session read before the stamp (the tournament itself, at least) may be
        # older than the stamp: kept under it, such a view would be shown until the next
        # change. Read after the stamp, the view is never older than the stamp it is kept by.
        session.expire_all()
        return make_view(session, t, editing)

    shown: TournamentView = cache.tournament_view((t.id, editing), stamp(session, t), fresh)
    return shown


def kept_by_key(
    key: Any, form: tuple[Hashable, ...], make: Callable[[TournamentView], T]
) -> tuple[bool, T] | None:
    """What a poll of the tournament with this editing or view key shows (``make`` of its
    view, e.g. the API's JSON) and whether the key was the editing one; None for an unknown
    key. When nothing changed since it was made: one light read on the driver's cursor
    (:func:`.stamps.tournament_stamp`), no session. Else it is made in a session of its own;
    the stamp is read before the view, so a view kept under it is never older than it."""
    if not isinstance(key, str) or not KEY.match(key):
        return None
    found = stamps.tournament_stamp(key)
    if found is None:
        return None
    tournament_id, editing, current = found

    def build() -> T:
        with session_scope() as session:
            t = session.get(Tournament, tournament_id)
            if t is None:  # pragma: no cover - deleted between the two reads
                raise LookupError(tournament_id)
            return make(view(session, t, editing))

    made: T = cache.tournament_view((tournament_id, editing, "polled", *form), current, build)
    return editing, made


def make_view(session: Session, t: Tournament, editing: bool) -> TournamentView:
    """The view read from the database (:func:`view` keeps it)."""
    people = participants_of(session, t)
    rounds = rounds_of(session, t)
    games = _games_of(session, rounds)
    round_views = tuple(
        round_view(session, t, r, people, editing, games.get(r.id, {})) for r in rounds
    )
    results = [
        TableResult(rv.number, table.number, table.participants, table.totals, table.reported)
        for rv in round_views
        if rv.state is not RoundState.PROPOSED
        for table in rv.tables
        if table.hands > 0 or rv.state is RoundState.CLOSED
    ]
    points = Points(**{k: int(v) for k, v in t.points.items()})
    scoring = Scoring(t.scoring)
    standing = ranking.standings([p.number for p in people], results, scoring, points)
    by_number = {p.number: p for p in people}
    provisional = any(
        rv.state is RoundState.PLAYING and not all(table.reported for table in rv.tables)
        for rv in round_views
    )
    return TournamentView(
        id=t.id if editing else None,
        view_id=t.view_id,
        name=t.name,
        ruleset=t.ruleset,
        options=dict(t.options or {}),
        players=t.players,
        format=Format(t.format),
        scoring=scoring,
        points=points,
        round_end=RoundEnd(t.round_end),
        round_end_value=t.round_end_value,
        odd=OddCount(t.odd),
        participants=tuple(
            ParticipantView(p.number, _name(p), tuple(p.players), bool(p.absent)) for p in people
        ),
        rounds=round_views,
        standings=tuple(StandingRow(s, _name(by_number[s.participant])) for s in standing),
        provisional=provisional,
        version=t.version,
    )
