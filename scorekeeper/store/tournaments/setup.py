"""A new tournament: the director's settings and participants read and checked, then stored."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from ...rules.problems import Problem
from ...rules.ruleset import resolve_ruleset
from ...tournaments.model import (
    Format,
    OddCount,
    Points,
    RoundEnd,
    Scoring,
)
from .. import tables
from ..errors import GameProblems
from ..games import clean_name
from ..models import (
    Table,
    TablePlayer,
    Tournament,
    utcnow,
)
from .common import (
    MAX_PARTICIPANTS,
    PAIR_TABLES,
    POINTS_MAX,
    ROUND_END_BOUNDS,
    add_participants,
    not_given,
    whole,
)


def _choice(value: Any, kind: type[Any], where: str, default: Any, problems: list[Problem]) -> Any:
    if value is None and default is not None:
        return default
    try:
        return kind(value)
    except ValueError:
        allowed = [str(v.value) for v in kind]
        problems.append(Problem("request.value", where, {"field": where, "allowed": allowed}))
        return default
    except TypeError:  # pragma: no cover - enum lookups answer ValueError for any value
        problems.append(Problem("request.type", where, {"field": where}))
        return default


def _points(value: Any, problems: list[Problem]) -> Points:
    if value is None:
        return Points()
    if not isinstance(value, dict):
        problems.append(Problem("request.type", "points", {"field": "points"}))
        return Points()
    out: dict[str, int] = {}
    for key in value:
        if key not in ("win", "draw", "loss"):
            problems.append(Problem("request.unknown_key", "points", {"key": str(key)[:40]}))
    for key, fallback in (("win", 2), ("draw", 1), ("loss", 0)):
        given = value.get(key, fallback)
        if not whole(given) or not 0 <= given <= POINTS_MAX:
            problems.append(
                Problem("tournament.points", f"points.{key}", {"minimum": 0, "maximum": POINTS_MAX})
            )
            given = fallback
        out[key] = given
    if not problems and not out["win"] >= out["draw"] >= out["loss"]:
        problems.append(Problem("tournament.points_order", "points", {}))
    return Points(**out)


def _round_end(value: Any, problems: list[Problem]) -> tuple[RoundEnd, int]:
    if not isinstance(value, dict):
        problems.append(not_given(value, "round_end"))
        return RoundEnd.HANDS, 1
    kinds = [k for k in value if k in {e.value for e in RoundEnd}]
    if len(value) != 1 or len(kinds) != 1:
        problems.append(Problem("tournament.round_end", "round_end", {}))
        return RoundEnd.HANDS, 1
    kind = RoundEnd(kinds[0])
    low, high = ROUND_END_BOUNDS[kind]
    given = value[kind.value]
    if not whole(given) or not low <= given <= high:
        problems.append(
            Problem(
                "tournament.round_end_value",
                f"round_end.{kind.value}",
                {"kind": kind.value, "minimum": low, "maximum": high},
            )
        )
        return kind, low
    return kind, int(given)


def _typed_participants(value: Any, pairs: bool, problems: list[Problem]) -> list[list[str]] | None:
    if not isinstance(value, list):
        problems.append(not_given(value, "participants"))
        return None
    if len(value) > MAX_PARTICIPANTS:
        problems.append(
            Problem(
                "tournament.participants",
                "participants",
                {"minimum": 2, "maximum": MAX_PARTICIPANTS, "have": len(value)},
            )
        )
        return None
    out: list[list[str]] = []
    for i, item in enumerate(value):
        where = f"participants[{i}]"
        if pairs:
            if not isinstance(item, list) or len(item) != 2:
                problems.append(Problem("tournament.pair", where, {"participant": i}))
                continue
            out.append([clean_name(n, f"{where}[{j}]", problems) for j, n in enumerate(item)])
        elif isinstance(item, list) and len(item) == 1:
            out.append([clean_name(item[0], f"{where}[0]", problems)])
        else:
            out.append([clean_name(item, where, problems)])
    return out


def _from_table(
    session: Session, key: Any, value: Any, pairs: bool, problems: list[Problem]
) -> tuple[Table | None, list[list[str]] | None, list[int | None]]:
    """The participants named from a table's people: all of them (format individual) when
    ``participants`` is left out, else each name must be a person of the table."""
    table = tables.get_table(session, key)
    if table is None:
        problems.append(Problem("table.not_found", "table", {}))
        return None, None, []
    tables.lock(session, table)  # its people stay as read until the tournament is stored
    people = tables.people(session, table)
    if value is None:
        if pairs:
            problems.append(Problem("request.missing", "participants", {"field": "participants"}))
            return table, None, []
        return table, [[p.name] for p in people], [p.id for p in people]
    named = _typed_participants(value, pairs, problems)
    if named is None:
        return table, None, []
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


def _check_people(named: list[list[str]], fmt: Format, size: int, problems: list[Problem]) -> None:
    seen: set[str] = set()
    for i, names in enumerate(named):
        for j, name in enumerate(names):
            if name and name.casefold() in seen:
                where = f"participants[{i}]" + (f"[{j}]" if fmt is Format.PAIRS else "")
                problems.append(Problem("tournament.player_twice", where, {"name": name}))
            seen.add(name.casefold())
    # enough for one table of the chosen size
    per = 2 if fmt is Format.PAIRS else 1
    minimum = max(2, -(-size // per))
    if len(named) < minimum:
        problems.append(
            Problem(
                "tournament.participants",
                "participants",
                {"minimum": minimum, "maximum": MAX_PARTICIPANTS, "have": len(named)},
            )
        )


def create_tournament(session: Session, data: Mapping[str, Any]) -> Tournament:
    """A new tournament with its participants (flushed, not committed), from the API body:
    ``{"name", "ruleset", "options", "players", "format", "scoring", "points"?,
    "round_end", "odd"?, "participants"}``; ``"table": <table editing key>`` takes the
    participants from that table's people (all of them, or the ones ``participants`` names).
    Raises :class:`GameProblems` (400 for an unreadable request, else 422)."""
    problems: list[Problem] = []
    name = clean_name(data.get("name"), "name", problems)
    rs, size, rs_problems = resolve_ruleset(
        data.get("ruleset"), data.get("players"), data.get("options")
    )
    problems.extend(rs_problems)
    fmt = _choice(data.get("format"), Format, "format", Format.INDIVIDUAL, problems)
    scoring = _choice(data.get("scoring"), Scoring, "scoring", Scoring.MATCH_POINTS, problems)
    odd = _choice(data.get("odd"), OddCount, "odd", OddCount.BYE, problems)
    points = _points(data.get("points"), problems)
    end, end_value = _round_end(data.get("round_end"), problems)
    if rs is not None and fmt is Format.PAIRS and size not in PAIR_TABLES:
        allowed = [n for n in PAIR_TABLES if n in rs.players_allowed]
        problems.append(
            Problem("tournament.pairs_table", "players", {"players": size, "allowed": allowed})
        )
    pairs = fmt is Format.PAIRS
    table: Table | None = None
    links: list[int | None] = []
    if data.get("table") is not None:
        table, named, links = _from_table(
            session, data.get("table"), data.get("participants"), pairs, problems
        )
    else:
        named = _typed_participants(data.get("participants"), pairs, problems)
    if named is not None:
        _check_people(named, fmt, size if rs is not None else 2, problems)
    if problems or rs is None or named is None:
        raise GameProblems(problems)
    now = utcnow()
    t = Tournament(
        name=name,
        ruleset=rs.id,
        options=dict(data["options"]) if isinstance(data.get("options"), dict) else {},
        players=size,
        format=fmt.value,
        scoring=scoring.value,
        points={"win": points.win, "draw": points.draw, "loss": points.loss},
        round_end=end.value,
        round_end_value=end_value,
        odd=odd.value,
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
