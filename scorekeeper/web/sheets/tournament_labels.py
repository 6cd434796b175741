"""The words of the tournament sheets (:class:`~scorekeeper.sheets.TournamentLabels`), from the
Babel catalogues: :func:`tournament_labels` in the current locale (call it inside
``forced_locale(lang)`` for ``?lang=``), or :func:`labels_for` with any gettext and ngettext
of flask_babel's signatures (they fill ``%(num)s`` with the count themselves; a count
here is small, a target is formatted as a figure).

The texts with a number are functions that translate when the sheet is drawn: draw it in the
same ``forced_locale`` the labels were made in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from flask_babel import gettext as babel_gettext
from flask_babel import ngettext as babel_ngettext

from ...sheets import SheetLabels, TournamentLabels
from ..words.i18n import number
from .routes import sheet_labels


class Gettext(Protocol):
    def __call__(self, string: str, **variables: Any) -> str: ...


class Ngettext(Protocol):
    def __call__(self, singular: str, plural: str, num: int, **variables: Any) -> str: ...


def labels_for(
    gettext: Gettext,
    ngettext: Ngettext,
    format_number: Callable[[int], str],
    pad: SheetLabels,
) -> TournamentLabels:
    """The labels with these translation functions; ``format_number`` formats every figure and
    ``pad`` are the labels of the score pad on the table cards (``sheet_labels()``)."""

    return TournamentLabels(
        pad=pad,
        format_number=format_number,
        seating=gettext("Seating list"),
        proposal=gettext("Proposal, not confirmed yet"),
        table_card=gettext("Table card"),
        table=gettext("Table"),
        round=lambda n: gettext("Round %(num)s", num=format_number(n)),
        table_number=lambda n: gettext("Table %(num)s", num=format_number(n)),
        side=lambda n: gettext("Side %(num)s", num=format_number(n)),
        compass=(gettext("North"), gettext("East"), gettext("South"), gettext("West")),
        # TRANSLATORS: the compass points, short, as bridge and canasta tables name the seats
        compass_short=(gettext("N"), gettext("E"), gettext("S"), gettext("W")),
        seat=lambda n: gettext("Seat %(num)s", num=format_number(n)),
        first_dealer=gettext("deals the first hand"),
        byes=gettext("Sitting out"),
        sits_out=gettext("sits out"),
        who_sits_where=gettext("Who sits where"),
        scan=gettext("Scan: enter the hands on a phone"),
        hands=lambda n: ngettext("%(num)s hand", "%(num)s hands", n),
        target=lambda n: ngettext(
            "to %(points)s point", "to %(points)s points", n, points=format_number(n)
        ),
        minutes=lambda n: ngettext("%(num)s minute", "%(num)s minutes", n),
        players_count=lambda n: ngettext("%(num)s player", "%(num)s players", n),
        pairs_count=lambda n: ngettext("%(num)s pair", "%(num)s pairs", n),
        tables_count=lambda n: ngettext("%(num)s table", "%(num)s tables", n),
        standings=gettext("Standings"),
        # TRANSLATORS: the standings sheet's heading once no round is open (the tournament may
        # go on: not "final")
        results=gettext("Results"),
        provisional=gettext("Provisional"),
        provisional_note=gettext("Some tables are still playing: these standings will change."),
        after_round=lambda n: gettext("after round %(num)s", num=format_number(n)),
        rank=gettext("Rank"),
        player=gettext("Player"),
        pair=gettext("Pair"),
        match_points=gettext("Match points"),
        points=gettext("Points"),
        played=gettext("Played"),
        round_results=gettext("Results by round"),
        round_column=gettext("Round"),
        sides_column=gettext("Sides"),
        result_column=gettext("Result"),
    )


def tournament_labels() -> TournamentLabels:
    """The labels in the current locale (flask_babel), figures by ``words.i18n.number``."""
    return labels_for(babel_gettext, babel_ngettext, number, sheet_labels())
