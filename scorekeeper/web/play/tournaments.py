"""The line a game page shows when its game is a table of a club tournament."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from ...store.tournaments import GameTournament
from ...tournaments.model import RoundEnd


def tournament_line(part: GameTournament, hands: int) -> str:
    """ "Spring cup · round 2 · table 3 · 3 of 4 hands" (or "3 hands" when the round ends at a
    target or a time)."""
    if RoundEnd(part.round_end) == RoundEnd.HANDS:
        done = ngettext(
            "%(done)s of %(num)s hand",
            "%(done)s of %(num)s hands",
            part.round_end_value,
            done=hands,
        )
    else:
        done = ngettext("%(num)s hand", "%(num)s hands", hands)
    return _(
        "%(name)s · round %(round)s · table %(table)s · %(hands)s",
        name=part.name,
        round=part.round,
        table=part.table,
        hands=done,
    )


def round_over(part: GameTournament, hands: int) -> bool:
    """Whether the table has played every hand of a round of N hands (later hands would not
    count: the standings take the first N)."""
    return RoundEnd(part.round_end) == RoundEnd.HANDS and hands >= part.round_end_value
