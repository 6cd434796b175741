"""A hand entered by its sides (the ``parts_api`` blueprint, ``/api/v1/games/<key>/parts``).

``PUT …/parts/<side>`` ``{"part": {one side as in /score}, "entry_id"?, "version"?, "hand"?}``
enters or corrects a side's part of the open hand, with the game's key or that side's key;
``GET …/parts`` shows the parts (any key of the game); ``DELETE …/parts/<side>`` takes one
back. The part that completes a legal hand saves it (201 with ``saved``). See docs/parts.md
and :mod:`...store.parts`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response
from sqlalchemy.exc import IntegrityError

from ... import store
from ...edge.games import read_entry_id, read_number, read_part
from ...extensions import csrf
from ...rules.problems import Problem
from ...store import parts, receipts
from ...store.db import session_scope, write_scope
from ...store.errors import NotAllowed, PartConflict
from .answers import (
    dumped_response,
    edge_value,
    game_problems_response,
    json_response,
    problem_response,
    read_object,
    side_body,
)
from .serialize import hand_json, state_json

bp = Blueprint("parts_api", __name__, url_prefix="/api/v1/games")
csrf.exempt(bp)


def parts_json(shown: parts.Parts) -> dict[str, Any]:
    """The parts of the open hand as the API answers them."""
    return {
        "hand": shown.hand,
        "parts": [
            {
                "side": p.side,
                "part": p.part,
                "score": side_body(p.score) if p.score is not None else None,
            }
            for p in shown.parts
        ],
        "version": shown.version,
    }


def _now(key: str, with_state: bool = True) -> tuple[dict[str, Any], store.GameState | None] | None:
    """The parts and (``with_state``) the game as committed now (None: no such game)."""
    with session_scope() as session:
        link = parts.find(session, key)
        if link is None:
            return None
        state = store.game_state(link.game) if with_state else None
        return parts_json(parts.read_parts(session, link.game)), state


def _side(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 3 else None


def _not_found() -> Response:
    return problem_response(404, "game.not_found")


@bp.get("/<key>/parts")
def show(key: str) -> Response:
    """The parts of the open hand (the game's key, a side's key or the view key)."""
    found = _now(key, with_state=False)
    if found is None:
        return _not_found()
    response = dumped_response(found[0])
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.put("/<key>/parts/<side>")
def put(key: str, side: str) -> Response:
    """Enter or correct side ``side``'s part: 200 with the parts, or 201 with ``saved``
    when it completed the hand."""
    data, error = read_object()
    if data is None:
        return error  # type: ignore[return-value]
    return _change(key, side, data, withdraw=False)


@bp.delete("/<key>/parts/<side>")
def delete(key: str, side: str) -> Response:
    """Take back side ``side``'s part of the open hand (``version``, ``hand`` optional)."""
    data, error = read_object(optional=True)
    if data is None:
        return error  # type: ignore[return-value]
    return _change(key, side, data, withdraw=True)


def _change(key: str, raw_side: str, data: dict[str, Any], withdraw: bool) -> Response:
    number = _side(raw_side)
    if number is None:
        return problem_response(404, "side.not_found", "side")
    saved: int | None = None
    made: store.GameState | None = None
    shown: parts.Parts | None = None
    try:
        entry_id = None if withdraw else edge_value(read_entry_id(data.get("entry_id")))
        with write_scope() as session:
            link = parts.find(session, key)
            if link is None:
                return _not_found()
            # read at the edge once the key is known to open the game (a view key that may
            # not enter is told so, whatever it sent)
            parts.may_enter(link, number)
            part = None if withdraw else edge_value(read_part(data.get("part")))
            version = edge_value(read_number(data, "version"))
            hand = edge_value(read_number(data, "hand"))
            if part is None:
                parts.withdraw_part(session, link, number, version, hand)
            else:
                outcome = parts.put_part(session, link, number, part, version, hand, entry_id)
                saved, shown = outcome.saved, outcome.shown
                if saved is not None and not outcome.repeat:
                    # the sheet the save made (what the commit stores): not derived again
                    made = store.changed_state(session, link.game)
    except NotAllowed as refused:
        return problem_response(403, refused.code)
    except store.GameProblems as problems:
        return game_problems_response(problems)
    except (PartConflict, store.VersionConflict, IntegrityError) as trouble:
        return _conflict(key, trouble, entry_id if not withdraw else None)
    if shown is not None:  # read in the change itself: what the commit stored
        return dumped_response(parts_json(shown))
    return _answer(key, saved, made)


def _answer(key: str, saved: int | None, made: store.GameState | None = None) -> Response:
    """The parts now; with ``saved`` (the hand a part completed) 201 with that hand and the
    sheet after it (``made``: the one the save left, else read again)."""
    row = next((h for h in made.hands if h.number == saved), None) if made else None
    if made is not None and row is not None:
        # every part was cleared by the save: nothing to read
        body: dict[str, Any] = {
            "hand": made.next_hand,
            "parts": [{"side": i, "part": None, "score": None} for i in range(len(made.columns))],
            "version": made.version,
        }
        state: store.GameState | None = made
    else:
        found = _now(key, with_state=saved is not None)
        if found is None:  # pragma: no cover - the game was there a moment ago
            return _not_found()
        body, state = found
    if saved is None or state is None:
        return dumped_response(body)
    row = row or next((h for h in state.hands if h.number == saved), None)
    body["saved"] = hand_json(row) if row is not None else {"number": saved}
    body["game"] = state_json(state, hands_from=state.next_hand)
    return dumped_response(body, 201)


def _conflict(key: str, trouble: Exception, entry_id: str | None) -> Response:
    """409 with what changed: the parts as they are now, and the hands saved since."""
    if isinstance(trouble, IntegrityError):
        # A copy of this very part completed the hand at the same moment.
        with session_scope() as session:
            link = parts.find(session, key)
            first = (
                receipts.seen(session, link.game.id, entry_id)
                if link is not None and entry_id is not None
                else None
            )
        if first is None:
            raise trouble
        return _answer(key, first.number)
    found = _now(key)
    if found is None or found[1] is None:  # pragma: no cover - games are never deleted
        return _not_found()
    body, state = found
    assert state is not None
    if isinstance(trouble, PartConflict):
        problem = [Problem(trouble.code, "hand", {"hand": trouble.hand, "open": trouble.open_hand})]
        since = min(max(1, trouble.hand), state.next_hand)
    else:
        assert isinstance(trouble, store.VersionConflict)
        problem = [
            Problem(
                "game.version_conflict",
                "version",
                {"given": trouble.given, "current": trouble.current},
            )
        ]
        since = state.next_hand
    body["hands"] = [hand_json(h) for h in state.hands if h.number >= since]
    return json_response({"problems": problem, **body}, 409)
