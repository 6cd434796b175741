"""A stored Canasta game as JSON (CONTRACT.md §3 "Games (stored)"): the shape the games API
answers with, and the one backups carry."""

from __future__ import annotations

from typing import Any

from ...store import GameState, HandRow, HandScore, Seat
from ..words.messages import jsonable


def _seat_json(seat: Seat) -> dict[str, Any]:
    return {"seat": seat.seat, "name": seat.name, "side": seat.column}


def _score_json(score: HandScore) -> dict[str, Any]:
    return {
        "score": score.score,
        "items": dict(score.items),
        "canastas": dict(score.canastas),
        "total": score.total,
        "minimum_meld": score.minimum_meld,
        "went_out": score.went_out,
        "concealed": score.concealed,
        "team": score.team,
        "alone": score.alone,
    }


def hand_json(hand: HandRow) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": hand.number,
        "teams": hand.teams,
        "lone_player": hand.lone_player,
        "stock_out": hand.stock_out,
        "dealer": _seat_json(hand.dealer),
        "sides": [_score_json(s) for s in hand.scores],
        "warnings": jsonable(list(hand.warnings)),
    }
    if hand.problems:
        out["problems"] = jsonable(list(hand.problems))
    return out


def state_json(state: GameState, game_id: str | None = None, hands_from: int = 1) -> dict[str, Any]:
    """A game's sheet as JSON; ``game_id`` (the editing key) only for those who have it.

    ``hands`` lists the hands from number ``hands_from`` on (all of them by default): a save
    answers with those it changed, not with a sheet of a thousand hands."""
    out: dict[str, Any] = {}
    if game_id is not None:
        out["id"] = game_id
    out.update(
        {
            "view_id": state.view_id,
            "version": state.version,
            "name": state.name,
            "ruleset": state.ruleset,
            "ruleset_name": state.ruleset_name,
            "players": state.players,
            "cutthroat": state.cutthroat,
            "options": state.options,
            "house_rules": state.house_rules,
            "target": state.target,
            "sides": [
                {
                    "name": c.name,
                    "players": list(c.players),
                    "total": c.total,
                    "minimum_meld": c.minimum_meld,
                    "to_target": c.to_target,
                }
                for c in state.columns
            ],
            "hands_from": hands_from,
            "hands": [hand_json(h) for h in state.hands[max(0, hands_from - 1 - state.skipped) :]],
            "winner": state.winner,
            "finished": state.finished,
            "next_hand": state.next_hand,
            "next_dealer": _seat_json(state.next_dealer),
            "seats": [_seat_json(s) for s in state.seats],
            "created_at": state.created_at.isoformat(),
            "updated_at": state.updated_at.isoformat(),
        }
    )
    return out
