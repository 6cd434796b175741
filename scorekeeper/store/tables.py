"""Tables: a group of regular players and the games they played (their statistics are
:mod:`.table_stats`).

A table (:class:`~.models.Table`) has people (:class:`~.models.TablePlayer`); a game played at
it has a link row (:class:`~.models.TableGame`) naming the person behind every player name of
its sides. Games keep their names as text, so every page of a game reads as before; renaming or
merging people rewrites the names in the table's games (and moves each game on, so no kept page
or state shows the old name).

Every function takes the caller's session and never commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, lazyload

from ..rules.problems import Problem
from ..rules.ruleset import PRESETS
from . import fifty
from .errors import GameProblems
from .games import KEY, clean_name
from .models import Game, Table, TableGame, TablePlayer, utcnow

MAX_PLAYERS = 40  # people at one table: a club, not a city
MAX_GAMES = 5_000  # games one table keeps (an import is refused beyond it)
FIFTY = fifty.RULESET_ID
LOAD_BATCH = 200  # games read at once when their facts must be derived


# ---- reading ---------------------------------------------------------------------------------
def get_table(session: Session, key: Any) -> Table | None:
    """The table with this editing key, or None (also for malformed keys)."""
    if not isinstance(key, str) or not KEY.match(key):
        return None
    return session.get(Table, key)


def get_by_view(session: Session, view_id: Any) -> Table | None:
    if not isinstance(view_id, str) or not KEY.match(view_id):
        return None
    return session.scalars(select(Table).where(Table.view_id == view_id)).first()


def table_of_game(session: Session, game_id: str) -> Table | None:
    """The table the game ``game_id`` was played at, or None (a game of no table)."""
    query = select(Table).join(TableGame, TableGame.table_id == Table.id)
    return session.scalars(query.where(TableGame.game_id == game_id)).first()


def people(session: Session, table: Table) -> list[TablePlayer]:
    """The table's people in the order they joined."""
    query = (
        select(TablePlayer)
        .where(TablePlayer.table_id == table.id)
        .order_by(TablePlayer.position, TablePlayer.id)
    )
    return list(session.scalars(query))


def tables_of(session: Session, keys: Sequence[str]) -> list[Table]:
    """The tables among these editing keys (a phone's list), newest change first."""
    wanted = [k for k in keys if isinstance(k, str) and KEY.match(k)][:50]
    if not wanted:
        return []
    query = select(Table).where(Table.id.in_(wanted)).order_by(Table.updated_at.desc())
    return list(session.scalars(query))


# ---- making and changing -------------------------------------------------------------------
def _names(value: Any, where: str, problems: list[Problem], minimum: int) -> list[str]:
    if not isinstance(value, list):
        problems.append(
            Problem(
                "request.missing" if value is None else "request.type", where, {"expected": "list"}
            )
        )
        return []
    if not minimum <= len(value) <= MAX_PLAYERS:
        problems.append(
            Problem("table.players", where, {"minimum": minimum, "maximum": MAX_PLAYERS})
        )
        return []
    names = [clean_name(v, f"{where}[{i}]", problems) for i, v in enumerate(value)]
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name and name.casefold() in seen:
            problems.append(Problem("table.player_twice", f"{where}[{i}]", {"name": name}))
        seen.add(name.casefold())
    return names


def create_table(session: Session, name: Any, players: Any) -> Table:
    """A new table with its people (flushed, not committed). ``players``: 2..40 distinct
    names. Raises :class:`GameProblems`."""
    problems: list[Problem] = []
    clean = clean_name(name, "name", problems) if name is not None else ""
    if name is None:
        problems.append(Problem("request.missing", "name", {}))
    names = _names(players, "players", problems, 2)
    if problems:
        raise GameProblems(problems)
    now = utcnow()
    table = Table(name=clean, version=1, created_at=now, updated_at=now)
    session.add(table)
    session.flush()
    for i, person in enumerate(names):
        session.add(TablePlayer(table_id=table.id, name=person, position=i))
    session.flush()
    return table


def add_person(session: Session, table: Table, name: Any) -> TablePlayer:
    """A new person at the table (``table.player_twice`` when the name is taken)."""
    problems: list[Problem] = []
    clean = clean_name(name, "name", problems)
    if problems:
        raise GameProblems(problems)
    known = {p.name.casefold(): p for p in people(session, table)}
    if clean.casefold() in known:
        raise GameProblems([Problem("table.player_twice", "name", {"name": clean})])
    return _person(session, table, clean, known)


def _touch(table: Table) -> None:
    table.version += 1
    table.updated_at = utcnow()


def _person(
    session: Session, table: Table, name: str, known: dict[str, TablePlayer]
) -> TablePlayer:
    found = known.get(name.casefold())
    if found is not None:
        return found
    if len(known) >= MAX_PLAYERS:
        raise GameProblems(
            [Problem("table.players", "sides", {"minimum": 2, "maximum": MAX_PLAYERS})]
        )
    person = TablePlayer(table_id=table.id, name=name, position=len(known))
    session.add(person)
    session.flush()
    known[name.casefold()] = person
    _touch(table)
    return person


def attach(session: Session, table: Table, game: Game) -> TableGame:
    """Link a new game to the table: each player name of its sides is the table's person of
    that name (case does not matter; the game then spells it as the table does), a new name
    joins the table. One person plays once per game (``table.player_twice``)."""
    known = {p.name.casefold(): p for p in people(session, table)}
    ids: list[list[int]] = []
    sides = [dict(side) for side in game.sides]
    seen: set[int] = set()
    for c, side in enumerate(sides):
        names = [str(n) for n in side.get("players") or []]
        column: list[int] = []
        spelled: list[str] = []
        for j, name in enumerate(names):
            person = _person(session, table, name, known)
            if person.id in seen:
                where = f"sides[{c}].players[{j}]"
                raise GameProblems([Problem("table.player_twice", where, {"name": name})])
            seen.add(person.id)
            column.append(person.id)
            spelled.append(person.name)
        if len(names) == 1 and side.get("name") == names[0]:
            side["name"] = spelled[0]
        side["players"] = spelled
        ids.append(column)
    if sides != game.sides:
        game.sides = sides
    link = TableGame(game_id=game.id, table_id=table.id, players=ids)
    session.add(link)
    table.updated_at = utcnow()
    session.flush()
    return link


def join_table(session: Session, game: Game, key: Any) -> None:
    """Link a game just created to the table with editing key ``key`` (None: no table)."""
    if key is None:
        return
    table = get_table(session, key)
    if table is None:
        raise GameProblems([Problem("table.not_found", "table", {})])
    attach(session, table, game)


def _move_on(game: Game) -> None:
    # A game whose names changed is a new version: every kept state and page of it is stale.
    game.version += 1
    game.updated_at = utcnow()
    game.summary = None


def linked_games(session: Session, table: Table) -> list[tuple[TableGame, Game]]:
    """The table's games with their link rows, oldest first."""
    query = (
        select(TableGame, Game)
        .join(Game, Game.id == TableGame.game_id)
        .where(TableGame.table_id == table.id)
        .order_by(Game.created_at, Game.id)
        .options(lazyload(Game.hands), lazyload(Game.revisions))
    )
    return [(link, game) for link, game in session.execute(query)]


def _renamed_sides(game: Game, link: TableGame, names: dict[int, str]) -> list[dict[str, Any]]:
    sides = []
    for c, side in enumerate(game.sides):
        ids = link.players[c] if c < len(link.players) else []
        old = list(side.get("players") or [])
        new = [names.get(ids[j], old[j]) if j < len(ids) else old[j] for j in range(len(old))]
        out = {**side, "players": new}
        if len(old) == 1 and side.get("name") == old[0]:
            out["name"] = new[0]
        sides.append(out)
    return sides


def rename(session: Session, table: Table, player_id: Any, name: Any) -> TablePlayer:
    """Rename a person; every game of the table follows."""
    problems: list[Problem] = []
    person = _find(session, table, player_id, "player")
    clean = clean_name(name, "name", problems)
    if problems:
        raise GameProblems(problems)
    for other in people(session, table):
        if other.id != person.id and other.name.casefold() == clean.casefold():
            raise GameProblems([Problem("table.player_twice", "name", {"name": clean})])
    person.name = clean
    for link, game in linked_games(session, table):
        if any(person.id in column for column in link.players):
            game.sides = _renamed_sides(game, link, {person.id: clean})
            _move_on(game)
    _touch(table)
    session.flush()
    return person


def merge(session: Session, table: Table, keep_id: Any, gone_id: Any) -> TablePlayer:
    """Two entries of one person become one (``keep`` stays, ``gone`` goes): every game of
    ``gone`` names ``keep`` instead. Refused when both played in one game."""
    keep = _find(session, table, keep_id, "keep")
    gone = _find(session, table, gone_id, "merge")
    if keep.id == gone.id:
        raise GameProblems([Problem("table.merge_same", "merge", {})])
    links = linked_games(session, table)
    for link, _game in links:
        flat = [p for column in link.players for p in column]
        if keep.id in flat and gone.id in flat:
            raise GameProblems([Problem("table.merge_together", "merge", {"name": keep.name})])
    for link, game in links:
        if any(gone.id in column for column in link.players):
            link.players = [[keep.id if p == gone.id else p for p in col] for col in link.players]
            game.sides = _renamed_sides(game, link, {keep.id: keep.name})
            _move_on(game)
    session.delete(gone)
    _touch(table)
    session.flush()
    return keep


def _find(session: Session, table: Table, player_id: Any, where: str) -> TablePlayer:
    if isinstance(player_id, str) and player_id.isascii() and player_id.isdigit():
        player_id = int(player_id[:12])
    person = (
        session.get(TablePlayer, player_id)
        if isinstance(player_id, int) and not isinstance(player_id, bool) and 0 < player_id < 2**31
        else None
    )
    if person is None or person.table_id != table.id:
        raise GameProblems([Problem("table.player_unknown", where, {})])
    return person


def delete_table(session: Session, table: Table) -> None:
    """Delete the table and every game it played (the games are the table's)."""
    ids = select(TableGame.game_id).where(TableGame.table_id == table.id)
    session.execute(
        delete(Game).where(Game.id.in_(ids)).execution_options(synchronize_session=False)
    )
    session.execute(delete(TablePlayer).where(TablePlayer.table_id == table.id))
    session.delete(table)
    session.flush()


def is_canasta(ruleset: str) -> bool:
    return ruleset in PRESETS
