"""Club tournaments in the JSON API (the ``tournaments_api`` blueprint, ``/api/v1/tournaments``).

``POST /api/v1/tournaments`` makes one; ``POST …/<id>/rounds`` seats and starts the next round
(one game per table, whose phones enter hands through ``/api/v1/games``); ``GET …/<id>`` gives
the rounds and standings (also by ``view_id``, then without any editing key). The director's
other changes (seating by hand, calling time, closing a round, absences) take the editing key.
Problems come as everywhere: ``{"problems": [...]}``, 400 for an unreadable request, 422 for
one that breaks a rule, 409 for a round still playing, 404 for an unknown tournament or round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, Response, url_for
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...edge.reading import Reader, read_into
from ...edge.requests import NoBody
from ...edge.tournaments import read_absence, read_new_tournament, read_seating, read_swap
from ...extensions import csrf
from ...rules.scoring import Rejected
from ...store import tournaments
from ...store.db import session_scope, write_scope
from ...store.errors import GameProblems
from ...store.models import Tournament
from ...tournaments.model import RoundView, TableView, TournamentView
from .answers import dumped_response, json_response, problem_response, read_object

bp = Blueprint("tournaments_api", __name__, url_prefix="/api/v1/tournaments")
csrf.exempt(bp)

#: what the edge reads a body into
Read = TypeVar("Read")


# ---- JSON ---------------------------------------------------------------------------------------


def table_json(table: TableView) -> dict[str, Any]:
    out: dict[str, Any] = {"table": table.number}
    if table.game_id is not None:
        out["game_id"] = table.game_id
    out.update(
        {
            "view_id": table.view_id,
            "sides": [list(side) for side in table.sides],
            "participants": [list(side) for side in table.participants],
            "hands": table.hands,
            "totals": list(table.totals),
            "reported": table.reported,
            "first_dealer": table.first_dealer,
        }
    )
    return out


def round_json(shown: RoundView) -> dict[str, Any]:
    return {
        "number": shown.number,
        "state": shown.state.value,
        "started_at": shown.started_at,
        "ending_at": shown.ending_at,
        "tables": [table_json(t) for t in shown.tables],
        "byes": list(shown.byes),
    }


def tournament_json(shown: TournamentView) -> dict[str, Any]:
    """The whole tournament; the editing keys (``id``, each table's ``game_id``) only in the
    director's view."""
    out: dict[str, Any] = {} if shown.id is None else {"id": shown.id}
    out.update(
        {
            "view_id": shown.view_id,
            "name": shown.name,
            "ruleset": shown.ruleset,
            "options": dict(shown.options),
            "players": shown.players,
            "format": shown.format.value,
            "scoring": shown.scoring.value,
            "points": {
                "win": shown.points.win,
                "draw": shown.points.draw,
                "loss": shown.points.loss,
            },
            "round_end": {shown.round_end.value: shown.round_end_value},
            "odd": shown.odd.value,
            "version": shown.version,
            "participants": [
                {"number": p.number, "name": p.name, "players": list(p.players), "absent": p.absent}
                for p in shown.participants
            ],
            "rounds": [round_json(r) for r in shown.rounds],
            "standings": [
                {
                    "participant": row.standing.participant,
                    "name": row.name,
                    "rank": row.standing.rank,
                    "match_points": row.standing.match_points,
                    "points": row.standing.points,
                    "played": row.standing.played,
                }
                for row in shown.standings
            ],
            "provisional": shown.provisional,
        }
    )
    return out


def _not_found() -> Response:
    return problem_response(404, "tournament.not_found")


def _problems(error: GameProblems) -> Response:
    return json_response({"problems": error.problems}, error.status)


def _changed() -> Response:
    return problem_response(409, "tournament.changed")


def _shown(key: str) -> TournamentView | None:
    with session_scope() as session:
        t = tournaments.get_tournament(session, key)
        return None if t is None else tournaments.view(session, t, True)


def _answer(key: str, status: int = 200) -> Response:
    shown = _shown(key)
    if shown is None:  # pragma: no cover - written a moment ago
        return _not_found()
    response = dumped_response(tournament_json(shown), status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _read(value: Read | Rejected) -> Read:
    """What the edge read, or its problems raised as the store's (answered 400 or 422)."""
    if isinstance(value, Rejected):
        raise GameProblems(list(value.problems))
    return value


def _no_body(data: dict[str, Any]) -> NoBody:
    """A body that has nothing to say (:class:`~...edge.requests.NoBody`): any JSON object."""
    return read_into(NoBody, data, Reader())


def _change(
    key: str,
    read: Callable[[dict[str, Any]], Read | Rejected],
    change: Callable[[Session, Tournament, Read], Any],
) -> Response:
    """A director's change: its body (JSON, or nothing: ``{}``) read at the edge by ``read``
    into what ``change`` takes, run in one transaction; the answer is the whole tournament.
    An unknown tournament is 404 whatever the body says, as it always was."""
    data, error = read_object(optional=True)
    if data is None:
        return error  # type: ignore[return-value]
    try:
        with write_scope() as session:
            t = tournaments.get_tournament(session, key)
            if t is None:
                return _not_found()
            change(session, t, _read(read(data)))
    except GameProblems as problems:
        return _problems(problems)
    except IntegrityError:  # another director's change got there first
        return _changed()
    return _answer(key)


# ---- endpoints ----------------------------------------------------------------------------------


@bp.post("")
def create() -> Response:
    """``{"name", "ruleset", "options", "players", "format", "scoring", "points"?,
    "round_end", "odd"?, "participants" | "table"}`` → 201 ``{"id", "view_id"}``."""
    data, error = read_object()
    if data is None:
        return error  # type: ignore[return-value]
    setup = read_new_tournament(data)
    if isinstance(setup, Rejected):
        return _problems(GameProblems(list(setup.problems)))
    try:
        with write_scope() as session:
            t = tournaments.create_tournament(session, setup)
            key, view_id = t.id, t.view_id
    except GameProblems as problems:
        return _problems(problems)
    response = dumped_response({"id": key, "view_id": view_id}, 201)
    response.headers["Location"] = url_for(".detail", key=key)
    return response


def _dumped(shown: TournamentView) -> bytes:
    return dumped_response(tournament_json(shown)).get_data()


@bp.get("/<key>")
def detail(key: str) -> Response:
    """The tournament: by editing key with every key, by ``view_id`` without any. Polled by
    the standings on many phones: its JSON is kept while nothing changed."""
    found = tournaments.kept_by_key(key, ("json",), _dumped)
    if found is None:
        return _not_found()
    response = Response(found[1], mimetype="application/json")
    response.headers["Vary"] = "Accept-Language"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<key>/rounds")
def start_round(key: str) -> Response:
    """Seat the next round by lot and create its games → 201 ``{"number", "tables":
    [{"table", "game_id", "view_id", "sides"}], "byes"}``; 409 while a round has tables that
    have not reported."""
    data, error = read_object(optional=True)  # nothing to read, but JSON or nothing
    if data is None:
        return error  # type: ignore[return-value]
    _no_body(data)
    try:
        with write_scope() as session:
            t = tournaments.get_tournament(session, key)
            if t is None:
                return _not_found()
            number = tournaments.start_round(session, t).number
    except GameProblems as problems:
        return _problems(problems)
    except IntegrityError:
        return _changed()
    shown = _shown(key)
    if shown is None:  # pragma: no cover - written a moment ago
        return _not_found()
    started = next(r for r in shown.rounds if r.number == number)
    body = {
        "number": number,
        "tables": [
            {
                "table": t.number,
                "game_id": t.game_id,
                "view_id": t.view_id,
                "sides": [list(side) for side in t.sides],
            }
            for t in started.tables
        ],
        "byes": list(started.byes),
    }
    return dumped_response(body, 201)


@bp.post("/<key>/rounds/proposal")
def propose_round(key: str) -> Response:
    """Draw the next round's seating (again, while it is not confirmed); no games yet."""
    return _change(key, _no_body, lambda session, t, _: tournaments.propose_round(session, t))


@bp.put("/<key>/rounds/<int:number>/seating")
def set_seating(key: str, number: int) -> Response:
    """``{"tables": [{"number", "sides": [[participant, …], …]}], "byes": [...]}``: a
    proposed round seated by hand (``seating.*`` problems when it breaks a hard rule)."""
    return _change(
        key,
        read_seating,
        lambda session, t, seating: tournaments.set_seating(session, t, number, seating),
    )


@bp.post("/<key>/rounds/<int:number>/swap")
def swap(key: str, number: int) -> Response:
    """``{"a", "b"}``: two participants of a proposed round change places."""
    return _change(
        key, read_swap, lambda session, t, asked: tournaments.swap(session, t, number, asked)
    )


@bp.post("/<key>/rounds/<int:number>/confirm")
def confirm_round(key: str, number: int) -> Response:
    """Create the games of a proposed round."""
    return _change(
        key, _no_body, lambda session, t, _: tournaments.confirm_round(session, t, number)
    )


@bp.post("/<key>/rounds/<int:number>/time")
def call_time(key: str, number: int) -> Response:
    """The director calls time (a round that ends after minutes)."""
    return _change(key, _no_body, lambda session, t, _: tournaments.call_time(session, t, number))


@bp.post("/<key>/rounds/<int:number>/close")
def close_round(key: str, number: int) -> Response:
    """The director closes a round: its results are final."""
    return _change(key, _no_body, lambda session, t, _: tournaments.close_round(session, t, number))


@bp.put("/<key>/participants/<int:number>")
def set_absent(key: str, number: int) -> Response:
    """``{"absent": true|false}``: the next seatings leave the participant out (or in)."""
    return _change(
        key,
        read_absence,
        lambda session, t, asked: tournaments.set_absent(session, t, number, asked),
    )
