"""The Canasta pages (docs/api.md §4): a new game, the game page, entering or correcting a
hand, and the read-only view that refreshes by itself.

Hypermedia throughout: every page is a plain form that works without JavaScript (POST, then
303 to the game page); htmx adds the live preview, saving without a page load and polling on
the view page. The new-game form is read in :mod:`.new_game`; entering a hand follows the
shared flow of :mod:`.entry`, filled in for Canasta in :mod:`.hands`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    make_response,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.exceptions import NotFound

from ... import store
from ...rules.fifty import RULESET_ID as FIFTY
from ...rules.ruleset import RULESET_IDS
from ...rules.scoring import item_keys
from ...store import parts, stamps, tournaments
from ...store.db import session_scope
from ...store.models import Game
from ..app import htmx
from ..app.security import share_link
from ..play import pages
from ..play.entry import problem_text
from ..play.notes import Notes
from ..play.pages import Rendered, cached_game_page, qr_svg, table_link
from ..play.tournaments import round_over, tournament_line
from ..words.i18n import current_language, file_day, home_ruleset
from ..words.names import item_labels
from . import parts as parts_web
from .backup import Imported, backup_file, hands_csv, import_games, uploaded
from .board import board_context
from .entry import HANDS
from .new_game import NewGameForm, blank_new_game, read_new_game, where_slot_new_game
from .offline import engine_context, offline_game
from .stats import evening_of

bp = Blueprint("games", __name__)
T = TypeVar("T")

RECENT_COOKIE = pages.CANASTA_COOKIE
FIFTY_COOKIE = pages.FIFTY_COOKIE  # imports fill it too
remember_game = HANDS.remember


def recent_ids() -> list[str]:
    return pages.recent_ids(RECENT_COOKIE)


# ---- a new game -------------------------------------------------------------------------------


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Response | str | tuple[str, int]:
    """The new-game form; posting it re-renders it (``action=refresh``: ruleset or players
    changed) or creates the game and redirects to its page."""
    if request.method == "GET":
        asked = request.args.get("ruleset")
        nf = blank_new_game(
            asked if asked in RULESET_IDS else home_ruleset(), request.args.get("players", type=int)
        )
        return render_template("games/new.html", form=nf, notes=Notes())
    return HANDS.start(
        read_new_game, _new_game_page, lambda problem: where_slot_new_game(problem.where)
    )


def _new_game_page(nf: NewGameForm, notes: Notes, status: int) -> tuple[str, int]:
    template = "games/_new_form.html" if htmx.sent_by_htmx() else "games/new.html"
    return render_template(template, form=nf, notes=notes), status


@bp.post("/games/<game_id>/again")
def play_again(game_id: str) -> Response | tuple[str, int]:
    """A new game with the same players, seats, rules and house rules."""
    return _guarded(
        game_id, lambda: pages.start_again(game_id, store.get_game, "games.show", remember_game)
    )


# ---- the game page and the view ---------------------------------------------------------------


@bp.get("/games/<game_id>")
def show(game_id: str) -> Response:
    """The scorekeeper's page: board, hands, sharing, referee and PDF links. Sent again from
    memory until the game or its evening changes (:func:`.play.pages.cached_game_page`); only
    ``all`` (every hand of a long game) changes it. htmx asks for it again when the game's
    event stream tells of a change (static/live.js), with the version it shows (``since``):
    204 while that is still the game's, after one light read. A side's key opens that side's
    own page."""
    since = request.args.get("since", type=int)
    if since is not None and htmx.wants_fragment():
        found = stamps.game_stamp(game_id)
        if found is not None and found[0] == since:
            return pages.unchanged()
    try:
        html = cached_game_page(game_id, lambda: _render_show(game_id), query=("all",))
    except NotFound:
        if parts_web.side_of(game_id) is None:
            raise
        return parts_web.page(game_id)  # a side's own page
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    return remember_game(response, game_id)


def _render_show(game_id: str) -> Rendered:
    game, state = pages.find_game(game_id, store.game_state, _with_revisions)
    # the base URL, else the LAN address, never an untrusted Host header.
    link = share_link(url_for("games.view", view_id=state.view_id))
    referee = [
        (
            column.name,
            url_for(
                "referee.page",
                ruleset=state.ruleset,
                players=state.players,
                score=column.total,
                # the referee answers under the game's house rules and links back to it
                options=json.dumps(state.options, separators=(",", ":")) if state.options else None,
                game=game_id,
            ),
        )
        for column in state.columns
    ]
    evening, chain = evening_of(game_id, store.get_game)  # other games change it
    undo = store.undoable_deletion(game)
    with session_scope() as session:
        part = tournaments.game_tournament(session, game_id)
        table = table_link(session, game_id)
    html = render_template(
        "games/show.html",
        table=table,
        tournament=part,
        tournament_line=tournament_line(part, len(state.hands)) if part else "",
        round_over=round_over(part, len(state.hands)) if part else False,
        game_id=game_id,
        view_url=link.url,
        share_loopback=link.loopback,
        qr=qr_svg(link.url),
        referee=referee,
        pdfs=pages.pdf_links("sheets.game_sheet", game_id),
        undo=undo,
        evening=evening,
        side_links=parts_web.side_links(game_id),
        **parts_web.parts_for(game_id, state),
        offline_game=offline_game(
            state,
            url_for("games.show", game_id=game_id),
            url_for("games.new_hand", game_id=game_id),
        ),
        **engine_context(),
        **board_context(state),
    )
    ends = undo.changed_at.timestamp() + store.UNDO_SECONDS if undo else None
    return html, chain, ends


def _with_revisions(session: Session, game_id: str) -> Game | None:
    return store.get_game(session, game_id, revisions=True)  # the undo offer reads them


@bp.get("/view/<view_id>")
def view(view_id: str) -> Response:
    """The read-only view for the other phones, refreshing by itself (see
    :func:`.play.pages.live_view`)."""
    return pages.live_view(
        view_id,
        RULESET_IDS,
        store.game_state,
        store.get_by_view,
        ("games/view.html", "games/_live.html"),
        lambda state: _view_context(view_id, state),
    )


def _view_context(view_id: str, state: store.GameState) -> tuple[dict[str, Any], tuple[str, ...]]:
    evening, chain = evening_of(view_id, store.get_by_view)  # other games change it
    with session_scope() as session:
        part = tournaments.game_tournament_by_view(session, view_id)
        game = store.get_by_view(session, view_id)
        table = table_link(session, game.id) if game is not None else None
    return {
        "evening": evening,
        "table": table,
        "tournament": part,
        "tournament_line": tournament_line(part, len(state.hands)) if part else "",
        **parts_web.parts_for(view_id, state),
        **board_context(state),
    }, chain


# ---- entering a hand (the shared flow of play.entry, filled in by .entry) ----------------------


def _guarded(game_id: str, call: Callable[[], T]) -> T | tuple[str, int]:
    """A page of the game's key: a side's key gets 403 (it enters its side's part only) rather
    than 404; looked up only when the game's key did not find the game."""
    try:
        return call()
    except NotFound:
        if parts_web.side_of(game_id) is not None:
            return parts_web.refused()
        raise


@bp.get("/games/<game_id>/hands/new")
def new_hand(game_id: str) -> Response | tuple[str, int]:
    """An empty hand form (a finished game takes no new hand: back to its page)."""
    return _guarded(game_id, lambda: HANDS.new(game_id))


@bp.get("/games/<game_id>/hands/new/live")
def entry_live(game_id: str) -> Response | tuple[str, int]:
    """The sides' parts as they come in, beside the scorer's form of a new hand."""
    return _guarded(game_id, lambda: parts_web.entry_live(game_id))


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str) -> Response | tuple[str, int]:
    """Save the next hand (or, without ``action=save``, show the form again checked)."""
    return _guarded(game_id, lambda: HANDS.save(game_id))


@bp.post("/games/<game_id>/preview")
def hand_preview(game_id: str) -> str | tuple[str, int]:
    """The live preview of the hand being typed (htmx, on every change)."""
    return _guarded(game_id, lambda: HANDS.live(game_id))


@bp.get("/games/<game_id>/hands/<int:number>/edit")
def edit_hand(game_id: str, number: int) -> tuple[str, int]:
    """The form filled with hand ``number``, to correct it."""
    return _guarded(game_id, lambda: HANDS.edit(game_id, number))


@bp.post("/games/<game_id>/hands/<int:number>")
def replace_hand(game_id: str, number: int) -> Response | tuple[str, int]:
    """Save the correction of hand ``number``."""
    return _guarded(game_id, lambda: HANDS.save(game_id, number))


@bp.post("/games/<game_id>/hands/<int:number>/delete")
def delete_hand(game_id: str, number: int) -> Response | tuple[str, int]:
    """Delete the last hand (a mistaken entry); "Undo" is offered on the game page."""
    return _guarded(game_id, lambda: HANDS.delete(game_id, number))


@bp.post("/games/<game_id>/undo")
def undo_delete(game_id: str) -> Response | tuple[str, int]:
    """Bring back the hand deleted last, while nothing else has changed."""
    return _guarded(game_id, lambda: HANDS.undo(game_id))


# ---- a side's part of the open hand (the side's own page is games.show) --------------------


@bp.post("/games/<game_id>/part")
def save_part(game_id: str) -> Response:
    """Save the side's part (with the side's key); the hand is saved when it completes it."""
    return parts_web.save(game_id)


@bp.post("/games/<game_id>/part/preview")
def part_preview(game_id: str) -> str:
    """The live preview of the side's part being typed (htmx)."""
    return parts_web.live(game_id)


@bp.get("/games/<game_id>/part/state")
def part_state(game_id: str) -> Response:
    """204 while the side's page shows the open hand; else the page reloads (htmx)."""
    return parts_web.moved_on(game_id)


@bp.post("/games/<game_id>/part/delete")
def withdraw_part(game_id: str) -> Response:
    """Take the side's part of the open hand back."""
    return parts_web.withdraw(game_id)


# ---- backups and moving ----------------------------------------------------------------------


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = make_response(body)
    response.mimetype = mimetype
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/export.json")
def export_game(game_id: str) -> Response:
    """One game of either kind as a backup file, by editing or view key; never with the
    editing key (the file may be passed on)."""

    with session_scope() as session:
        game = (
            store.get_game(session, game_id, any_ruleset=True)
            or store.get_by_view(session, game_id, any_ruleset=True)
            or parts.get_by_side(session, game_id)
        )
        if game is None:
            abort(404)
        body = backup_file([game], with_keys=False)
        kind = "fifty" if game.ruleset == FIFTY else "canasta"
        created = game.created_at
    return _download(body, "application/json", f"{kind}-{file_day(created)}.json")


@bp.get("/games/export.json")
def export_games() -> Response:
    """Every game this phone holds (both kinds), in one backup file with their editing keys:
    the phone holds them already, and a restore gives them back to it."""

    keys = pages.phone_games(RECENT_COOKIE) + pages.phone_games(FIFTY_COOKIE)
    with session_scope() as session:
        games = list(session.scalars(select(Game).where(Game.id.in_(keys)))) if keys else []
        body = backup_file(games, with_keys=True)
    return _download(body, "application/json", "scorekeeper-games.json")


@bp.get("/games/<game_id>/hands.csv")
def export_csv(game_id: str) -> Response:
    """The hands for a spreadsheet, headings in the reader's language."""

    _game, state = pages.find_game(
        game_id, store.game_state, store.get_game, store.get_by_view, parts.get_by_side
    )
    keys = list(item_keys(state.rules))
    words = {
        "hand": _("Hand"),
        "dealer": _("Dealer"),
        "score": _("Hand score"),
        "total": _("Total"),
        "went_out": _("Went out"),
        "yes": _("yes"),
        "concealed": _("concealed"),
        "corrected": _("Times corrected"),
        "adjustment_notes": _("Adjustment notes"),
    }
    text = hands_csv(state, keys, item_labels(keys=keys), words, current_language())
    # A byte order mark: spreadsheet programs then read the names as UTF-8.
    return _download("\ufeff" + text, "text/csv", f"canasta-{file_day(state.created_at)}.csv")


@bp.post("/games/import")
def import_file() -> Response | tuple[str, int]:
    """Import a backup file chosen on the start page (one game or a phone's games, either
    kind); the games join this phone's lists, and the start page says what came in. A file
    with any problem changes nothing (422)."""

    data = uploaded()
    problems: list[str] = []
    done: list[Imported] = []
    if data is None:
        problems.append(_("This file is not a backup of this app (JSON)."))
    else:
        try:
            mine = pages.phone_games(RECENT_COOKIE) + pages.phone_games(FIFTY_COOKIE)
            done = import_games(data, set(mine))
        except store.GameProblems as error:
            problems += [
                f"{p.where}: {problem_text(p)}" if p.where else problem_text(p)
                for p in error.problems[:20]
            ]
    if problems:
        return render_template("games/import.html", problems=problems), 422
    flash(imported_text(done), "success")
    response = pages.see_other(url_for("home.index"))
    for cookie, kind in ((RECENT_COOKIE, False), (FIFTY_COOKIE, True)):
        keys = [i.game_id for i in done if i.game_id and (i.ruleset == FIFTY) == kind]
        if keys:
            pages.remember_all(response, cookie, keys)
    return response


def imported_text(done: list[Imported]) -> str:
    """What an import brought in, in the reader's language."""
    added = sum(1 for i in done if i.added)
    known = len(done) - added
    parts = [ngettext("%(num)s game imported.", "%(num)s games imported.", added)]
    if known:
        parts.append(
            ngettext(
                "%(num)s game was here already and was not imported again.",
                "%(num)s games were here already and were not imported again.",
                known,
            )
        )
    return " ".join(parts)
