"""The stored games of docs/api.md §3 "Games (stored)" as JSON.

``POST /api/v1/games`` creates a game; ``GET /api/v1/games/<id>`` gives its score sheet (also
by ``view_id``, then without the editing key); ``POST …/hands``, ``PUT …/hands/<n>`` and
``DELETE …/hands/<n>`` change the hands, each with the ``version`` the client last saw
(409 when stale, see ``store.games``). Problems come as ``{"problems": [...]}``, translated by
``Accept-Language``; nothing here answers 500 for any input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, request, url_for
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ... import store
from ...edge.games import (
    read_entry_id,
    read_hand_body,
    read_new_game,
    read_revision,
    read_version,
)
from ...edge.reading import whole
from ...extensions import csrf
from ...rules.scoring import Rejected
from ...store import GameState, parts, receipts
from ...store.db import session_scope, write_scope
from ...store.games import create_from_setup
from ...store.importing import import_backup
from ...store.models import Game
from ...store.tables import join_table
from ..app.limits import count_imported
from . import fifty
from .answers import (
    dumped_response,
    edge_value,
    game_problems_response,
    problem_response,
    read_object,
    version_conflict_response,
)
from .serialize import hand_json, state_json
from .undo import revision_to_undo

bp = Blueprint("games_api", __name__, url_prefix="/api/v1/games")
csrf.exempt(bp)


# ---- helpers -----------------------------------------------------------------------------------
# A sheet's problems are messages already (``jsonable`` in :func:`.serialize.hand_json`): a
# long sheet is large, and walking it for ``Problem`` objects costs more than the save itself,
# so sheets go out with ``dumped_response``.


def _committed(key: str) -> tuple[GameState, str]:
    """The game as committed, read after a write: the response is built after the commit, so
    the write lock (see ``store.db.write_scope``) is held for the change only."""
    with session_scope() as session:
        game = store.get_game(session, key)
        if game is None:  # written a moment ago, and deleted since with its table
            abort(_not_found())
        return store.game_state(game), game.id


def _not_found() -> Response:
    return problem_response(404, "game.not_found")


def _hand_not_found(number: Any) -> Response:
    return problem_response(404, "hand.not_found", "number", number=str(number)[:12])


def _version(data: dict[str, Any]) -> int:
    """The game's version a change was made on, read at the edge (:func:`_given_version`).
    Raises :class:`store.GameProblems` (400)."""
    return edge_value(read_version(_given_version(data)))


def _given_version(data: dict[str, Any]) -> Any:
    """``version`` from the body, else from ``?version=`` (handy for DELETE), as given."""
    if "version" in data:
        return data["version"]
    raw = request.args.get("version")
    if raw is None:
        return None
    text = raw.strip()
    if text.isascii() and text.isdigit() and len(text) <= 10:
        return int(text)
    return raw  # reported as a wrong type


def _number(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else None


# ---- endpoints ---------------------------------------------------------------------------------


@bp.post("")
def create() -> Response:
    """Create a game: ``{"ruleset", "players", "sides", "options", "target"?, "name"?,
    "table"?}`` (``table``: a table's editing key; the sides name its people)."""
    data, error = read_object()
    if data is None:
        return error  # type: ignore[return-value]
    if fifty.is_fifty(data):
        return fifty.create(data)
    setup = read_new_game(data)
    if isinstance(setup, Rejected):
        return game_problems_response(store.GameProblems(list(setup.problems)))
    try:
        with write_scope() as session:
            game = create_from_setup(session, setup)
            join_table(session, game, setup.table)
            game_id = game.id
            side_ids = [row.key for row in game.side_rows]
    except store.GameProblems as problems:
        return game_problems_response(problems)
    body = state_json(*_committed(game_id))
    body["side_ids"] = side_ids
    response = dumped_response(body, 201)
    response.headers["Location"] = url_for(".detail", key=body["id"])
    return response


@bp.post("/import")
def import_games() -> Response:
    """Import a backup (``scorekeeper export``, a phone's file, or an older export in this
    API's shape: one game or ``{"games": [...]}``); every value is checked as in ``POST
    /api/v1/games`` and ``…/hands``. 201 ``{"games": [{"id"?, "view_id", "version",
    "imported"}]}``: ``imported`` false for a game that was here already (``id`` only when
    the file held it or the game is new); any problem: nothing is stored."""

    data, error = read_object()
    if data is None:
        return error  # type: ignore[return-value]
    try:
        done = import_backup(data, (), count_imported)
    except store.GameProblems as problems:
        return game_problems_response(problems)
    body = {
        "games": [
            {
                **({"id": i.game_id} if i.game_id else {}),
                "view_id": i.view_id,
                "version": i.version,
                "imported": i.added,
            }
            for i in done
        ]
    }
    return dumped_response(body, 201)


@bp.get("/<key:key>")
def detail(key: str) -> Response:
    """The sheet, by editing key (with ``id`` and the sides' keys ``side_ids``), by a side's
    key (as the view shows it, with ``side``: which side) or by ``view_id`` (read-only)."""
    with session_scope() as session:
        link = parts.find(session, key)
        if link is None:
            return fifty.detail(key) or _not_found()
        game = link.game
        if link.kind == "game":
            body = state_json(store.game_state(game), game.id)
            body["side_ids"] = parts.side_keys(session, game.id)
        else:
            body = state_json(store.game_state(game))
            if link.kind == "side":
                body["side"] = link.side
    response = dumped_response(body)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<key>/hands")
def add_hand(key: str) -> Response:
    """Add the next hand: ``{"version", "teams", "lone_player"?, "stock_out"?}`` → 201."""
    return _write_hand(key, None)


@bp.get("/<key>/hands/<number>")
def hand_detail(key: str, number: str) -> Response:
    """One hand of the sheet (by editing key or view id)."""
    with session_scope() as session:
        link = parts.find(session, key)
        if link is None:
            return fifty.hand_detail(key, _number(number)) or _not_found()
        state = store.game_state(link.game)
    n = _number(number)
    row = next((h for h in state.hands if h.number == n), None)
    if row is None:
        return _hand_not_found(number)
    body = hand_json(row)
    body["version"] = state.version
    return dumped_response(body)


@bp.put("/<key>/hands/<number>")
def replace_hand(key: str, number: str) -> Response:
    """Correct a hand: same body as adding one; answers the new sheet."""
    return _write_hand(key, number)


def _write_hand(key: str, number: str | None) -> Response:
    """Add the next hand (``number`` None) or correct hand ``number``. With an ``entry_id``
    the game has taken already, the answer is the first one's (same hand and status) and
    nothing changes, whatever the version (``store.receipts``)."""

    def write(session: Session, game: Game, data: dict[str, Any]) -> int:
        version = _version(data)  # said alone when wrong, before the hand
        hand = read_hand_body(data)
        if number is None:
            return store.add_hand(session, game, version, hand).number
        return store.replace_hand(session, game, _number(number), version, hand).number

    return _change(key, number, write, created=number is None, once=True)


@bp.delete("/<key>/hands/<number>")
def delete_hand(key: str, number: str) -> Response:
    """Delete the last hand; ``version`` in the body or as ``?version=``."""

    def delete(session: Session, game: Game, data: dict[str, Any]) -> None:
        store.delete_hand(session, game, _number(number), _version(data))

    return _change(key, number, delete, optional_body=True, kind="delete")


@bp.post("/<key>/undo")
def undo_delete(key: str) -> Response:
    """Bring back the hand deleted last: ``{"version", "revision"?}`` (``version``: the one the
    delete answered with; without ``revision`` the deletion on offer); 409 when anything
    changed since, 422 once the offer is gone."""

    def undo(session: Session, game: Game, data: dict[str, Any]) -> int:
        version = _version(data)
        return store.undo_delete(
            session, game, revision_to_undo(game, read_revision(data)), version
        ).number

    return _change(key, None, undo, optional_body=True, kind="undo")


def _change(
    key: str,
    number: str | None,
    change: Callable[[Session, Game, dict[str, Any]], int | None],
    *,
    created: bool = False,
    optional_body: bool = False,
    kind: str = "save",
    once: bool = False,
) -> Response:
    """Change a game's hands in one transaction that checks its version; answers the new
    sheet with what changed (201 with the new hand's Location when ``created``), 409 or 422
    with problems. What changed: the sides' totals and everything about the game, and in
    ``hands`` the hands from ``hands_from`` on: the new one, or the corrected one and those
    after it (their running totals moved); none after a delete (a take-back reads no more than
    it changes, so the undo on offer is found when asked for, by ``POST …/undo``).
    A key of a 3-ist-50 game goes to :func:`.fifty.change` (``kind``: save, delete, undo)."""
    data, error = read_object(optional=optional_body)
    if data is None:
        return error  # type: ignore[return-value]
    try:
        entry_id = edge_value(read_entry_id(data.get("entry_id"))) if once else None
        content = receipts.digest(number, data.items()) if entry_id is not None else None
        with write_scope() as session:
            game = store.get_game(session, key)
            first = None
            if game is not None:
                game_id = game.id
                if entry_id is not None:
                    first = receipts.seen(session, game_id, entry_id)
                if first is None:
                    hand = change(session, game, data)
                    # A save answers with the sheet it made (what the commit stores), else
                    # the game is read again once committed.
                    made = store.changed_state(session, game)
                    if entry_id is not None and hand is not None:
                        receipts.record(session, game_id, entry_id, hand, created, content)
        if first is not None:
            return _repeat(key, first, content)
    except store.GameProblems as problems:
        return game_problems_response(problems)
    except (store.VersionConflict, store.HandNotFound, IntegrityError) as trouble:
        # A copy of this very entry may have been saved meanwhile: then answer as it was.
        first = _first_receipt(key, entry_id) if once else None
        if first is not None:
            return _repeat(key, first, content)
        if isinstance(trouble, store.VersionConflict):
            return version_conflict_response(trouble)
        if isinstance(trouble, IntegrityError):
            raise
        return _hand_not_found(number or "")
    if game is None:  # out of the write transaction first: SQLite writers take turns
        found = fifty.change(key, _number(number or ""), data, whole(_given_version(data)), kind)
        return found or _read_only(key) or _not_found()
    state = made if made is not None else _committed(key)[0]
    changed = hand if hand is not None else state.next_hand
    body = state_json(state, game_id, hands_from=changed)
    if hand is not None:
        body["hand"] = hand
    if not created:
        return dumped_response(body)
    response = dumped_response(body, 201)
    response.headers["Location"] = url_for(".hand_detail", key=key, number=str(hand))
    return response


def _read_only(key: str) -> Response | None:
    """403 ``side.read_only`` for a side's key: it enters its side's part, nothing else."""
    with session_scope() as session:
        link = parts.find(session, key)
    if link is not None and link.kind == "side":
        return problem_response(403, "side.read_only")
    return None


def _first_receipt(key: str, entry_id: str | None) -> receipts.Receipt | None:
    if entry_id is None:
        return None
    with session_scope() as session:
        game = store.get_game(session, key)
        return receipts.seen(session, game.id, entry_id) if game is not None else None


def _repeat(key: str, first: receipts.Receipt, content: str | None) -> Response:
    """The answer to an entry the game has already taken: the game as it is now, with the hand
    the first save made or corrected, and the first answer's status (201 or 200). Not when
    the id came with other content (409 ``entry.reused``) or the hand it made was deleted
    since (410 ``entry.deleted``): nothing changes then either."""
    refused = first.problem(content)
    if refused is not None:
        status, problem = refused
        return problem_response(status, problem.code, problem.where, **problem.params)
    state, game_id = _committed(key)
    body = state_json(state, game_id, hands_from=min(first.number, state.next_hand))
    body["hand"] = first.number
    if not first.created:
        return dumped_response(body)
    response = dumped_response(body, 201)
    response.headers["Location"] = url_for(".hand_detail", key=key, number=str(first.number))
    return response
