"""Club tournaments in the whole database's backup (``scorekeeper export`` / ``import``, the
``tournaments`` list beside ``games`` and ``tables``; the format is :mod:`.backup`'s).

A tournament is written as stored: its keys, settings, seed, version and times; its
participants in order (a participant that is a person of the tournament's table names that
person by their place in the table's people, as the table's own backup does); its rounds with
their seating, state and times, and the game of each table (by the game's editing key, which
the backup holds). Reading one is reading untrusted input: every value is checked (the
settings as :func:`.tournaments.create_tournament` checks them, seatings against the
participants, games against the backup's games) before anything is stored.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...edge.stored_files import read_key, read_moment, read_whole
from ...rules.problems import Problem
from ...rules.ruleset import resolve_ruleset
from ...tournaments.model import Format, OddCount, RoundEnd, RoundState, Scoring
from ..backup import iso_time, read_list
from ..errors import GameProblems
from ..models import (
    Game,
    Table,
    TablePlayer,
    Tournament,
    TournamentGame,
    TournamentRound,
    new_key,
    utcnow,
)
from .common import (
    MAX_PARTICIPANTS,
    MAX_ROUNDS,
    POINTS_MAX,
    ROUND_END_BOUNDS,
    add_participants,
    participants_of,
    rounds_of,
    seating_json,
    seating_of,
)

#: the most tournaments one backup may hold
MAX_TOURNAMENTS = 10_000


def _people(session: Session, table_id: str | None) -> list[TablePlayer]:
    if table_id is None:
        return []
    query = (
        select(TablePlayer)
        .where(TablePlayer.table_id == table_id)
        .order_by(TablePlayer.position, TablePlayer.id)
    )
    return list(session.scalars(query))


def dump_tournaments(session: Session) -> list[dict[str, Any]]:
    """Every tournament, oldest first, as stored."""
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
            rounds.append(
                {
                    "number": found.number,
                    "state": found.state,
                    "seating": {
                        **seating_json(seating_of(found.seating)),
                        "draw": int(found.seating.get("draw", 0)),
                    },
                    "created_at": iso_time(found.created_at),
                    "started_at": iso_time(found.started_at) if found.started_at else None,
                    "ending_at": iso_time(found.ending_at) if found.ending_at else None,
                    "closed_at": iso_time(found.closed_at) if found.closed_at else None,
                    "games": [{"table": table, "game": game} for table, game in links],
                }
            )
        out.append(
            {
                "id": t.id,
                "view_id": t.view_id,
                "name": t.name,
                "ruleset": t.ruleset,
                "options": dict(t.options or {}),
                "players": t.players,
                "format": t.format,
                "scoring": t.scoring,
                "points": dict(t.points),
                "round_end": {t.round_end: t.round_end_value},
                "odd": t.odd,
                "seed": t.seed,
                "table": t.table_id,
                "version": t.version,
                "created_at": iso_time(t.created_at),
                "updated_at": iso_time(t.updated_at),
                "participants": [
                    {
                        "players": list(p.players),
                        "absent": bool(p.absent),
                        "person": index.get(p.table_player_id)
                        if p.table_player_id is not None
                        else None,
                    }
                    for p in participants_of(session, t)
                ],
                "rounds": rounds,
            }
        )
    return out


@dataclass
class CheckedTournament:
    """A tournament of a backup, checked, not stored: its row, its participants (names,
    absent, place among the table's people), its rounds and the games of their tables."""

    tournament: Tournament
    participants: list[tuple[list[str], bool, int | None]] = field(default_factory=list)
    rounds: list[tuple[TournamentRound, list[tuple[int, str]]]] = field(default_factory=list)


def _name(value: Any, where: str, problems: list[Problem]) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 40:
        problems.append(Problem("request.value", where, {}))
        return ""
    return value


def _choice(value: Any, kind: type[Enum], where: str, problems: list[Problem]) -> str:
    try:
        return str(kind(value).value)
    except ValueError:
        problems.append(Problem("request.value", where, {}))
        return str(next(iter(kind)).value)


def _seating(value: Any, count: int, where: str, problems: list[Problem]) -> dict[str, Any] | None:
    """A stored seating: tables numbered with sides of participant numbers, and byes."""

    def numbers(items: Any) -> bool:
        return (
            isinstance(items, list)
            and len(items) <= count
            and all(
                isinstance(p, int) and not isinstance(p, bool) and 0 <= p < count for p in items
            )
        )

    if not isinstance(value, dict) or not numbers(value.get("byes", [])):
        problems.append(Problem("request.value", where, {}))
        return None
    tables = value.get("tables")
    if not isinstance(tables, list) or len(tables) > count:
        problems.append(Problem("request.value", where, {}))
        return None
    for table in tables:
        sides = table.get("sides") if isinstance(table, dict) else None
        number = table.get("number") if isinstance(table, dict) else None
        if (
            not isinstance(number, int)
            or isinstance(number, bool)
            or not 0 < number <= count
            or not isinstance(sides, list)
            or not 1 < len(sides) <= 6
            or not all(numbers(side) and len(side) <= 3 for side in sides)
        ):
            problems.append(Problem("request.value", where, {}))
            return None
    draw = value.get("draw", 0)
    if isinstance(draw, bool) or not isinstance(draw, int) or not 0 <= draw < 2**31:
        problems.append(Problem("request.value", f"{where}.draw", {}))
        return None
    return {**seating_json(seating_of(value)), "draw": draw}


def read_tournaments(
    data: Any, games: Container[str], tables: Container[str] = ()
) -> list[CheckedTournament]:
    """The tournaments of a backup, checked (nothing stored); a round's game names a game of
    the backup (``games``), a tournament's table one of its tables (``tables``; else the link
    is dropped). Raises :class:`GameProblems`."""
    items = data.get("tournaments", []) if isinstance(data, dict) else []
    if not isinstance(items, list):
        raise GameProblems([Problem("request.type", "tournaments", {"expected": "list"})])
    if len(items) > MAX_TOURNAMENTS:
        raise GameProblems(
            [Problem("request.too_large", "tournaments", {"limit": MAX_TOURNAMENTS})], 400
        )
    out = []
    problems: list[Problem] = []
    for i, item in enumerate(items):
        where = f"tournaments[{i}]"
        if not isinstance(item, dict):
            raise GameProblems([Problem("request.type", where, {"expected": "object"})])
        rs, size, rs_problems = resolve_ruleset(
            item.get("ruleset"), item.get("players"), item.get("options")
        )
        problems.extend(Problem(p.code, f"{where}.{p.where}", p.params) for p in rs_problems)
        points = item.get("points")
        if not isinstance(points, dict) or set(points) != {"win", "draw", "loss"}:
            problems.append(Problem("request.value", f"{where}.points", {}))
            points = {"win": 2, "draw": 1, "loss": 0}
        for kind in ("win", "draw", "loss"):
            points[kind] = read_whole(
                points[kind], f"{where}.points.{kind}", (0, POINTS_MAX), problems
            )
        end = item.get("round_end")
        end_kind, end_value = RoundEnd.HANDS.value, 1
        if isinstance(end, dict) and len(end) == 1 and next(iter(end)) in ROUND_END_BOUNDS:
            end_kind = next(iter(end))
            end_value = read_whole(
                end[end_kind], f"{where}.round_end", ROUND_END_BOUNDS[RoundEnd(end_kind)], problems
            )
        else:
            problems.append(Problem("request.value", f"{where}.round_end", {}))
        table_id = read_key(item, "table", where, problems)
        created = read_moment(item.get("created_at"), f"{where}.created_at", problems, utcnow())
        t = Tournament(
            id=read_key(item, "id", where, problems) or new_key(),
            view_id=read_key(item, "view_id", where, problems) or new_key(),
            name=_name(item.get("name"), f"{where}.name", problems),
            ruleset=rs.id if rs is not None else "",
            options=dict(item["options"]) if isinstance(item.get("options"), dict) else {},
            players=size,
            format=_choice(item.get("format"), Format, f"{where}.format", problems),
            scoring=_choice(item.get("scoring"), Scoring, f"{where}.scoring", problems),
            points=points,
            round_end=end_kind,
            round_end_value=end_value,
            odd=_choice(item.get("odd"), OddCount, f"{where}.odd", problems),
            seed=read_whole(item.get("seed"), f"{where}.seed", (0, 2**31 - 1), problems),
            table_id=table_id if table_id in tables else None,
            version=read_whole(item.get("version", 1), f"{where}.version", (1, 10**9), problems),
            created_at=created,
            updated_at=read_moment(
                item.get("updated_at"), f"{where}.updated_at", problems, created
            ),
        )
        checked = CheckedTournament(t)
        people = read_list(item, "participants", where, MAX_PARTICIPANTS)
        if len(people) < 2:
            problems.append(Problem("request.value", f"{where}.participants", {}))
        for j, person in enumerate(people):
            at = f"{where}.participants[{j}]"
            names = person.get("players") if isinstance(person, dict) else None
            if not isinstance(names, list) or not 1 <= len(names) <= 2:
                problems.append(Problem("request.value", at, {}))
                continue
            clean = [_name(n, f"{at}.players", problems) for n in names]
            absent = person.get("absent", False)
            place = person.get("person")
            if not isinstance(absent, bool) or not (
                place is None or (isinstance(place, int) and 0 <= place < 10_000)
            ):
                problems.append(Problem("request.value", at, {}))
                continue
            checked.participants.append((clean, absent, place))
        numbers = []
        for j, stored in enumerate(read_list(item, "rounds", where, MAX_ROUNDS)):
            at = f"{where}.rounds[{j}]"
            if not isinstance(stored, dict):
                problems.append(Problem("request.value", at, {}))
                continue
            number = read_whole(stored.get("number"), f"{at}.number", (1, MAX_ROUNDS), problems)
            numbers.append(number)
            seating = _seating(stored.get("seating"), len(people), f"{at}.seating", problems)
            links = []
            for k, link in enumerate(read_list(stored, "games", at, MAX_PARTICIPANTS)):
                game = link.get("game") if isinstance(link, dict) else None
                table = link.get("table") if isinstance(link, dict) else None
                if (
                    game not in games
                    or not isinstance(table, int)
                    or isinstance(table, bool)
                    or not 0 < table <= MAX_PARTICIPANTS
                ):
                    problems.append(Problem("request.value", f"{at}.games[{k}]", {}))
                    continue
                links.append((table, str(game)))
            begun = read_moment(stored.get("created_at"), f"{at}.created_at", problems, created)
            round_row = TournamentRound(
                number=number,
                state=_choice(stored.get("state"), RoundState, f"{at}.state", problems),
                seating=seating or {"tables": [], "byes": [], "draw": 0},
                created_at=begun,
                started_at=_maybe(stored, "started_at", at, problems),
                ending_at=_maybe(stored, "ending_at", at, problems),
                closed_at=_maybe(stored, "closed_at", at, problems),
            )
            checked.rounds.append((round_row, links))
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(Problem("request.value", f"{where}.rounds", {}))
        out.append(checked)
    if problems:
        raise GameProblems(problems)
    return out


def _maybe(item: dict[str, Any], name: str, where: str, problems: list[Problem]) -> Any:
    if item.get(name) is None:
        return None
    return read_moment(item.get(name), f"{where}.{name}", problems, utcnow())


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
