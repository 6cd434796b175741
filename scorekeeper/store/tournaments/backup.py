"""Club tournaments in the whole database's backup (``scorekeeper export`` / ``import``, the
``tournaments`` list beside ``games`` and ``tables``; the format is :mod:`.backup`'s, its
tournaments :class:`~...edge.stored_format.StoredTournament`).

A tournament is written as stored: its keys, settings, seed, version and times; its
participants in order (a participant that is a person of the tournament's table names that
person by their place in the table's people, as the table's own backup does); its rounds with
their seating, state and times, and the game of each table (by the game's editing key, which
the backup holds). Reading one is reading untrusted input, done once at the edge
(:func:`...edge.stored_files.read_backup_tournaments`: the settings checked as a new
tournament's, seatings against the participants, games against the backup's games); the store
takes the values read and makes the rows.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...edge.stored_files import read_backup_tournaments
from ...edge.stored_format import (
    StoredParticipant,
    StoredPoints,
    StoredRound,
    StoredRoundGame,
    StoredSeatedTable,
    StoredSeating,
    StoredTournament,
    as_json,
)
from ...rules.scoring import Rejected
from ..backup import from_iso_time, iso_time
from ..errors import GameProblems
from ..models import (
    Game,
    Table,
    TablePlayer,
    Tournament,
    TournamentGame,
    TournamentRound,
    new_key,
)
from .common import (
    add_participants,
    participants_of,
    rounds_of,
    seating_of,
)


def _people(session: Session, table_id: str | None) -> list[TablePlayer]:
    if table_id is None:
        return []
    query = (
        select(TablePlayer)
        .where(TablePlayer.table_id == table_id)
        .order_by(TablePlayer.position, TablePlayer.id)
    )
    return list(session.scalars(query))


def _moment(value: datetime | None) -> str | None:
    return iso_time(value) if value is not None else None


def stored_tournaments(session: Session) -> list[StoredTournament]:
    """Every tournament, oldest first, in the stored format."""
    out = []
    for t in session.scalars(select(Tournament).order_by(Tournament.created_at, Tournament.id)):
        index = {person.id: i for i, person in enumerate(_people(session, t.table_id))}
        rounds = []
        for found in rounds_of(session, t):
            links = session.execute(
                select(TournamentGame.table, TournamentGame.game_id)
                .where(TournamentGame.round_id == found.id)
                .order_by(TournamentGame.table)
            )
            seating = seating_of(found.seating)
            rounds.append(
                StoredRound(
                    number=found.number,
                    state=found.state,
                    seating=StoredSeating(
                        tables=[
                            StoredSeatedTable(table.number, [list(side) for side in table.sides])
                            for table in seating.tables
                        ],
                        byes=list(seating.byes),
                        draw=int(found.seating.get("draw", 0)),
                    ),
                    created_at=iso_time(found.created_at),
                    started_at=_moment(found.started_at),
                    ending_at=_moment(found.ending_at),
                    closed_at=_moment(found.closed_at),
                    games=[StoredRoundGame(table, game) for table, game in links],
                )
            )
        out.append(
            StoredTournament(
                id=t.id,
                view_id=t.view_id,
                name=t.name,
                ruleset=t.ruleset,
                options=dict(t.options or {}),
                players=t.players,
                format=t.format,
                scoring=t.scoring,
                points=StoredPoints(**t.points),
                round_end={t.round_end: t.round_end_value},
                odd=t.odd,
                seed=t.seed,
                table=t.table_id,
                version=t.version,
                created_at=iso_time(t.created_at),
                updated_at=iso_time(t.updated_at),
                participants=[
                    StoredParticipant(
                        players=list(p.players),
                        absent=bool(p.absent),
                        person=index.get(p.table_player_id)
                        if p.table_player_id is not None
                        else None,
                    )
                    for p in participants_of(session, t)
                ],
                rounds=rounds,
            )
        )
    return out


def dump_tournaments(session: Session) -> list[dict[str, Any]]:
    """Every tournament, oldest first, as stored (JSON data)."""
    return [as_json(t) for t in stored_tournaments(session)]


@dataclass
class CheckedTournament:
    """A tournament of a backup, checked, not stored: its row, its participants (names,
    absent, place among the table's people), its rounds and the games of their tables."""

    tournament: Tournament
    participants: list[tuple[list[str], bool, int | None]] = field(default_factory=list)
    rounds: list[tuple[TournamentRound, list[tuple[int, str]]]] = field(default_factory=list)


def _maybe_time(value: str | None) -> datetime | None:
    return from_iso_time(value) if value is not None else None


def _round(read: StoredRound) -> tuple[TournamentRound, list[tuple[int, str]]]:
    row = TournamentRound(
        number=read.number,
        state=read.state,
        seating=as_json(read.seating),
        created_at=from_iso_time(read.created_at),
        started_at=_maybe_time(read.started_at),
        ending_at=_maybe_time(read.ending_at),
        closed_at=_maybe_time(read.closed_at),
    )
    return row, [(link.table, link.game) for link in read.games]


def checked_tournament(read: StoredTournament) -> CheckedTournament:
    """A tournament read at the edge, as the rows to store (nothing stored)."""
    t = Tournament(
        id=read.id or new_key(),
        view_id=read.view_id or new_key(),
        name=read.name,
        ruleset=read.ruleset,
        options=read.options,
        players=read.players,
        format=read.format,
        scoring=read.scoring,
        points=as_json(read.points),
        round_end=read.round_end_kind,
        round_end_value=read.round_end_value,
        odd=read.odd,
        seed=read.seed,
        table_id=read.table,
        version=read.version,
        created_at=from_iso_time(read.created_at),
        updated_at=from_iso_time(read.updated_at),
    )
    return CheckedTournament(
        t,
        [(list(p.players), p.absent, p.person) for p in read.participants],
        [_round(r) for r in read.rounds],
    )


def read_tournaments(
    data: Any, games: Container[str], tables: Container[str] = ()
) -> list[CheckedTournament]:
    """The tournaments of a backup, read at the edge
    (:func:`...edge.stored_files.read_backup_tournaments`; nothing stored); a round's game
    names a game of the backup (``games``), a tournament's table one of its tables
    (``tables``; else the link is dropped). Raises :class:`GameProblems`."""
    read = read_backup_tournaments(data, games, tables)
    if isinstance(read, Rejected):
        raise GameProblems(list(read.problems))
    return [checked_tournament(one) for one in read]


def restore_tournament(session: Session, checked: CheckedTournament) -> bool:
    """Store one checked tournament (flushed, not committed); False when a tournament with
    its key is here already (left as it is). A round's game that is not here (or belongs to
    another tournament's table already) is left out."""
    t = checked.tournament
    if session.get(Tournament, t.id) is not None:
        return False
    if session.scalars(select(Tournament.id).where(Tournament.view_id == t.view_id)).first():
        t.view_id = new_key()
    if t.table_id is not None and session.get(Table, t.table_id) is None:
        t.table_id = None
    session.add(t)
    session.flush()
    people = _people(session, t.table_id)
    add_participants(
        session,
        t,
        [
            (names, absent, people[place].id if place is not None and place < len(people) else None)
            for names, absent, place in checked.participants
        ],
    )
    for round_row, links in checked.rounds:
        round_row.tournament_id = t.id
        session.add(round_row)
        session.flush()
        for table, game_id in links:
            if (
                session.get(Game, game_id) is not None
                and session.get(TournamentGame, game_id) is None
            ):
                session.add(TournamentGame(game_id=game_id, round_id=round_row.id, table=table))
    session.flush()
    return True
