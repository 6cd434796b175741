"""What the pages show of the open hand's parts: which sides are in and each one's score as it
comes (the game page, the view, a side's page), and what the scorer's form of a new hand shows
live. Apart from :mod:`.parts` (a side's own page), so that :mod:`.entry` can use it while
:mod:`.parts` builds on :mod:`.entry`: the imports point one way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ... import store
from ...store import parts
from ...store.db import session_scope


@dataclass(frozen=True)
class SideSeen:
    """What a page shows of one side's part: its name, whether it is in, its score."""

    name: str
    is_in: bool
    score: int | None
    went_out: bool


def parts_card(session: Any, game: Any, state: store.GameState) -> dict[str, Any]:
    """The open hand's parts for the game page, the view and a side's page: ``parts_in``
    (how many sides are in), ``parts_seen`` (per side), ``parts_hand`` (its number)."""
    if game is None or state.finished or not game.side_rows:
        return {"parts_seen": [], "parts_in": 0, "parts_hand": state.next_hand}
    shown = parts.read_parts(session, game)
    seen = [
        SideSeen(
            column.name,
            part.part is not None,
            part.score.score if part.score is not None else None,
            bool(part.part and (part.part.get("went_out") or part.part.get("concealed"))),
        )
        for column, part in zip(state.columns, shown.parts, strict=False)
    ]
    return {"parts_seen": seen, "parts_in": shown.sides_in, "parts_hand": shown.hand}


def entry_card(game_id: str, state: store.GameState, base: int) -> dict[str, Any]:
    """What the scorer's form of a new hand shows live (``games/_entry_live.html``): the
    sides' parts of the open hand, the hand the form was opened for (``entry_hand``) and the
    game's version then (``entry_base``: a part in since makes the form's save a conflict)."""
    with session_scope() as session:
        game = store.get_game(session, game_id)
        card = parts_card(session, game, state)
        has_sides = game is not None and bool(game.side_rows)
    return {**card, "entry_sides": has_sides, "entry_hand": state.next_hand, "entry_base": base}
