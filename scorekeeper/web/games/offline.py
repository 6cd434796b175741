"""What a Canasta page hands to the phone so that the table plays on without the server
(static/offline.js, docs/offline.md): the game as the page shows it (its version, the next
hand, who deals after whom, each column's total), the request the phone's rules engine scores
a hand with, and the preview's words in the reader's language.

The phone keeps the newest of these it has seen; an entry made offline is based on it, never on
an older copy of a form (a phone that saved hand 1 itself enters hand 2 on top of it).
"""

from __future__ import annotations

import json
from typing import Any

from flask import current_app, url_for
from flask_babel import gettext as _

from ...rules.scoring import item_keys
from ...store import GameState
from ..app.assets import version
from ..engine import PIN, PYODIDE_VERSION, archive
from ..words.names import item_labels
from .hand_form import hand_sides
from .preview import preview_words


def engine_request(state: GameState) -> dict[str, Any]:
    """The part of every ``POST /api/v1/score`` (and referee question) that names the game's
    rules: the ruleset, the number of players and the house rules it was created with."""
    request: dict[str, Any] = {"ruleset": state.ruleset, "players": state.players}
    if state.options:
        request["options"] = state.options
    return request


def dealing_order(state: GameState) -> list[str]:
    """The players' names in dealing order, starting with who deals the next hand: the hand
    ``k`` hands after it is dealt by ``order[k % len(order)]``."""
    seats = state.seats
    if not seats:
        return []
    first = next((i for i, s in enumerate(seats) if s.seat == state.next_dealer.seat), 0)
    return [seats[(first + k) % len(seats)].name for k in range(len(seats))]


def offline_game(state: GameState, game_url: str, form_url: str) -> str:
    """The game page's description for the phone, as JSON (escaped by the template)."""
    order = item_keys(state.rules)
    sides = hand_sides(state, "0" if state.cutthroat else "")
    return json.dumps(
        {
            "page": game_url,
            "form": form_url,
            "version": state.version,
            "next_hand": state.next_hand,
            "finished": state.finished,
            "cutthroat": state.cutthroat,
            "dealers": dealing_order(state),
            "columns": [
                {"name": c.name, "total": c.total, "minimum": c.minimum_meld} for c in state.columns
            ],
            # which score columns each side of the next hand scores for
            "sides": [cols for _name, _players, cols in sides],
            "request": engine_request(state),
            "target": state.target,
            "words": preview_words_for_phone(order),
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def preview_words_for_phone(order: tuple[str, ...]) -> dict[str, Any]:
    """The words the phone's preview writes, as the server's preview writes them."""
    words = preview_words()
    labels = item_labels(keys=order)
    return {
        "this_hand": words["this_hand"],
        "check": words["check"],
        "total": _("total %(total)s", total="{total}"),
        "whole_number": _("Enter a whole number."),
        "items": {key: labels[key] for key in order},
        "order": list(order),
    }


def engine_context() -> dict[str, Any]:
    """Every address the phone's engine loads (static/engine.js, its worker, the runtime's
    files, the rules' archive: web/engine), for a service worker to keep, as JSON."""
    folder = current_app.static_folder or ""
    files = [
        url_for("static", filename="engine.js"),
        url_for("engine.worker", v=version(folder, "engine-worker.js")),
        *(
            url_for("engine.pyodide_file", release=PYODIDE_VERSION, name=name)
            for name in sorted(PIN["files"])
        ),
        url_for("engine.engine_archive", digest=archive.current().digest),
    ]
    return {"engine_files": json.dumps(files, separators=(",", ":"))}
