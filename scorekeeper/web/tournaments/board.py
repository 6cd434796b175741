"""What the tournament pages show of the read model (``tournament.model.TournamentView``): the
round being played or proposed, who sits out, a table's progress in words, and the stamp a
public page's poll sends to learn that nothing changed."""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from ...tournaments.model import (
    Format,
    RoundEnd,
    RoundState,
    RoundView,
    Scoring,
    TableView,
    TournamentView,
)
from ..words.i18n import number


@dataclass(frozen=True)
class Seat:
    """One participant at a table card: number (for a swap) and the name shown."""

    participant: int
    name: str


@dataclass(frozen=True)
class Card:
    """A table of the round as a card: its sides, each a list of seats."""

    table: TableView
    sides: tuple[tuple[Seat, ...], ...]


def current_round(view: TournamentView) -> RoundView | None:
    return view.rounds[-1] if view.rounds else None


def names(view: TournamentView) -> dict[int, str]:
    return {p.number: p.name for p in view.participants}


def cards(view: TournamentView, round_: RoundView) -> list[Card]:
    """The round's tables with a seat per participant: a player (individual) or a pair, whose
    two names stand on its one side."""
    known = names(view)
    made = []
    for table in round_.tables:
        sides = []
        for i, numbers in enumerate(table.participants):
            if view.format == Format.PAIRS or len(numbers) != len(table.sides[i]):
                sides.append(
                    tuple(Seat(n, known.get(n, " & ".join(table.sides[i]))) for n in numbers)
                )
            else:
                sides.append(
                    tuple(Seat(n, name) for n, name in zip(numbers, table.sides[i], strict=True))
                )
        made.append(Card(table, tuple(sides)))
    return made


def byes(view: TournamentView, round_: RoundView) -> list[Seat]:
    """Who sits the round out. A proposal is worked out from the seating (the participants
    present and seated nowhere), so a bye can be swapped like anyone else."""
    if round_.state != RoundState.PROPOSED:
        return [Seat(-1, name) for name in round_.byes]
    seated = {n for t in round_.tables for side in t.participants for n in side}
    return [
        Seat(p.number, p.name) for p in view.participants if not p.absent and p.number not in seated
    ]


def swap_choices(view: TournamentView, round_: RoundView) -> list[Seat]:
    """Everyone a swap may move, in table order, then the byes."""
    seats = [s for card in cards(view, round_) for side in card.sides for s in side]
    return seats + byes(view, round_)


def progress(view: TournamentView, table: TableView) -> str:
    """How far a table is: "3 of 4 hands" when the round ends after N hands, else "3 hands"."""
    if view.round_end == RoundEnd.HANDS:
        return ngettext(
            "%(done)s of %(num)s hand",
            "%(done)s of %(num)s hands",
            view.round_end_value,
            done=table.hands,
        )
    return ngettext("%(num)s hand", "%(num)s hands", table.hands)


def round_end_text(view: TournamentView) -> str:
    value = view.round_end_value
    if view.round_end == RoundEnd.HANDS:
        return ngettext("%(num)s hand per round", "%(num)s hands per round", value)
    if view.round_end == RoundEnd.TARGET:
        return _("Rounds end at %(target)s points", target=number(value))
    return ngettext("%(num)s minute per round", "%(num)s minutes per round", value)


def format_text(view: TournamentView) -> str:
    return _("Pairs") if view.format == Format.PAIRS else _("Individual")


def scoring_text(view: TournamentView) -> str:
    if view.scoring == Scoring.POINTS:
        return _("Ranked by points")
    return _(
        "Match points %(win)s/%(draw)s/%(loss)s",
        win=view.points.win,
        draw=view.points.draw,
        loss=view.points.loss,
    )


def poll_stamp(stamp: Hashable) -> str:
    """The store's proof that a tournament is unchanged (its version and its games'), as the
    short text a public page polls with: a poll sent with the current one is answered
    "unchanged" (204). The same in every server process (a digest of its text)."""
    return hashlib.blake2b(repr(stamp).encode(), digest_size=8).hexdigest()


def context(view: TournamentView, stamp: str = "") -> dict[str, Any]:
    """What every tournament page shows: the view, the current round and its table cards."""
    round_ = current_round(view)
    return {
        "view": view,
        "round": round_,
        "cards": cards(view, round_) if round_ else [],
        "byes": byes(view, round_) if round_ else [],
        "progress": lambda table: progress(view, table),
        "match_points": view.scoring == Scoring.MATCH_POINTS,
        "RoundState": RoundState,
        "stamp": stamp,
        "round_end_text": round_end_text(view),
        "format_text": format_text(view),
        "scoring_text": scoring_text(view),
    }
