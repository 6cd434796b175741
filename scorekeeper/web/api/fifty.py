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
from ...rules import fifty as rules
from ...rules.problems import Problem
from ...store import fifty as store
from ...store import receipts
from ...store.db import session_scope, write_scope
from ...store.models import Game
from ...store.tables import join_table
from .answers import (
    dumped_response,
    game_problems_response,
    json_response,
    problem_response,
    version_conflict_response,
)
from .serialize import fifty_game_json, fifty_row_json
from .undo import revision_to_undo, undo_offer

#: The ways a game's entry may be given, in the order they are looked for (``teams``: the
#: Canasta request's key, here one ``{"cards"}`` or ``{"points"}`` per player like ``players``).
ENTRY_KEYS = ("players", "teams", "piles", "points")


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


def _names(data: dict[str, Any], problems: list[Problem]) -> Any:
    """The players' names in seating order: ``players`` as a list, else one per side."""
    players = data.get("players")
    sides = data.get("sides")
    if isinstance(players, list) and sides is None:
        return players
    if players is None:
        problems.append(Problem("request.missing", "players", {}))
        return None
    if isinstance(players, bool) or not isinstance(players, int | list):
        problems.append(Problem("request.type", "players", {"expected": "integer"}))
        return None
    count = len(players) if isinstance(players, list) else players
    if count not in rules.PLAYERS_ALLOWED:
        problems.append(
            Problem(
                "players.not_allowed",
                "players",
                {"players": count, "allowed": list(rules.PLAYERS_ALLOWED)},
            )
        )
        return None
    if sides is None:
        problems.append(Problem("request.missing", "sides", {}))
        return None
    if not isinstance(sides, list):
        problems.append(Problem("request.type", "sides", {"expected": "list"}))
        return None
    if count != len(sides):
        problems.append(
            Problem(
                "sides.count", "sides", {"players": count, "allowed": [count], "sides": len(sides)}
            )
        )
        return None
    names: list[Any] = []
    for i, side in enumerate(sides):
        if not isinstance(side, dict):
            problems.append(Problem("request.type", f"sides[{i}]", {"expected": "object"}))
            continue
        name = side.get("name")
        seated = side.get("players")
        if name is None and isinstance(seated, list) and len(seated) == 1:
            name = seated[0]  # a side of one: the player's name
        if isinstance(seated, list) and len(seated) != 1:
            problems.append(
                Problem(
                    "sides.size",
                    f"sides[{i}].players",
                    {"side": i + 1, "size": 1, "have": len(seated)},
                )
            )
        if name is None:
            problems.append(Problem("request.missing", f"sides[{i}].name", {}))
        names.append(name)
    return names


def create(data: dict[str, Any]) -> Response:
    """``POST /api/v1/games`` for 3 ist 50 → 201 with the game (as :func:`detail`)."""
    problems: list[Problem] = []
    names = _names(data, problems)
    options, option_problems = rules.read_options(data.get("options"))
    problems.extend(option_problems)
    try:
        if problems:
            raise store.GameProblems(problems)
        with write_scope() as session:
            game = store.create_game(
                session,
                names,
                joker=options.joker,
                stop_after=data.get("stop_after"),
                target=data.get("target"),
                name=data.get("name"),
            )
            join_table(session, game, data.get("table"))  # a table's game (its people)
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


def read_entries(data: dict[str, Any], players: int) -> tuple[Any, str]:
    """The entry in the store's shape (one ``{"cards"}`` or ``{"points"}`` per player) and the
    key it was given under (problems are then placed at that key)."""
    key = next((k for k in ENTRY_KEYS if k in data), "")
    value = data.get(key) if key else None
    if key == "piles" and isinstance(value, list):
        return [{"cards": pile} for pile in value], key
    if key == "points" and isinstance(value, list):
        return [{"points": points} for points in value], key
    return value, key or "piles"


def _placed(problems: list[Problem], key: str) -> list[Problem]:
    """Problems of ``store.fifty.read_entry`` (at ``players[i].cards`` / ``.points``) at the
    key the request used: ``piles[i]``, ``points[i]``."""
    if key == "players":
        return problems
    out = []
    for p in problems:
        where = p.where
        if where.startswith("players"):
            where = key + where[len("players") :]
            where = where.replace(".cards", "").replace(".points", "")
        out.append(Problem(p.code, where, p.params))
    return out


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
        entry_id = receipts.read_entry_id(data.get("entry_id")) if kind == "save" else None
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
                store.delete_game(session, game, number, version)
            elif kind == "undo":
                hand = canasta_store.undo_delete(
                    session, game, revision_to_undo(game, data), version
                ).number
            else:
                if not any(k in data for k in ENTRY_KEYS):
                    raise store.GameProblems([Problem("request.missing", "piles", {})], 400)
                entries, where = read_entries(data, len(game.sides))
                try:
                    if number is None:
                        hand = store.add_game(session, game, version, entries).number
                    else:
                        hand = store.replace_game(session, game, number, version, entries).number
                except store.GameProblems as error:
                    raise store.GameProblems(_placed(error.problems, where), error.status) from None
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
