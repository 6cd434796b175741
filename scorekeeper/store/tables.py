"""Tables: a group of regular players and the games they played (their statistics are
:mod:`.table_stats`).

A table (:class:`~.models.Table`) has people (:class:`~.models.TablePlayer`); a game played at
it has a link row (:class:`~.models.TableGame`) naming the person behind every player name of
its sides. Games keep their names as text, so every page of a game reads as before; renaming or
merging people rewrites the names in the table's games (and moves each game on, so no kept page
or state shows the old name).

Every function takes the caller's session and never commits. Every change of a table's
people or games takes the table's row lock first (:func:`lock`: ``SELECT … FOR UPDATE`` on
PostgreSQL; SQLite's writers already take turns, ``store.db.write_scope``) and reads what it
changes after it: two changes of one table at once run one after the other, and the second
sees what the first did (docs/concurrency.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import InvalidRequestError
from sqlalchemy.orm import Session, lazyload
from sqlalchemy.orm.exc import ObjectDeletedError

from ..edge.requests import Merge, NewTable, Rename
from ..edge.tables import MAX_PLAYERS as MAX_PLAYERS
from ..edge.tables import NOBODY, person_id
from ..rules.problems import Problem
from ..rules.ruleset import PRESETS
from . import fifty
from .errors import GameProblems
from .games import KEY, NAME_MAX
from .models import (
    Game,
    Table,
    TableGame,
    TableMerge,
    TablePlayer,
    TournamentParticipant,
    utcnow,
)

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


def lock(session: Session, table: Table) -> Table:
    """Take the table's row lock for the rest of the transaction and read the table again
    under it. Every change of the table's people or games calls this first, so they run one
    after the other on PostgreSQL too (on SQLite the whole database is the lock)."""
    try:
        session.refresh(table, with_for_update=True)
    except (InvalidRequestError, ObjectDeletedError):  # deleted meanwhile (another phone)
        raise GameProblems([Problem("table.not_found", "table", {})], 404) from None
    return table


def made_name(names: Sequence[str]) -> str:
    """A side's name made from its players' names (``Anna & Ben``), at most 40 characters."""
    text = " & ".join(names)
    return text if len(text) <= NAME_MAX else text[: NAME_MAX - 1].rstrip() + "\u2026"


def is_made_name(name: Any, names: Sequence[str]) -> bool:
    """Whether a side's name was made from these player names (and so follows them), rather
    than typed by someone: it is their :func:`made_name`, or that join cut at 40 characters."""
    text = " & ".join(names)
    return (
        isinstance(name, str)
        and bool(names)
        and name in (made_name(names), text[:NAME_MAX].strip())
    )


# ---- making and changing -------------------------------------------------------------------
def create_table(session: Session, new: NewTable) -> Table:
    """A new table with its people (flushed, not committed), as the edge read it
    (:func:`~..edge.tables.read_new_table`: a name, 2 to 40 distinct names)."""
    now = utcnow()
    table = Table(name=new.name, version=1, created_at=now, updated_at=now)
    session.add(table)
    session.flush()
    for i, person in enumerate(new.players):
        session.add(TablePlayer(table_id=table.id, name=person, position=i))
    session.flush()
    return table


def add_person(session: Session, table: Table, clean: str) -> TablePlayer:
    """A new person at the table, of a name the edge read (:func:`~..edge.tables.read_name`):
    ``table.player_twice`` when the name is taken."""
    lock(session, table)
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
    joins the table. A name merged into another person (and not undone) is that person now.
    One person plays once per game (``table.player_twice``; ``table.player_merged``, 409, when
    a merge made two of the names one person). Takes the table's lock (:func:`lock`)."""
    lock(session, table)
    known = {p.name.casefold(): p for p in people(session, table)}
    aliases = merged_names(session, table, known)
    ids: list[list[int]] = []
    sides = [dict(side) for side in game.sides]
    seen: dict[int, str] = {}
    aliased = False
    for c, side in enumerate(sides):
        names = [str(n) for n in side.get("players") or []]
        column: list[int] = []
        spelled: list[str] = []
        for j, name in enumerate(names):
            alias = aliases.get(name.casefold()) if name.casefold() not in known else None
            person = alias if alias is not None else _person(session, table, name, known)
            where = f"sides[{c}].players[{j}]"
            if person.id in seen:
                if alias is not None or seen[person.id].casefold() != name.casefold():
                    merged = {"name": name, "keep": person.name}
                    raise GameProblems([Problem("table.player_merged", where, merged)], 409)
                raise GameProblems([Problem("table.player_twice", where, {"name": name})])
            aliased = aliased or alias is not None
            seen[person.id] = name
            column.append(person.id)
            spelled.append(person.name)
        if is_made_name(side.get("name"), names):
            side["name"] = made_name(spelled)
        side["players"] = spelled
        ids.append(column)
    if sides != game.sides:
        game.sides = sides
    link = TableGame(game_id=game.id, table_id=table.id, players=ids)
    session.add(link)
    if aliased:  # a merge this game depends on: it can no longer be undone
        _touch(table)
    table.updated_at = utcnow()
    session.flush()
    return link


def merged_names(
    session: Session, table: Table, known: dict[str, TablePlayer]
) -> dict[str, TablePlayer]:
    """The names of people merged into others (merges not undone), each with the person it
    names now (a merge of a merge followed to its end); names a person has now are left out."""
    merges = session.scalars(
        select(TableMerge)
        .where(TableMerge.table_id == table.id, TableMerge.undone_at.is_(None))
        .order_by(TableMerge.id)
    ).all()
    if not merges:
        return {}
    by_id = {p.id: p for p in known.values()}
    into = {m.gone_id: m.keep_id for m in merges}
    out: dict[str, TablePlayer] = {}
    for m in merges:
        target, steps = m.keep_id, 0
        while target not in by_id and target in into and steps < len(into):
            target, steps = into[target], steps + 1
        if target in by_id and m.gone_name.casefold() not in known:
            out[m.gone_name.casefold()] = by_id[target]
    return out


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
    # Counted on in the database (``version = version + 1``), not from the value read: a hand
    # saved into the game meanwhile (it locks the game's row only, not the table's) has moved
    # the version on already, and this change must come after it, not share its number.
    game.version = Game.version + 1
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
        if is_made_name(side.get("name"), old):  # a name typed by someone stays as typed
            out["name"] = made_name(new)
        sides.append(out)
    return sides


def rename(session: Session, table: Table, player_id: int, new: Rename) -> TablePlayer:
    """Rename a person (``player_id``, as :func:`~..edge.tables.person_id` read it) to the
    name the edge read; every game of the table follows."""
    lock(session, table)
    person = find_person(session, table, player_id, "player")
    clean = new.name
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


def merge(session: Session, table: Table, request: Merge) -> TableMerge:
    """Two entries of one person become one (``keep`` stays, ``merge`` goes): every game of
    the one merged names ``keep`` instead. Refused when both played in one game. What it
    changed is kept (:class:`~.models.TableMerge`) so that :func:`undo_merge` can take it
    back."""
    lock(session, table)
    keep = find_person(session, table, person_id(request.keep), "keep")
    gone = find_person(session, table, person_id(request.merge), "merge")
    if keep.id == gone.id:
        raise GameProblems([Problem("table.merge_same", "merge", {})])
    links = linked_games(session, table)
    for link, _game in links:
        flat = [p for column in link.players for p in column]
        if keep.id in flat and gone.id in flat:
            raise GameProblems([Problem("table.merge_together", "merge", {"name": keep.name})])
    changed: list[dict[str, Any]] = []
    for link, game in links:
        places = [
            [c, j] for c, col in enumerate(link.players) for j, p in enumerate(col) if p == gone.id
        ]
        if places:
            link.players = [[keep.id if p == gone.id else p for p in col] for col in link.players]
            game.sides = _renamed_sides(game, link, {keep.id: keep.name})
            _move_on(game)
            changed.append({"game": game.id, "places": places})
    moved = list(
        session.scalars(
            select(TournamentParticipant.id).where(TournamentParticipant.table_player_id == gone.id)
        )
    )
    if moved:
        session.execute(
            update(TournamentParticipant)
            .where(TournamentParticipant.id.in_(moved))
            .values(table_player_id=keep.id)
            .execution_options(synchronize_session=False)
        )
    record = TableMerge(
        table_id=table.id,
        keep_id=keep.id,
        keep_name=keep.name,
        gone_id=gone.id,
        gone_name=gone.name,
        gone_position=gone.position,
        games=changed,
        participants=moved,
        table_version=0,
        merged_at=utcnow(),
    )
    session.delete(gone)
    _touch(table)
    record.table_version = table.version
    session.add(record)
    session.flush()
    return record


def games_of(session: Session, table: Table, person_id: int) -> int:
    """How many of the table's games the person played."""
    query = select(TableGame.players).where(TableGame.table_id == table.id)
    return sum(1 for players in session.scalars(query) if any(person_id in col for col in players))


def merges(session: Session, table: Table) -> list[TableMerge]:
    """The table's merges, newest first (the trail)."""
    query = select(TableMerge).where(TableMerge.table_id == table.id)
    return list(session.scalars(query.order_by(TableMerge.id.desc()).limit(50)))


def undoable(table: Table, record: TableMerge, latest: TableMerge | None) -> bool:
    """Whether the merge can still be undone: not undone yet, the table's latest merge, and
    nothing changed at the table's people since (its version is the one the merge left)."""
    return (
        record.undone_at is None
        and latest is not None
        and latest.id == record.id
        and table.version == record.table_version
    )


def undo_merge(session: Session, table: Table, merge_id: Any) -> TableMerge:
    """Take a merge back: the person merged away is there again (same id, name and place)
    and names every game the merge moved to the other person. Only while nothing changed at
    the table's people since (:func:`undoable`), else ``table.merge_stale`` (409); the same
    undo again (its answer was lost) changes nothing and answers as the first."""
    lock(session, table)
    record = _merge_record(session, table, merge_id)
    if record.undone_at is not None:
        return record
    latest = session.scalars(
        select(TableMerge)
        .where(TableMerge.table_id == table.id)
        .order_by(TableMerge.id.desc())
        .limit(1)
    ).first()
    keep = session.get(TablePlayer, record.keep_id)
    if not undoable(table, record, latest) or keep is None or keep.table_id != table.id:
        raise GameProblems([Problem("table.merge_stale", "merge", {"name": record.gone_name})], 409)
    gone = TablePlayer(
        id=record.gone_id,
        table_id=table.id,
        name=record.gone_name,
        position=record.gone_position,
    )
    session.add(gone)
    session.flush()
    for entry in record.games:
        link = session.get(TableGame, entry.get("game"))
        game = session.get(
            Game, entry.get("game"), options=[lazyload(Game.hands), lazyload(Game.revisions)]
        )
        if link is None or game is None:
            continue
        players = [list(column) for column in link.players]
        for c, j in entry.get("places") or []:
            if c < len(players) and j < len(players[c]) and players[c][j] == keep.id:
                players[c][j] = gone.id
        link.players = players
        game.sides = _renamed_sides(game, link, {gone.id: gone.name})
        _move_on(game)
    if record.participants:
        session.execute(
            update(TournamentParticipant)
            .where(
                TournamentParticipant.id.in_(record.participants),
                TournamentParticipant.table_player_id == keep.id,
            )
            .values(table_player_id=gone.id)
            .execution_options(synchronize_session=False)
        )
    record.undone_at = utcnow()
    _touch(table)
    session.flush()
    return record


def _merge_record(session: Session, table: Table, merge_id: Any) -> TableMerge:
    number = person_id(merge_id)  # a merge's id is counted as a person's is
    record = session.get(TableMerge, number) if number != NOBODY else None
    if record is None or record.table_id != table.id:
        raise GameProblems([Problem("table.merge_unknown", "merge", {})], 404)
    return record


def find_person(session: Session, table: Table, number: int, where: str) -> TablePlayer:
    """The table's person with the id ``number`` (:func:`~..edge.tables.person_id`: 0 names
    nobody): ``table.player_unknown`` at ``where`` if there is none, ``table.player_merged``
    (409) when they were merged into another person meanwhile."""
    person = session.get(TablePlayer, number) if number != NOBODY else None
    if person is None or person.table_id != table.id:
        if number != NOBODY:
            gone = session.scalars(
                select(TableMerge)
                .where(
                    TableMerge.table_id == table.id,
                    TableMerge.gone_id == number,
                    TableMerge.undone_at.is_(None),
                )
                .order_by(TableMerge.id.desc())
                .limit(1)
            ).first()
            if gone is not None:  # merged away meanwhile (another phone): a conflict
                merged = {"name": gone.gone_name, "keep": gone.keep_name}
                raise GameProblems([Problem("table.player_merged", where, merged)], 409)
        raise GameProblems([Problem("table.player_unknown", where, {})])
    return person


def delete_table(session: Session, table: Table) -> None:
    """Delete the table and every game it played (the games are the table's)."""
    lock(session, table)
    ids = select(TableGame.game_id).where(TableGame.table_id == table.id)
    session.execute(
        delete(Game).where(Game.id.in_(ids)).execution_options(synchronize_session=False)
    )
    session.execute(delete(TablePlayer).where(TablePlayer.table_id == table.id))
    session.delete(table)
    session.flush()


def is_canasta(ruleset: str) -> bool:
    return ruleset in PRESETS
