"""Tables in the JSON API: a group of regular players, its games and their statistics.

``POST /api/v1/tables`` makes one; ``GET /api/v1/tables/<id>`` gives it (also by ``view_id``,
then without the editing key); a game joins a table by ``"table": id`` in ``POST
/api/v1/games``. The rest (rename, merge and its undo, export, import, delete) takes the
editing key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, Response, request, url_for
from sqlalchemy.orm import Session

from ...edge.reading import Reader, read_into
from ...edge.requests import NoBody
from ...edge.tables import person_id, read_merge, read_new_table, read_page, read_rename
from ...extensions import csrf
from ...rules.scoring import Rejected
from ...store import tables
from ...store.db import session_scope, write_scope
from ...store.errors import GameProblems
from ...store.models import Table
from ..app.security import spooled_body
from .answers import (
    dumped_response,
    game_problems_response,
    problem_response,
    read_object,
)
from .table_json import import_table_file, table_export, table_json

#: what the edge reads a body into
Read = TypeVar("Read")

bp = Blueprint("tables_api", __name__, url_prefix="/api/v1/tables")
csrf.exempt(bp)


def _not_found() -> Response:
    return problem_response(404, "table.not_found")


def _answer(key: str, status: int = 200) -> Response:
    with session_scope() as session:
        table = tables.get_table(session, key)
        if table is None:  # pragma: no cover - written a moment ago
            return _not_found()
        body = table_json(session, table, editing=True)
    response = dumped_response(body, status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("")
def create() -> Response:
    """``{"name", "players": ["Anna", …]}`` → 201 ``{"id", "view_id", "players", …}``."""
    data, error = read_object()
    if data is None:
        return error  # type: ignore[return-value]
    new = read_new_table(data)
    if isinstance(new, Rejected):
        return _rejected(new)
    try:
        with write_scope() as session:
            key = tables.create_table(session, new).id
    except GameProblems as problems:
        return game_problems_response(problems)
    response = _answer(key, 201)
    response.headers["Location"] = url_for(".detail", key=key)
    return response


@bp.post("/import")
def import_table() -> Response:
    """A table as ``GET …/<id>/export`` gives it → 201 with the new table. The body may be as
    large as ``TABLE_IMPORT_MAX`` (docs/limits.md): it is kept in a temporary file as it
    arrives and read one game at a time."""
    body = spooled_body()
    try:
        with body, write_scope() as session:
            key = import_table_file(session, body).id
    except GameProblems as problems:
        return game_problems_response(problems)
    return _answer(key, 201)


@bp.get("/<key:key>")
def detail(key: str) -> Response:
    """The table, a page of its games (newest first, ``?page=``) and its statistics (over every
    game); by ``view_id`` without the keys."""
    page = read_page(request.args.get("page", "1"))
    if isinstance(page, Rejected):
        return _rejected(page)
    with session_scope() as session:
        table = tables.get_table(session, key)
        editing = table is not None
        if table is None:
            table = tables.get_by_view(session, key)
        if table is None:
            return _not_found()
        body = table_json(session, table, editing=editing, page=page)
    response = dumped_response(body)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/<key>/export")
def export(key: str) -> Response:
    """Every game of the table, complete (the games API's shape), with its people."""
    with session_scope() as session:
        table = tables.get_table(session, key)
        if table is None:
            return _not_found()
        body = table_export(session, table)
    return dumped_response(body)


@bp.delete("/<key:key>")
def delete(key: str) -> Response:
    """Delete the table and every game it played."""
    with write_scope() as session:
        table = tables.get_table(session, key)
        if table is None:
            return _not_found()
        tables.delete_table(session, table)
    return Response(status=204)


@bp.put("/<key>/players/<player>")
def rename(key: str, player: str) -> Response:
    """``{"name"}``: rename a person; every game of the table follows."""
    data, error = read_object()
    if data is None:
        return error  # type: ignore[return-value]
    new = read_rename(data)  # its problems said once the table is found (an unknown one: 404)
    number = person_id(player)
    return _change(key, lambda session, table: tables.rename(session, table, number, _read(new)))


@bp.post("/<key>/merge")
def merge(key: str) -> Response:
    """``{"keep": id, "merge": id}``: two entries of one person become ``keep``."""
    data, error = read_object()
    if data is None:
        return error  # type: ignore[return-value]
    asked = read_merge(data)
    return _change(key, lambda session, table: tables.merge(session, table, asked))


@bp.post("/<key>/merges/<merge_id>/undo")
def undo_merge(key: str, merge_id: str) -> Response:
    """Take a merge back (``merges[].undoable`` in the table's answer); 409
    ``table.merge_stale`` once a later change of the table's people depends on it. The same
    undo again changes nothing and answers as the first."""
    data, error = read_object(optional=True)  # nothing to read, but JSON or nothing
    if data is None:
        return error  # type: ignore[return-value]
    read_into(NoBody, data, Reader())  # no field of its own: any object is taken
    try:
        with write_scope() as session:
            table: Table | None = tables.get_table(session, key)
            if table is None:
                return _not_found()
            tables.undo_merge(session, table, merge_id)
    except GameProblems as problems:
        return game_problems_response(problems)
    return _answer(key)


def _read(value: Read | Rejected) -> Read:
    """What the edge read, or its problems raised as the store's (answered 400 or 422)."""
    if isinstance(value, Rejected):
        raise GameProblems(list(value.problems))
    return value


def _rejected(answer: Rejected) -> Response:
    """A request the edge could not read: its problems (400 or 422, as the store's)."""
    return game_problems_response(GameProblems(list(answer.problems)))


def _change(key: str, change: Callable[[Session, Table], Any]) -> Response:
    """A change of the table (its request read already) in one transaction; the table."""
    try:
        with write_scope() as session:
            table: Table | None = tables.get_table(session, key)
            if table is None:
                return _not_found()
            change(session, table)
    except GameProblems as problems:
        return game_problems_response(problems)
    return _answer(key)
