"""Pages of "3 ist 50" (docs/rulebook.md §7, seed 001): a new evening, the game page, entering and
correcting a game (a deck played through), the read-only view and the score sheet PDF. The
referee question "What may I play?" is on the referee blueprint.

Hypermedia like the Canasta pages: plain forms that work without JavaScript (POST, then 303);
htmx adds the live preview and the view's polling. The forms are read in :mod:`.fifty_forms`;
entering a game follows the shared flow of :mod:`.entry`, filled in by :mod:`.fifty_entry`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, make_response, render_template, request, url_for
from flask_babel import gettext as _

from ... import store as canasta_store
from ...rules import fifty as rules
from ...sheets import ScoreSheet, SheetCell, SheetColumn, SheetHand, SheetLabels
from ...store import fifty as store
from ...store import stamps
from ...store.db import session_scope
from ..app import htmx
from ..app.security import share_link
from ..play import pages
from ..play.notes import Notes
from ..play.pages import Rendered, cached_game_page, qr_svg, table_link
from ..play.sheet_pdf import score_sheet_pdf
from ..play.sheet_pdf import sheet_labels as canasta_labels
from ..words.i18n import file_day, long_date, number
from .entry import GAMES, board_context
from .forms import PLAYER_SEATS, NewForm, end_text, joker_text, read_new, slot_new
from .recent import recent_games
from .tally import tally_of

bp = Blueprint("fifty", __name__)

COOKIE = GAMES.cookie
remember = GAMES.remember


# ---- a new evening ---------------------------------------------------------------------------


@bp.route("/fifty/new", methods=["GET", "POST"])
def new_game() -> Response | tuple[str, int]:
    if request.method == "GET":
        nf = NewForm()
        players = request.args.get("players", type=int)
        if players in rules.PLAYERS_ALLOWED:
            nf.players = players
        return _new_page(nf, Notes(), 200)
    return GAMES.start(read_new, _new_page, lambda problem: slot_new(problem.where))


def _new_page(nf: NewForm, notes: Notes, status: int) -> tuple[str, int]:
    return render_template(
        "fifty/new.html",
        form=nf,
        notes=notes,
        recent=recent_games(),
        seats=PLAYER_SEATS,
        allowed=rules.PLAYERS_ALLOWED,
    ), status


@bp.post("/fifty/<game_id>/again")
def play_again(game_id: str) -> Response:
    """A new evening with the same players, seats and options."""
    return pages.start_again(game_id, store.get_game, "fifty.show", remember)


# ---- the game page, the view, the sheet ------------------------------------------------------


def referee_link(state: store.FiftyState) -> str:
    return url_for(
        "referee.fifty", players=state.players and len(state.players), name=state.players
    )


@bp.get("/fifty/<game_id>")
def show(game_id: str) -> Response:
    """The evening's page. Sent again from memory until the game changes (as the Canasta page,
    :func:`.play.pages.cached_game_page`); no query parameter changes it. htmx asks for it
    again when the game's event stream tells of a change (static/live.js), with the version
    it shows (``since``): 204 while that is still the game's, after one light read."""
    since = request.args.get("since", type=int)
    if since is not None and htmx.wants_fragment():
        found = stamps.game_stamp(game_id)
        if found is not None and found[0] == since:
            return pages.unchanged()
    html = cached_game_page(game_id, lambda: _render_show(game_id))
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    return remember(response, game_id)


def _render_show(game_id: str) -> Rendered:
    loaded = GAMES.load(game_id)
    state = loaded.state
    # the base URL, else the LAN address, never an untrusted Host header.
    link = share_link(url_for("fifty.view", view_id=state.view_id))
    view_url = link.url
    pdfs = pages.pdf_links("fifty.sheet", game_id)
    undo = canasta_store.undoable_deletion(loaded.game)  # as on the Canasta page
    tally, chain = tally_of(game_id, store.get_game)  # the other evenings change it
    with session_scope() as session:
        table = table_link(session, game_id)
    html = render_template(
        "fifty/show.html",
        game_id=game_id,
        table=table,
        view_url=view_url,
        share_loopback=link.loopback,
        qr=qr_svg(view_url),
        pdfs=pdfs,
        referee_url=referee_link(state),
        undo=undo,
        tally=tally,
        **board_context(state),
    )
    ends = undo.changed_at.timestamp() + canasta_store.UNDO_SECONDS if undo else None
    return html, chain or (game_id,), ends


@bp.get("/fifty/view/<view_id>")
def view(view_id: str) -> Response:
    """The read-only view of the evening, refreshing by itself."""
    return pages.live_view(
        view_id,
        (store.RULESET_ID,),
        store.fifty_state,
        store.get_by_view,
        ("fifty/view.html", "fifty/_live.html"),
        lambda state: _view_context(view_id, state),
    )


def _view_context(view_id: str, state: store.FiftyState) -> tuple[dict[str, Any], tuple[str, ...]]:
    """What the view shows besides the board: the evening's tally, and the games it reads (a
    new game of the evening changes the kept view)."""
    tally, chain = tally_of(view_id, store.get_by_view)
    return {"tally": tally, **board_context(state)}, chain


def sheet_labels() -> SheetLabels:
    """The Canasta sheet's words where 3 ist 50 says the same; its own where it differs (a
    minus-points sheet prints no Canasta items)."""
    return replace(
        canasta_labels(), title=_("3 is 50 score sheet"), target=_("End"), score=_("Minus points")
    )


def _game_note(row: store.GameRow) -> str:
    """A corrected game is marked on paper too, with what it said before (who dealt has its
    column, as on the Canasta sheet)."""
    if not row.corrections:
        return ""
    return _(
        "Corrected; entered before: %(scores)s.",
        scores=" · ".join(
            " / ".join(number(score) for score in fix.scores) for fix in row.corrections
        ),
    )


def score_sheet(state: store.FiftyState) -> ScoreSheet:
    """A stored evening as the renderer's plain data, in the current locale."""

    labels = sheet_labels()
    if not state.finished:  # no final score while the evening goes on
        labels = replace(labels, final_score=_("Score so far"))
    winner = state.winners[0] if len(state.winners) == 1 else None
    if len(state.winners) > 1:
        names = ", ".join(state.players[i] for i in state.winners)
        labels = replace(labels, no_winner=_("Shared win: %(names)s", names=names))
    hands = tuple(
        SheetHand(
            number=row.number,
            cells=tuple(
                SheetCell(items={}, score=s.points, total=s.total, minimum=0) for s in row.scores
            ),
            note=_game_note(row),
            dealer=state.players[row.dealer],
        )
        for row in state.rows
    )
    return ScoreSheet(
        title=state.name or _("3 is 50"),
        ruleset_name=_("3 is 50 \u2013 minus points, the lowest total wins"),
        house_rules=(joker_text(state.joker),),
        date_text=long_date(state.created_at),
        target=state.target or 0,
        columns=tuple(SheetColumn(name) for name in state.players),
        hands=hands,
        winner=winner,
        margin=state.margin if winner is not None else None,
        labels=labels,
        format_number=number,
        minus_points=True,
        target_text=end_text(state),
    )


@bp.get("/fifty/<game_id>/sheet.pdf")
def sheet(game_id: str) -> Response:
    """The score sheet (also by the read-only key: it changes nothing)."""
    _game, state = pages.find_game(game_id, store.fifty_state, store.get_game, store.get_by_view)
    return score_sheet_pdf(score_sheet, state, f"3-ist-50-{file_day(state.created_at)}.pdf")


# ---- entering a game (a deck): the shared flow of play.entry, filled in by .entry -------------
# One game of the evening is one "entry"; a new one and a correction are saved alike.


@bp.get("/fifty/<game_id>/games/new")
def new_entry(game_id: str) -> Response | tuple[str, int]:
    return GAMES.new(game_id)


@bp.post("/fifty/<game_id>/games", endpoint="add_entry")
@bp.post("/fifty/<game_id>/games/<int:number>", endpoint="replace_entry")
def save_entry(game_id: str, number: int | None = None) -> Response | tuple[str, int]:
    return GAMES.save(game_id, number)


@bp.get("/fifty/<game_id>/games/<int:number>/edit")
def edit_entry(game_id: str, number: int) -> tuple[str, int]:
    return GAMES.edit(game_id, number)


@bp.post("/fifty/<game_id>/preview")
def entry_preview(game_id: str) -> str:
    return GAMES.live(game_id)


@bp.post("/fifty/<game_id>/undo")
def undo_delete(game_id: str) -> Response | tuple[str, int]:
    return GAMES.undo(game_id)


@bp.post("/fifty/<game_id>/games/<int:number>/delete")
def delete_entry(game_id: str, number: int) -> Response | tuple[str, int]:
    return GAMES.delete(game_id, number)
