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

Reading a backup is reading untrusted input: :func:`read_backup` checks every game as
``create_game`` does and every hand, also every earlier entry of the trail, as a save does,
without touching the database; :func:`restore` then stores one checked game (a game whose
editing key is known here already is recognised and left as it is).
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..edge import games as edge_games
from ..rules.fifty import DEFAULT_JOKER
from ..rules.problems import Problem
from . import fifty
from .changes import MAX_HANDS
from .entries import checked_hand
from .errors import GameProblems
from .games import KEY, new_game
from .models import (
    Game,
    GameSide,
    Hand,
    HandRevision,
    Table,
    TableGame,
    TablePlayer,
    new_key,
    utcnow,
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
    upgrade_game,
)

REVISION_KINDS = ("corrected", "deleted")
#: corrections and deletions kept per game in a backup (a take-back each hand, several times)
MAX_REVISIONS = 4 * MAX_HANDS
MAX_VERSION = 1_000_000_000


# ---- writing ---------------------------------------------------------------------------------
def iso_time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat()


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
    """The tables of a backup, checked (nothing stored): each table with its people's names
    and its links as ``(game key, seats by people's order)``; a link names a game of the
    backup (``games``). Raises :class:`GameProblems`."""
    items = data.get("tables", []) if isinstance(data, dict) else []
    if not isinstance(items, list):
        raise GameProblems([Problem("request.type", "tables", {"expected": "list"})])
    out = []
    problems: list[Problem] = []
    for i, item in enumerate(items):
        where = f"tables[{i}]"
        if not isinstance(item, dict):
            raise GameProblems([Problem("request.type", where, {"expected": "object"})])
        table_id = read_key(item, "id", where, problems)
        view_id = read_key(item, "view_id", where, problems)
        name = item.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 40:
            problems.append(Problem("request.value", f"{where}.name", {}))
        people = read_list(item, "people", where, 200)
        if not all(isinstance(p, str) and 1 <= len(p) <= 40 for p in people):
            problems.append(Problem("request.value", f"{where}.people", {}))
        links = []
        for g, link in enumerate(read_list(item, "games", where, 100_000)):
            at = f"{where}.games[{g}]"
            seats = link.get("seats") if isinstance(link, dict) else None
            game = link.get("game") if isinstance(link, dict) else None
            if (
                game not in games
                or not isinstance(seats, list)
                or not all(
                    isinstance(side, list)
                    and all(
                        isinstance(p, int) and not isinstance(p, bool) and 0 <= p < len(people)
                        for p in side
                    )
                    for side in seats
                )
            ):
                problems.append(Problem("request.value", at, {}))
                continue
            links.append((game, seats))
        created = read_time(item.get("created_at"), f"{where}.created_at", problems, utcnow())
        table = Table(
            id=table_id or new_key(),
            view_id=view_id or new_key(),
            name=name,
            version=read_whole(
                item.get("version", 1), f"{where}.version", (1, MAX_VERSION), problems
            ),
            created_at=created,
            updated_at=read_time(item.get("updated_at"), f"{where}.updated_at", problems, created),
        )
        out.append((table, list(people), links))
    if problems:
        raise GameProblems(problems)
    return out


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


# ---- reading ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Checked:
    """A game of a backup, checked and ready to store; ``keyed``: the file gave its editing
    key (else a new one was made, and the game is recognised by its view key only)."""

    game: Game
    keyed: bool


def read_backup(
    data: Any, max_games: int | None = None, max_hands: int | None = None
) -> list[Checked]:
    """Check every game of a backup (``{"format": …, "games": [...]}``) without storing any.
    ``max_games``: games per file; ``max_hands``: hands and earlier entries in the whole file.
    Raises :class:`GameProblems` (``where`` names the game and hand)."""
    if not isinstance(data, dict):
        raise GameProblems([Problem("request.type", "", {"expected": "object"})])
    check_format_version(data)
    items = data.get("games")
    if not isinstance(items, list):
        raise GameProblems([Problem("request.type", "games", {"expected": "list"})])
    if not items or (max_games is not None and len(items) > max_games):
        if not items:  # nothing to import (a limit is no part of that problem)
            raise GameProblems([Problem("request.missing", "games", {})], 400)
        raise GameProblems([Problem("request.too_large", "games", {"limit": max_games or 0})], 400)
    if max_hands is not None:
        counted = sum(
            len(item.get("hands") or []) + len(item.get("revisions") or [])
            for item in items
            if isinstance(item, dict)
            and isinstance(item.get("hands", []), list)
            and isinstance(item.get("revisions", []), list)
        )
        if counted > max_hands:
            raise GameProblems([Problem("request.too_large", "games", {"limit": max_hands})], 400)
    return [read_game(upgrade_game(item), f"games[{g}]") for g, item in enumerate(items)]


def check_format_version(data: dict[str, Any]) -> None:
    """Refuse a file of a later version of the format than this app reads (a clear problem,
    not a guess); a file without one is of before version 2."""
    version = data.get("format_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise GameProblems([Problem("request.type", "format_version", {"expected": "integer"})])
    if version > FORMAT_VERSION:
        raise GameProblems(
            [Problem("request.value", "format_version", {"maximum": FORMAT_VERSION})]
        )


def _at(where: str, problems: list[Problem]) -> list[Problem]:
    return [Problem(p.code, f"{where}.{p.where}" if p.where else where, p.params) for p in problems]


def read_key(item: dict[str, Any], name: str, where: str, problems: list[Problem]) -> str | None:
    value = item.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not KEY.match(value):
        problems.append(Problem("request.value", f"{where}.{name}", {}))
        return None
    return value


def read_side_ids(
    item: dict[str, Any], game: Game, where: str, problems: list[Problem]
) -> list[str] | None:
    """The side keys a backup gives (None: none, a file of before side keys or without its
    keys; the game then gets new ones): one per side of a game that has them, all
    different."""
    value = item.get("side_ids")
    if value is None:
        return None
    at = f"{where}.side_ids"
    if (
        not isinstance(value, list)
        or len(value) != len(game.side_rows)
        or not all(isinstance(k, str) and KEY.match(k) for k in value)
        or len(set(value)) != len(value)
    ):
        problems.append(Problem("request.value", at, {}))
        return None
    return value


def read_time(value: Any, where: str, problems: list[Problem], default: datetime) -> datetime:
    if value is None:
        return default
    try:
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError(value)
        moment = datetime.fromisoformat(value)
    except ValueError:
        problems.append(Problem("request.value", where, {}))
        return default
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def read_whole(value: Any, where: str, bounds: tuple[int, int], problems: list[Problem]) -> int:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem("request.type", where, {"expected": "integer"}))
        return low
    if not low <= value <= high:
        problems.append(Problem("request.value", where, {"minimum": low, "maximum": high}))
        return low
    return value


def read_list(item: dict[str, Any], name: str, where: str, limit: int) -> list[Any]:
    value = item.get(name, [])
    if not isinstance(value, list):
        raise GameProblems([Problem("request.type", f"{where}.{name}", {"expected": "list"})])
    if len(value) > limit:
        raise GameProblems([Problem("request.too_large", f"{where}.{name}", {"limit": limit})], 400)
    return value


def _blank_game(item: dict[str, Any]) -> Game:
    """The game's set-up checked as a new game of its kind is (raises GameProblems)."""
    sides = item.get("sides")
    if item.get("ruleset") == fifty.RULESET_ID:
        options = item.get("options")
        if not isinstance(options, dict):
            options = {}
        names = (
            [s.get("name") if isinstance(s, dict) else s for s in sides]
            if isinstance(sides, list)
            else sides
        )
        return fifty.new_game(
            names,
            options.get("joker", DEFAULT_JOKER),
            options.get("games"),
            item.get("target") or None,
            item.get("name"),
        )
    if isinstance(sides, list):  # only what a side is: older exports carry totals beside it
        sides = [
            {"name": s.get("name"), "players": s.get("players")} if isinstance(s, dict) else s
            for s in sides
        ]
    return new_game(
        item.get("ruleset"),
        item.get("players"),
        sides,
        item.get("options"),
        target=item.get("target"),
        name=item.get("name"),
    )


def _entry(game: Game, entry: dict[str, Any], where: str) -> tuple[Any, Any, bool]:
    """A hand's entry as it is stored, checked as a save checks it: (teams, lone, stock_out)."""
    if game.ruleset == fifty.RULESET_ID:
        try:
            return fifty.checked_entry(game, entry.get("teams")), None, False
        except GameProblems as error:
            raise GameProblems(_at(f"{where}.teams", error.problems), error.status) from None
    hand = edge_games.read_hand(
        entry.get("teams"), entry.get("lone_player"), entry.get("stock_out", False)
    )
    checked = checked_hand(game, hand)
    if checked.problems:
        raise GameProblems(_at(where, list(checked.problems)))
    return checked.stored, checked.lone, checked.stock_out


def read_game(item: Any, where: str) -> Checked:
    """One game of a backup, checked (see :func:`read_backup`)."""
    if not isinstance(item, dict):
        raise GameProblems([Problem("request.type", where, {"expected": "object"})])
    try:
        game = _blank_game(item)
    except GameProblems as error:
        raise GameProblems(_at(where, error.problems), error.status) from None
    problems: list[Problem] = []
    game_id = read_key(item, "id", where, problems)
    view_id = read_key(item, "view_id", where, problems)
    previous = read_key(item, "previous_id", where, problems)
    now = utcnow()
    created = read_time(item.get("created_at"), f"{where}.created_at", problems, now)
    updated = read_time(item.get("updated_at"), f"{where}.updated_at", problems, created)
    limit = fifty.MAX_GAMES if game.ruleset == fifty.RULESET_ID else MAX_HANDS
    hands = read_list(item, "hands", where, limit)
    revisions = read_list(item, "revisions", where, MAX_REVISIONS)
    version = item.get("version", 1 + len(hands) + len(revisions))
    version = read_whole(version, f"{where}.version", (1, MAX_VERSION), problems)
    seats = max(1, game.players)
    first_dealer = read_whole(
        item.get("first_dealer", 0), f"{where}.first_dealer", (0, seats - 1), problems
    )
    side_ids = read_side_ids(item, game, where, problems)
    if problems:
        raise GameProblems(problems)
    if side_ids is not None:
        for row, key in zip(game.side_rows, side_ids, strict=True):
            row.key = key
    game.id = game_id or new_key()
    game.view_id = view_id or new_key()
    game.previous_id = previous
    game.version = version
    game.first_dealer = first_dealer
    game.created_at, game.updated_at = created, updated
    game.summary = None
    for h, entry in enumerate(hands):
        at = f"{where}.hands[{h}]"
        if not isinstance(entry, dict):
            raise GameProblems([Problem("request.type", at, {"expected": "object"})])
        number = entry.get("number", h + 1)
        if number != h + 1:
            raise GameProblems([Problem("request.value", f"{at}.number", {"expected": h + 1})])
        teams, lone, stock_out = _entry(game, entry, at)
        made = read_time(entry.get("created_at"), f"{at}.created_at", problems, created)
        changed = read_time(entry.get("updated_at"), f"{at}.updated_at", problems, made)
        game.hands.append(
            Hand(
                number=number,
                teams=teams,
                lone_player=lone,
                stock_out=stock_out,
                created_at=made,
                updated_at=changed,
                scored=None,
            )
        )
    for r, entry in enumerate(revisions):
        at = f"{where}.revisions[{r}]"
        if not isinstance(entry, dict):
            raise GameProblems([Problem("request.type", at, {"expected": "object"})])
        kind = entry.get("kind")
        if kind not in REVISION_KINDS:
            problems.append(Problem("request.value", f"{at}.kind", {}))
        number = read_whole(entry.get("number"), f"{at}.number", (1, limit + 1), problems)
        revision_version = read_whole(entry.get("version"), f"{at}.version", (1, version), problems)
        teams, lone, stock_out = _entry(game, entry, at)
        entered = read_time(entry.get("entered_at"), f"{at}.entered_at", problems, created)
        game.revisions.append(
            HandRevision(
                number=number,
                kind=kind,
                teams=teams,
                lone_player=lone,
                stock_out=stock_out,
                entered_at=entered,
                hand_created_at=read_time(
                    entry.get("hand_created_at"), f"{at}.hand_created_at", problems, entered
                ),
                changed_at=read_time(
                    entry.get("changed_at"), f"{at}.changed_at", problems, entered
                ),
                version=revision_version,
            )
        )
    if problems:
        raise GameProblems(problems)
    return Checked(game, game_id is not None)


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
