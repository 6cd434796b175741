"""A new tournament: the director's settings and participants read and checked, then stored."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy.orm import Session

from ...edge.tournaments import TournamentSetup, check_people
from ...rules.problems import Problem
from ...tournaments.model import Format
from .. import tables
from ..errors import GameProblems
from ..models import (
    Table,
    TablePlayer,
    Tournament,
    utcnow,
)
from .common import add_participants


def _from_table(
    session: Session,
    key: Any,
    named: list[list[str]] | None,
    pairs: bool,
    problems: list[Problem],
) -> tuple[Table | None, list[list[str]] | None, list[int | None]]:
    """The participants named from a table's people: all of them when the request named none
    (format individual: the edge asked pairs to name theirs), else each name read must be a
    person of the table (spelled as the table spells it)."""
    table = tables.get_table(session, key)
    if table is None:
        problems.append(Problem("table.not_found", "table", {}))
        return None, None, []
    tables.lock(session, table)  # its people stay as read until the tournament is stored
    people = tables.people(session, table)
    if named is None:
        return table, [[p.name] for p in people], [p.id for p in people]
    known: dict[str, TablePlayer] = {p.name.casefold(): p for p in people}
    links: list[int | None] = []
    spelled: list[list[str]] = []
    for i, names in enumerate(named):
        row = []
        for j, name in enumerate(names):
            person = known.get(name.casefold()) if name else None
            if name and person is None:
                where = f"participants[{i}]" + (f"[{j}]" if pairs else "")
                problems.append(Problem("table.player_unknown", where, {"name": name}))
            row.append(person.name if person is not None else name)
        spelled.append(row)
        person = known.get(names[0].casefold()) if len(names) == 1 and names[0] else None
        links.append(person.id if person is not None else None)
    return table, spelled, links


def create_tournament(session: Session, setup: TournamentSetup) -> Tournament:
    """A new tournament with its participants (flushed, not committed), as the edge read it
    (:func:`~...edge.tournaments.read_new_tournament`); with a table (``setup.table``, its
    editing key) the participants are that table's people (all of them, or the ones the
    request named). Raises :class:`GameProblems` (422) for a table that is not there or a name
    that is no person of it."""
    problems: list[Problem] = []
    table: Table | None = None
    named = setup.participants
    links: list[int | None] = []
    if setup.table is not None:
        table, named, links = _from_table(
            session, setup.table, named, setup.format is Format.PAIRS, problems
        )
        if named is not None and setup.participants is None:  # the table's people
            problems.extend(check_people(named, setup.format, setup.players))
    if problems or named is None:
        raise GameProblems(problems)
    now = utcnow()
    points = setup.points
    t = Tournament(
        name=setup.name,
        ruleset=setup.ruleset.id,
        options=dict(setup.options),
        players=setup.players,
        format=setup.format.value,
        scoring=setup.scoring.value,
        points={"win": points.win, "draw": points.draw, "loss": points.loss},
        round_end=setup.round_end.value,
        round_end_value=setup.round_end_value,
        odd=setup.odd.value,
        seed=secrets.randbelow(2**31),
        table_id=table.id if table is not None else None,
        version=1,
        created_at=now,
        updated_at=now,
    )
    session.add(t)
    session.flush()
    add_participants(
        session,
        t,
        [(names, False, links[n] if n < len(links) else None) for n, names in enumerate(named)],
    )
    session.flush()
    return t
