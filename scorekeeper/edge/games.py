"""The stored games' requests (docs/api.md §3 "Games (stored)") read once, at the edge, into
the typed values the store takes: a new game (:class:`GameSetup`), a hand (:class:`HandRead`),
a game's version, an entry's id, the deletion an undo means.

Every check of a request's shape is made here, with today's codes, params and paths; what the
store checks is what needs the database (a version conflict, a table's key, a game that ended).
Pure Python, as the rest of the edge. A request that cannot be read comes back as a
:class:`~..rules.scoring.Rejected` with its problems (the web layer answers 400 or 422).

>>> setup = read_new_game({"ruleset": "german", "sides": [{"name": "Us", "players": ["A", "B"]},
...                        {"name": " Them ", "players": ["C", "D"]}]})
>>> setup.ruleset.id, setup.players, [side.name for side in setup.sides]
('german', 4, ['Us', 'Them'])
>>> read_new_game({"ruleset": "german", "sides": []}).problems[0].code
'sides.count'
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import json
import math
import re
from dataclasses import dataclass, fields, replace
from typing import Any

from ..rules import fifty as fifty_rules
from ..rules.games import is_cutthroat
from ..rules.problems import Problem
from ..rules.ruleset import RuleSet, resolve_ruleset
from ..rules.scoring import SIDE_COUNTS, Rejected, SideEntry
from . import requests as rq
from .reading import Reader, name_text, read_into, read_side, read_sides, side_json, whole

#: the longest name of a game, a side or a player
NAME_MAX = 40
#: the most players a side seats
MAX_PLAYERS_PER_SIDE = 6
#: the most a game's version may be (a database integer)
VERSION_MAX = 2**31 - 1
#: a client's id for an entry (docs/api.md §3 "Saving once")
ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: the deepest a hand's JSON may nest before it is refused as unstorable
MAX_DEPTH = 12
#: hands of one Canasta game: far beyond any real game; keeps one game's re-score bounded
MAX_HANDS = 500
#: games of one evening of 3 ist 50: far beyond any evening; keeps a re-score bounded
MAX_FIFTY_GAMES = 300


# ---- a new game ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSetup:
    """A new Canasta game as read and checked: everything the store needs to make its row."""

    ruleset: RuleSet  # with the house rules applied
    players: int
    options: dict[str, Any]  # the house rules as given (checked by the ruleset)
    sides: list[rq.NewSide]  # names tidied; one per score column
    target: int | None  # None: the ruleset's (or the house rules') target
    name: str | None = None
    table: Any = None  # a table's editing key, as sent (the store finds it, or says not)


_NEW_GAME = frozenset(f.name for f in fields(rq.NewGame))
_ALL_BUT_NAME = _NEW_GAME - {"name"}
_ALL_BUT_TARGET = _NEW_GAME - {"target"}


def read_new_game(data: dict[str, Any]) -> GameSetup | Rejected:
    """``POST /api/v1/games`` (Canasta), read into :class:`GameSetup`. The problems come in
    the order they always have: the ruleset and players, the game's name, the sides (their
    count and size first: they need the player count), the target."""
    reader = Reader()
    rs, count, problems = resolve_ruleset(
        data.get("ruleset"), data.get("players"), data.get("options")
    )
    reader.problems.extend(problems)
    name = data.get("name")
    game_name = None
    if name is not None and name != "":  # empty: no name
        game_name = read_into(rq.NewGame, data, reader, _ALL_BUT_NAME).name
    sides = read_new_sides(reader, data.get("sides"), count) if rs is not None else []
    target = read_into(rq.NewGame, data, reader, _ALL_BUT_TARGET).target
    table = data.get("table")
    if reader.problems or rs is None:
        return reader.rejected()
    options = data.get("options")
    return GameSetup(
        rs,
        count,
        dict(options) if isinstance(options, dict) else {},
        sides,
        target,
        game_name,
        table,
    )


def read_new_sides(reader: Reader, value: Any, players: int) -> list[rq.NewSide]:
    """A new game's ``sides`` for ``players``: one per score column (2 sides of ``players / 2``,
    for 6 players also 3 of 2, in 3-player cutthroat 3 of one), each read into
    :class:`~.requests.NewSide` (a side of one player may leave out its name: the player's)."""
    if value is None:
        reader.fail("request.missing", "sides")
        return []
    if not isinstance(value, list):
        reader.fail("request.type", "sides", expected="list")
        return []
    allowed = (
        [3]
        if is_cutthroat(players)
        else [n for n in SIDE_COUNTS.get(players, (2,)) if players % n == 0]
    )
    if len(value) not in allowed:
        reader.fail("sides.count", "sides", players=players, allowed=allowed, sides=len(value))
        return []
    size = players // len(value)
    out = []
    for i, side in enumerate(value):
        where = f"sides[{i}]"
        obj = reader.obj(side, where)
        if obj is None:
            continue
        names = obj.get("players")
        if not isinstance(names, list):
            code = "request.type" if names is not None else "request.missing"
            reader.fail(code, f"{where}.players", expected="list")
            names = []
        elif len(names) != size:
            reader.fail("sides.size", f"{where}.players", side=i + 1, size=size, have=len(names))
            names = []
        read = read_into(
            rq.NewSide,
            {"players": names[:MAX_PLAYERS_PER_SIDE], "name": obj.get("name")},
            reader,
            frozenset({"name"}),
            where,
        )
        players_read = read.players or []
        side_name = obj.get("name")
        if side_name is None and size == 1 and players_read:
            side_name = players_read[0]  # a side of one: the player's name
        if side_name is None:
            reader.fail("request.missing", f"{where}.name")
            read.name = ""
        else:
            read.name = name_text(reader, side_name, f"{where}.name", NAME_MAX)
        read.players = players_read
        out.append(read)
    return out


# ---- a new evening of 3 ist 50 ----------------------------------------------------------------

#: "stop after N games" and "stop when someone reaches T minus points" (docs/rulebook.md §7)
STOP_GAMES = (1, 100)
STOP_TARGET = (10, 100_000)


@dataclass(frozen=True)
class FiftySetup:
    """A new evening of 3 ist 50 as read and checked: the players' names in seating order (each
    its own score column), what a joker counts, when the evening ends, its name."""

    players: list[str]
    joker: int
    stop_after: int | None
    target: int | None
    name: str | None = None
    table: Any = None  # a table's editing key, as sent (the store finds it, or says not)


def read_new_fifty_game(data: dict[str, Any]) -> FiftySetup | Rejected:
    """``POST /api/v1/games`` with ``"ruleset": "three-is-fifty"``: ``players`` as names, or a
    count with one side of one per player (as a Canasta game's sides); the house rules
    (``joker``), ``stop_after``, ``target``, ``name``."""
    reader = Reader()
    names = _fifty_names(reader, data)
    options, problems = fifty_rules.read_options(data.get("options"))
    reader.problems.extend(problems)
    if reader.problems:
        return reader.rejected()
    setup = fifty_setup(
        names, options.joker, data.get("stop_after"), data.get("target"), data.get("name")
    )
    if isinstance(setup, Rejected):
        return setup
    return replace(setup, table=data.get("table"))


def fifty_setup(
    players: Any, joker: Any, stop_after: Any = None, target: Any = None, name: Any = None
) -> FiftySetup | Rejected:
    """A new evening from values as a request (or the new-game form, or a backup) gives them:
    2 to 6 names, a joker's minus points (0..100), the games it stops after and the minus points
    it stops at (both optional), its name (empty: none)."""
    reader = Reader()
    names: list[str] = []
    if not isinstance(players, list):
        reader.fail("request.type", "players", expected="list")
    elif len(players) not in fifty_rules.PLAYERS_ALLOWED:
        allowed = list(fifty_rules.PLAYERS_ALLOWED)
        reader.fail("players.not_allowed", "players", players=len(players), allowed=allowed)
    else:
        names = [name_text(reader, p, f"players[{i}]", NAME_MAX) for i, p in enumerate(players)]
    options, problems = fifty_rules.read_options({"joker": joker})
    reader.problems.extend(problems)
    games_limit = _bounded(reader, stop_after, "stop_after", STOP_GAMES)
    target_value = _bounded(reader, target, "target", STOP_TARGET)
    game_name = None
    if name is not None and name != "":  # empty: no name
        game_name = name_text(reader, name, "name", NAME_MAX)
    if reader.problems:
        return reader.rejected()
    return FiftySetup(names, options.joker, games_limit, target_value, game_name)


def _bounded(reader: Reader, value: Any, where: str, bounds: tuple[int, int]) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        reader.fail("request.type", where, expected="integer")
        return None
    low, high = bounds
    if not low <= value <= high:
        reader.fail("request.value", where, minimum=low, maximum=high)
        return None
    return value


def _fifty_names(reader: Reader, data: dict[str, Any]) -> Any:
    """The players' names in seating order: ``players`` as a list, else one per side."""
    players = data.get("players")
    sides = data.get("sides")
    if isinstance(players, list) and sides is None:
        return players
    if players is None:
        reader.fail("request.missing", "players")
        return None
    if isinstance(players, bool) or not isinstance(players, int | list):
        reader.fail("request.type", "players", expected="integer")
        return None
    count = len(players) if isinstance(players, list) else players
    if count not in fifty_rules.PLAYERS_ALLOWED:
        allowed = list(fifty_rules.PLAYERS_ALLOWED)
        reader.fail("players.not_allowed", "players", players=count, allowed=allowed)
        return None
    if sides is None:
        reader.fail("request.missing", "sides")
        return None
    if not isinstance(sides, list):
        reader.fail("request.type", "sides", expected="list")
        return None
    if count != len(sides):
        reader.fail("sides.count", "sides", players=count, allowed=[count], sides=len(sides))
        return None
    names: list[Any] = []
    for i, side in enumerate(sides):
        obj = reader.obj(side, f"sides[{i}]")
        if obj is None:
            continue
        name = obj.get("name")
        seated = obj.get("players")
        if name is None and isinstance(seated, list) and len(seated) == 1:
            name = seated[0]  # a side of one: the player's name
        if isinstance(seated, list) and len(seated) != 1:
            reader.fail("sides.size", f"sides[{i}].players", side=i + 1, size=1, have=len(seated))
        if name is None:
            reader.fail("request.missing", f"sides[{i}].name")
        names.append(name)
    return names


# ---- one game of an evening of 3 ist 50 --------------------------------------------------------

#: the keys a game of the evening may be given under: one ``{"cards"}`` or ``{"points"}`` per
#: player (``players``, ``teams``), or one pile or number per player (``piles``, ``points``)
FIFTY_ENTRY_KEYS = ("players", "teams", "piles", "points")


@dataclass(frozen=True)
class FiftyHandRead:
    """One game of an evening as read: each player's minus points and pile (cards as game
    ranks; None where the points were given), and what could not be read."""

    points: list[int]
    piles: list[list[str] | None]
    problems: tuple[Problem, ...] = ()

    @property
    def stored(self) -> list[dict[str, Any]]:
        """What a save stores: each pile as game ranks (threes are "3"), else its points."""
        return [
            {"cards": pile} if pile is not None else {"points": points}
            for pile, points in zip(self.piles, self.points, strict=True)
        ]


def read_fifty_entry(entries: Any, players: int, options: fifty_rules.Options) -> FiftyHandRead:
    """One game's entry: one ``{"cards": <cards>}`` or ``{"points": int}`` per player in
    seating order (a request's, the entry form's, a backup's or a stored one). Cards are any
    notation :func:`~..rules.fifty.read_cards` accepts; the counts of all piles together are
    checked against the deck (``card.too_many``, placed at every pile holding that rank). A
    number must lie within what the deck holds, and so must the game's sum
    (``three_is_fifty.points_over_deck``). Problems point at ``players[i].cards`` /
    ``players[i].points``."""
    problems: list[Problem] = []
    points = [0] * players
    piles: list[list[str] | None] = [None] * players
    if not isinstance(entries, list):
        problem = Problem("request.type", "players", {"expected": "list"})
        return FiftyHandRead(points, piles, (problem,))
    if len(entries) != players:
        problem = Problem("piles.count", "players", {"players": players, "piles": len(entries)})
        return FiftyHandRead(points, piles, (problem,))
    most = fifty_rules.deck_points(players, options)
    for i, entry in enumerate(entries):
        where = f"players[{i}]"
        if not isinstance(entry, dict) or ("cards" in entry) == ("points" in entry):
            problems.append(Problem("request.type", where, {"expected": "cards or points"}))
            continue
        if "cards" in entry:
            cards, card_problems = fifty_rules.read_cards(entry["cards"], f"{where}.cards")
            problems.extend(Problem(p.code, f"{where}.cards", p.params) for p in card_problems)
            if not card_problems:
                piles[i] = cards
                points[i] = fifty_rules.pile_points(cards, options)
            continue
        value = entry["points"]
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(Problem("request.type", f"{where}.points", {"expected": "integer"}))
        elif not 0 <= value <= most:
            problems.append(
                Problem("request.value", f"{where}.points", {"minimum": 0, "maximum": most})
            )
        else:
            points[i] = value
    known = [p for p in piles if p is not None]
    for problem in fifty_rules.card_count_problems(known, players):
        rank = problem.params.get("rank")
        for i, pile in enumerate(piles):
            if pile is not None and rank in pile:
                problems.append(Problem(problem.code, f"players[{i}].cards", problem.params))
    if not problems and sum(points) > most:
        problems.append(
            Problem(
                "three_is_fifty.points_over_deck",
                "players",
                {"points": sum(points), "maximum": most},
            )
        )
    return FiftyHandRead(points, piles, tuple(problems))


def read_fifty_hand_body(
    data: dict[str, Any], players: int, options: fifty_rules.Options
) -> FiftyHandRead | Rejected:
    """``POST …/hands`` and ``PUT …/hands/{number}`` of an evening of 3 ist 50 (its ``version``
    and ``entry_id`` are read apart): problems are placed at the key the request used
    (``piles[1]``, ``points[0]``, ``players[2].cards``)."""
    key = next((k for k in FIFTY_ENTRY_KEYS if k in data), "")
    if not key:
        return Rejected((Problem("request.missing", "piles", {}),))
    value = data.get(key)
    entries: Any = value
    if key == "piles" and isinstance(value, list):
        entries = [{"cards": pile} for pile in value]
    elif key == "points" and isinstance(value, list):
        entries = [{"points": points} for points in value]
    read = read_fifty_entry(entries, players, options)
    return replace(read, problems=tuple(placed(list(read.problems), key)))


def placed(problems: list[Problem], key: str) -> list[Problem]:
    """Problems of :func:`read_fifty_entry` (at ``players[i].cards`` / ``.points``) at the key
    the request used: ``piles[i]``, ``points[i]``."""
    if key in ("players", ""):
        return problems
    out = []
    for p in problems:
        where = p.where
        if where.startswith("players"):
            where = key + where[len("players") :]
            where = where.replace(".cards", "").replace(".points", "")
        out.append(Problem(p.code, where, p.params))
    return out


# ---- the game's version, an entry's id, an undo ----------------------------------------------


def read_version(value: Any) -> int | Rejected:
    """The game's version a change was made on (``version``): 0 up to 2³¹ − 1."""
    value = whole(value)
    if isinstance(value, bool) or not isinstance(value, int):
        code = "request.type" if value is not None else "request.missing"
        return Rejected((Problem(code, "version", {"expected": "integer"}),))
    if not 0 <= value <= VERSION_MAX:
        return Rejected(
            (Problem("request.value", "version", {"minimum": 0, "maximum": VERSION_MAX}),)
        )
    return value


def read_entry_id(value: Any, where: str = "entry_id") -> str | None | Rejected:
    """A client's ``entry_id`` (None: none given): 8 to 64 of ``A–Z a–z 0–9 _ -``."""
    if value is None:
        return None
    if not isinstance(value, str):
        return Rejected((Problem("request.type", where, {"expected": "string"}),))
    if ENTRY_ID.fullmatch(value) is None:
        return Rejected((Problem("request.entry_id", where, {"minimum": 8, "maximum": 64}),))
    return value


#: a revision no deletion has: an undo naming something that is no revision's number
NO_REVISION = -1


def read_revision(data: dict[str, Any]) -> int | None:
    """The deletion an undo names (``revision``; None: the one on offer). A value that is no
    revision's number names none, so the store answers that the undo is gone (422)."""
    if "revision" not in data:
        return None
    value = whole(data["revision"])
    if isinstance(value, bool) or not isinstance(value, int):
        return NO_REVISION
    return value


# ---- a side's part of the open hand -----------------------------------------------------------

#: the most bytes of JSON one side's part takes, stored (a part in detail of a 6-player game,
#: every card listed, takes under 1,000)
PART_MAX_BYTES = 4096


@dataclass(frozen=True)
class PartRead:
    """A side's part as read: the side in the engine's terms, and what is stored for it."""

    side: SideEntry
    stored: dict[str, Any]


def read_part(part: Any) -> PartRead | Rejected:
    """``part`` of ``PUT …/parts/{side}`` (one side as for ``POST /api/v1/score``), read alone;
    anything that cannot be read or stored is refused (400)."""
    if part is None:
        return Rejected((Problem("request.missing", "part", {}),))
    reader = Reader()
    side = read_side(reader, part, "part")
    problems = [*reader.problems, *storable(part, "part")]
    if problems:
        return Rejected(tuple(problems))
    stored = side_json(side)
    text = json.dumps(stored, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode()) > PART_MAX_BYTES:
        return Rejected((Problem("request.too_large", "part", {"limit": PART_MAX_BYTES}),))
    return PartRead(side, stored)


def read_number(data: dict[str, Any], key: str) -> int | None | Rejected:
    """A whole number a part change may give (``version``, ``hand``; None: left out)."""
    value = whole(data.get(key))
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        return Rejected((Problem("request.type", key, {"expected": "integer"}),))
    return value


# ---- a hand ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandRead:
    """A Canasta hand as read: its sides in the engine's terms, and what could not be read.

    A hand that cannot be read in full is still scored as far as it goes (the live preview
    shows what it can); the store refuses to save it, with these problems and its own."""

    sides: list[SideEntry]
    lone_player: Any  # checked against the game's columns by the store (hand.lone_player)
    stock_out: bool
    #: ``stock_out`` of a wrong type (said before everything else)
    before: tuple[Problem, ...] = ()
    #: the sides' problems of reading (a side that cannot be read keeps the rules unchecked)
    unread: tuple[Problem, ...] = ()
    #: the hand's JSON cannot be stored on every database (said last)
    unstorable: tuple[Problem, ...] = ()

    @property
    def stored(self) -> list[dict[str, Any]]:
        """What a save stores: each side as read (:func:`.reading.side_json`), never the
        request's own JSON."""
        return [side_json(side) for side in self.sides]


def read_hand(
    teams: Any, lone_player: Any = None, stock_out: Any = False, *, stored: bool = False
) -> HandRead:
    """A hand's ``teams`` (each side as for ``POST /api/v1/score``), ``lone_player`` and
    ``stock_out``: of a request body, the hand-entry form, a side's parts or a backup
    (``stored``: read back from the database, so known to be storable)."""
    before: tuple[Problem, ...] = ()
    if not isinstance(stock_out, bool):
        before = (Problem("request.type", "stock_out", {"expected": "boolean"}),)
        stock_out = False
    reader = Reader()
    sides = read_sides(reader, {"teams": teams})
    unstorable = () if stored else tuple(storable(teams, "teams"))
    return HandRead(sides, lone_player, stock_out, before, tuple(reader.problems), unstorable)


def read_hand_body(data: dict[str, Any]) -> HandRead:
    """``POST …/hands`` and ``PUT …/hands/{number}`` of a Canasta game: the hand of
    :class:`~.requests.HandEntry` (its ``version`` and ``entry_id`` are read apart)."""
    return read_hand(data.get("teams"), data.get("lone_player"), data.get("stock_out", False))


def storable(value: Any, where: str) -> list[Problem]:
    """Problems that would keep a JSON value from being stored on every backend: NaN and
    infinities (PostgreSQL's json rejects them), lone surrogates (not encodable as UTF-8) and
    absurd nesting."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return [Problem("request.too_large", where, {"limit": MAX_DEPTH})]
        if (isinstance(item, float) and not math.isfinite(item)) or (
            isinstance(item, str) and not _encodable(item)
        ):
            return [Problem("request.value", where, {})]
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return []


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
