"""A stored Canasta game as JSON (docs/api.md §3 "Games (stored)"): the shape the games API
answers with, and the one backups carry."""

from __future__ import annotations

from typing import Any

from ...rules.fifty import RULESET_ID, RULESET_NAME
from ...store import GameState, HandRow, HandScore, Seat
from ...store.fifty import FiftyState
from ...store.fifty import GameRow as FiftyRow
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


# ---- 3 ist 50 --------------------------------------------------------------------------------
# A game of 3 ist 50 (docs/rulebook.md §7) in the same envelope: ``sides`` are the players (one
# each),
# ``hands`` the games of the evening (a deck played through), each with the entry as stored
# (``players``: what ``POST …/hands`` takes) and every player's minus points and running total.


def _fifty_seat(state: FiftyState, seat: int) -> dict[str, Any]:
    return {"seat": seat, "name": state.players[seat], "side": seat}


def fifty_row_json(state: FiftyState, row: FiftyRow) -> dict[str, Any]:
    """One game of the evening."""
    return {
        "number": row.number,
        "players": [
            {"points": s.points} if s.cards is None else {"cards": list(s.cards)}
            for s in row.scores
        ],
        "dealer": _fifty_seat(state, row.dealer),
        "sides": [{"points": s.points, "total": s.total} for s in row.scores],
        "corrected": row.corrected,
        "corrections": [
            {
                "entered_at": c.entered_at.isoformat(),
                "changed_at": c.changed_at.isoformat(),
                "points": list(c.scores),
            }
            for c in row.corrections
        ],
        "created_at": row.created_at.isoformat(),
        "updated_at": row.updated_at.isoformat(),
    }


def fifty_game_json(
    state: FiftyState, game_id: str | None = None, hands_from: int = 1
) -> dict[str, Any]:
    """An evening of 3 ist 50 as JSON; ``game_id`` (the editing key) only for those who have it,
    ``hands`` from number ``hands_from`` on (as :func:`state_json`)."""
    out: dict[str, Any] = {}
    if game_id is not None:
        out["id"] = game_id
    winner = state.winners[0] if len(state.winners) == 1 else None
    out.update(
        {
            "view_id": state.view_id,
            "version": state.version,
            "name": state.name,
            "ruleset": RULESET_ID,
            "ruleset_name": RULESET_NAME,
            "players": len(state.players),
            "options": state.options.as_dict(),
            "stop_after": state.stop_after,
            "target": state.target,
            "lowest_wins": True,
            "sides": [
                {"name": name, "players": [name], "total": total}
                for name, total in zip(state.players, state.totals, strict=True)
            ],
            "hands_from": hands_from,
            "hands": [fifty_row_json(state, r) for r in state.rows[max(0, hands_from - 1) :]],
            "leaders": list(state.leaders),
            "winner": winner,
            "winners": list(state.winners),
            "finished": state.finished,
            "next_hand": state.next_number,
            "next_dealer": _fifty_seat(state, state.next_dealer),
            "seats": [_fifty_seat(state, i) for i in range(len(state.players))],
            "created_at": state.created_at.isoformat(),
            "updated_at": state.updated_at.isoformat(),
        }
    )
    return out
