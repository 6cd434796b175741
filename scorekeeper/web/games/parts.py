"""A side's own page (``/games/<side key>``): the game as its view shows it, and the form of
that side's part of the open hand, in the hand form's own fields and entry modes. The part is
stored and the hand saved by :mod:`...store.parts`; the routes are in :mod:`.routes`.

What the game page, the view and the scorer's form show of the parts (which sides are in,
each one's score as it comes) is :mod:`.parts_seen`.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from flask import Response, abort, make_response, render_template, request, url_for
from sqlalchemy.exc import IntegrityError

from ... import store
from ...edge.games import read_part
from ...rules.problems import Problem
from ...rules.scoring import Rejected
from ...store import parts, tournaments
from ...store.db import DatabaseBusy, session_scope, write_scope
from ...store.errors import NotAllowed, PartConflict
from ..app import htmx
from ..app.security import share_link
from ..app.templating import render_fragment
from ..play.entry import Loaded, entry_id_of, problem_text
from ..play.notes import Notes
from ..play.pages import qr_svg, read_int, see_other
from ..play.tournaments import tournament_line
from .entry import HANDS
from .hand_form import build_entry, part_form, read_hand_form
from .parts_seen import parts_card
from .preview import (
    WORDS,
    Preview,
    SidePreview,
    preview,
    preview_words,
    said_text,
    slot_for,
    slot_ids,
)


def entry_live(game_id: str) -> Response:
    """The live part of the scorer's form of a new hand, asked on each change of the game
    (204 while the version it shows is current)."""
    since = request.args.get("since", type=int)
    hand = request.args.get("hand", type=int)
    base = request.args.get("base", type=int)
    with session_scope() as session:
        game = store.get_game(session, game_id)
        if game is None:
            abort(404)
        if since is not None and game.version == since:
            response = make_response("", 204)
            response.headers["Cache-Control"] = "no-store"
            return response
        state = store.game_state(game)
        card = parts_card(session, game, state)
        session.expunge_all()
    html = render_template(
        "games/_entry_live.html",
        game_id=game_id,
        state=state,
        **card,
        entry_sides=True,
        entry_hand=hand if hand is not None else state.next_hand,
        entry_base=base if base is not None else state.version,
    )
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    return response


def parts_for(key: str, state: store.GameState) -> dict[str, Any]:
    """:func:`parts_card` for a page read by ``key`` (the game's key or its view key)."""
    with session_scope() as session:
        link = parts.find(session, key)
        if link is None:
            return parts_card(session, None, state)
        return parts_card(session, link.game, state)


def side_links(game_id: str) -> list[tuple[str, str, str]]:
    """Each side's own link for the game page's share panel: (side name, URL, QR code)."""
    with session_scope() as session:
        game = store.get_game(session, game_id)
        keys = parts.side_keys(session, game_id) if game is not None else []
        names = [side.get("name") or "" for side in game.sides] if game is not None else []
    out = []
    for name, key in zip(names, keys, strict=False):
        link = share_link(url_for("games.show", game_id=key))
        out.append((name, link.url, qr_svg(link.url)))
    return out


def side_of(key: str) -> parts.Link | None:
    """The side a key belongs to (None: not a side's key)."""
    with session_scope() as session:
        link = parts.find(session, key)
        if link is None or link.kind != "side":
            return None
        session.expunge_all()
        return link


def refused() -> tuple[str, int]:
    """A side's key asked for a page only the game's key opens (its saved hands)."""
    text = problem_text(Problem("side.read_only", "", {}))
    return render_template("error.html", status=403, message=text), 403


def _loaded(key: str) -> tuple[parts.Link, store.GameState, list[Any], dict[str, Any]] | None:
    with session_scope() as session:
        link = parts.find(session, key)
        if link is None or link.kind != "side":
            return None
        state = store.game_state(link.game)
        shown = parts.read_parts(session, link.game)
        stored = [p.part for p in shown.parts]
        card = parts_card(session, link.game, state)
        part = tournaments.game_tournament(session, link.game.id)
        card["tournament"] = part
        card["tournament_line"] = tournament_line(part, len(state.hands)) if part else ""
        card["tournament_closed"] = bool(part and part.closed)
        session.expunge_all()
    return link, state, stored, card


def page(key: str, notes: Notes | None = None, form: Any = None, status: int = 200) -> Response:
    """The side's page: the game as the view shows it and the side's part form."""
    loaded = _loaded(key)
    if loaded is None:
        abort(404)
    link, state, stored, card = loaded
    side = link.side or 0
    form = form if form is not None else part_form(state, stored)
    mine = stored[side] if side < len(stored) else None
    view = preview(link.game, state, form) if mine is not None or notes else None
    if view is not None and notes and status >= 400:
        view = _uncounted(view, side)  # refused: its problems are shown, not a score
    template = "games/_part_form.html" if htmx.wants_fragment() else "games/side.html"
    values = {
        **HANDS.board_context(_as_loaded(link, state)),
        **HANDS.page_context(_as_loaded(link, state), form, view),
        **card,
    }
    html = render_template(
        template,
        key=key,
        side=form.sides[side],
        side_index=side,
        view_id=state.view_id,
        part_in=mine is not None,
        notes=notes or (view.notes if view is not None else Notes()),
        entry_id=secrets.token_urlsafe(12),
        **values,
    )
    response = make_response(html, status)
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("HX-Request")
    return response


def _as_loaded(link: parts.Link, state: store.GameState) -> Loaded[store.GameState]:
    return Loaded(link.game.id, link.game, state)


def save(key: str) -> Response:
    """The side's part posted: stored (or the hand saved), then back to the side's page."""
    link = side_of(key)
    if link is None:
        abort(404)
    side = link.side or 0
    with session_scope() as session:
        game = parts.find(session, key)
        assert game is not None
        state = store.game_state(game.game)
        session.expunge_all()
    form = read_hand_form(state, request.form, None)
    form.out = str(side) if request.form.get("out") == str(side) else ""
    entry = build_entry(state, form)
    problems = [p for p in entry.problems if _is_mine(p.where, side)]
    if problems:
        return page(key, _notes(problems, form, entry, side), form, 422)
    part = entry.teams[side]
    hand = read_int(request.form.get("hand"))
    version = read_int(request.form.get("version"))
    read = read_part(part)  # the form's side read at the edge, as the API's part is
    try:
        if isinstance(read, Rejected):
            raise store.GameProblems(list(read.problems))
        with write_scope() as session:
            found = parts.find(session, key)
            assert found is not None
            parts.put_part(session, found, side, read, version, hand, entry_id_of(request.form))
    except store.GameProblems as error:
        mapped = [_back(p, side) for p in error.problems]
        return page(key, _notes(mapped, form, entry, side), form, error.status)
    except (PartConflict, store.VersionConflict) as conflict:
        notes = Notes()
        if isinstance(conflict, PartConflict):
            code, params = conflict.code, {"hand": conflict.hand, "open": conflict.open_hand}
            notes.add("hand", problem_text(Problem(code, "", params)))
            return page(key, notes, None, 409)
        # another phone of this side changed its part: what it stored is in the list of
        # parts below; this phone's typing stays, and Save again replaces it knowingly
        notes.add(
            "hand", problem_text(Problem("part.changed", "", {"name": form.sides[side].name}))
        )
        return page(key, notes, form, 409)
    except (NotAllowed, IntegrityError, DatabaseBusy) as trouble:
        # busy: nothing stored, try again in a moment; a repeat racing its first copy: as stored
        notes = Notes()
        notes.add("hand", problem_text(Problem("request.busy", "", {})))
        busy = page(key, notes, form, 503 if isinstance(trouble, DatabaseBusy) else 409)
        if isinstance(trouble, DatabaseBusy):
            busy.headers["Retry-After"] = "2"
        return busy
    return see_other(url_for("games.show", game_id=key))


def withdraw(key: str) -> Response:
    """Take the side's part back (the hand is not saved yet)."""
    link = side_of(key)
    if link is None:
        abort(404)
    try:
        with write_scope() as session:
            found = parts.find(session, key)
            assert found is not None
            parts.withdraw_part(
                session, found, link.side or 0, None, read_int(request.form.get("hand"))
            )
    except (store.GameProblems, PartConflict, store.VersionConflict):
        pass  # the hand was saved or closed meanwhile: the page shows it as it is
    return see_other(url_for("games.show", game_id=key))


def live(key: str) -> str:
    """The live preview of the side's part as typed: its score and notes."""
    loaded = _loaded(key)
    if loaded is None:
        abort(404)
    link, state, stored, _card = loaded
    side = link.side or 0
    form = read_hand_form(state, request.form, None)
    form.out = str(side) if request.form.get("out") == str(side) else ""
    # the others as they sent their parts, so that two sides out is said at once
    others = part_form(state, stored)
    for i, other in enumerate(others.sides):
        if i != side:
            form.sides[i] = other
            if others.out == str(i) and form.out == "":
                form.out = others.out
    view = preview(link.game, state, form)
    found = [*view.entry.problems, *view.checked.problems]
    if any(_is_mine(p.where, side) for p in found):
        view = _uncounted(view, side)  # it would be refused: no score as if it counted
    mine = replace(form, sides=[form.sides[side]])
    seen = replace(view, sides=[view.sides[side]], said=said_text(mine, [view.sides[side]]))
    order = HANDS.preview_context(_as_loaded(link, state), mine, seen)
    # the same fragment as the hand's preview, drawn the same way: with what it is given
    return render_fragment(
        "games/_preview.html",
        notes=view.notes,
        state=state,
        **{**order, "slots": slot_ids(mine), "words": preview_words()},
    )


def _uncounted(view: Preview, side: int) -> Preview:
    """The preview of a part that is (or would be) refused: its problems stay, its score is
    not shown, and the summary points to the red notes instead."""
    sides = list(view.sides)
    sides[side] = SidePreview(None, {}, {}, None, [], [])
    return replace(view, sides=sides, blocked=True)


def _is_mine(where: str, side: int) -> bool:
    own = f"teams[{side}]"
    return where == own or where.startswith((own + ".", own + "[")) or not where.startswith("teams")


def _back(problem: Problem, side: int) -> Problem:
    """A part's problem (placed at ``part…``) placed at its side's fields again."""
    if problem.where.startswith("part"):
        return Problem(problem.code, f"teams[{side}]" + problem.where[4:], problem.params)
    return problem


def _notes(problems: list[Problem], form: Any, entry: Any, side: int) -> Notes:
    notes = Notes()
    for p in problems:
        slot = slot_for(p.where, form, entry)
        notes.add(slot if slot not in ("", "hand") else f"t{side}", problem_text(p, WORDS))
    return notes


def moved_on(key: str) -> Response:
    """Whether the hand the side's page shows was saved meanwhile (by the last part, or whole
    by the scorer): then the page is loaded again with the next hand's form (``HX-Refresh``);
    else 204. Polled by the part form."""
    asked = request.args.get("hand", type=int)
    with session_scope() as session:
        link = parts.find(session, key)
        if link is None or link.kind != "side":
            abort(404)
        number, _totals = parts.open_hand(link.game)
    response = make_response("", 204 if number == asked else 200)
    if number != asked:
        response.headers["HX-Refresh"] = "true"
    response.headers["Cache-Control"] = "no-store"
    return response
