"""A club tournament's pages: this phone's tournaments, the new-tournament form, the director's
page (participants, the round's seating swapped by hand and confirmed, the tables' progress,
the standings), the public standings and the projector, both refreshing by themselves, and the
two PDFs.

The director's key grants everything; this phone keeps the keys of its tournaments in a cookie
(the list at ``/tournaments``), as it does its tables. Every change is a plain form (POST, then
303 to the director's page); a refused change shows the page again with the reason.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, abort, make_response, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

from ...edge.requests import Absence, Swap
from ...rules.ruleset import RULESET_IDS
from ...store import cache, stamps, tables
from ...store import tournaments as tournament_store
from ...store.db import session_scope, write_scope
from ...store.errors import GameProblems
from ...store.games import KEY
from ...store.models import Tournament
from ...tournaments.model import TableView, TournamentView
from ..app import htmx
from ..app.security import share_link
from ..play import pages
from ..sheets.routes import (
    draw_tournament_round,
    draw_tournament_standings,
    pdf_language,
    pdf_response,
)
from ..sheets.tournament_labels import tournament_labels
from ..tables.routes import COOKIE as TABLES_COOKIE
from ..words.i18n import forced_locale, home_ruleset
from ..words.messages import message
from ..words.names import ruleset_title
from . import board
from .form import (
    SIZES,
    TournamentForm,
    allowed_sizes,
    blank_form,
    place,
    read_form,
    size_classes,
)

bp = Blueprint("tournaments", __name__)

COOKIE = "tournaments"
#: a phone keeps a tournament for a year after it last opened it (a club's season)
COOKIE_DAYS = 365
#: how many of this phone's tables the new form offers to take the players from
TABLES_SHOWN = 20


# ---- this phone's tournaments and a new one ---------------------------------------------------


@bp.get("/tournaments")
def index() -> Response:
    keys = pages.recent_ids(COOKIE)
    with session_scope() as session:
        found = (
            {
                t.id: t.name
                for t in session.scalars(select(Tournament).where(Tournament.id.in_(keys)))
            }
            if keys
            else {}
        )
    mine = [(key, found[key]) for key in keys if key in found]  # newest first, as kept
    response = make_response(render_template("tournaments/index.html", mine=mine))
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


def _phone_tables(session: Session) -> list[tuple[str, str]]:
    keys = pages.recent_ids(TABLES_COOKIE)[:TABLES_SHOWN]
    return [(t.id, t.name) for t in tables.tables_of(session, keys)]


def _people(session: Session, key: str) -> list[str]:
    table = tables.get_table(session, key) if key else None
    return [p.name for p in tables.people(session, table)] if table is not None else []


def _new_page(form: TournamentForm, status: int = 200) -> tuple[str, int]:
    with session_scope() as session:
        mine = _phone_tables(session)
    html = render_template(
        "tournaments/new.html",
        form=form,
        rulesets=RULESET_IDS,
        titles={rs: ruleset_title(rs) for rs in RULESET_IDS},
        sizes=SIZES,
        size_classes=size_classes(),
        allowed=allowed_sizes(form.ruleset),
        tables=mine,
    )
    return html, status


@bp.route("/tournaments/new", methods=["GET", "POST"])
def new() -> Response | tuple[str, int]:
    """The form; posting it makes the tournament and goes to the director's page."""
    if request.method == "GET":
        form = blank_form(home_ruleset())
        chosen = request.args.get("table", "")[:64]
        with session_scope() as session:
            form.people = _people(session, chosen)
        if form.people:
            form.table = chosen
            form.ticked = set(form.people)
        return _new_page(form)
    chosen = request.form.get("table", "")[:64]
    with session_scope() as session:
        people = _people(session, chosen)
    form, setup = read_form(request.form, people)
    if setup is None:
        return _new_page(form, 422)
    try:
        with write_scope() as session:
            key = tournament_store.create_tournament(session, setup).id
    except GameProblems as error:
        place(form, error.problems)
        return _new_page(form, 422)
    response = pages.see_other(url_for("tournaments.show", tournament_id=key))
    return pages.remember(response, COOKIE, key, COOKIE_DAYS)


# ---- the director's page ------------------------------------------------------------------------


def _director(tournament_id: str, problems: list[str] | None = None, status: int = 200) -> Response:
    with session_scope() as session:
        found = tournament_store.get_tournament(session, tournament_id)
        if found is None:
            abort(404)
        view = tournament_store.view(session, found, editing=True)
    public_link = share_link(url_for("tournaments.public", view_id=view.view_id))
    public = public_link.url
    round_ = board.current_round(view)
    # "?close=N": the director asked to close round N while tables still play (asked first)
    closing = round_ is not None and request.args.get("close") == str(round_.number)
    body_ = render_template(
        "tournaments/show.html",
        closing=closing,
        public_url=public,
        share_loopback=public_link.loopback,
        projector_url=url_for("tournaments.projector", view_id=view.view_id),
        qr=pages.qr_svg(public),
        problems=problems or [],
        swap_choices=board.swap_choices(view, round_) if round_ else [],
        pdf_languages=pages.PDF_LANGUAGES,
        **board.context(view),
    )
    response = make_response(body_, status)
    response.headers["Cache-Control"] = "private, no-store"
    return pages.remember(response, COOKIE, tournament_id, COOKIE_DAYS)


@bp.get("/tournaments/<tournament_id>")
def show(tournament_id: str) -> Response:
    return _director(tournament_id)


Change = Callable[[Session, Tournament], object]


def _stale_text() -> str:
    return _(
        "This page was not up to date, so nothing was changed. "
        "It now shows the tournament as it is."
    )


def _change(tournament_id: str, change: Change) -> Response:
    """Run one director's change in a transaction; a refusal shows the page with its reason
    (and its status: 409 for a round still open, 422 for a seating the rules refuse).

    Every form sends the tournament's ``version`` it was shown with: a form from a page that
    is no longer current (a button tapped twice, a second director's phone) changes nothing
    and is answered 409 with the page as it is now."""
    sent = _number("version")
    try:
        with write_scope() as session:
            found = tournament_store.get_tournament(session, tournament_id)
            if found is None:
                abort(404)
            stale = sent is not None and sent != found.version
            if not stale:
                change(session, found)
    except GameProblems as error:
        return _director(tournament_id, [message(p) for p in error.problems], error.status)
    if stale:
        return _director(tournament_id, [_stale_text()], 409)
    return pages.see_other(url_for("tournaments.show", tournament_id=tournament_id) + "#round")


def _number(name: str) -> int | None:
    raw = request.form.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else None


@bp.post("/tournaments/<tournament_id>/rounds")
def next_round(tournament_id: str) -> Response:
    """A seating by lot for the next round, or a new lot for a proposal not yet confirmed."""
    return _change(tournament_id, tournament_store.propose_round)


@bp.post("/tournaments/<tournament_id>/rounds/<int:number>/swap")
def swap(tournament_id: str, number: int) -> Response:
    """Two participants change places in a proposed seating (a bye too); a seating the rules
    refuse is answered with the engine's reason."""
    a, b = _number("a"), _number("b")
    if a is None or b is None or a == b:
        return _director(tournament_id, [_("Choose two different participants to swap.")], 422)
    return _change(
        tournament_id,
        lambda session, found: tournament_store.swap(session, found, number, Swap(a, b)),
    )


@bp.post("/tournaments/<tournament_id>/rounds/<int:number>/confirm")
def confirm(tournament_id: str, number: int) -> Response:
    return _change(
        tournament_id, lambda session, found: tournament_store.confirm_round(session, found, number)
    )


@bp.post("/tournaments/<tournament_id>/rounds/<int:number>/time")
def call_time(tournament_id: str, number: int) -> Response:
    return _change(
        tournament_id, lambda session, found: tournament_store.call_time(session, found, number)
    )


@bp.post("/tournaments/<tournament_id>/rounds/<int:number>/close")
def close(tournament_id: str, number: int) -> Response:
    return _change(
        tournament_id, lambda session, found: tournament_store.close_round(session, found, number)
    )


@bp.post("/tournaments/<tournament_id>/participants/<int:number>/absent")
def absent(tournament_id: str, number: int) -> Response:
    gone = request.form.get("absent") == "1"
    return _change(
        tournament_id,
        lambda session, found: tournament_store.set_absent(session, found, number, Absence(gone)),
    )


@bp.post("/tournaments/<tournament_id>/forget")
def forget(tournament_id: str) -> Response:
    """Take the tournament off this phone's list (it stays stored: its links still work)."""
    response = pages.see_other(url_for("tournaments.index"))
    return pages.forget(response, COOKIE, tournament_id, COOKIE_DAYS)


# ---- the public standings and the projector ---------------------------------------------------


def _live(view_id: str, page: str, fragment: str) -> Response:
    """A read-only page refreshing itself: htmx polls it for its ``#live`` fragment with the
    stamp it shows (``since``). While that is still the tournament's, the answer is 204 after
    one light read; else the fragment, kept (``store.cache`` pages) for every phone asking
    with the same stamp, so a hall of phones polling costs one rendering per change."""
    is_fragment = htmx.wants_fragment()
    # read first: a change landing meanwhile gives a newer stamp at the next poll
    found = stamps.tournament_stamp(view_id) if KEY.match(view_id) else None
    if found is None or found[1]:  # unknown, or the director's key: not a public address
        abort(404)
    stamp = board.poll_stamp(found[2])
    if is_fragment and request.args.get("since") == stamp:
        return pages.unchanged()
    key = (view_id, str(get_locale()), request.host, request.path, "fragment")
    kept = cache.page(key, stamp) if is_fragment else None
    if kept is None:
        with session_scope() as session:
            tournament = tournament_store.get_by_view(session, view_id)
            if tournament is None:
                abort(404)
            view = tournament_store.view(session, tournament, editing=False)
        html = render_template(
            fragment if is_fragment else page, view_id=view_id, **board.context(view, stamp)
        )
        if is_fragment:
            kept = html.encode()
            cache.keep_page(key, stamp, kept, None)
    response = make_response(kept if kept is not None else html)
    response.vary.add("HX-Request")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tournaments/view/<view_id>")
def public(view_id: str) -> Response:
    return _live(view_id, "tournaments/public.html", "tournaments/_live.html")


@bp.get("/tournaments/view/<view_id>/projector")
def projector(view_id: str) -> Response:
    return _live(view_id, "tournaments/projector.html", "tournaments/_projector.html")


# ---- the PDFs ---------------------------------------------------------------------------------


def _editing_view(tournament_id: str) -> TournamentView:
    with session_scope() as session:
        found = tournament_store.get_tournament(session, tournament_id)
        if found is None:
            abort(404)
        return tournament_store.view(session, found, editing=True)


def _game_url(table: TableView) -> str:
    """What a table card's QR code opens: the table's game, where its phones enter hands."""
    if table.game_id is None:
        return ""
    return share_link(url_for("games.show", game_id=table.game_id)).url


@bp.get("/tournaments/<tournament_id>/standings.pdf")
def standings_sheet(tournament_id: str) -> Response:
    view = _editing_view(tournament_id)
    with forced_locale(pdf_language()):
        data = draw_tournament_standings(view, tournament_labels())
    return pdf_response(data, f"standings-{_file_day(view)}.pdf")


@bp.get("/tournaments/<tournament_id>/rounds/<int:number>.pdf")
def round_sheet(tournament_id: str, number: int) -> Response:
    view = _editing_view(tournament_id)
    if not any(r.number == number for r in view.rounds):
        abort(404)
    with forced_locale(pdf_language()):
        data = draw_tournament_round(view, number, tournament_labels(), _game_url)
    return pdf_response(data, f"round-{number}-{_file_day(view)}.pdf")


def _file_day(view: TournamentView) -> str:
    started = next((r.started_at for r in view.rounds if r.started_at), None)
    return (started or "")[:10] or "tournament"
