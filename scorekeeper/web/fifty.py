"""Pages of "3 ist 50" (RULES.md §7, seed 001): a new evening, the game page, entering and
correcting a game (a deck played through), the read-only view, the score sheet PDF and the
referee question "What may I play?".

Hypermedia like the Canasta pages: plain forms that work without JavaScript (POST, then 303),
htmx adds the live preview (a fragment whose parts land next to their fields out of band), the
referee's live answer and the view's polling. One score computation: the preview, the stored
games and the PDF all count minus piles with ``rules.three_is_fifty.pile_points`` (through
``store.fifty``); the referee answers with ``rules.three_is_fifty.referee_request``.

Routes (``bp`` "fifty"):

* ``GET|POST /fifty/new``; ``GET /fifty/<id>``; ``GET /fifty/view/<view_id>``
* ``GET /fifty/<id>/games/new``, ``GET /fifty/<id>/games/<n>/edit``,
  ``POST /fifty/<id>/games`` (add), ``POST /fifty/<id>/games/<n>`` (correct),
  ``POST /fifty/<id>/games/<n>/delete`` (the last only), ``POST /fifty/<id>/preview``
* ``GET /fifty/<id>/sheet.pdf?lang=de|pl|en`` (also by the view key)
* ``GET /fifty/referee`` (the question in the query: shareable, answered live by htmx)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ..rules import three_is_fifty as rules
from ..rules.problems import Problem
from ..sheets import ScoreSheet, SheetCell, SheetColumn, SheetHand, SheetLabels
from ..store import fifty as store
from ..store.db import session_scope
from ..store.models import Game
from . import pages
from .i18n import long_date, number
from .messages import MESSAGES, card_label, message
from .sheets import score_sheet_pdf

bp = Blueprint("fifty", __name__)

COOKIE = "fifty"
#: The card pad, in the order players sort a minus pile (seed 001: a three is just "3").
PAD = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "X")
DEFAULT_PLAYERS = 4
PLAYER_SEATS = range(rules.MAX_PLAYERS)
MAX_TEXT = 600  # characters kept of one typed field


# ---- words -----------------------------------------------------------------------------------
def problem_text(problem: Problem) -> str:
    """A problem as a sentence in the reader's language (the shared catalogue first)."""
    params = problem.params
    if problem.code == "three_is_fifty.points_over_deck":
        return _("Together %(points)s minus points: more than the whole deck holds "
                 "(%(maximum)s).", points=number(params.get("points")),
                 maximum=number(params.get("maximum")))
    if problem.code == "request.value" and "maximum" in params:
        return _("Enter a number from %(minimum)s to %(maximum)s.",
                 minimum=number(params.get("minimum")), maximum=number(params.get("maximum")))
    if problem.code == "request.type" and params.get("expected") == "integer":
        return _("Enter a whole number.")
    if problem.code == "game.finished":
        return _("This evening is over: correct a game or start a new evening.")
    if problem.code == "hand.not_last":
        return _("Only the last game (%(last)s) can be deleted.", last=number(params.get("last")))
    if problem.code in MESSAGES:
        return message(problem)
    return problem.code


def cards_text(cards: Any) -> str:
    """Game ranks as the reader writes them (B D for jack and queen in German)."""
    return " ".join(card_label(str(c)) for c in cards)


def joker_text(joker: int) -> str:
    # flask-babel passes ``num`` itself: a formatted number needs another placeholder name.
    return ngettext("Joker: %(points)s point", "Joker: %(points)s points", joker,
                    points=number(joker))


def end_text(state: store.FiftyState) -> str:
    """How the evening ends, as chosen."""
    parts = []
    if state.stop_after:
        parts.append(ngettext("after %(count)s game", "after %(count)s games", state.stop_after,
                              count=number(state.stop_after)))
    if state.target:
        parts.append(_("when someone reaches %(points)s", points=number(state.target)))
    if not parts:
        return _("No set end: stop when you like.")
    return _("The evening ends %(when)s; the lowest total wins.",
             when=_(" or ").join(parts))


Notes = dict[str, list[str]]


def _note(notes: Notes, slot: str, text: str) -> None:
    if text not in notes.setdefault(slot, []):
        notes[slot].append(text)


# ---- recent games of this browser ------------------------------------------------------------
def recent_ids() -> list[str]:
    return pages.recent_ids(COOKIE)


def remember(response: Response, game_id: str) -> Response:
    """Keep this browser's editing keys (every key grants editing: never list them to others)."""
    return pages.remember(response, COOKIE, game_id)


# ---- a new evening ---------------------------------------------------------------------------
@dataclass
class NewForm:
    players: int = DEFAULT_PLAYERS
    names: list[str] = field(default_factory=lambda: [""] * rules.MAX_PLAYERS)
    joker: str = str(rules.DEFAULT_JOKER)
    stop_after: str = ""
    target: str = ""


def read_new(form: MultiDict[str, str]) -> tuple[NewForm, dict[str, Any], Notes]:
    notes: Notes = {}
    players = pages.read_int(form.get("players"))
    if players not in rules.PLAYERS_ALLOWED:
        players = DEFAULT_PLAYERS
    nf = NewForm(players=players,
                 names=[form.get(f"name-{i}", "")[:MAX_TEXT].strip() for i in PLAYER_SEATS],
                 joker=form.get("joker", "")[:MAX_TEXT].strip(),
                 stop_after=form.get("stop_after", "")[:MAX_TEXT].strip(),
                 target=form.get("target", "")[:MAX_TEXT].strip())
    values: dict[str, int | None] = {}
    for key in ("joker", "stop_after", "target"):
        text = getattr(nf, key)
        value = pages.read_int(text) if text else None
        if text and value is None:
            _note(notes, key, problem_text(Problem("request.type", key,
                                                   {"expected": "integer"})))
        values[key] = value
    args = {
        "players": [nf.names[i] or _("Player %(num)s", num=i + 1) for i in range(players)],
        "joker": rules.DEFAULT_JOKER if values["joker"] is None else values["joker"],
        "stop_after": values["stop_after"], "target": values["target"],
    }
    return nf, args, notes


def _slot_new(where: str) -> str:
    m = re.match(r"players\[(\d+)\]", where)
    if m:
        return f"name-{m[1]}"
    if where.startswith("options.joker"):
        return "joker"
    return where if where in ("stop_after", "target") else "form"


def recent_games() -> list[tuple[str, store.FiftyState]]:
    """This browser's games of 3 ist 50, newest first."""
    ids = recent_ids()
    out = []
    if ids:
        with session_scope() as session:
            for game_id in ids:
                game = store.get_game(session, game_id)
                if game is not None:
                    out.append((game_id, store.fifty_state(game)))
    return out


@bp.route("/fifty/new", methods=["GET", "POST"])
def new_game() -> Response | tuple[str, int]:
    if request.method == "GET":
        nf = NewForm()
        players = request.args.get("players", type=int)
        if players in rules.PLAYERS_ALLOWED:
            nf.players = players
        return _new_page(nf, {}, 200)
    nf, args, notes = read_new(request.form)
    if notes:
        return _new_page(nf, notes, 422)
    try:
        with session_scope() as session:
            game = store.create_game(session, **args)
            game_id = game.id
    except store.GameProblems as error:
        for p in error.problems:
            _note(notes, _slot_new(p.where), problem_text(p))
        return _new_page(nf, notes, 422)
    return remember(pages.see_other(url_for("fifty.show", game_id=game_id)), game_id)


def _new_page(nf: NewForm, notes: Notes, status: int) -> tuple[str, int]:
    return render_template("fifty/new.html", form=nf, notes=notes, recent=recent_games(),
                           seats=PLAYER_SEATS, allowed=rules.PLAYERS_ALLOWED), status


# ---- the game page, the view, the sheet ------------------------------------------------------
@dataclass
class Loaded:
    game_id: str
    game: Game
    state: store.FiftyState


def load(game_id: str) -> Loaded:
    game, state = pages.find_game(game_id, store.fifty_state, store.get_game)
    return Loaded(game_id, game, state)


def board_context(state: store.FiftyState) -> dict[str, Any]:
    return {"state": state, "joker_text": joker_text(state.joker), "end_text": end_text(state),
            "winner_names": ", ".join(state.players[i] for i in state.winners)}


def referee_link(state: store.FiftyState) -> str:
    return url_for("fifty.referee", players=state.players and len(state.players),
                   name=state.players)


@bp.get("/fifty/<game_id>")
def show(game_id: str) -> Response:
    loaded = load(game_id)
    state = loaded.state
    view_url = url_for("fifty.view", view_id=state.view_id, _external=True)
    pdfs = pages.pdf_links("fifty.sheet", game_id)
    html = render_template("fifty/show.html", game_id=game_id, view_url=view_url, pdfs=pdfs,
                           referee_url=referee_link(state), **board_context(state))
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    return remember(response, game_id)


@bp.get("/fifty/view/<view_id>")
def view(view_id: str) -> Response:
    _game, state = pages.find_game(view_id, store.fifty_state, store.get_by_view)
    return pages.live_view(state.version, "fifty/view.html", "fifty/_live.html",
                           view_id=view_id, **board_context(state))


def sheet_labels() -> SheetLabels:
    return SheetLabels(
        title=_("3 is 50 score sheet"), ruleset=_("Rules"), house_rules=_("House rules"),
        date=_("Date"), players=_("Players"), target=_("End"), hand=_("No."),
        melded_cards="", canasta_bonus="", red_threes="", going_out="", in_hand="", bonus="",
        cards="", score=_("Minus points"), total=_("Total"), minimum="", concealed="",
        final_score=_("Final score"), winner=_("Winner"), margin=_("Margin"),
        no_winner=_("Game still running"), minimum_table="", scoring_summary="",
        page_of=_("Page {page} of {pages}"),
    )


def score_sheet(state: store.FiftyState) -> ScoreSheet:
    """A stored evening as the renderer's plain data, in the current locale."""
    labels = sheet_labels()
    winner = state.winners[0] if len(state.winners) == 1 else None
    if len(state.winners) > 1:
        labels = SheetLabels(**{**labels.__dict__, "no_winner": _(
            "Shared win: %(names)s", names=", ".join(state.players[i] for i in state.winners))})
    hands = tuple(
        SheetHand(number=row.number,
                  cells=tuple(SheetCell(items={}, score=s.points, total=s.total, minimum=0)
                              for s in row.scores),
                  note=_("%(name)s dealt.", name=state.players[row.dealer]))
        for row in state.rows)
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
    return score_sheet_pdf(score_sheet, state, f"3-ist-50-{state.created_at:%Y-%m-%d}.pdf")


# ---- entering a game -------------------------------------------------------------------------
@dataclass
class PlayerField:
    index: int
    name: str
    mode: str = "cards"  # or "points"
    cards: str = ""
    points: str = ""

    @property
    def prefix(self) -> str:
        return f"p{self.index}"


@dataclass
class EntryForm:
    players: list[PlayerField]
    version: int
    number: int | None = None  # the game being corrected; None: a new game
    dealer: str = ""


@dataclass
class Preview:
    points: list[int | None]  # per player; None where the field cannot be read
    totals: list[int]
    notes: Notes
    blocked: bool


def blank_entry(loaded: Loaded) -> EntryForm:
    state = loaded.state
    return EntryForm([PlayerField(i, name) for i, name in enumerate(state.players)],
                     state.version, None, state.players[state.next_dealer])


def stored_entry(loaded: Loaded, number: int) -> EntryForm:
    state = loaded.state
    row = state.rows[number - 1]
    fields = []
    for i, (name, score) in enumerate(zip(state.players, row.scores, strict=False)):
        if score.cards is None:
            fields.append(PlayerField(i, name, "points", "", str(score.points)))
        else:
            fields.append(PlayerField(i, name, "cards", cards_text(score.cards), ""))
    return EntryForm(fields, state.version, number, state.players[row.dealer])


def read_entry_form(loaded: Loaded, form: MultiDict[str, str], number: int | None) -> EntryForm:
    state = loaded.state
    fields = []
    for i, name in enumerate(state.players):
        mode = form.get(f"p{i}-mode", "cards")
        fields.append(PlayerField(i, name, mode if mode in ("cards", "points") else "cards",
                                  form.get(f"p{i}-cards", "")[:MAX_TEXT],
                                  form.get(f"p{i}-points", "")[:MAX_TEXT].strip()))
    version = pages.read_int(form.get("version")) or 0
    dealer = state.next_dealer if number is None else state.rows[number - 1].dealer
    return EntryForm(fields, version, number, state.players[dealer])


def entries_of(ef: EntryForm) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The store's entry from the form, and the problems of reading the typed numbers."""
    entries: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for f in ef.players:
        if f.mode == "cards":
            entries.append({"cards": f.cards})
            continue
        value = pages.read_int(f.points) if f.points else 0
        if value is None:
            problems.append(Problem("request.type", f"players[{f.index}].points",
                                    {"expected": "integer"}))
            value = 0
        entries.append({"points": value})
    return entries, problems


def _slot(where: str) -> str:
    m = re.match(r"players\[(\d+)\]", where)
    return f"p{m[1]}" if m else "entry"


def preview(loaded: Loaded, ef: EntryForm) -> tuple[Preview, list[dict[str, Any]]]:
    entries, problems = entries_of(ef)
    points, store_problems = store.check_entry(loaded.game, entries)
    problems += store_problems
    notes: Notes = {}
    unreadable = set()
    for p in problems:
        slot = _slot(p.where)
        _note(notes, slot, problem_text(p))
        if slot != "entry":
            unreadable.add(int(slot[1:]))
    shown: list[int | None] = [None if i in unreadable else pts for i, pts in enumerate(points)]
    totals = store.totals_after(loaded.state, points, ef.number)
    return Preview(shown, totals, notes, bool(problems)), entries


def slot_ids(ef: EntryForm) -> list[str]:
    return ["entry"] + [f.prefix for f in ef.players]


def _entry_page(loaded: Loaded, ef: EntryForm, pv: Preview | None, status: int = 200,
                conflict: bool = False, problems: list[str] | None = None) -> tuple[str, int]:
    context = {"game_id": loaded.game_id, "state": loaded.state, "ef": ef, "pv": pv,
               "notes": pv.notes if pv else {}, "conflict": conflict,
               "pad": [(r, card_label(r)) for r in PAD], "problems": problems or []}
    template = "fifty/_entry_form.html" if request.htmx else "fifty/entry.html"
    return render_template(template, **context), status


def _game_number(loaded: Loaded, number: int) -> int:
    if not 1 <= number <= len(loaded.state.rows):
        abort(404)
    return number


@bp.post("/fifty/<game_id>/again")
def play_again(game_id: str) -> Response:
    """A new evening with the same players, seats and options."""
    return pages.start_again(game_id, store.get_game, "fifty.show", remember)


@bp.get("/fifty/<game_id>/games/new")
def new_entry(game_id: str) -> Response | tuple[str, int]:
    loaded = load(game_id)
    if loaded.state.finished:
        return redirect(url_for("fifty.show", game_id=game_id), code=303)
    return _entry_page(loaded, blank_entry(loaded), None)


@bp.get("/fifty/<game_id>/games/<int:number>/edit")
def edit_entry(game_id: str, number: int) -> tuple[str, int]:
    loaded = load(game_id)
    ef = stored_entry(loaded, _game_number(loaded, number))
    pv, _entries = preview(loaded, ef)
    return _entry_page(loaded, ef, pv)


@bp.post("/fifty/<game_id>/games")
def add_entry(game_id: str) -> Response | tuple[str, int]:
    return _save(game_id, None)


@bp.post("/fifty/<game_id>/games/<int:number>")
def replace_entry(game_id: str, number: int) -> Response | tuple[str, int]:
    return _save(game_id, number)


def _save(game_id: str, number: int | None) -> Response | tuple[str, int]:
    loaded = load(game_id)
    if number is not None:
        _game_number(loaded, number)
    ef = read_entry_form(loaded, request.form, number)
    pv, entries = preview(loaded, ef)
    if request.form.get("action") != "save":
        return _entry_page(loaded, ef, pv)  # "check" without JavaScript
    if pv.blocked:
        return _entry_page(loaded, ef, pv, 422)
    try:
        with pages.stored_game(game_id, store.get_game) as (session, game):
            if number is None:
                store.add_game(session, game, ef.version, entries)
            else:
                store.replace_game(session, game, number, ef.version, entries)
    except (store.VersionConflict, store.HandNotFound):
        return _conflict(game_id, number)
    except store.GameProblems as error:
        for p in error.problems:
            _note(pv.notes, _slot(p.where), problem_text(p))
        return _entry_page(loaded, ef, pv, 422)
    return pages.see_other(url_for("fifty.show", game_id=game_id))


def _conflict(game_id: str, number: int | None) -> tuple[str, int]:
    """Someone else saved first: the evening as it is now, this entry kept, ready to be saved
    again on top of the other change (409)."""
    loaded = load(game_id)
    if number is not None and number > len(loaded.state.rows):
        number = None  # the game being corrected was deleted meanwhile: enter it anew
    kept = read_entry_form(loaded, request.form, number)
    kept.version = loaded.state.version
    pv, _entries = preview(loaded, kept)
    return _entry_page(loaded, kept, pv, 409, conflict=True)


@bp.post("/fifty/<game_id>/preview")
def entry_preview(game_id: str) -> str:
    """The live preview: the summary, and each player's points and problems out of band."""
    loaded = load(game_id)
    number = pages.read_int(request.form.get("number"))
    if number is not None and not 1 <= number <= len(loaded.state.rows):
        number = None
    ef = read_entry_form(loaded, request.form, number)
    pv, _entries = preview(loaded, ef)
    return render_template("fifty/_preview.html", ef=ef, pv=pv, notes=pv.notes,
                           slots=slot_ids(ef), state=loaded.state)


@bp.post("/fifty/<game_id>/games/<int:number>/delete")
def delete_entry(game_id: str, number: int) -> Response | tuple[str, int]:
    loaded = load(game_id)
    _game_number(loaded, number)
    version = pages.read_int(request.form.get("version")) or 0
    try:
        with pages.stored_game(game_id, store.get_game) as (session, game):
            store.delete_game(session, game, number, version)
    except store.HandNotFound:
        abort(404)
    except store.VersionConflict:
        return _trouble(game_id, [], 409)
    except store.GameProblems as error:
        return _trouble(game_id, [problem_text(p) for p in error.problems], 422)
    return pages.see_other(url_for("fifty.show", game_id=game_id))


def _trouble(game_id: str, problems: list[str], status: int) -> tuple[str, int]:
    state = load(game_id).state
    return render_template("fifty/conflict.html", game_id=game_id, problems=problems,
                           **board_context(state)), status


# ---- the referee: "What may I play?" ---------------------------------------------------------
CASES = ("middle", "own_pile", "any_pile", "discard")


def case_titles() -> dict[str, str]:
    """The four cases of seed 001 "Ausspielen von Karten", in its order."""
    return {
        "middle": _("Case 1: middle or discard pile"),
        "own_pile": _("Case 2: your own minus pile"),
        "any_pile": _("Case 3: any minus pile"),
        "discard": _("Case 4: onto the discard pile"),
    }


def case_rules() -> dict[str, str]:
    """The short rules section of the referee page; answers quote it."""
    return {
        "middle": _("A hand card of the same rank as one or more of the middle cards or the "
                    "top card of the discard pile: it and all those cards go onto the minus "
                    "pile of your left neighbour. Suits never matter."),
        "own_pile": _("A hand card of the same rank as the top card of your own minus pile: "
                      "it and the cards of that rank lying on top of your pile without a "
                      "break go onto the minus pile of your left neighbour. Covered cards "
                      "stay."),
        "any_pile": _("A hand card of the same rank as the top card of any minus pile (your "
                      "own and your neighbour's too) may go onto that pile."),
        "discard": _("Only when no hand card matches a middle card, the discard pile's top "
                     "card or the top of a minus pile, one card goes onto the discard pile."),
    }


@dataclass
class MoveText:
    kind: str
    text: str


@dataclass
class CardAnswer:
    rank: str
    label: str
    allowed: bool
    moves: list[MoveText]
    why_not: str = ""


@dataclass
class RefereeForm:
    players: int = DEFAULT_PLAYERS
    player: int = 0
    names: list[str] = field(default_factory=lambda: [""] * rules.MAX_PLAYERS)
    middle: str = ""
    top: str = ""
    piles: list[str] = field(default_factory=lambda: [""] * rules.MAX_PLAYERS)
    hand: str = ""

    def name(self, i: int) -> str:
        return self.names[i] if i < len(self.names) and self.names[i] else _(
            "Player %(num)s", num=i + 1)

    @property
    def empty(self) -> bool:
        return not (self.hand.strip() or self.middle.strip() or self.top.strip()
                    or any(p.strip() for p in self.piles))


@dataclass
class RefereeAnswer:
    state: str  # "empty", "problems", "moves"
    cards: list[CardAnswer] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # the cases that occur, in seed order
    notes: Notes = field(default_factory=dict)


def read_referee(args: MultiDict[str, str]) -> RefereeForm:
    players = pages.read_int(args.get("players"))
    if players not in rules.PLAYERS_ALLOWED:
        players = DEFAULT_PLAYERS
    names = [n[:40].strip() for n in args.getlist("name")[:rules.MAX_PLAYERS]]
    names += [""] * (rules.MAX_PLAYERS - len(names))
    player = pages.read_int(args.get("player")) or 0
    return RefereeForm(
        players=players, player=player if 0 <= player < players else 0, names=names,
        middle=args.get("middle", "")[:MAX_TEXT], top=args.get("top", "")[:MAX_TEXT],
        piles=[args.get(f"pile-{i}", "")[:MAX_TEXT] for i in PLAYER_SEATS],
        hand=args.get("hand", "")[:MAX_TEXT])


def _referee_slot(where: str) -> str:
    m = re.match(r"piles\[(\d+)\]", where)
    if m:
        return f"pile-{m[1]}"
    key = where.split("[")[0].split(".")[0]
    return {"middle": "middle", "discard_top": "top", "hand": "hand"}.get(key, "answer")


def _move_text(move: rules.Move, rf: RefereeForm) -> str:
    card = card_label(move.card)
    left = rules.left_neighbour(rf.player, rf.players)
    if move.kind == "middle":
        return _("Play %(card)s: it and %(taken)s from the middle go onto the minus pile of "
                 "%(name)s, your left neighbour.", card=card,
                 taken=cards_text(move.cards[1:]), name=rf.name(left))
    if move.kind == "own_pile":
        return ngettext("Play %(card)s: it and the %(card)s on top of your own minus pile go "
                        "onto the minus pile of %(name)s, your left neighbour.",
                        "Play %(card)s: it and the %(num)s × %(card)s on top of your own "
                        "minus pile go onto the minus pile of %(name)s, your left neighbour.",
                        len(move.cards) - 1, card=card, name=rf.name(left))
    if move.kind == "any_pile":
        if move.to_pile == rf.player:
            return _("Play %(card)s onto your own minus pile.", card=card)
        return _("Play %(card)s onto the minus pile of %(name)s.", card=card,
                 name=rf.name(move.to_pile if move.to_pile is not None else left))
    return _("Put %(card)s onto the discard pile.", card=card)


def referee_answer(rf: RefereeForm) -> RefereeAnswer:
    """Every legal move, per hand card, with the case of the seed it falls under."""
    if rf.empty:
        return RefereeAnswer("empty")
    data = {"middle": rf.middle, "discard_top": rf.top.strip() or None,
            "piles": rf.piles[:rf.players], "player": rf.player, "hand": rf.hand}
    status, body = rules.referee_request(data)
    if status != 200:
        notes: Notes = {}
        for p in body["problems"]:
            _note(notes, _referee_slot(p.where), problem_text(p))
        return RefereeAnswer("problems", notes=notes)
    moves = [rules.Move(m["card"], m["kind"], m["to_pile"], tuple(m["cards"]))
             for m in body["moves"]]
    hand = list(dict.fromkeys(rules.read_cards(rf.hand)[0]))
    cards = []
    for rank in hand:
        mine = [MoveText(m.kind, _move_text(m, rf)) for m in moves if m.card == rank]
        why = "" if mine else _("Not now: another hand card matches, and a card goes to the "
                                "discard pile only when none does.")
        cards.append(CardAnswer(rank, card_label(rank), bool(mine), mine, why))
    kinds = [k for k in CASES if any(m.kind == k for m in moves)]
    return RefereeAnswer("moves", cards, [message(p) for p in body["reasons"]], kinds)


@bp.get("/fifty/referee")
def referee() -> Response:
    rf = read_referee(request.args)
    answer = referee_answer(rf)
    fragment = bool(request.htmx) and not request.htmx.history_restore_request
    context = {"rf": rf, "answer": answer, "titles": case_titles(), "rules": case_rules(),
               "pad": [(r, card_label(r)) for r in PAD], "seats": PLAYER_SEATS,
               "allowed": rules.PLAYERS_ALLOWED, "joker": rules.DEFAULT_JOKER,
               "slots": ["middle", "top", "hand"] + [f"pile-{i}" for i in PLAYER_SEATS]}
    template = "fifty/_referee_answer.html" if fragment else "fifty/referee.html"
    response = make_response(render_template(template, **context))
    response.vary.add("HX-Request")
    return response

