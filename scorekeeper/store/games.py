"""Stored Canasta games: reading them by key and creating them (a new game, or the same
table again). Changing a game's hands is :mod:`.changes`; its state is :mod:`.derive`.

Every function takes the caller's SQLAlchemy ``Session`` and never commits: the caller wraps a
change in ``store.db.write_scope()`` so that it is one transaction (all or nothing).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session, aliased, lazyload, object_session, selectinload
from sqlalchemy.orm.interfaces import ORMOption

from ..rules.games import is_cutthroat
from ..rules.problems import Problem
from ..rules.ruleset import PRESETS, resolve_ruleset
from ..rules.scoring import SIDE_COUNTS
from . import cache
from .errors import GameProblems
from .models import Game, GameSide, Hand, HandRevision, new_key, utcnow

NAME_MAX = 40
MAX_PLAYERS_PER_SIDE = 6
KEY = re.compile(r"^[A-Za-z0-9_-]{16,43}$")  # an editing or view key (random, URL-safe)


def _canasta(game: Game | None, any_ruleset: bool) -> Game | None:
    # The same tables hold games of "3 ist 50" (store.fifty), which this module cannot score:
    # the Canasta pages and API see only Canasta games.
    if game is None or any_ruleset or game.ruleset in PRESETS:
        return game
    return None


# Reading a game loads its row only: its hands (and their history) are loaded when its state has
# to be derived, which the state cache (:func:`game_state`) spares most requests.
# A game's corrections and deletions are read where they are used (the game page's
# undo offer; deriving the history; a change), not by every preview and save.
# Deletion records grow with every take-back: the undo offer loads the latest one only.
# The options are made when first used, not at import: naming a relationship in one configures
# every mapper, which a start leaves until its first answer is out (store.db.init_app).


@functools.cache
def unloaded() -> tuple[ORMOption, ...]:
    """The loader options of a game's row alone (also for other modules' reads of a game row,
    store.parts)."""
    return (lazyload(Game.hands), lazyload(Game.revisions))


@functools.cache
def _with_revisions() -> tuple[ORMOption, ...]:
    newer = aliased(HandRevision)
    latest = HandRevision.id == (
        select(func.max(newer.id)).where(newer.game_id == HandRevision.game_id).scalar_subquery()
    )
    return (lazyload(Game.hands), selectinload(Game.revisions.and_(latest)))


def hand_count(game: Game) -> int:
    """How many hands the game has, without loading them when its state is cached (also for
    a game whose session has ended)."""
    if "hands" in sa_inspect(game).unloaded:
        known = cache.known_state(game)
        if known is not None:
            return len(known.hands)
        session = object_session(game)
        if session is not None:  # counted, not loaded
            count = select(func.count()).select_from(Hand).where(Hand.game_id == game.id)
            return int(session.scalar(count) or 0)
    return len(game.hands)


def get_game(
    session: Session, game_id: Any, any_ruleset: bool = False, revisions: bool = False
) -> Game | None:
    """The game with this editing key, with its hands; None for unknown or malformed keys
    (and, unless ``any_ruleset``, for games of another kind than Canasta). ``revisions``: load
    its latest correction or deletion at once, to be read after the session (the undo offer):
    ``game.revisions`` then holds that one only (deriving the state reads what it needs)."""
    if not isinstance(game_id, str) or not KEY.match(game_id):
        return None
    options = _with_revisions() if revisions else unloaded()
    return _canasta(session.get(Game, game_id, options=options), any_ruleset)


def get_by_view(session: Session, view_id: Any, any_ruleset: bool = False) -> Game | None:
    """The game with this read-only key, or None (see :func:`get_game`)."""
    if not isinstance(view_id, str) or not KEY.match(view_id):
        return None
    return _canasta(
        session.scalars(select(Game).where(Game.view_id == view_id).options(*unloaded())).first(),
        any_ruleset,
    )


def _among(keys: Iterable[str]) -> list[str]:
    return [k for k in keys if isinstance(k, str) and KEY.match(k)][:200]


def recent_games(
    session: Session, limit: int = 10, ids: Iterable[str] | None = None, offset: int = 0
) -> list[Game]:
    """The most recently changed games, newest first (from the ``offset``-th on).

    ``ids``: only among these editing keys (e.g. the games this browser created), since every
    ``Game.id`` grants editing and must not be shown to strangers.
    """
    query = (
        select(Game)
        .where(Game.ruleset.in_(list(PRESETS)))
        .order_by(Game.updated_at.desc(), Game.created_at.desc())
        .options(*unloaded())
    )
    if ids is not None:
        keys = _among(ids)
        if not keys:
            return []
        query = query.where(Game.id.in_(keys))
    return list(session.scalars(query.offset(max(0, offset)).limit(max(0, min(limit, 200)))))


def recent_count(session: Session, ids: Iterable[str]) -> int:
    """How many of these editing keys are stored Canasta games."""
    keys = _among(ids)
    if not keys:
        return 0
    query = select(func.count()).where(Game.ruleset.in_(list(PRESETS)), Game.id.in_(keys))
    return int(session.scalar(query) or 0)


def create_game(
    session: Session,
    ruleset: Any,
    players: Any,
    sides: Any,
    options: Any = None,
    target: Any = None,
    name: Any = None,
) -> Game:
    """Validate and add a new game (flushed, not committed); see :func:`new_game`."""
    game = new_game(ruleset, players, sides, options, target, name)
    session.add(game)
    session.flush()
    return game


def new_game(
    ruleset: Any,
    players: Any,
    sides: Any,
    options: Any = None,
    target: Any = None,
    name: Any = None,
) -> Game:
    """A new game, validated but not stored (no session; backups restore it with their own
    keys and times).

    ``sides``: ``[{"name": str, "players": [str, …]}, …]``, one entry per score column: 2 sides
    of ``players / 2``, for 6 players also 3 sides of 2, and in 3-player cutthroat 3 sides of one
    player each. Names are trimmed and must have 1..40 characters. ``options``: house rules
    (``RuleSet.with_options``). ``target``: defaults to the ruleset's target for the player
    count (or the ``target`` house rule). Raises :class:`GameProblems`.
    """
    problems: list[Problem] = []
    rs, count, rs_problems = resolve_ruleset(ruleset, players, options)
    problems.extend(rs_problems)
    game_name = None
    if name is not None and name != "":
        game_name = clean_name(name, "name", problems)
    clean_sides = _clean_sides(sides, count, problems) if rs is not None else []
    if target is None:
        target_value = (
            (
                rs.target
                if isinstance(options, dict) and "target" in options
                else rs.target_for(count)
            )
            if rs is not None
            else 0
        )
    elif isinstance(target, bool) or not isinstance(target, int):
        problems.append(Problem("request.type", "target", {"expected": "integer"}))
        target_value = 0
    elif not 100 <= target <= 1_000_000:
        problems.append(Problem("request.value", "target", {"minimum": 100, "maximum": 1_000_000}))
        target_value = 0
    else:
        target_value = target
    if problems or rs is None:
        raise GameProblems(problems)
    now = utcnow()
    game = Game(
        name=game_name,
        ruleset=rs.id,
        players=count,
        options=dict(options) if isinstance(options, dict) else {},
        sides=clean_sides,
        target=target_value,
        version=1,
        created_at=now,
        updated_at=now,
    )
    game.side_rows = new_sides(count, len(clean_sides))
    return game


def new_sides(players: int, columns: int) -> list[GameSide]:
    """A new game's side keys: one per side of a partnership game. 3-player cutthroat has
    none: its partnership forms anew in every hand, so no side is the same two hands running
    (the rulebook's 3-player page)."""
    if is_cutthroat(players):
        return []
    return [GameSide(key=new_key(), side=i, version=0) for i in range(columns)]


#: letters that show nothing (Hangul fillers): a name of these alone looks empty
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def visible(text: str) -> bool:
    """Whether ``text`` has a letter or digit that shows (not only accents, spaces or
    blank letters)."""
    return any(unicodedata.category(ch)[0] in "LN" and ch not in BLANK_LETTERS for ch in text)


def clean_name(value: Any, where: str, problems: list[Problem]) -> str:
    if not isinstance(value, str):
        problems.append(Problem("request.type", where, {"expected": "string"}))
        return ""
    text = " ".join(value.split())
    if not 1 <= len(text) <= NAME_MAX or any(
        unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in text
    ):
        problems.append(Problem("name.invalid", where, {"maximum": NAME_MAX}))
        return ""
    if not visible(text):
        problems.append(Problem("name.not_visible", where, {}))
        return ""
    return text


def start_again(session: Session, game: Game) -> Game:
    """A new game (of either kind) for the same table: same rules, house rules, target, name,
    sides and players in the same seats, no hands (flushed, not committed); the deal goes on
    round the table from where ``game`` left it. Nothing needs checking again: it was all
    checked when ``game`` was created."""
    now = utcnow()
    seated = sum(len(side.get("players") or []) for side in game.sides) or 1
    again = Game(
        name=game.name,
        ruleset=game.ruleset,
        players=game.players,
        options=dict(game.options),
        sides=[{**side, "players": list(side["players"])} for side in game.sides],
        target=game.target,
        version=1,
        created_at=now,
        updated_at=now,
        previous_id=game.id,
        first_dealer=(game.first_dealer + len(game.hands)) % seated,
    )
    if game.ruleset in PRESETS:
        again.side_rows = new_sides(game.players, len(game.sides))
    session.add(again)
    session.flush()
    return again


def _clean_sides(sides: Any, players: int, problems: list[Problem]) -> list[dict[str, Any]]:
    if sides is None:
        problems.append(Problem("request.missing", "sides", {}))
        return []
    if not isinstance(sides, list):
        problems.append(Problem("request.type", "sides", {"expected": "list"}))
        return []
    allowed = (
        [3]
        if is_cutthroat(players)
        else [n for n in SIDE_COUNTS.get(players, (2,)) if players % n == 0]
    )
    if len(sides) not in allowed:
        problems.append(
            Problem(
                "sides.count",
                "sides",
                {"players": players, "allowed": allowed, "sides": len(sides)},
            )
        )
        return []
    size = players // len(sides)
    out = []
    for i, side in enumerate(sides):
        where = f"sides[{i}]"
        if not isinstance(side, dict):
            problems.append(Problem("request.type", where, {"expected": "object"}))
            continue
        names = side.get("players")
        if not isinstance(names, list):
            problems.append(
                Problem(
                    "request.type" if names is not None else "request.missing",
                    f"{where}.players",
                    {"expected": "list"},
                )
            )
            names = []
        elif len(names) != size:
            problems.append(
                Problem(
                    "sides.size",
                    f"{where}.players",
                    {"side": i + 1, "size": size, "have": len(names)},
                )
            )
            names = []
        clean_players = [
            clean_name(p, f"{where}.players[{j}]", problems)
            for j, p in enumerate(names[:MAX_PLAYERS_PER_SIDE])
        ]
        side_name = side.get("name")
        if side_name is None and size == 1 and clean_players:
            side_name = clean_players[0]  # one-player side: the player's name
        out.append(
            {
                "name": clean_name(side_name, f"{where}.name", problems)
                if side_name is not None
                else _missing(f"{where}.name", problems),
                "players": clean_players,
            }
        )
    return out


def _missing(where: str, problems: list[Problem]) -> str:
    problems.append(Problem("request.missing", where, {}))
    return ""
