"""Entering and correcting a Canasta hand: the shared entry flow (:mod:`.entry`) filled in with
the Canasta hand form (:mod:`.hand_form`), its live preview (:mod:`.hand_preview`) and the
store's change functions. The routes are in :mod:`.games`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from flask import url_for
from flask_babel import ngettext
from sqlalchemy.orm import Session
from werkzeug.datastructures import MultiDict

from ... import store
from ...rules.scoring import MAX_ADJUSTMENT_NOTE, item_keys
from ...store import GameState, parts
from ...store.db import session_scope
from ...store.models import Game
from ..play import pages
from ..play.entry import EntryFlow, Loaded, Templates
from ..words.i18n import per_language
from ..words.names import item_labels, ruleset_title
from .board import board_context
from .hand_form import (
    PAD_RANKS,
    HandForm,
    blank_hand,
    card_token,
    count_values,
    hand_from_stored,
    part_form,
    read_hand_form,
)
from .offline import engine_context, offline_game
from .parts_seen import entry_card
from .preview import (
    WORDS,
    Preview,
    noted_slots,
    preview,
    preview_words,
    shown_sides,
    slot_for,
    slot_ids,
)


class CanastaHands(EntryFlow["GameState", HandForm, Preview]):
    blueprint = "games"
    templates = Templates.of("games", "hand")
    words = WORDS

    keep_for_preview = True  # a preview reads the game's row only (store.checked_hand)

    cookie = pages.CANASTA_COOKIE

    def create(self, session: Session, args: dict[str, Any]) -> Game:
        return store.create_game(session, **args)

    def find(self, session: Session, key: str) -> Game | None:
        return store.get_game(session, key)

    def derive(self, game: Game) -> GameState:
        return store.game_state(game)

    def count(self, state: GameState) -> int:
        return len(state.hands)

    def finished(self, state: GameState) -> bool:
        return state.finished

    def blank(self, loaded: Loaded[GameState]) -> HandForm:
        """The next hand's form, with the parts the sides have entered on their own phones
        so far (docs/parts.md): the scorer completes the hand from there."""
        with session_scope() as session:
            entered = parts.parts_of_hand(session, loaded.game.id, loaded.state.next_hand)
        if any(p is not None for p in entered):
            return part_form(loaded.state, entered)
        return blank_hand(loaded.state)

    def stored(self, loaded: Loaded[GameState], number: int) -> HandForm:
        return hand_from_stored(loaded.state, number)

    def read(
        self, loaded: Loaded[GameState], form: MultiDict[str, str], number: int | None
    ) -> HandForm:
        return read_hand_form(loaded.state, form, number)

    def preview(self, loaded: Loaded[GameState], form: HandForm) -> Preview:
        return preview(loaded.game, loaded.state, form)

    def write(self, session: Session, game: Game, form: HandForm, view: Preview) -> None:
        hand = view.checked.hand  # as the preview read it at the edge: scored once
        if form.number is None:
            store.add_hand(session, game, form.version, hand, checked=view.checked)
        else:
            store.replace_hand(session, game, form.number, form.version, hand, checked=view.checked)

    def remove(self, session: Session, game: Game, number: int, version: int) -> None:
        store.delete_hand(session, game, number, version)

    def slot(self, where: str, form: HandForm, view: Preview) -> str:
        return slot_for(where, form, view.entry)

    def page_context(
        self, loaded: Loaded[GameState], form: HandForm, view: Preview | None
    ) -> dict[str, Any]:
        rules = loaded.state.rules
        return {
            "hand_form": form,
            "preview": view,
            "rules": rules,
            "values": count_values(rules),
            "item_labels": item_labels(keys=item_keys(loaded.state.rules)),
            "item_order": item_keys(loaded.state.rules),
            "pad": [(r, card_token(r)) for r in PAD_RANKS],
            "ruleset_name": ruleset_title(loaded.state.ruleset),
            "adjustment_note_max": MAX_ADJUSTMENT_NOTE,
            "offline_game": offline_game(
                loaded.state,
                url_for("games.show", game_id=loaded.game_id),
                url_for("games.new_hand", game_id=loaded.game_id),
            ),
            **engine_context(),
            **(self.entry_live(loaded) if form.number is None else {}),
        }

    def entry_live(self, loaded: Loaded[GameState]) -> dict[str, Any]:
        """A new hand's form follows the game's event stream (docs/parts.md): the sides'
        parts as they come in, and the hand saved meanwhile by its last part."""
        return entry_card(loaded.game_id, loaded.state, loaded.state.version)

    def preview_context(
        self, loaded: Loaded[GameState], form: HandForm, view: Preview
    ) -> dict[str, Any]:
        order = item_keys(loaded.state.rules)
        labels = _labels(order)
        slots = slot_ids(form)
        return {
            "hand_form": form,
            "preview": view,
            "slots": slots,
            "words": preview_words(),
            "item_labels": labels,
            "item_order": order,
            # what games/_preview.html writes, prepared here
            "shown": shown_sides(form, view, labels, order),
            "noted": noted_slots(slots, view.notes),
        }

    def board_context(self, loaded: Loaded[GameState]) -> dict[str, Any]:
        return board_context(loaded.state)

    def standings(self, state: GameState) -> list[tuple[str, int]]:
        return [(c.name, c.total) for c in state.columns]

    def question(self, form: HandForm) -> str | None:
        empty = form.empty_sides()
        if not empty:
            return None
        return ngettext(
            "Nothing is entered for %(names)s. Save this side with 0 points?",
            "Nothing is entered for %(names)s. Save these sides with 0 points?",
            len(empty),
            names=", ".join(side.name for side in empty),
        )


@per_language
def _labels(keys: tuple[str, ...]) -> Mapping[str, str]:
    """The labels of a breakdown's items, worded once per language, read-only."""
    return MappingProxyType(item_labels(keys=keys))


HANDS = CanastaHands()
