"""What a Canasta page hands to the phone so that the table plays on without the server
(static/offline.js, docs/offline.md): the game as the page shows it (its version, the next
hand, who deals after whom, each column's total), the request the phone's rules engine scores
a hand with, and the preview's words in the reader's language.

The phone keeps the newest of these it has seen; an entry made offline is based on it, never on
an older copy of a form (a phone that saved hand 1 itself enters hand 2 on top of it).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

from flask import current_app, url_for
from flask_babel import gettext as _

from ...rules.scoring import item_keys
from ...store import GameState
from ..words.i18n import number
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
        "items": {key: labels[key] for key in order},
        "order": list(order),
    }


#: Where the engine's files live among the static files: the page's entry point
#: (``engine.js`` and its worker, named ``engine…``) and the folders of the runtime and the
#: rules' archive.
ENGINE_FOLDERS = ("pyodide", "engine")


def engine_files(folder: str) -> list[tuple[str, int]]:
    """The engine's static files (path under ``static/``, size in bytes), sorted."""
    return list(_engine_files(folder, _stamp(folder)))


def _stamp(folder: str) -> float:
    try:
        return max(
            [os.stat(folder).st_mtime]
            + [
                os.stat(os.path.join(folder, f)).st_mtime
                for f in ENGINE_FOLDERS
                if os.path.isdir(os.path.join(folder, f))
            ]
        )
    except OSError:
        return 0.0


@lru_cache(maxsize=4)
def _engine_files(folder: str, _stamp: float) -> tuple[tuple[str, int], ...]:
    found: list[tuple[str, int]] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return ()
    for name in names:
        path = os.path.join(folder, name)
        if name.startswith("engine") and os.path.isfile(path):
            found.append((name, os.path.getsize(path)))
        elif name in ENGINE_FOLDERS and os.path.isdir(path):
            for top, _dirs, files in os.walk(path):
                for file in files:
                    full = os.path.join(top, file)
                    rel = os.path.relpath(full, folder).replace(os.sep, "/")
                    found.append((rel, os.path.getsize(full)))
    return tuple(sorted(found))


def engine_context() -> dict[str, Any]:
    """What a page offers of the engine: its entry point's address ("" without one), the
    size of its download in the reader's words, and every file's address (for the service
    worker to keep)."""
    folder = current_app.static_folder or ""
    files = engine_files(folder)
    entry = "engine.js" if any(name == "engine.js" for name, _size in files) else ""
    size = sum(b for _name, b in files)
    return {
        "engine_url": url_for("static", filename=entry) if entry else "",
        "engine_size": megabytes(size),
        "engine_files": json.dumps(
            # as the engine's worker asks for them (without the release digest)
            [f"{current_app.static_url_path}/{name}" for name, _size in files],
            separators=(",", ":"),
        ),
    }


def megabytes(size: int) -> str:
    """A download's size for the reader: "12.4 MB", "12,4 MB"."""
    return _("%(size)s MB", size=number(round(size / 1_000_000, 1)))
