"""Club tournaments: the tournament, its participants, its rounds and the game of each table.

The pairing engine (:mod:`scorekeeper.tournament.seating`) decides who sits where and
:mod:`scorekeeper.tournament.standings` how the participants rank; this module stores what they
decide, creates each table's game with :func:`.games.create_game` (the phones at the table
enter hands as in any game) and reads the whole tournament back as one
:class:`~scorekeeper.tournament.model.TournamentView`.

A round is proposed (seating by lot, changeable by hand), then confirmed (one game per table),
then closed. A table has *reported* when it reached the round's end: ``hands`` mode, it has N
hands (its result counts the first N only); ``target`` mode, its game has a winner or it has a
hand made after the first hand that brought any table of the round to the target; ``minutes``
mode, it has a hand made after the director called time. Every table of a closed round has
reported. A game with a winner has reported in every mode (it takes no further hand).

Every function takes the caller's session and never commits; bad input raises
:class:`GameProblems` and changes nothing.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, lazyload
from sqlalchemy.orm.attributes import set_committed_value

from ..rules.problems import Problem
from ..rules.ruleset import resolve_ruleset
from ..tournament import seating as engine
from ..tournament import standings as ranking
from ..tournament.model import (
    Format,
    OddCount,
    ParticipantView,
    Points,
    RoundEnd,
    RoundState,
    RoundView,
    Scoring,
    Seating,
    SeatingRules,
    StandingRow,
    TableResult,
    TableSeating,
    TableView,
    TournamentView,
)
from . import cache, stamps, tables
from .db import session_scope
from .derive import game_state
from .errors import GameProblems
from .games import KEY, NAME_MAX, clean_name, create_game
from .models import (
    Game,
    Table,
    TablePlayer,
    Tournament,
    TournamentGame,
    TournamentParticipant,
    TournamentRound,
    utcnow,
)
from .state import GameState

T = TypeVar("T")

#: participants one tournament takes (a pair is one): a big club day, not a city
MAX_PARTICIPANTS = 400
#: rounds one tournament plays
MAX_ROUNDS = 30
#: the bounds of each kind of round end
ROUND_END_BOUNDS: dict[RoundEnd, tuple[int, int]] = {
    RoundEnd.HANDS: (1, 50),
    RoundEnd.TARGET: (100, 1_000_000),
    RoundEnd.MINUTES: (1, 600),
}
#: match points a win, draw or loss may give
POINTS_MAX = 100
#: the sizes of a table whose sides are pairs
PAIR_TABLES = (4, 6)


# ---- problems ---------------------------------------------------------------------------------


def _refuse(code: str, where: str = "", status: int | None = None, **params: Any) -> GameProblems:
    return GameProblems([Problem(code, where, params)], status)


def _round_open(number: int) -> GameProblems:
    return _refuse("tournament.round_open", "round", 409, round=number)


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
        raise _refuse("tournament.round_unknown", "round", 404, round=str(number)[:12])
    return found


# ---- creating --------------------------------------------------------------------------------


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


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
        if not _whole(given) or not 0 <= given <= POINTS_MAX:
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
        problems.append(
            Problem(
                "request.missing" if value is None else "request.type",
                "round_end",
                {"field": "round_end"},
            )
        )
        return RoundEnd.HANDS, 1
    kinds = [k for k in value if k in {e.value for e in RoundEnd}]
    if len(value) != 1 or len(kinds) != 1:
        problems.append(Problem("tournament.round_end", "round_end", {}))
        return RoundEnd.HANDS, 1
    kind = RoundEnd(kinds[0])
    low, high = ROUND_END_BOUNDS[kind]
    given = value[kind.value]
    if not _whole(given) or not low <= given <= high:
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
        problems.append(
            Problem(
                "request.missing" if value is None else "request.type",
                "participants",
                {"field": "participants"},
            )
        )
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
    for number, names in enumerate(named):
        session.add(
            TournamentParticipant(
                tournament_id=t.id,
                number=number,
                players=names,
                absent=False,
                table_player_id=links[number] if number < len(links) else None,
            )
        )
    session.flush()
    return t


# ---- seating ----------------------------------------------------------------------------------


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


def _lot(t: Tournament, *parts: int) -> int:
    """A seed for one lot of the tournament: the same parts, the same lot."""
    return random.Random(f"{t.seed}/" + "/".join(str(p) for p in parts)).randrange(2**31)


def _touch(session: Session, t: Tournament) -> None:
    """Move the tournament on to its next version; a director who changed it at the same
    moment makes this one fail (``tournament.changed``, 409) instead of doubling a round."""
    now = utcnow()
    done = session.execute(
        update(Tournament)
        .where(Tournament.id == t.id, Tournament.version == t.version)
        .values(version=t.version + 1, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    if getattr(done, "rowcount", 1) != 1:
        raise _refuse("tournament.changed", "", 409)
    set_committed_value(t, "version", t.version + 1)
    set_committed_value(t, "updated_at", now)


def _absent(people: Sequence[TournamentParticipant]) -> list[int]:
    return [p.number for p in people if p.absent]


def _draw(
    t: Tournament,
    people: Sequence[TournamentParticipant],
    history: Sequence[Seating],
    number: int,
    draw: int,
) -> Seating:
    """The engine's seating of round ``number`` by the lot of its ``draw``-th drawing."""
    seating = engine.propose(
        rules_of(t), [p.number for p in people], history, _absent(people), _lot(t, number, draw)
    )
    if not seating.tables:
        raise _refuse("tournament.nobody", "participants", 422)
    return seating


def propose_round(session: Session, t: Tournament) -> TournamentRound:
    """The next round's seating by lot (not yet confirmed: no games). A proposal not yet
    confirmed is drawn again; a round still playing is closed first when every table has
    reported, else the new round is refused (``tournament.round_open``, 409)."""
    rounds = rounds_of(session, t)
    last = rounds[-1] if rounds else None
    people = participants_of(session, t)
    history = [
        seating_of(r.seating) for r in rounds if RoundState(r.state) is not RoundState.PROPOSED
    ]
    if last is not None and RoundState(last.state) is RoundState.PROPOSED:
        draw = last.seating.get("draw", 0) + 1 if isinstance(last.seating, dict) else 1
        seating = _draw(t, people, history, last.number, draw)
        last.seating = {**seating_json(seating), "draw": draw}
        _touch(session, t)
        session.flush()
        return last
    if last is not None and RoundState(last.state) is RoundState.PLAYING:
        if not all(table.reported for table in _round_view(session, t, last, people, True).tables):
            raise _round_open(last.number)
        last.state = RoundState.CLOSED.value
        last.closed_at = utcnow()
    number = (last.number if last is not None else 0) + 1
    if number > MAX_ROUNDS:
        raise _refuse("tournament.rounds", "round", 422, maximum=MAX_ROUNDS)
    seating = _draw(t, people, history, number, 0)
    now = utcnow()
    proposed = TournamentRound(
        tournament_id=t.id,
        number=number,
        state=RoundState.PROPOSED.value,
        seating={**seating_json(seating), "draw": 0},
        created_at=now,
    )
    session.add(proposed)
    _touch(session, t)
    session.flush()
    return proposed


def _proposed(session: Session, t: Tournament, number: Any) -> TournamentRound:
    found = round_of(session, t, number)
    if RoundState(found.state) is not RoundState.PROPOSED:
        raise _refuse("tournament.round_state", "round", 409, round=found.number, state=found.state)
    return found


def _checked(session: Session, t: Tournament, seating: Seating) -> None:
    people = participants_of(session, t)
    refusals = engine.check(rules_of(t), [p.number for p in people], seating, _absent(people))
    if refusals:
        raise GameProblems([Problem(r.code, "seating", dict(r.params)) for r in refusals])


def set_seating(session: Session, t: Tournament, number: int, seating: Seating) -> TournamentRound:
    """A proposed round seated by hand; refused with the engine's ``seating.*`` codes."""
    found = _proposed(session, t, number)
    _checked(session, t, seating)
    found.seating = {**seating_json(seating), "draw": found.seating.get("draw", 0)}
    _touch(session, t)
    session.flush()
    return found


def swap(session: Session, t: Tournament, number: int, a: int, b: int) -> TournamentRound:
    """Participants ``a`` and ``b`` change places in a proposed round (a bye may swap with a
    seated participant)."""
    found = _proposed(session, t, number)
    known = {p.number for p in participants_of(session, t)}
    for where, value in (("a", a), ("b", b)):
        if not _whole(value) or value not in known:
            raise _refuse(
                "seating.unknown", where, participant=value if _whole(value) else str(value)[:12]
            )
    try:
        swapped = engine.swap(seating_of(found.seating), a, b)
    except ValueError:  # neither of them is in the seating (both absent)
        raise _refuse("seating.absent", "a", participant=a) from None
    return set_seating(session, t, number, swapped)


def _side_name(names: Sequence[str]) -> str:
    text = " & ".join(names)
    return text if len(text) <= NAME_MAX else text[: NAME_MAX - 1].rstrip() + "\u2026"


def confirm_round(session: Session, t: Tournament, number: int) -> TournamentRound:
    """Create the games of a proposed round, one per table: the tournament's ruleset and
    house rules, the names by side in seat order, the target when the round ends at one, the
    first dealer by lot."""
    found = _proposed(session, t, number)
    seating = seating_of(found.seating)
    _checked(session, t, seating)
    people = {p.number: p for p in participants_of(session, t)}
    table = session.get(Table, t.table_id) if t.table_id is not None else None
    target = t.round_end_value if RoundEnd(t.round_end) is RoundEnd.TARGET else None
    for seated in seating.tables:
        sides = []
        for side in seated.sides:
            names = [name for p in side for name in people[p].players]
            sides.append({"name": _side_name(names), "players": names})
        size = sum(len(s["players"]) for s in sides)
        game = create_game(session, t.ruleset, size, sides, t.options, target=target, name=t.name)
        game.first_dealer = random.Random(_lot(t, found.number, seated.number)).randrange(size)
        if table is not None:
            tables.attach(session, table, game)
        session.add(TournamentGame(game_id=game.id, round_id=found.id, table=seated.number))
    found.state = RoundState.PLAYING.value
    found.started_at = utcnow()
    _touch(session, t)
    session.flush()
    return found


def start_round(session: Session, t: Tournament) -> TournamentRound:
    """The next round proposed and confirmed at once (the API's "new round")."""
    proposed = propose_round(session, t)
    return confirm_round(session, t, proposed.number)


def _playing(session: Session, t: Tournament, number: Any) -> TournamentRound:
    found = round_of(session, t, number)
    if RoundState(found.state) is RoundState.PROPOSED:
        raise _refuse("tournament.round_state", "round", 409, round=found.number, state=found.state)
    return found


def call_time(session: Session, t: Tournament, number: int) -> TournamentRound:
    """The director calls time in a round that ends after minutes: every table finishes the
    hand it is playing. Calling it again changes nothing."""
    found = _playing(session, t, number)
    if RoundEnd(t.round_end) is not RoundEnd.MINUTES:
        raise _refuse("tournament.no_time", "round", 422)
    if found.ending_at is None and RoundState(found.state) is RoundState.PLAYING:
        found.ending_at = utcnow()
        _touch(session, t)
        session.flush()
    return found


def close_round(session: Session, t: Tournament, number: int) -> TournamentRound:
    """The director closes a round: its results are final (what its tables entered). Closing
    it again changes nothing."""
    found = _playing(session, t, number)
    if RoundState(found.state) is RoundState.PLAYING:
        found.state = RoundState.CLOSED.value
        found.closed_at = utcnow()
        _touch(session, t)
        session.flush()
    return found


def set_absent(session: Session, t: Tournament, number: Any, absent: bool) -> TournamentParticipant:
    """A participant leaves (or rejoins) the tournament: the next seatings leave them out
    (a proposal not yet confirmed is drawn again, so that it seats everyone present)."""
    found = None
    if _whole(number) and 0 <= number < MAX_PARTICIPANTS:
        found = session.scalars(
            select(TournamentParticipant).where(
                TournamentParticipant.tournament_id == t.id,
                TournamentParticipant.number == number,
            )
        ).first()
    if found is None:
        raise _refuse(
            "tournament.participant_unknown", "participant", 404, participant=str(number)[:12]
        )
    if not isinstance(absent, bool):
        code = "request.missing" if absent is None else "request.type"
        raise _refuse(code, "absent", field="absent")
    if found.absent != absent:
        found.absent = absent
        _touch(session, t)
        session.flush()
        rounds = rounds_of(session, t)
        if rounds and RoundState(rounds[-1].state) is RoundState.PROPOSED:
            try:
                propose_round(session, t)
            except GameProblems:  # too few left to seat a table: no proposal
                session.delete(rounds[-1])
                session.flush()
    return found


# ---- the read model ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameTournament:
    """What a game page shows of the tournament its game belongs to."""

    name: str
    view_id: str
    round: int
    table: int
    round_end: RoundEnd
    round_end_value: int


def game_tournament(session: Session, game_id: Any) -> GameTournament | None:
    """The tournament, round and table of a game, or None for a game of no tournament."""
    if not isinstance(game_id, str) or not KEY.match(game_id):
        return None
    row = session.execute(
        select(
            Tournament.name,
            Tournament.view_id,
            TournamentRound.number,
            TournamentGame.table,
            Tournament.round_end,
            Tournament.round_end_value,
        )
        .select_from(TournamentGame)
        .join(TournamentRound, TournamentRound.id == TournamentGame.round_id)
        .join(Tournament, Tournament.id == TournamentRound.tournament_id)
        .where(TournamentGame.game_id == game_id)
    ).first()
    if row is None:
        return None
    return GameTournament(row[0], row[1], row[2], row[3], RoundEnd(row[4]), row[5])


def stamp(session: Session, t: Tournament) -> Hashable:
    """What proves a kept view current: the tournament's version and, over its games, their
    number, newest change and the sum of their versions. One light read."""
    row = session.execute(
        select(
            Tournament.version,
            func.count(Game.id),
            func.max(Game.updated_at),
            func.sum(Game.version),
        )
        .select_from(Tournament)
        .outerjoin(TournamentRound, TournamentRound.tournament_id == Tournament.id)
        .outerjoin(TournamentGame, TournamentGame.round_id == TournamentRound.id)
        .outerjoin(Game, Game.id == TournamentGame.game_id)
        .where(Tournament.id == t.id)
        .group_by(Tournament.version)
    ).first()
    if row is None:
        return (None,)
    return (row[0], row[1], row[2], row[3])


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


def _round_view(
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
    if cache.flushed(session):
        # What this session changed is not committed: a view of it is not kept (a rollback
        # would leave it under a stamp the next real change takes).
        return make_view(session, t, editing)
    shown: TournamentView = cache.tournament_view(
        (t.id, editing), stamp(session, t), lambda: make_view(session, t, editing)
    )
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
        _round_view(session, t, r, people, editing, games.get(r.id, {})) for r in rounds
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
