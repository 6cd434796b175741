"""A tournament's rounds: proposed by lot, changed by hand, confirmed (one game per table),
time called, closed; participants marked absent."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from ...edge.requests import Absence, Swap
from ...rules.problems import Problem
from ...tournaments import seating as engine
from ...tournaments.model import (
    RoundEnd,
    RoundState,
    Seating,
)
from .. import tables
from ..errors import GameProblems
from ..games import NAME_MAX, create_game
from ..models import (
    Game,
    Table,
    Tournament,
    TournamentGame,
    TournamentParticipant,
    TournamentRound,
    utcnow,
)
from .common import (
    MAX_PARTICIPANTS,
    MAX_ROUNDS,
    participants_of,
    refuse,
    round_of,
    round_open,
    rounds_of,
    rules_of,
    seating_json,
    seating_of,
    whole,
)
from .read_model import round_view


def _lot(t: Tournament, *parts: int) -> int:
    """A seed for one lot of the tournament: the same parts, the same lot."""
    return random.Random(f"{t.seed}/" + "/".join(str(p) for p in parts)).randrange(2**31)


def _touch(session: Session, t: Tournament) -> None:
    """Move the tournament on to its next version; a director who changed it at the same
    moment makes this one fail (``tournament.changed``, 409) instead of doubling a round."""
    now = utcnow()
    done = session.execute(
        update(Tournament)
        .where(Tournament.id == t.id, Tournament.version == t.version)
        .values(version=t.version + 1, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    if getattr(done, "rowcount", 1) != 1:
        raise refuse("tournament.changed", "", 409)
    set_committed_value(t, "version", t.version + 1)
    set_committed_value(t, "updated_at", now)


def lock(session: Session, t: Tournament) -> None:
    """Take the tournament's row lock for the rest of the transaction (``SELECT … FOR
    UPDATE`` on PostgreSQL; SQLite's writers already take turns) and check under it that the
    tournament is still at the version it was read at: every director's change calls this
    first, so of two changes made at once from the same version the second waits and is
    refused (``tournament.changed``, 409) before it reads anything (docs/concurrency.md)."""
    current = session.scalar(
        select(Tournament.version).where(Tournament.id == t.id).with_for_update()
    )
    if current != t.version:
        raise refuse("tournament.changed", "", 409)


def _absent(people: Sequence[TournamentParticipant]) -> list[int]:
    return [p.number for p in people if p.absent]


def _draw(
    t: Tournament,
    people: Sequence[TournamentParticipant],
    history: Sequence[Seating],
    number: int,
    draw: int,
) -> Seating:
    """The engine's seating of round ``number`` by the lot of its ``draw``-th drawing."""
    seating = engine.propose(
        rules_of(t), [p.number for p in people], history, _absent(people), _lot(t, number, draw)
    )
    if not seating.tables:
        raise refuse("tournament.nobody", "participants", 422)
    return seating


def propose_round(session: Session, t: Tournament) -> TournamentRound:
    """The next round's seating by lot (not yet confirmed: no games). A proposal not yet
    confirmed is drawn again; a round still playing is closed first when every table has
    reported, else the new round is refused (``tournament.round_open``, 409)."""
    lock(session, t)
    rounds = rounds_of(session, t)
    last = rounds[-1] if rounds else None
    people = participants_of(session, t)
    history = [
        seating_of(r.seating) for r in rounds if RoundState(r.state) is not RoundState.PROPOSED
    ]
    if last is not None and RoundState(last.state) is RoundState.PROPOSED:
        draw = last.seating.get("draw", 0) + 1 if isinstance(last.seating, dict) else 1
        seating = _draw(t, people, history, last.number, draw)
        last.seating = {**seating_json(seating), "draw": draw}
        _touch(session, t)
        session.flush()
        return last
    if last is not None and RoundState(last.state) is RoundState.PLAYING:
        if not all(table.reported for table in round_view(session, t, last, people, True).tables):
            raise round_open(last.number)
        last.state = RoundState.CLOSED.value
        last.closed_at = utcnow()
        _freeze_games(session, last)
    number = (last.number if last is not None else 0) + 1
    if number > MAX_ROUNDS:
        raise refuse("tournament.rounds", "round", 422, maximum=MAX_ROUNDS)
    seating = _draw(t, people, history, number, 0)
    now = utcnow()
    proposed = TournamentRound(
        tournament_id=t.id,
        number=number,
        state=RoundState.PROPOSED.value,
        seating={**seating_json(seating), "draw": 0},
        created_at=now,
    )
    session.add(proposed)
    _touch(session, t)
    session.flush()
    return proposed


def _proposed(session: Session, t: Tournament, number: Any) -> TournamentRound:
    found = round_of(session, t, number)
    if RoundState(found.state) is not RoundState.PROPOSED:
        raise refuse("tournament.round_state", "round", 409, round=found.number, state=found.state)
    return found


def _checked(session: Session, t: Tournament, seating: Seating) -> None:
    people = participants_of(session, t)
    refusals = engine.check(rules_of(t), [p.number for p in people], seating, _absent(people))
    if refusals:
        raise GameProblems([Problem(r.code, "seating", dict(r.params)) for r in refusals])


def set_seating(session: Session, t: Tournament, number: int, seating: Seating) -> TournamentRound:
    """A proposed round seated by hand; refused with the engine's ``seating.*`` codes."""
    lock(session, t)
    found = _proposed(session, t, number)
    _checked(session, t, seating)
    found.seating = {**seating_json(seating), "draw": found.seating.get("draw", 0)}
    _touch(session, t)
    session.flush()
    return found


def swap(session: Session, t: Tournament, number: int, asked: Swap) -> TournamentRound:
    """Participants ``asked.a`` and ``asked.b`` (numbers, read at the edge) change places in a
    proposed round (a bye may swap with a seated participant)."""
    lock(session, t)
    found = _proposed(session, t, number)
    known = {p.number for p in participants_of(session, t)}
    for where, value in (("a", asked.a), ("b", asked.b)):
        if value not in known:
            raise refuse("seating.unknown", where, participant=value)
    try:
        swapped = engine.swap(seating_of(found.seating), asked.a, asked.b)
    except ValueError:  # neither of them is in the seating (both absent)
        raise refuse("seating.absent", "a", participant=asked.a) from None
    return set_seating(session, t, number, swapped)


def _side_name(names: Sequence[str]) -> str:
    text = " & ".join(names)
    return text if len(text) <= NAME_MAX else text[: NAME_MAX - 1].rstrip() + "\u2026"


def confirm_round(session: Session, t: Tournament, number: int) -> TournamentRound:
    """Create the games of a proposed round, one per table: the tournament's ruleset and
    house rules, the names by side in seat order, the target when the round ends at one, the
    first dealer by lot."""
    lock(session, t)
    found = _proposed(session, t, number)
    seating = seating_of(found.seating)
    _checked(session, t, seating)
    people = {p.number: p for p in participants_of(session, t)}
    table = session.get(Table, t.table_id) if t.table_id is not None else None
    target = t.round_end_value if RoundEnd(t.round_end) is RoundEnd.TARGET else None
    for seated in seating.tables:
        sides = []
        for side in seated.sides:
            names = [name for p in side for name in people[p].players]
            sides.append({"name": _side_name(names), "players": names})
        size = sum(len(s["players"]) for s in sides)
        game = create_game(session, t.ruleset, size, sides, t.options, target=target, name=t.name)
        game.first_dealer = random.Random(_lot(t, found.number, seated.number)).randrange(size)
        if table is not None:
            tables.attach(session, table, game)
        session.add(TournamentGame(game_id=game.id, round_id=found.id, table=seated.number))
    found.state = RoundState.PLAYING.value
    found.started_at = utcnow()
    _touch(session, t)
    session.flush()
    return found


def start_round(session: Session, t: Tournament) -> TournamentRound:
    """The next round proposed and confirmed at once (the API's "new round")."""
    proposed = propose_round(session, t)
    return confirm_round(session, t, proposed.number)


def _playing(session: Session, t: Tournament, number: Any) -> TournamentRound:
    found = round_of(session, t, number)
    if RoundState(found.state) is RoundState.PROPOSED:
        raise refuse("tournament.round_state", "round", 409, round=found.number, state=found.state)
    return found


def call_time(session: Session, t: Tournament, number: int) -> TournamentRound:
    """The director calls time in a round that ends after minutes: every table finishes the
    hand it is playing. Calling it again changes nothing."""
    lock(session, t)
    found = _playing(session, t, number)
    if RoundEnd(t.round_end) is not RoundEnd.MINUTES:
        raise refuse("tournament.no_time", "round", 422)
    if found.ending_at is None and RoundState(found.state) is RoundState.PLAYING:
        found.ending_at = utcnow()
        _touch(session, t)
        session.flush()
    return found


def close_round(session: Session, t: Tournament, number: int) -> TournamentRound:
    """The director closes a round: its results are final (what its tables entered). Closing
    it again changes nothing."""
    lock(session, t)
    found = _playing(session, t, number)
    if RoundState(found.state) is RoundState.PLAYING:
        found.state = RoundState.CLOSED.value
        found.closed_at = utcnow()
        _freeze_games(session, found)
        _touch(session, t)
        session.flush()
    return found


def _freeze_games(session: Session, closed: TournamentRound) -> None:
    """A closed round's games take no new hand (``store.changes.claim`` refuses one). Each
    moves to a new version now, so that every page, kept view and open form of it is seen to
    be out of date and shows the round closed."""
    session.execute(
        update(Game)
        .where(
            Game.id.in_(select(TournamentGame.game_id).where(TournamentGame.round_id == closed.id))
        )
        .values(version=Game.version + 1, updated_at=utcnow(), summary=None)
    )


def set_absent(
    session: Session, t: Tournament, number: Any, asked: Absence
) -> TournamentParticipant:
    """A participant leaves (``asked.absent``) or rejoins the tournament: the next seatings
    leave them out (a proposal not yet confirmed is drawn again, so that it seats everyone
    present)."""
    lock(session, t)
    found = None
    if whole(number) and 0 <= number < MAX_PARTICIPANTS:
        found = session.scalars(
            select(TournamentParticipant).where(
                TournamentParticipant.tournament_id == t.id,
                TournamentParticipant.number == number,
            )
        ).first()
    if found is None:
        raise refuse(
            "tournament.participant_unknown", "participant", 404, participant=str(number)[:12]
        )
    absent = asked.absent
    if found.absent != absent:
        found.absent = absent
        _touch(session, t)
        session.flush()
        rounds = rounds_of(session, t)
        if rounds and RoundState(rounds[-1].state) is RoundState.PROPOSED:
            try:
                propose_round(session, t)
            except GameProblems:  # too few left to seat a table: no proposal
                session.delete(rounds[-1])
                session.flush()
    return found
