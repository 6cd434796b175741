"""Backups of stored games, both kinds (Canasta and "3 ist 50"), in the one stored-game format
(:mod:`.stored_format`, which defines it and gives its JSON Schema): for the command line
(``scorekeeper export`` / ``import``: the whole database), the phone's files (its own games, or
one game) and each game of a table's export.

A backup holds what is stored, never what is derived: per game its keys, ruleset, sides,
house rules, target, version, creation and change times and the game it was started from
(``previous_id``: an evening), every hand as entered (adjustments are part of the entry) with
its times, and the corrections trail (``revisions``: each correction and deletion with what the
hand said before, in the order they were made). Totals and winners are derived again. The
whole database's backup also holds the tables of regular players (``tables``: their keys,
people in order, and which person played in which game's seats).
Row numbers of hands and revisions are not carried: their order is.

The output is canonical (sorted keys, games by creation time and key), so exporting a
database, restoring it into an empty one and exporting again gives the same bytes.

Reading a backup is reading untrusted input, done once at the edge
(:mod:`..edge.stored_files`: every game read into the format's values, its set-up as
``create_game`` reads it, every entry as a save reads it); :func:`read_backup` then checks every
hand, also every earlier entry of the trail, against its game as a save does
(:func:`checked_game`), without touching the database; :func:`restore` then stores one checked
game (a game whose editing key is known here already is recognised and left as it is).
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..edge.games import FiftyHandRead, FiftySetup
from ..edge.stored_files import EntryRead, ReadGame, read_backup_file, read_backup_tables
from ..rules.problems import Problem
from ..rules.scoring import Rejected
from . import fifty
from .entries import checked_hand
from .errors import GameProblems
from .games import game_of
from .models import (
    Game,
    GameSide,
    Hand,
    HandRevision,
    Table,
    TableGame,
    TablePlayer,
    new_key,
)
from .stored_format import (
    BACKUP as FORMAT,
)
from .stored_format import (
    FORMAT_VERSION,
    StoredGame,
    StoredHand,
    StoredRevision,
    StoredTable,
    StoredTableGame,
    as_json,
)


# ---- writing ---------------------------------------------------------------------------------
def iso_time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat()


def from_iso_time(value: str) -> datetime:
    """A moment the edge read from a stored file (ISO 8601 in UTC, as :func:`iso_time`
    writes it)."""
    return datetime.fromisoformat(value)


def stored_game(game: Game, with_keys: bool = True) -> StoredGame:
    """One game in the stored-game format. ``with_keys``: its editing key, its sides' keys and
    the editing key of the game it followed (a file for whoever may edit it); without, only
    the view key."""
    return StoredGame(
        view_id=game.view_id,
        name=game.name,
        ruleset=game.ruleset,
        players=game.players,
        options=game.options,
        sides=game.sides,
        target=game.target,
        first_dealer=game.first_dealer,
        version=game.version,
        created_at=iso_time(game.created_at),
        updated_at=iso_time(game.updated_at),
        hands=[
            StoredHand(
                number=hand.number,
                teams=hand.teams,
                lone_player=hand.lone_player,
                stock_out=hand.stock_out,
                created_at=iso_time(hand.created_at),
                updated_at=iso_time(hand.updated_at),
            )
            for hand in sorted(game.hands, key=lambda h: h.number)
        ],
        revisions=[
            StoredRevision(
                number=revision.number,
                kind=revision.kind,  # type: ignore[arg-type]
                teams=revision.teams,
                lone_player=revision.lone_player,
                stock_out=revision.stock_out,
                entered_at=iso_time(revision.entered_at),
                hand_created_at=iso_time(revision.hand_created_at),
                changed_at=iso_time(revision.changed_at),
                version=revision.version,
            )
            for revision in sorted(game.revisions, key=lambda r: r.id)
        ],
        id=game.id if with_keys else None,
        previous_id=game.previous_id if with_keys else None,
        # a side's key enters that side's parts: only with the keys
        side_ids=[row.key for row in game.side_rows] if with_keys and game.side_rows else None,
    )


def dump_game(game: Game, with_keys: bool = True) -> dict[str, Any]:
    """One game as every file holds it (:class:`.stored_format.StoredGame`), as JSON data."""
    out: dict[str, Any] = as_json(stored_game(game, with_keys))
    return out


def dump(games: Iterable[Game], with_keys: bool = True) -> dict[str, Any]:
    """A backup of ``games`` (oldest first)."""
    ordered = sorted(games, key=lambda g: (g.created_at, g.id))
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "games": [dump_game(g, with_keys) for g in ordered],
    }


def dump_tables(session: Session) -> list[dict[str, Any]]:
    """Every table: its keys, name, times, people (in their order; a game's seats name them by
    that order, not by row ids, so a restored database exports the same bytes) and games."""
    out = []
    for table in session.scalars(select(Table).order_by(Table.created_at, Table.id)):
        people = list(
            session.scalars(
                select(TablePlayer)
                .where(TablePlayer.table_id == table.id)
                .order_by(TablePlayer.position, TablePlayer.id)
            )
        )
        index = {person.id: i for i, person in enumerate(people)}
        links = session.scalars(
            select(TableGame).where(TableGame.table_id == table.id).order_by(TableGame.game_id)
        )
        stored = StoredTable(
            id=table.id,
            view_id=table.view_id,
            name=table.name,
            version=table.version,
            created_at=iso_time(table.created_at),
            updated_at=iso_time(table.updated_at),
            people=[person.name for person in people],
            games=[
                StoredTableGame(link.game_id, [[index[p] for p in side] for side in link.players])
                for link in links
            ],
        )
        out.append(as_json(stored))
    return out


def read_tables(data: Any, games: Container[str]) -> list[tuple[Table, list[str], list[Any]]]:
    """The tables of a backup, read at the edge
    (:func:`...edge.stored_files.read_backup_tables`; nothing stored): each table with its
    people's names and its links as ``(game key, seats by people's order)``; a link names a game
    of the backup (``games``). Raises :class:`GameProblems`."""
    read = read_backup_tables(data, games)
    if isinstance(read, Rejected):
        raise GameProblems(list(read.problems))
    return [
        (
            Table(
                id=table.id or new_key(),
                view_id=table.view_id or new_key(),
                name=table.name,
                version=table.version,
                created_at=from_iso_time(table.created_at),
                updated_at=from_iso_time(table.updated_at),
            ),
            table.people,
            [(link.game, link.seats) for link in table.games],
        )
        for table in read
    ]


def restore_table(session: Session, table: Table, people: list[str], links: list[Any]) -> bool:
    """Store one checked table with its people and links (flushed, not committed); False when
    a table with its key is here already (left as it is)."""
    if session.get(Table, table.id) is not None:
        return False
    if session.scalars(select(Table.id).where(Table.view_id == table.view_id)).first():
        table.view_id = new_key()
    session.add(table)
    rows = [TablePlayer(table_id=table.id, name=name, position=i) for i, name in enumerate(people)]
    session.add_all(rows)
    session.flush()
    for game_id, seats in links:
        if session.get(Game, game_id) is not None and session.get(TableGame, game_id) is None:
            session.add(
                TableGame(
                    game_id=game_id,
                    table_id=table.id,
                    players=[[rows[p].id for p in side] for side in seats],
                )
            )
    session.flush()
    return True


def dumps(backup: dict[str, Any]) -> str:
    """The backup as text, always the same bytes for the same games."""
    return json.dumps(backup, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def all_games(session: Session) -> list[Game]:
    """Every stored game, both kinds, with hands and trail, oldest first."""
    query = select(Game).order_by(Game.created_at, Game.id)
    return list(session.scalars(query))


def is_backup(data: Any) -> bool:
    """Whether ``data`` is a file of this format (else perhaps an older export)."""
    return isinstance(data, dict) and data.get("format") == FORMAT


# ---- reading ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Checked:
    """A game of a backup, checked and ready to store; ``keyed``: the file gave its editing
    key (else a new one was made, and the game is recognised by its view key only)."""

    game: Game
    keyed: bool


def read_backup(
    data: Any, max_games: int | None = None, max_hands: int | None = None
) -> list[Checked]:
    """Every game of a backup (or of a file of before), read at the edge
    (:func:`...edge.stored_files.read_backup_file`), then checked against its game, without
    storing any. ``max_games``: games per file; ``max_hands``: hands and earlier entries in the
    whole file. Raises :class:`GameProblems` (``where`` names the game and hand)."""
    read = read_backup_file(data, max_games, max_hands)
    if isinstance(read, Rejected):
        raise GameProblems(list(read.problems))
    return [checked_game(one, f"games[{g}]") for g, one in enumerate(read)]


def _at(where: str, problems: list[Problem]) -> list[Problem]:
    return [Problem(p.code, f"{where}.{p.where}" if p.where else where, p.params) for p in problems]


def _entry(game: Game, read: EntryRead, where: str) -> tuple[Any, Any, bool]:
    """An entry read at the edge, checked as a save checks it: (teams, lone, stock_out)."""
    if isinstance(read, FiftyHandRead):
        if read.problems:
            raise GameProblems(_at(f"{where}.teams", list(read.problems)))
        return read.stored, None, False
    checked = checked_hand(game, read)
    if checked.problems:
        raise GameProblems(_at(where, list(checked.problems)))
    return checked.stored, checked.lone, checked.stock_out


def checked_game(read: ReadGame, where: str) -> Checked:
    """One game of a file read at the edge (``where`` names it), made as a new game of its
    set-up and every entry checked against it, as a save checks it (nothing stored). Raises
    :class:`GameProblems`."""
    setup, stored = read.setup, read.stored
    game = fifty.game_of(setup) if isinstance(setup, FiftySetup) else game_of(setup)
    if stored.side_ids is not None and len(stored.side_ids) != len(game.side_rows):
        raise GameProblems([Problem("request.value", f"{where}.side_ids", {})])
    if stored.side_ids is not None:
        for row, key in zip(game.side_rows, stored.side_ids, strict=True):
            row.key = key
    game.id = stored.id or new_key()
    game.view_id = stored.view_id or new_key()
    game.previous_id = stored.previous_id
    game.version = stored.version
    game.first_dealer = stored.first_dealer
    game.created_at = from_iso_time(stored.created_at)
    game.updated_at = from_iso_time(stored.updated_at)
    game.summary = None
    for h, (hand, hand_read) in enumerate(zip(stored.hands, read.hands, strict=True)):
        teams, lone, stock_out = _entry(game, hand_read, f"{where}.hands[{h}]")
        game.hands.append(
            Hand(
                number=hand.number,
                teams=teams,
                lone_player=lone,
                stock_out=stock_out,
                created_at=from_iso_time(hand.created_at),
                updated_at=from_iso_time(hand.updated_at),
                scored=None,
            )
        )
    for r, (revision, revision_read) in enumerate(
        zip(stored.revisions, read.revisions, strict=True)
    ):
        teams, lone, stock_out = _entry(game, revision_read, f"{where}.revisions[{r}]")
        game.revisions.append(
            HandRevision(
                number=revision.number,
                kind=revision.kind,
                teams=teams,
                lone_player=lone,
                stock_out=stock_out,
                entered_at=from_iso_time(revision.entered_at),
                hand_created_at=from_iso_time(revision.hand_created_at),
                changed_at=from_iso_time(revision.changed_at),
                version=revision.version,
            )
        )
    return Checked(game, read.keyed)


# ---- storing ---------------------------------------------------------------------------------
def known_game(session: Session, checked: Checked, mine: Container[str] = ()) -> Game | None:
    """The stored game this backup's game is: the same editing key; for a file without keys,
    the game with the same view key when its editing key is one of ``mine`` (the phone that
    imports holds it already). Anyone else gets a game of their own."""
    if checked.keyed:
        return session.get(Game, checked.game.id)
    found = session.scalars(select(Game).where(Game.view_id == checked.game.view_id)).first()
    return found if found is not None and found.id in mine else None


def restore(session: Session, checked: Checked, mine: Container[str] = ()) -> tuple[Game, bool]:
    """Store one checked game (flushed, not committed): ``(game, True)``; or the game known
    here already (see :func:`known_game`), left as it is: ``(that game, False)``."""
    known = known_game(session, checked, mine)
    if known is not None:
        return known, False
    game = checked.game
    taken = select(Game.id).where(Game.view_id == game.view_id)
    if session.scalars(taken).first() is not None:  # another game's view key: not shared
        game.view_id = new_key()
    if game.previous_id is not None and session.get(Game, game.previous_id) is None:
        game.previous_id = None  # the evening's earlier game is not here
    keys = [row.key for row in game.side_rows]
    if keys and session.scalars(select(GameSide.key).where(GameSide.key.in_(keys))).first():
        for row in game.side_rows:  # another game's side keys: not shared
            row.key = new_key()
    session.add(game)
    session.flush()
    return game, True
