"""Stored games of "3 ist 50" through the games API (``/api/v1/games``, docs/rulebook.md §7).

The URLs are the Canasta games' (``web/api/games.py`` holds them and hands a request here when
it is about a 3-ist-50 game); the work is done by ``store.fifty`` as on the pages, so a game
entered by API and one entered on the phone are the same thing. One stored "hand" is one game
of 3 ist 50 (a deck played through); its entry is one minus pile, or counted points, per player.

Requests (every value checked as on the pages; problems as everywhere in the API):

* create: ``{"ruleset": "three-is-fifty", "players": ["Ann", "Ben", "Cy"]}``, or ``"players": 3``
  with ``"sides": [{"name": "Ann"}, …]`` (one side per player, as in a Canasta request), plus
  optional ``"options": {"joker": 10}``, ``"stop_after"`` (games), ``"target"`` (minus points
  that end the evening) and ``"name"``;
* a game's entry: ``{"version", "piles": [[cards], …]}`` (as ``POST /api/v1/score``), or
  ``"points": [71, 12, 0]``, or ``"players": [{"cards": [...]}, {"points": 12}, …]`` (mixed).
"""

from __future__ import annotations

from typing import Any

from flask import Response, url_for
from sqlalchemy.orm import Session

from ... import store as canasta_store
from ...edge.games import (
    read_entry_id,
    read_fifty_hand_body,
    read_new_fifty_game,
    read_revision,
    read_version,
)
from ...store import fifty as store
from ...store import receipts
from ...store.db import session_scope, write_scope
from ...store.models import Game
from ...store.tables import join_table
from .answers import (
    dumped_response,
    edge_value,
    game_problems_response,
    json_response,
    problem_response,
    version_conflict_response,
)
from .serialize import fifty_game_json, fifty_row_json
from .undo import revision_to_undo, undo_offer

#: The ways a game's entry may be given, in the order they are looked for (``teams``: the
#: Canasta request's key, here one ``{"cards"}`` or ``{"points"}`` per player like ``players``).


def is_fifty(data: dict[str, Any]) -> bool:
    """Whether a create request asks for a game of 3 ist 50."""
    return data.get("ruleset") == store.RULESET_ID


def find(session: Session, key: str) -> tuple[Game | None, bool]:
    """The 3-ist-50 game with this key: ``(game, editable)``; by editing key or view id."""
    game = store.get_game(session, key)
    if game is not None:
        return game, True
    return store.get_by_view(session, key), False


# ---- creating --------------------------------------------------------------------------------


def create(data: dict[str, Any]) -> Response:
    """``POST /api/v1/games`` for 3 ist 50 → 201 with the game (as :func:`detail`)."""
    try:
        setup = edge_value(read_new_fifty_game(data))
        with write_scope() as session:
            game = store.create_from_setup(session, setup)
            join_table(session, game, setup.table)  # a table's game (its people)
            game_id = game.id
    except store.GameProblems as error:
        return json_response({"problems": error.problems}, error.status)
    response = _game_response(game_id, True, status=201)
    response.headers["Location"] = url_for("games_api.detail", key=game_id)
    return response


# ---- reading ---------------------------------------------------------------------------------


def _game_response(key: str, editable: bool, status: int = 200, hands_from: int = 1) -> Response:
    with session_scope() as session:
        game = store.get_game(session, key) if editable else store.get_by_view(session, key)
        if game is None:  # pragma: no cover - written a moment ago; games are never deleted
            return problem_response(404, "game.not_found")
        body = fifty_game_json(store.fifty_state(game), game.id if editable else None, hands_from)
    return dumped_response(body, status)


def detail(key: str) -> Response | None:
    """The evening's sheet by editing key (with ``id``) or view id; None: no such game."""
    with session_scope() as session:
        game, editable = find(session, key)
        if game is None:
            return None
        body = fifty_game_json(store.fifty_state(game), game.id if editable else None)
        if editable:
            body["undo"] = undo_offer(game)
    response = dumped_response(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def hand_detail(key: str, number: int | None) -> Response | None:
    """One game of the evening; None: no such evening."""
    with session_scope() as session:
        game, _editable = find(session, key)
        if game is None:
            return None
        state = store.fifty_state(game)
    row = next((r for r in state.rows if r.number == number), None)
    if row is None:
        return problem_response(404, "hand.not_found", "number", number=str(number)[:12])
    body = fifty_row_json(state, row)
    body["version"] = state.version
    return dumped_response(body)


# ---- changing --------------------------------------------------------------------------------


def change(
    key: str, number: int | None, data: dict[str, Any], version: Any, kind: str
) -> Response | None:
    """Add (``number`` None), correct or delete (``kind`` "delete") a game of the evening, or
    undo the last deletion (``kind`` "undo"); None: no such evening (the caller answers 404).

    Answers like a Canasta save: the evening with ``hands`` from the changed game on (none
    after a delete) and ``hand``; 201 for a new game, 409 when ``version`` is stale."""
    first: receipts.Receipt | None = None
    try:
        # An entry the evening has taken already (its phone lost the answer) is answered as the
        # first time, whatever its version (``store.receipts``).
        entry_id = edge_value(read_entry_id(data.get("entry_id"))) if kind == "save" else None
        content = receipts.digest(number, data.items()) if entry_id is not None else None
        with write_scope() as session:
            game = store.get_game(session, key)
            if game is None:
                return None
            hand: int | None = None
            if entry_id is not None:
                first = receipts.seen(session, game.id, entry_id)
            refused = first.problem(content) if first is not None else None
            if refused is not None:  # other content, or its game was deleted: nothing changes
                status, problem = refused
                return problem_response(status, problem.code, problem.where, **problem.params)
            if first is not None:
                hand = first.number
            elif kind == "delete":
                store.delete_game(session, game, number, edge_value(read_version(version)))
            elif kind == "undo":
                given = edge_value(read_version(version))
                revision = revision_to_undo(game, read_revision(data))
                hand = canasta_store.undo_delete(session, game, revision, given).number
            else:
                players = len(game.sides)
                read = edge_value(read_fifty_hand_body(data, players, store.options_of(game)))
                given = edge_value(read_version(version))  # said alone when wrong
                if number is None:
                    hand = store.add_game(session, game, given, read).number
                else:
                    hand = store.replace_game(session, game, number, given, read).number
                if entry_id is not None:
                    receipts.record(session, game.id, entry_id, hand, number is None, content)
    except store.GameProblems as error:
        return game_problems_response(error)
    except store.VersionConflict as conflict:
        return version_conflict_response(conflict)
    except store.HandNotFound:
        return problem_response(404, "hand.not_found", "number", number=str(number or "")[:12])
    with session_scope() as session:
        stored = store.get_game(session, key)
        if stored is None:  # pragma: no cover - games are never deleted
            return problem_response(404, "game.not_found")
        state = store.fifty_state(stored)
        game_id = stored.id
        offer = undo_offer(stored)
    body = fifty_game_json(state, game_id, hand if hand is not None else state.next_number)
    body["undo"] = offer
    if hand is not None:
        body["hand"] = hand
    created = first.created if first is not None else number is None and kind == "save"
    response = dumped_response(body, 201 if created else 200)
    if created:
        response.headers["Location"] = url_for("games_api.hand_detail", key=key, number=str(hand))
    return response
