"""Backups and moving: a game as JSON in the API's own shape (``GET
/api/v1/games/{id}`` without the editing key), all games of this phone in one file, the hands
as CSV for spreadsheets, and importing such files on another installation.

An imported file is untrusted input: every game is created and every hand added through the
same store functions as the API (``create_game``, ``add_hand``), so each value is checked as if
typed; the whole file is one transaction (a file with any problem stores nothing).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from ... import store
from ...rules.problems import Problem
from ...store import GameState
from ..api.serialize import state_json
from .adjustments import adjustment_lines

FORMAT = "scorekeeper-games"
MAX_GAMES = 100  # one phone's games; a file beyond that is refused, not cut
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def game_export(state: GameState) -> dict[str, Any]:
    """One game as the API shows it to a reader (no editing key)."""
    return state_json(state)


def games_export(states: list[GameState]) -> dict[str, Any]:
    return {"format": FORMAT, "games": [game_export(s) for s in states]}


def safe_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text, never runs as a formula (CSV injection):
    text starting with = + - @ (or a tab or carriage return) gets a leading apostrophe.
    Numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def hands_csv(
    state: GameState, item_keys: list[str], labels: dict[str, str], words: dict[str, str]
) -> str:
    """The hands, one row each: number, dealer, then per column its items, the hand's score
    and the running total (``labels``: item names; ``words``: the other headings)."""
    out = io.StringIO()
    writer = csv.writer(out)
    head = [words["hand"], words["dealer"]]
    for column in state.columns:
        head += [f"{column.name}: {labels.get(k, k)}" for k in item_keys]
        head += [
            f"{column.name}: {words['score']}",
            f"{column.name}: {words['total']}",
            f"{column.name}: {words['went_out']}",
        ]
    head += [words["corrected"], words["adjustment_notes"]]
    writer.writerow([safe_cell(h) for h in head])
    for row in state.hands:
        cells: list[Any] = [row.number, row.dealer.name]
        for score in row.scores:
            cells += [score.items.get(k, 0) for k in item_keys]
            cells += [
                score.score,
                score.total,
                words["concealed"] if score.concealed else words["yes"] if score.went_out else "",
            ]
        cells.append(len(row.corrections) or "")
        # each adjustment with its side and note (user text: made safe below).
        cells.append(
            "; ".join(
                f"{a.side}: {a.points:+d} {a.note}".strip() for a in adjustment_lines(state, row)
            )
        )
        writer.writerow([safe_cell(c) for c in cells])
    return out.getvalue()


def _prefixed(problems: list[Problem], where: str) -> list[Problem]:
    return [Problem(p.code, f"{where}.{p.where}" if p.where else where, p.params) for p in problems]


def import_games(session: Any, data: Any) -> list[str]:
    """Create the games of an export (one game, or ``{"games": [...]}``); their editing keys.
    Raises :class:`GameProblems` (``where`` says which game and hand) and stores nothing then
    (the caller's transaction rolls back)."""
    if isinstance(data, dict) and "games" in data:
        items = data["games"]
        prefix = "games"
        if not isinstance(items, list):
            raise store.GameProblems([Problem("request.type", "games", {"expected": "list"})])
        if not 1 <= len(items) <= MAX_GAMES:
            raise store.GameProblems(
                [
                    Problem(
                        "request.too_large" if items else "request.missing",
                        "games",
                        {"limit": MAX_GAMES},
                    )
                ],
                400,
            )
    else:
        items, prefix = [data], ""
    keys = []
    for g, item in enumerate(items):
        where = f"{prefix}[{g}]" if prefix else ""
        keys.append(_import_one(session, item, where))
    return keys


def _import_one(session: Any, item: Any, where: str) -> str:
    def at(path: str) -> str:
        return f"{where}.{path}" if where else path

    if not isinstance(item, dict):
        raise store.GameProblems([Problem("request.type", where, {"expected": "object"})])
    sides = item.get("sides")
    if isinstance(sides, list):  # the export's sides carry totals: only names and players
        sides = [
            {"name": s.get("name"), "players": s.get("players")} if isinstance(s, dict) else s
            for s in sides
        ]
    try:
        game = store.create_game(
            session,
            item.get("ruleset"),
            item.get("players"),
            sides,
            item.get("options"),
            target=item.get("target"),
            name=item.get("name"),
        )
    except store.GameProblems as error:
        raise store.GameProblems(
            _prefixed(error.problems, where) if where else error.problems, error.status
        ) from None
    hands = item.get("hands", [])
    if not isinstance(hands, list):
        raise store.GameProblems([Problem("request.type", at("hands"), {"expected": "list"})])
    if len(hands) > store.MAX_HANDS:
        raise store.GameProblems(
            [Problem("request.too_large", at("hands"), {"limit": store.MAX_HANDS})], 400
        )
    for h, hand in enumerate(hands):
        if not isinstance(hand, dict):
            raise store.GameProblems(
                [Problem("request.type", at(f"hands[{h}]"), {"expected": "object"})]
            )
        try:
            store.add_hand(
                session,
                game,
                game.version,
                hand.get("teams"),
                hand.get("lone_player"),
                hand.get("stock_out", False),
            )
        except store.GameProblems as error:
            raise store.GameProblems(
                _prefixed(error.problems, at(f"hands[{h}]")), error.status
            ) from None
    return game.id
