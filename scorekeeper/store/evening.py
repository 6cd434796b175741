"""An evening at one table: the games linked by "same players again"
(``Game.previous_id``), oldest first. Read-only; each game's state is derived as usual."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from .db import session_scope
from .models import Game

State = TypeVar("State")

MAX_GAMES = 30  # an evening, not a league: keeps the walk bounded


def evening(session: Session, game: Game) -> list[Game]:
    """The chain of games ``game`` belongs to, oldest first (at most :data:`MAX_GAMES`, the
    ones nearest to ``game``). A game of another kind never joins the chain of a Canasta game:
    "same players again" keeps the kind, and the check keeps it so."""
    before: list[Game] = []
    seen = {game.id}
    current = game
    while current.previous_id and len(before) < MAX_GAMES:
        previous = session.get(Game, current.previous_id)
        if previous is None or previous.id in seen or previous.ruleset != game.ruleset:
            break
        seen.add(previous.id)
        before.append(previous)
        current = previous
    after: list[Game] = []
    current = game
    while len(before) + len(after) < MAX_GAMES:
        following = session.scalars(
            select(Game).where(Game.previous_id == current.id).order_by(Game.created_at)
        ).first()
        if following is None or following.id in seen or following.ruleset != game.ruleset:
            break
        seen.add(following.id)
        after.append(following)
        current = following
    return [*reversed(before), game, *after]


def evening_states(
    key: str, get: Callable[[Session, str], Game | None], state: Callable[[Game], State]
) -> tuple[list[State], tuple[str, ...]]:
    """The states (``state`` of each game) of the evening the game with ``key`` belongs to,
    oldest first, read as ``get`` reads a key (editing or view key), and the editing keys of
    the chain's games. No states when the game is the only one of its chain; nothing at all for
    an unknown key."""
    with session_scope() as session:
        game = get(session, key)
        if game is None:
            return [], ()
        chain = evening(session, game)
        ids = tuple(g.id for g in chain)
        if len(chain) < 2:
            return [], ids
        return [state(g) for g in chain], ids
