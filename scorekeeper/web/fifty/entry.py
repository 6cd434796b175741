"""Entering and correcting one game of "3 ist 50" (a deck played through): the shared entry flow
(:mod:`.entry`) filled in with the form and preview of :mod:`.fifty_forms` and the store's
change functions. The routes are in :mod:`.fifty`.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session
from werkzeug.datastructures import MultiDict

from ...store import fifty as store
from ...store.models import Game
from ..play import pages
from ..play.entry import EntryFlow, Loaded, Templates
from ..words.i18n import ago
from ..words.names import card_label
from .forms import (
    PAD,
    WORDS,
    EntryForm,
    Preview,
    blank_entry,
    end_text,
    joker_text,
    preview,
    read_entry_form,
    slot_for,
    slot_ids,
    stored_entry,
)


def board_context(state: store.FiftyState) -> dict[str, Any]:
    return {
        "state": state,
        "joker_text": joker_text(state.joker),
        "end_text": end_text(state),
        "winner_names": ", ".join(state.players[i] for i in state.winners),
        "ago": ago,  # when a corrected game was entered and changed
    }


class FiftyGames(EntryFlow["store.FiftyState", EntryForm, Preview]):
    blueprint = "fifty"
    templates = Templates.of("fifty", "entry")
    words = WORDS

    cookie = pages.FIFTY_COOKIE

    def create(self, session: Session, args: dict[str, Any]) -> Game:
        return store.create_game(session, **args)

    def find(self, session: Session, key: str) -> Game | None:
        return store.get_game(session, key)

    def derive(self, game: Game) -> store.FiftyState:
        return store.fifty_state(game)

    def count(self, state: store.FiftyState) -> int:
        return len(state.rows)

    def finished(self, state: store.FiftyState) -> bool:
        return state.finished

    def blank(self, loaded: Loaded[store.FiftyState]) -> EntryForm:
        return blank_entry(loaded.state)

    def stored(self, loaded: Loaded[store.FiftyState], number: int) -> EntryForm:
        return stored_entry(loaded.state, number)

    def read(
        self, loaded: Loaded[store.FiftyState], form: MultiDict[str, str], number: int | None
    ) -> EntryForm:
        return read_entry_form(loaded.state, form, number)

    def preview(self, loaded: Loaded[store.FiftyState], form: EntryForm) -> Preview:
        return preview(loaded.game, loaded.state, form)

    def write(self, session: Session, game: Game, form: EntryForm, view: Preview) -> None:
        entry = store.entry_of(game, view.entries)  # the form's entry read at the edge
        if form.number is None:
            store.add_game(session, game, form.version, entry)
        else:
            store.replace_game(session, game, form.number, form.version, entry)

    def remove(self, session: Session, game: Game, number: int, version: int) -> None:
        store.delete_game(session, game, number, version)

    def slot(self, where: str, form: EntryForm, view: Preview) -> str:
        return slot_for(where)

    def page_context(
        self, loaded: Loaded[store.FiftyState], form: EntryForm, view: Preview | None
    ) -> dict[str, Any]:
        return {
            "entry_form": form,
            "preview": view,
            "pad": [(r, card_label(r)) for r in PAD],
            "problems": [],
        }

    def preview_context(
        self, loaded: Loaded[store.FiftyState], form: EntryForm, view: Preview
    ) -> dict[str, Any]:
        return {"entry_form": form, "preview": view, "slots": slot_ids(form)}

    def board_context(self, loaded: Loaded[store.FiftyState]) -> dict[str, Any]:
        return board_context(loaded.state)

    def standings(self, state: store.FiftyState) -> list[tuple[str, int]]:
        return list(zip(state.players, state.totals, strict=True))


GAMES = FiftyGames()
