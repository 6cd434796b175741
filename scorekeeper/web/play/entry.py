"""The hand-entry flow shared by Canasta and "3 ist 50".

Both games enter what happened in one hand (Canasta) or one deck (3 ist 50) the same way:

    load the game → read the form → preview → save → 303 to the game page
                                          ↘ 422: the problems next to their fields
                                          ↘ 409: someone saved first; the entry is kept

A game contributes only what differs, by subclassing :class:`EntryFlow`: how its form is read,
how its preview is built, how the store writes it, and which templates show it. The routes of
each blueprint call the verbs (:meth:`EntryFlow.new`, ``edit``, ``save``, ``live``, ``delete``).
Everything works without JavaScript (plain POST, then 303); htmx swaps the form and the preview.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from flask import (
    Response,
    abort,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.datastructures import MultiDict

from ... import store as games_store
from ...edge.games import ENTRY_ID
from ...rules.problems import Problem
from ...store import cache, receipts, stamps
from ...store.db import DatabaseBusy, session_scope, write_scope
from ...store.models import Game
from ..app import htmx
from ..app.security import BUSY_RETRY_AFTER
from ..app.templating import render_fragment
from ..words.i18n import number
from ..words.messages import message
from . import pages
from .notes import Notes

Words = Mapping[str, Callable[[dict[str, Any]], str]]

#: The form's save actions: "save" asks first when the entry looks like a slip
#: (:meth:`EntryFlow.question`); "save-anyway" is the answer that saves it as it is.
SAVE = "save"
SAVE_ANYWAY = "save-anyway"


def problem_text(problem: Problem, words: Words | None = None) -> str:
    """A problem as a sentence in the reader's language, for a form field.

    ``words`` holds a game's own wording of a code (3 ist 50 calls a deck a "game" and the whole
    sitting an "evening"); every other code reads as in the API (:func:`messages.message`).
    """
    params = problem.params
    if words and problem.code in words:
        return words[problem.code](params)
    if problem.code == "request.type" and params.get("expected") == "integer":
        return _("Enter a whole number.")
    if problem.code == "request.value" and "maximum" in params:
        return _(
            "Enter a number from %(minimum)s to %(maximum)s.",
            minimum=number(params.get("minimum")),
            maximum=number(params.get("maximum")),
        )
    return message(problem)


def entry_id_of(form: MultiDict[str, str]) -> str | None:
    """The form's ``entry_id`` (the phone's name for this entry; None: none or not one: a
    form without it is saved as before, only not recognised when sent twice)."""
    value = form.get("entry_id", "")
    return value if ENTRY_ID.fullmatch(value) else None


def new_entry_id() -> str:
    """An ``entry_id`` for a form shown without JavaScript (the page's script makes its own
    each time the page is opened, see static/notices.js)."""
    return secrets.token_urlsafe(12)


# ---- the flow ---------------------------------------------------------------------------------


class GameView(Protocol):
    """What the flow needs of a game's derived state: the version it was derived at."""

    @property
    def version(self) -> int: ...


State = TypeVar("State", bound=GameView)
Form = TypeVar("Form", bound="EntryForm")
View = TypeVar("View", bound="EntryPreview")


class EntryForm(Protocol):
    """What the flow needs of a game's form: the version it was loaded at, and which stored
    hand it corrects (None: a new one)."""

    version: int
    number: int | None


class EntryPreview(Protocol):
    """What the flow needs of a game's preview: the notes by field, and whether a problem
    blocks saving."""

    notes: Notes
    blocked: bool


@dataclass
class Loaded(Generic[State]):
    """A stored game with its derived state (computed once per request)."""

    game_id: str
    game: Game
    state: State


@dataclass(frozen=True)
class Templates:
    """The templates of a game's entry pages: the page, the form, the preview and the conflict."""

    page: str  # the entry page
    form: str  # the form alone (htmx swaps it in place)
    preview: str  # the live preview fragment
    trouble: str  # the game page with why a delete was refused

    @classmethod
    def of(cls, folder: str, entry: str) -> Templates:
        """A game's templates by the folder's convention: ``<entry>.html``,
        ``_<entry>_form.html``, ``_preview.html`` and ``conflict.html``."""
        return cls(
            f"{folder}/{entry}.html",
            f"{folder}/_{entry}_form.html",
            f"{folder}/_preview.html",
            f"{folder}/conflict.html",
        )


@dataclass
class FieldGroup:
    """The fields of one side or player in a form: their names start with :attr:`prefix`
    (``t0-…`` for a Canasta side, ``p0-…`` for a 3 ist 50 player)."""

    letter: ClassVar[str]
    index: int

    @property
    def prefix(self) -> str:
        return f"{self.letter}{self.index}"


class EntryFlow(Generic[State, Form, View]):
    """One game's entry pages. Subclasses set the class attributes and fill in the hooks."""

    blueprint: ClassVar[str]  # endpoint prefix: "games" or "fifty"
    templates: ClassVar[Templates]
    words: ClassVar[Words] = {}

    #: the cookie that lists this browser's games of this kind (``pages.remember``)
    cookie: ClassVar[str]

    # ---- hooks: what each game does its own way ----
    def create(self, session: Session, args: dict[str, Any]) -> Game:
        """A new game from the new-game form's arguments (the store's ``create_game``)."""
        raise NotImplementedError

    def find(self, session: Session, key: str) -> Game | None:
        """The stored game by its editing key (None when there is none)."""
        raise NotImplementedError

    def derive(self, game: Game) -> State:
        """The game's derived state (totals, hands, version)."""
        raise NotImplementedError

    def count(self, state: State) -> int:
        """How many hands (or decks) are stored."""
        raise NotImplementedError

    def finished(self, state: State) -> bool:
        raise NotImplementedError

    def blank(self, loaded: Loaded[State]) -> Form:
        raise NotImplementedError

    def stored(self, loaded: Loaded[State], number: int) -> Form:
        raise NotImplementedError

    def read(self, loaded: Loaded[State], form: MultiDict[str, str], number: int | None) -> Form:
        raise NotImplementedError

    def preview(self, loaded: Loaded[State], form: Form) -> View:
        raise NotImplementedError

    def write(self, session: Session, game: Game, form: Form, view: View) -> None:
        """Store the entry (a new hand, or the correction of ``form.number``)."""
        raise NotImplementedError

    def remove(self, session: Session, game: Game, number: int, version: int) -> None:
        raise NotImplementedError

    def slot(self, where: str, form: Form, view: View) -> str:
        """The field a store problem's ``where`` points at."""
        raise NotImplementedError

    def page_context(self, loaded: Loaded[State], form: Form, view: View | None) -> dict[str, Any]:
        raise NotImplementedError

    def preview_context(self, loaded: Loaded[State], form: Form, view: View) -> dict[str, Any]:
        raise NotImplementedError

    def board_context(self, loaded: Loaded[State]) -> dict[str, Any]:
        raise NotImplementedError

    def standings(self, state: State) -> list[tuple[str, int]]:
        """Each score column's name and total, as a conflict shows them."""
        raise NotImplementedError

    def question(self, form: Form) -> str | None:
        """What to ask before saving an entry that breaks no rule but is likely a slip (a
        side left empty), in the reader's language; None: nothing to ask."""
        return None

    #: The live preview keeps the games it loaded (:meth:`load_live`); only for a game whose
    #: preview reads nothing of the game but its own columns (its row is all a kept game has).
    keep_for_preview: ClassVar[bool] = False

    # ---- shared steps ----
    def load(self, game_id: str) -> Loaded[State]:
        game, state = pages.find_game(game_id, self.derive, self.find)
        return Loaded(game_id, game, state)

    def load_live(self, game_id: str) -> Loaded[State]:
        """The game for a live preview: as an earlier preview loaded it while the database still
        holds it at the same stamp (one indexed read, no ORM session), else :meth:`load`. The
        database stays the truth: a change by any process or thread moves the stamp on."""
        if not self.keep_for_preview:
            return self.load(game_id)
        kept = cache.kept().previewed(self.blueprint)
        # read before loading: a change landing meanwhile gives a newer stamp next time
        stamp = stamps.game_stamp(game_id) if isinstance(game_id, str) else None
        # the cache keeps any game's Loaded; this flow's entries are its own Loaded[State]
        found: Loaded[State] | None = kept.get(game_id, stamp) if stamp is not None else None
        if found is not None:
            return found
        loaded = self.load(game_id)  # also the 404 of an unknown key or another kind of game
        if stamp is not None:
            kept.put(game_id, stamp, loaded, self.count(loaded.state))
        return loaded

    def text(self, problem: Problem) -> str:
        return problem_text(problem, self.words)

    def show_url(self, game_id: str) -> str:
        return url_for(f"{self.blueprint}.show", game_id=game_id)

    def remember(self, response: Response, game_id: str) -> Response:
        """Keep the game's editing key in this browser's list of its games: the start page
        lists only those, since every key grants editing and must not be shown to strangers."""
        return pages.remember(response, self.cookie, game_id)

    def start(
        self,
        read: Callable[[MultiDict[str, str]], tuple[Any, dict[str, Any], Notes]],
        page: Callable[[Any, Notes, int], tuple[str, int]],
        place: Callable[[Problem], str],
    ) -> Response | tuple[str, int]:
        """A posted new-game form: ``read`` gives the form as typed, the store's arguments and
        the form's own problems; ``page`` shows the form. Without ``action=create`` (the
        ruleset or the players changed) the form is shown again; with problems (the form's, or
        the store's at their field's slot ``place``) it is shown with them (422); else the
        game is created and its page follows (303)."""
        form, args, notes = read(request.form)
        if request.form.get("action") != "create":
            return page(form, notes, 200)
        if not notes:
            try:
                with write_scope() as session:
                    game_id = self.create(session, args).id
            except games_store.GameProblems as error:
                for problem in error.problems:
                    notes.add(place(problem), self.text(problem))
            else:
                return self.remember(pages.see_other(self.show_url(game_id)), game_id)
        return page(form, notes, 422)

    def render(
        self,
        loaded: Loaded[State],
        form: Form,
        view: View | None,
        status: int = 200,
        conflict: bool = False,
        question: str | None = None,
        fresh_entry: bool = False,
    ) -> tuple[str, int]:
        context = self.page_context(loaded, form, view)
        context.update(
            game_id=loaded.game_id,
            state=loaded.state,
            conflict=conflict,
            question=question,
            notes=view.notes if view else Notes(),
            standings=self.standings(loaded.state) if conflict else [],
            # the posted entry keeps its id through a re-render (a 409 or 422 saved nothing)
            entry_id=(None if fresh_entry else entry_id_of(request.form)) or new_entry_id(),
            game_url=self.show_url(loaded.game_id),
        )
        template = self.templates.form if htmx.sent_by_htmx() else self.templates.page
        return render_template(template, **context), status

    def existing(self, loaded: Loaded[State], number: int) -> int:
        if not 1 <= number <= self.count(loaded.state):
            abort(404)
        return number

    # ---- verbs: what the routes call ----
    def new(self, game_id: str) -> Response | tuple[str, int]:
        """An empty form for the next hand (a finished game takes none: back to its page)."""
        loaded = self.load(game_id)
        if self.finished(loaded.state):
            return pages.redirect_to(self.show_url(game_id))
        return self.render(loaded, self.blank(loaded), None)

    def edit(self, game_id: str, number: int) -> tuple[str, int]:
        """The form filled with a stored hand, to correct it."""
        loaded = self.load(game_id)
        form = self.stored(loaded, self.existing(loaded, number))
        return self.render(loaded, form, self.preview(loaded, form))

    def save(self, game_id: str, number: int | None = None) -> Response | tuple[str, int]:
        """Save a new or corrected hand. ``action=check`` (the no-JavaScript preview) or a
        re-render request only shows the form again; problems: 422 with each next to its
        field; a likely slip: the form with its question (and "save anyway"); a stale
        version: 409 with the entry kept."""
        loaded = self.load(game_id)
        saving = request.form.get("action") in (SAVE, SAVE_ANYWAY)
        entry_id = entry_id_of(request.form)
        content = receipts.digest(number, request.form.items(multi=True))
        # An entry this game has taken already (sent again by a phone that lost the answer)
        # is answered as the first time, before anything is checked (``store.receipts``);
        # the same id with other content, or of a hand deleted since, is refused.
        first = self.taken(game_id, entry_id) if saving and entry_id is not None else None
        if first is not None:
            return self.repeat(loaded, number, first, content)
        if number is not None:
            self.existing(loaded, number)
        form = self.read(loaded, request.form, number)
        view = self.preview(loaded, form)
        action = request.form.get("action")
        if action not in (SAVE, SAVE_ANYWAY):
            return self.render(loaded, form, view)
        if view.blocked:
            return self.render(loaded, form, view, 422)
        question = self.question(form) if action == SAVE else None
        if question is not None:  # nothing stored until the answer says so
            return self.render(loaded, form, view, question=question)
        try:
            with pages.stored_game(game_id, self.find) as (session, game):
                self.write(session, game, form, view)
                if entry_id is not None:
                    made = form.number or receipts.last_number(session, game.id)
                    receipts.record(session, game.id, entry_id, made, form.number is None, content)
        except (games_store.VersionConflict, games_store.HandNotFound, IntegrityError):
            first = self.taken(game_id, entry_id) if entry_id is not None else None
            if first is not None:  # a copy landed meanwhile
                return self.repeat(self.load(game_id), number, first, content)
            return self.conflict(game_id, number)
        except games_store.GameProblems as error:
            for p in error.problems:
                view.notes.add(self.slot(p.where, form, view), self.text(p))
            return self.render(loaded, form, view, error.status)
        except DatabaseBusy:  # nothing stored; the entry stays on the page
            view.notes.add(self.slot("", form, view), self.text(Problem("request.busy", "", {})))
            html, status = self.render(loaded, form, view, 503)
            return html, status, {"Retry-After": str(BUSY_RETRY_AFTER)}  # type: ignore[return-value]
        return pages.see_other(self.show_url(game_id))

    def taken(self, game_id: str, entry_id: str) -> receipts.Receipt | None:
        """The receipt of ``entry_id`` if the game (loaded already by this request) has saved
        an entry under it: one indexed read, the game is not loaded again."""
        with session_scope() as session:
            return receipts.seen(session, game_id, entry_id)

    def repeat(
        self,
        loaded: Loaded[State],
        number: int | None,
        first: receipts.Receipt,
        content: str,
    ) -> Response | tuple[str, int]:
        """An entry sent again: the game page, as the first save answered. Its id with other
        content (409), or the hand it saved deleted since (410): the form again, as sent, with
        why nothing was saved; after a deletion under a new id, so that saving it once more
        enters it anew."""
        refused = first.problem(content)
        if refused is None:
            return pages.see_other(self.show_url(loaded.game_id))
        status, problem = refused
        if number is not None and not 1 <= number <= self.count(loaded.state):
            number = None  # the hand it corrected is gone: entered anew
        form = self.read(loaded, request.form, number)
        form.version = loaded.state.version
        view = self.preview(loaded, form)
        view.notes.add(self.slot("", form, view), self.text(problem))
        return self.render(loaded, form, view, status, fresh_entry=problem.code == "entry.deleted")

    def conflict(self, game_id: str, number: int | None) -> tuple[str, int]:
        """Someone else saved first: the game as it is now with this entry kept, ready to be
        saved again on top of the other change (409)."""
        loaded = self.load(game_id)
        if number is not None and number > self.count(loaded.state):
            number = None  # the hand being corrected was deleted meanwhile: enter it anew
        kept = self.read(loaded, request.form, number)
        kept.version = loaded.state.version
        return self.render(loaded, kept, self.preview(loaded, kept), 409, conflict=True)

    def live(self, game_id: str) -> str:
        """The live preview: a small fragment whose parts find their fields out of band."""
        loaded = self.load_live(game_id)
        posted = request.form
        number = pages.read_int(posted.get("number"))
        if number is not None and not 1 <= number <= self.count(loaded.state):
            number = None
        form = self.read(loaded, posted, number)
        view = self.preview(loaded, form)
        # the fragment reads only what it is given (no page context: render_fragment)
        return render_fragment(
            self.templates.preview,
            notes=view.notes,
            state=loaded.state,
            **self.preview_context(loaded, form, view),
        )

    def delete(self, game_id: str, number: int) -> Response | tuple[str, int]:
        """Delete the last hand (the store refuses any other, and answers a missing one with
        404). The same delete again (its answer was lost, the phone taps once more) goes to the
        game page with the undo offer, as the first did (``store.changes.already_deleted``)."""
        version = pages.read_int(request.form.get("version")) or 0
        try:
            with pages.stored_game(game_id, self.find) as (session, game):
                self.remove(session, game, number, version)
        except games_store.HandNotFound:
            abort(404)
        except games_store.VersionConflict:
            return self.trouble(game_id, [], 409)
        except games_store.GameProblems as error:
            return self.trouble(game_id, [self.text(p) for p in error.problems], 422)
        return pages.see_other(self.show_url(game_id))

    def undo(self, game_id: str) -> Response | tuple[str, int]:
        """Bring back the hand deleted last while nothing else has changed: a stale
        offer is a 409 over the game as it is now, an expired one a 422; nothing changes then."""
        revision = pages.read_int(request.form.get("revision"))
        version = pages.read_int(request.form.get("version")) or 0
        try:
            with pages.stored_game(game_id, self.find) as (session, game):
                games_store.undo_delete(session, game, revision, version)
        except games_store.VersionConflict:
            return self.trouble(game_id, [], 409)
        except games_store.GameProblems as error:
            return self.trouble(game_id, [self.text(p) for p in error.problems], 422)
        return pages.see_other(self.show_url(game_id))

    def trouble(self, game_id: str, problems: list[str], status: int) -> tuple[str, int]:
        """Why a delete was refused, over the game as it is now."""
        loaded = self.load(game_id)
        return render_template(
            self.templates.trouble, game_id=game_id, problems=problems, **self.board_context(loaded)
        ), status
