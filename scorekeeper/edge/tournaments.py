"""The tournaments' requests (docs/api.md §3 "Tournaments") read once, at the edge, into the
typed values the store and the pairing engine take: a new tournament (:class:`TournamentSetup`,
read from :class:`~.requests.NewTournament`), a seating by hand (the engine's
:class:`~..tournaments.model.Seating`, read from :class:`~.requests.Seating`), a swap
(:class:`~.requests.Swap`), an absence (:class:`~.requests.Absence`).

Every check of a request's shape is made here, with today's codes, params and paths (the
tournament's own: ``tournament.points``, ``tournament.round_end``, ``tournament.pair`` …); the
ruleset and player count are resolved here too. What the store checks is what needs the
database: a table's key and its people, a round's state, a participant's number, the hard rules
of a seating. Pure Python, as the rest of the edge. A request that cannot be read comes back as
a :class:`~..rules.scoring.Rejected` with its problems.

>>> setup = read_new_tournament({"name": "Cup", "ruleset": "german", "round_end": {"hands": 4},
...                              "participants": ["Anna", "Ben", "Cleo", "Dan"]})
>>> setup.ruleset.id, setup.players, setup.round_end.value, setup.participants[0]
('german', 4, 'hands', ['Anna'])
>>> [p.code for p in read_new_tournament({"name": "Cup", "ruleset": "german",
...     "round_end": {"laps": 2}, "participants": ["A", "B", "C", "D"]}).problems]
['tournament.round_end']
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from ..rules.problems import Problem
from ..rules.ruleset import RuleSet, resolve_ruleset
from ..rules.scoring import Rejected
from ..tournaments.model import (
    Format,
    OddCount,
    Points,
    RoundEnd,
    Scoring,
    Seating,
    TableSeating,
)
from . import requests as rq
from .reading import Reader, name_text
from .reading import whole as integral

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
#: tables and participants a seating sent by hand may hold (bounded like a tournament)
SEATING_MAX = MAX_PARTICIPANTS
#: a participant's number in a seating is below this
SEATING_NUMBER = 10_000


def whole(value: Any) -> bool:
    """Whether a value is an integer (not a yes or no). The readers here first read a JSON
    number written with a point (``6.0``) as the integer it is (:func:`integral`): JSON
    Schema, and so the description, counts it an integer too."""
    return isinstance(value, int) and not isinstance(value, bool)


def not_given(value: Any, field: str) -> Problem:
    """A required value left out (``request.missing``) or of the wrong type (``request.type``),
    placed at ``field``."""
    code = "request.missing" if value is None else "request.type"
    return Problem(code, field, {"field": field})


# ---- a new tournament --------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentSetup:
    """A new tournament as read and checked (:class:`~.requests.NewTournament`): everything
    the store needs to make its row and its participants."""

    name: str
    ruleset: RuleSet  # with the house rules applied
    players: int  # at a table
    options: dict[str, Any]  # the house rules as given (checked by the ruleset)
    format: Format
    scoring: Scoring
    odd: OddCount
    points: Points
    round_end: RoundEnd
    round_end_value: int
    #: each participant's names (one, or a pair), tidied; None: all of the table's people
    participants: list[list[str]] | None
    #: a table's editing key, as sent (None: no table): the store finds it, or says not
    table: Any = None


Choice = TypeVar("Choice", bound=StrEnum)


def _choice(reader: Reader, value: Any, kind: type[Choice], where: str, default: Choice) -> Choice:
    """One of an enum's values (left out or null: ``default``)."""
    if value is None:
        return default
    allowed = [str(v.value) for v in kind]
    if isinstance(value, str) and value in allowed:
        return kind(value)
    reader.problems.append(Problem("request.value", where, {"field": where, "allowed": allowed}))
    return default


def _points(reader: Reader, value: Any) -> Points:
    """``points`` (:class:`~.requests.MatchPoints`): a win, a draw and a loss, each 0 to
    :data:`POINTS_MAX`, a win no less than a draw, a draw no less than a loss."""
    if value is None:
        return Points()
    if not isinstance(value, dict):
        reader.problems.append(Problem("request.type", "points", {"field": "points"}))
        return Points()
    out: dict[str, int] = {}
    for key in value:
        if key not in ("win", "draw", "loss"):
            reader.fail("request.unknown_key", "points", key=str(key)[:40])
    for key, fallback in (("win", 2), ("draw", 1), ("loss", 0)):
        given = integral(value.get(key, fallback))
        if not whole(given) or not 0 <= given <= POINTS_MAX:
            reader.fail("tournament.points", f"points.{key}", minimum=0, maximum=POINTS_MAX)
            given = fallback
        out[key] = given
    if not reader.problems and not out["win"] >= out["draw"] >= out["loss"]:
        reader.fail("tournament.points_order", "points")
    return Points(**out)


def _round_end(reader: Reader, value: Any) -> tuple[RoundEnd, int]:
    """``round_end``: exactly one of ``{"hands": n}``, ``{"target": points}``,
    ``{"minutes": n}``, within its bounds (:data:`ROUND_END_BOUNDS`)."""
    if not isinstance(value, dict):
        reader.problems.append(not_given(value, "round_end"))
        return RoundEnd.HANDS, 1
    kinds = [k for k in value if k in {e.value for e in RoundEnd}]
    if len(value) != 1 or len(kinds) != 1:
        reader.fail("tournament.round_end", "round_end")
        return RoundEnd.HANDS, 1
    kind = RoundEnd(kinds[0])
    low, high = ROUND_END_BOUNDS[kind]
    given = integral(value[kind.value])
    if not whole(given) or not low <= given <= high:
        reader.fail(
            "tournament.round_end_value",
            f"round_end.{kind.value}",
            kind=kind.value,
            minimum=low,
            maximum=high,
        )
        return kind, low
    return kind, int(given)


def read_participants(reader: Reader, value: Any, pairs: bool) -> list[list[str]] | None:
    """``participants``: at most :data:`MAX_PARTICIPANTS`, each a name (or a list of one), or
    for ``pairs`` two names (``tournament.pair`` otherwise); each name tidied."""
    if not isinstance(value, list):
        reader.problems.append(not_given(value, "participants"))
        return None
    if len(value) > MAX_PARTICIPANTS:
        reader.fail(
            "tournament.participants",
            "participants",
            minimum=2,
            maximum=MAX_PARTICIPANTS,
            have=len(value),
        )
        return None
    out: list[list[str]] = []
    for i, item in enumerate(value):
        where = f"participants[{i}]"
        if pairs:
            if not isinstance(item, list) or len(item) != 2:
                reader.fail("tournament.pair", where, participant=i)
                continue
            out.append([name_text(reader, n, f"{where}[{j}]") for j, n in enumerate(item)])
        elif isinstance(item, list) and len(item) == 1:
            out.append([name_text(reader, item[0], f"{where}[0]")])
        else:
            out.append([name_text(reader, item, where)])
    return out


def check_people(named: list[list[str]], fmt: Format, size: int) -> list[Problem]:
    """No name twice among the participants (case does not count), and enough of them for one
    table of ``size``."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, names in enumerate(named):
        for j, name in enumerate(names):
            if name and name.casefold() in seen:
                where = f"participants[{i}]" + (f"[{j}]" if fmt is Format.PAIRS else "")
                problems.append(Problem("tournament.player_twice", where, {"name": name}))
            seen.add(name.casefold())
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
    return problems


def read_new_tournament(data: dict[str, Any]) -> TournamentSetup | Rejected:
    """``POST /api/v1/tournaments`` (and the new-tournament form), read into
    :class:`TournamentSetup`. The problems come in the order they always have: the name, the
    ruleset and players, the format, scoring and odd count, the match points, the round's end,
    a pairs table's size, the participants. With a ``table``, ``participants`` may be left out
    (format individual: all of its people) and the names are checked against its people by the
    store."""
    reader = Reader()
    name = name_text(reader, data.get("name"), "name")
    options = data.get("options")
    rs, size, rs_problems = resolve_ruleset(data.get("ruleset"), data.get("players"), options)
    reader.problems.extend(rs_problems)
    fmt = _choice(reader, data.get("format"), Format, "format", Format.INDIVIDUAL)
    scoring = _choice(reader, data.get("scoring"), Scoring, "scoring", Scoring.MATCH_POINTS)
    odd = _choice(reader, data.get("odd"), OddCount, "odd", OddCount.BYE)
    points = _points(reader, data.get("points"))
    end, end_value = _round_end(reader, data.get("round_end"))
    if rs is not None and fmt is Format.PAIRS and size not in PAIR_TABLES:
        allowed = [n for n in PAIR_TABLES if n in rs.players_allowed]
        reader.fail("tournament.pairs_table", "players", players=size, allowed=allowed)
    pairs = fmt is Format.PAIRS
    table = data.get("table")
    given = data.get("participants")
    named: list[list[str]] | None = None
    if table is not None and given is None:
        if pairs:  # a table's people are individuals: pairs are named
            reader.problems.append(
                Problem("request.missing", "participants", {"field": "participants"})
            )
    else:
        named = read_participants(reader, given, pairs)
        if named is not None:
            reader.problems.extend(check_people(named, fmt, size if rs is not None else 2))
    if reader.problems or rs is None:
        return reader.rejected()
    return TournamentSetup(
        name=name,
        ruleset=rs,
        players=size,
        options=dict(options) if isinstance(options, dict) else {},
        format=fmt,
        scoring=scoring,
        odd=odd,
        points=points,
        round_end=end,
        round_end_value=end_value,
        participants=named,
        table=table,
    )


# ---- the director's changes ------------------------------------------------------------------


def _seat_numbers(values: list[Any]) -> list[int] | None:
    """Participants' (or a table's) numbers, each 0 to 9,999; None if any is not one."""
    read = [integral(v) for v in values]
    return read if all(whole(v) and 0 <= v < SEATING_NUMBER for v in read) else None


def read_seating(data: dict[str, Any]) -> Seating | Rejected:
    """``PUT …/rounds/{number}/seating`` (:class:`~.requests.Seating`), read strictly into the
    engine's :class:`~..tournaments.model.Seating`: any value of the wrong shape is one
    ``request.type`` at ``seating``, more than :data:`SEATING_MAX` tables or byes
    ``request.too_large`` (the hard rules are the store's to check)."""
    wrong = Rejected((Problem("request.type", "seating", {"field": "tables"}),))
    raw_tables, byes = data.get("tables"), data.get("byes", [])
    if not isinstance(raw_tables, list) or not isinstance(byes, list):
        return wrong
    if len(raw_tables) > SEATING_MAX or len(byes) > SEATING_MAX:
        return Rejected((Problem("request.too_large", "seating", {"limit": SEATING_MAX}),))
    read: list[rq.SeatedTable] = []
    for table in raw_tables:
        if not isinstance(table, dict) or not isinstance(table.get("sides"), list):
            return wrong
        number, sides = _seat_numbers([table.get("number")]), table["sides"]
        if number is None or len(sides) > 6:
            return wrong
        seated = []
        for side in sides:
            people = _seat_numbers(side) if isinstance(side, list) and len(side) <= 6 else None
            if people is None:
                return wrong
            seated.append(people)
        read.append(rq.SeatedTable(number[0], seated))
    bye_numbers = _seat_numbers(byes)
    if bye_numbers is None:
        return wrong
    asked = rq.Seating(read, bye_numbers)
    return Seating(
        tables=tuple(
            TableSeating(t.number, tuple(tuple(side) for side in t.sides)) for t in asked.tables
        ),
        byes=tuple(asked.byes),
    )


def read_swap(data: dict[str, Any]) -> rq.Swap | Rejected:
    """``POST …/rounds/{number}/swap``: the numbers of the two participants; a value that is
    no number names no participant (``seating.unknown``, as for a number nobody has)."""
    a, b = integral(data.get("a")), integral(data.get("b"))
    for where, value in (("a", a), ("b", b)):
        if not whole(value):
            return Rejected((Problem("seating.unknown", where, {"participant": str(value)[:12]}),))
    return rq.Swap(a, b)


def read_absence(data: dict[str, Any]) -> rq.Absence | Rejected:
    """``PUT …/participants/{number}``: ``absent``, true or false."""
    absent = data.get("absent")
    if not isinstance(absent, bool):
        return Rejected((not_given(absent, "absent"),))
    return rq.Absence(absent)
