"""What every part of a tournament uses: its bounds, its problems, reading it by key, and a
round's seating as stored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...edge.tournaments import MAX_PARTICIPANTS as MAX_PARTICIPANTS
from ...edge.tournaments import MAX_ROUNDS as MAX_ROUNDS
from ...edge.tournaments import PAIR_TABLES as PAIR_TABLES
from ...edge.tournaments import POINTS_MAX as POINTS_MAX
from ...edge.tournaments import ROUND_END_BOUNDS as ROUND_END_BOUNDS
from ...edge.tournaments import whole as whole
from ...rules.problems import Problem
from ...rules.ruleset import resolve_ruleset
from ...tournaments.model import (
    Format,
    OddCount,
    Seating,
    SeatingRules,
    TableSeating,
)
from ..errors import GameProblems
from ..games import KEY
from ..models import (
    Tournament,
    TournamentParticipant,
    TournamentRound,
)

# ---- problems ---------------------------------------------------------------------------------


def refuse(code: str, where: str = "", status: int | None = None, **params: Any) -> GameProblems:
    return GameProblems([Problem(code, where, params)], status)


def round_open(number: int) -> GameProblems:
    return refuse("tournament.round_open", "round", 409, round=number)


# ---- reading ---------------------------------------------------------------------------------


def get_tournament(session: Session, key: Any) -> Tournament | None:
    """The tournament with this editing key, or None (also for malformed keys)."""
    if not isinstance(key, str) or not KEY.match(key):
        return None
    return session.get(Tournament, key)


def get_by_view(session: Session, view_id: Any) -> Tournament | None:
    """The tournament with this read-only key, or None."""
    if not isinstance(view_id, str) or not KEY.match(view_id):
        return None
    return session.scalars(select(Tournament).where(Tournament.view_id == view_id)).first()


def add_participants(
    session: Session, t: Tournament, rows: Sequence[tuple[list[str], bool, int | None]]
) -> None:
    """Store ``t``'s participants, numbered in order: each row is the names (one, or a pair),
    whether absent, and the table's person it is (None: not a person of a table)."""
    for number, (names, absent, person) in enumerate(rows):
        session.add(
            TournamentParticipant(
                tournament_id=t.id,
                number=number,
                players=names,
                absent=absent,
                table_player_id=person,
            )
        )


def participants_of(session: Session, t: Tournament) -> list[TournamentParticipant]:
    query = (
        select(TournamentParticipant)
        .where(TournamentParticipant.tournament_id == t.id)
        .order_by(TournamentParticipant.number)
    )
    return list(session.scalars(query))


def rounds_of(session: Session, t: Tournament) -> list[TournamentRound]:
    query = (
        select(TournamentRound)
        .where(TournamentRound.tournament_id == t.id)
        .order_by(TournamentRound.number)
    )
    return list(session.scalars(query))


def round_of(session: Session, t: Tournament, number: Any) -> TournamentRound:
    """Round ``number`` (1-based) of the tournament (``tournament.round_unknown``, 404)."""
    found = None
    if isinstance(number, int) and not isinstance(number, bool) and 0 < number <= MAX_ROUNDS:
        found = session.scalars(
            select(TournamentRound).where(
                TournamentRound.tournament_id == t.id, TournamentRound.number == number
            )
        ).first()
    if found is None:
        raise refuse("tournament.round_unknown", "round", 404, round=str(number)[:12])
    return found


# ---- a round's seating as stored ------------------------------------------------------------


def seating_json(seating: Seating) -> dict[str, Any]:
    return {
        "tables": [
            {"number": table.number, "sides": [list(side) for side in table.sides]}
            for table in seating.tables
        ],
        "byes": list(seating.byes),
    }


def seating_of(stored: Mapping[str, Any]) -> Seating:
    """A round's stored ``seating`` as the engine's value."""
    return Seating(
        tables=tuple(
            TableSeating(
                number=int(table["number"]),
                sides=tuple(tuple(int(p) for p in side) for side in table["sides"]),
            )
            for table in stored.get("tables", [])
        ),
        byes=tuple(int(p) for p in stored.get("byes", [])),
    )


def rules_of(t: Tournament) -> SeatingRules:
    """The hard rules of the tournament's seatings, with the sizes its ruleset allows."""
    rs, _count, _problems = resolve_ruleset(t.ruleset, t.players, t.options)
    allowed = tuple(rs.players_allowed) if rs is not None else (t.players,)
    if Format(t.format) is Format.PAIRS:
        allowed = tuple(n for n in allowed if n in PAIR_TABLES)
    return SeatingRules(
        format=Format(t.format),
        table_size=t.players,
        allowed_sizes=allowed,
        odd=OddCount(t.odd),
    )
