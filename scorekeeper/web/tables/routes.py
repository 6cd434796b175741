"""A table of regular players: made in two taps (a name and its players), its page with every
game newest first and the statistics, a game started from it, its people renamed and merged,
its backup, and the read-only page the other phones open.

The editing key grants everything; this phone keeps the keys of its tables in a cookie (the
list at ``/tables``), and opening a table's page (the QR code of another phone) adds it.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeVar

from flask import Blueprint, Response, abort, make_response, render_template, request, url_for
from sqlalchemy.orm import Session

from ... import store
from ...edge.tables import person_id, read_merge, read_name, read_new_table, read_rename
from ...rules.problems import Problem
from ...rules.scoring import Rejected
from ...store import fifty as fifty_store
from ...store import tables
from ...store.db import session_scope, write_scope
from ...store.errors import GameProblems
from ...store.models import Table, TableMerge, TablePlayer
from ...store.table_stats import GameFacts, TableStats, table_stats
from ..api.table_json import import_table_file, table_export
from ..app.security import share_link
from ..fifty import routes as fifty
from ..games import routes as games_routes
from ..play import pages
from ..words.messages import message
from ..words.names import ruleset_title
from .chart import form_chart
from .season import record_label

#: what the edge reads a form into
Read = TypeVar("Read")

bp = Blueprint("tables", __name__)

COOKIE = "tables"
#: a phone keeps a table for a year after it last opened it (a season with a break)
COOKIE_DAYS = 365
PER_PAGE = 20
RULESETS = ("german", "polish", "classic", "american", fifty_store.RULESET_ID)
SEATS = 6


@dataclass(frozen=True)
class Asked:
    """A merge asked for and not yet confirmed: who goes into whom, and in how many games."""

    keep: TablePlayer
    gone: TablePlayer
    games: int


@dataclass(frozen=True)
class Page:
    """What a table's page shows: the table, its people, statistics and merges."""

    table: Table
    people: list[TablePlayer]
    names: dict[int, str]
    stats: TableStats
    editing: bool
    merges: list[TableMerge]
    undoable: int | None  # the merge that can still be undone, if any


def _read(session: Session, table: Table, editing: bool) -> Page:
    people = tables.people(session, table)
    merges = tables.merges(session, table) if editing else []
    latest = merges[0] if merges else None
    undoable = latest.id if latest is not None and tables.undoable(table, latest, latest) else None
    return Page(
        table,
        people,
        {p.id: p.name for p in people},
        table_stats(session, table),
        editing,
        merges,
        undoable,
    )


def _asked(session: Session, page: Page) -> Asked | None:
    """The merge the page asks to confirm (``?keep=&merge=``), if both are people of it."""
    by_id = {p.id: p for p in page.people}
    keep = by_id.get(_query_int("keep") or 0)
    gone = by_id.get(_query_int("merge") or 0)
    if keep is None or gone is None or keep.id == gone.id:
        return None
    return Asked(keep, gone, tables.games_of(session, page.table, gone.id))


def _query_int(name: str) -> int | None:
    raw = request.args.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < len(raw) < 12 else None


#: A pause this long between two of a table's games ends an evening: an evening that runs past
#: midnight stays one, and the server needs no one's time zone to tell.
EVENING_BREAK = timedelta(hours=6)


def evenings(games: Sequence[GameFacts]) -> list[list[GameFacts]]:
    """The games (newest first) in evenings, newest first: a game begun less than
    :data:`EVENING_BREAK` before the next one belongs to that one's evening."""
    out: list[list[GameFacts]] = []
    for game in games:
        if out and abs(out[-1][-1].created_at - game.created_at) < EVENING_BREAK:
            out[-1].append(game)
        else:
            out.append([game])
    return out


def _page_number() -> int:
    raw = request.args.get("page", "1")
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < len(raw) <= 4 else 1


def _render(
    page: Page,
    problems: list[str] | None = None,
    status: int = 200,
    asked: Asked | None = None,
    refused: Mapping[str, str] | None = None,
) -> Response:
    """The table's page; ``refused``: a refused new-game form, shown again as it was filled in
    (the ruleset, every seat, the partnerships, the target), open."""
    shown, number, pages_total = page.stats.games_page(_page_number(), PER_PAGE)
    chosen = request.args.get("player", "")
    player = int(chosen) if chosen.isascii() and chosen.isdigit() and len(chosen) < 12 else None
    if player not in page.names:
        player = page.people[0].id if page.people else None
    chart = form_chart(page.stats.form.get(player, [])) if player is not None else None
    # links for the other phones: the deployment's public address (``--base-url``) if set
    view = share_link(url_for("tables.view", view_id=page.table.view_id))
    share = share_link(url_for("tables.show", table_id=page.table.id)) if page.editing else view
    body = render_template(
        "tables/show.html",
        page=page,
        table=page.table,
        stats=page.stats,
        names=page.names,
        games=shown,
        evenings=evenings(shown),
        page_number=number,
        pages_total=pages_total,
        player=player,
        chart=chart,
        join_url=share.url,
        view_url=view.url,
        share_loopback=view.loopback,
        qr=pages.qr_svg(share.url) if page.editing else "",
        rulesets=RULESETS,
        titles={rs: ruleset_title(rs) for rs in RULESETS},
        seats=SEATS,
        problems=problems or [],
        pdf_languages=pages.PDF_LANGUAGES,
        record_label=record_label,
        asked=asked,
        merged=_merged_notice(page),
        chosen=refused,
    )
    response = make_response(body, status)
    response.headers["Cache-Control"] = "private, no-store"
    if page.editing:
        pages.remember(response, COOKIE, page.table.id, COOKIE_DAYS)
    return response


def _merged_notice(page: Page) -> TableMerge | None:
    """The merge just made (``?merged=ID`` after the redirect), shown with its undo."""
    wanted = _query_int("merged")
    return next((m for m in page.merges if m.id == wanted), None)


def _words(error: GameProblems) -> list[str]:
    return [message(p) for p in error.problems]


# ---- this phone's tables and a new one ---------------------------------------------------------


@bp.get("/tables")
def index() -> Response:
    keys = pages.recent_ids(COOKIE)
    with session_scope() as session:
        mine = [(t.id, t.name) for t in tables.tables_of(session, keys)]
    response = make_response(render_template("tables/index.html", mine=mine, problems=[]))
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


@bp.post("/tables")
def create() -> Response | tuple[str, int]:
    names = [n for n in request.form.get("players", "").splitlines() if n.strip()]
    try:
        new = _edge(read_new_table({"name": request.form.get("name", ""), "players": names[:50]}))
        with write_scope() as session:
            key = tables.create_table(session, new).id
    except GameProblems as error:
        return render_template(
            "tables/index.html", mine=[], problems=_words(error), form=request.form
        ), 422
    response = pages.see_other(url_for("tables.show", table_id=key))
    pages.remember(response, COOKIE, key, COOKIE_DAYS)
    return response


@bp.post("/tables/import")
def import_file() -> Response | tuple[str, int]:
    # The upload is in a temporary file already (werkzeug keeps a file part beyond 500 KB on
    # disk), as large as TABLE_IMPORT_MAX for this route (web.app.security); it is read one
    # game at a time.
    upload = request.files.get("backup")
    source = upload.stream if upload is not None else io.BytesIO()
    try:
        with write_scope() as session:
            key = import_table_file(session, source).id
    except GameProblems as error:
        return render_template("tables/index.html", mine=[], problems=_words(error)), 422
    finally:
        source.close()  # its temporary file goes at once, not when the request is collected
    response = pages.see_other(url_for("tables.show", table_id=key))
    pages.remember(response, COOKIE, key, COOKIE_DAYS)
    return response


# ---- a table ------------------------------------------------------------------------------------


@bp.get("/tables/<table_id>")
def show(table_id: str) -> Response:
    with session_scope() as session:
        table = tables.get_table(session, table_id)
        if table is None:
            abort(404)
        page = _read(session, table, editing=True)
        asked = _asked(session, page)
    return _render(page, asked=asked)


@bp.get("/tables/view/<view_id>")
def view(view_id: str) -> Response:
    with session_scope() as session:
        table = tables.get_by_view(session, view_id)
        if table is None:
            abort(404)
        page = _read(session, table, editing=False)
    return _render(page)


def _again(
    table_id: str, error: GameProblems, refused: Mapping[str, str] | None = None
) -> Response:
    with session_scope() as session:
        table = tables.get_table(session, table_id)
        if table is None:
            abort(404)
        page = _read(session, table, editing=True)
    status = error.status if error.status in (404, 409) else 422
    return _render(page, _words(error), status, refused=refused)


@bp.post("/tables/<table_id>/games")
def new_game(table_id: str) -> Response:
    """A game of the table: the ruleset and the players in their seats (dealing order).
    Partnerships sit opposite: with two sides, seats 1, 3, 5 play together against 2, 4, 6."""
    ruleset = request.form.get("ruleset", "")
    names = [request.form.get(f"seat{i}", "").strip() for i in range(1, SEATS + 1)]
    names = [n for n in names if n]
    sides_wanted = 3 if request.form.get("sides") == "3" else 2
    typed = request.form.get("target", "").strip()
    number = pages.read_int(typed)
    # A target that is no number goes to the store as typed, which names the problem.
    target: object = None if not typed else number if number is not None else typed
    try:
        with write_scope() as session:
            table = tables.get_table(session, table_id)
            if table is None:
                abort(404)
            if ruleset == fifty_store.RULESET_ID:
                game = fifty_store.create_game(session, names)
            else:
                count = len(names)
                columns = 3 if count == 3 or (count == 6 and sides_wanted == 3) else 2
                sides = []
                for c in range(columns):
                    members = names[c::columns]
                    sides.append({"name": tables.made_name(members), "players": members})
                game = store.create_game(session, ruleset, count, sides, target=target)
            tables.attach(session, table, game)
            game_id, kind = game.id, game.ruleset
    except GameProblems as error:
        return _again(table_id, error, request.form)
    if kind == fifty_store.RULESET_ID:
        response = pages.see_other(url_for("fifty.show", game_id=game_id))
        return pages.remember(response, fifty.COOKIE, game_id)
    response = pages.see_other(url_for("games.show", game_id=game_id))
    return pages.remember(response, games_routes.RECENT_COOKIE, game_id)


@bp.post("/tables/<table_id>/players")
def add_player(table_id: str) -> Response:
    name = read_name(request.form.get("name", ""))

    def change(session: Session, table: Table) -> None:
        tables.add_person(session, table, _edge(name))

    return _change(table_id, change)


@bp.post("/tables/<table_id>/players/<int:player_id>")
def rename(table_id: str, player_id: int) -> Response:
    new = read_rename({"name": request.form.get("name", "")})

    def change(session: Session, table: Table) -> None:
        tables.rename(session, table, player_id, _edge(new))

    return _change(table_id, change)


@bp.post("/tables/<table_id>/merge")
def merge(table_id: str) -> Response:
    """Merge two people once asked and confirmed: without ``confirm=yes`` (the people form
    itself, or a page without JavaScript) the table's page asks first; once done, it offers
    "Undo the merge"."""
    keep, gone = request.form.get("keep", ""), request.form.get("merge", "")
    if request.form.get("confirm") != "yes":
        try:
            with session_scope() as session:
                table = tables.get_table(session, table_id)
                if table is None:
                    abort(404)
                kept = tables.find_person(session, table, person_id(keep), "keep").id
                if kept == tables.find_person(session, table, person_id(gone), "merge").id:
                    raise GameProblems([Problem("table.merge_same", "merge", {})])
        except GameProblems as error:
            return _again(table_id, error)
        ask = url_for("tables.show", table_id=table_id, keep=keep[:12], merge=gone[:12])
        return pages.see_other(ask + "#merge-confirm")
    done: list[int] = []

    def change(session: Session, table: Table) -> None:
        done.append(tables.merge(session, table, read_merge({"keep": keep, "merge": gone})).id)

    return _change(table_id, change, lambda: {"merged": done[0]} if done else {})


@bp.post("/tables/<table_id>/merges/<int:merge_id>/undo")
def undo_merge(table_id: str, merge_id: int) -> Response:
    """Take a merge back while nothing at the table depends on it (its undo is kept in the
    trail); the same undo again changes nothing."""

    def change(session: Session, table: Table) -> None:
        tables.undo_merge(session, table, merge_id)

    return _change(table_id, change)


def _edge(value: Read | Rejected) -> Read:
    """What the edge read of a form, or its problems raised as the store's."""
    if isinstance(value, Rejected):
        raise GameProblems(list(value.problems))
    return value


def _change(table_id: str, change: object, query: object = None) -> Response:
    try:
        with write_scope() as session:
            table = tables.get_table(session, table_id)
            if table is None:
                abort(404)
            change(session, table)  # type: ignore[operator]
    except GameProblems as error:
        return _again(table_id, error)
    extra = query() if callable(query) else {}
    anchor = "#merged" if extra else ""
    return pages.see_other(url_for("tables.show", table_id=table_id, **extra) + anchor)


@bp.post("/tables/<table_id>/delete")
def delete(table_id: str) -> Response:
    """Delete the table and every game it played, once the box saying so is ticked."""
    if request.form.get("confirm") != "yes":
        return _again(table_id, GameProblems([Problem("table.delete_unconfirmed", "confirm", {})]))
    with write_scope() as session:
        table = tables.get_table(session, table_id)
        if table is None:
            abort(404)
        tables.delete_table(session, table)
    response = pages.see_other(url_for("tables.index"))
    return pages.forget(response, COOKIE, table_id, COOKIE_DAYS)


@bp.get("/tables/<table_id>/export.json")
def export(table_id: str) -> Response:
    with session_scope() as session:
        table = tables.get_table(session, table_id)
        if table is None:
            abort(404)
        body = json.dumps(table_export(session, table), ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = 'attachment; filename="table.json"'
    response.headers["Cache-Control"] = "no-store"
    return response
