"""Stored Canasta games: reading them by key and creating them (a new game, or the same
table again). Changing a game's hands is :mod:`.changes`; its state is :mod:`.derive`.

Every function takes the caller's SQLAlchemy ``Session`` and never commits: the caller wraps a
change in ``store.db.write_scope()`` so that it is one transaction (all or nothing).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session, aliased, lazyload, object_session, selectinload
from sqlalchemy.orm.interfaces import ORMOption

from ..edge.games import MAX_PLAYERS_PER_SIDE as MAX_PLAYERS_PER_SIDE
from ..edge.games import NAME_MAX as NAME_MAX
from ..edge.games import GameSetup, read_new_game
from ..edge.reading import Reader, name_text
from ..edge.reading import visible as visible
from ..edge.stored_format import KEY_PATTERN
from ..rules.games import is_cutthroat
from ..rules.problems import Problem
from ..rules.ruleset import PRESETS
from ..rules.scoring import Rejected
from . import cache
from .errors import GameProblems
from .models import Game, GameSide, Hand, HandRevision, new_key, utcnow

#: an editing or view key (random, URL-safe)
KEY = re.compile(KEY_PATTERN)


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


def create_from_setup(session: Session, setup: GameSetup) -> Game:
    """Add the new game a request was read into at the edge (flushed, not committed)."""
    game = game_of(setup)
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
    keys and times), from values given as a request gives them: read by the edge
    (:func:`~..edge.games.read_new_game`, which says what each takes), then :func:`game_of`.
    Raises :class:`GameProblems`.
    """
    setup = read_new_game(
        {
            "ruleset": ruleset,
            "players": players,
            "sides": sides,
            "options": options,
            "target": target,
            "name": name,
        }
    )
    if isinstance(setup, Rejected):
        raise GameProblems(list(setup.problems))
    return game_of(setup)


def game_of(setup: GameSetup) -> Game:
    """The game row of a new game read at the edge (no hands). Its target: the one given,
    else the ``target`` house rule, else the ruleset's for the player count."""
    rs = setup.ruleset
    if setup.target is not None:
        target = setup.target
    elif "target" in setup.options:
        target = rs.target
    else:
        target = rs.target_for(setup.players)
    now = utcnow()
    game = Game(
        name=setup.name,
        ruleset=rs.id,
        players=setup.players,
        options=dict(setup.options),
        sides=[{"name": side.name, "players": list(side.players or [])} for side in setup.sides],
        target=target,
        version=1,
        created_at=now,
        updated_at=now,
    )
    game.side_rows = new_sides(setup.players, len(setup.sides))
    return game


def new_sides(players: int, columns: int) -> list[GameSide]:
    """A new game's side keys: one per side of a partnership game. 3-player cutthroat has
    none: its partnership forms anew in every hand, so no side is the same two hands running
    (the rulebook's 3-player page)."""
    if is_cutthroat(players):
        return []
    return [GameSide(key=new_key(), side=i, version=0) for i in range(columns)]


def clean_name(value: Any, where: str, problems: list[Problem]) -> str:
    """A name as the edge reads it (:func:`~..edge.reading.name_text`), its problems added to
    ``problems``: for the tables' and tournaments' names, still read in the store."""
    reader = Reader()
    text = name_text(reader, value, where, NAME_MAX)
    problems.extend(reader.problems)
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
