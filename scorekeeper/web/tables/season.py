"""The season sheet of a table, in words: standings, 3 ist 50, partnerships, head-to-head and
records from the table's statistics, every label in the reader's language
(:mod:`scorekeeper.sheets.season` draws it)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from ...sheets.season_model import SeasonSheet, Section
from ...store.models import Table, TablePlayer
from ...store.table_stats import TableStats, rated
from ..words.i18n import long_date, number, signed


def record_label(kind: str) -> str:
    return {
        "best_hand": _("Best hand"),
        "highest_game": _("Highest game"),
        "lowest_game": _("Lowest game"),
        "widest_margin": _("Widest win"),
    }.get(kind, kind)


def _optional(value: int | None) -> str:
    return "–" if value is None else number(value)


def season_sheet(table: Table, people: list[TablePlayer], stats: TableStats) -> SeasonSheet:
    names = {p.id: p.name for p in people}
    playing = [p for p in people if p.id in stats.players]
    ranked = sorted(playing, key=lambda p: (-rated(stats, p.id), p.name.casefold()))
    standings = Section(
        _("Standings"),
        [
            _("Player"),
            _("Rating"),
            # a game counts once it is over: the sheet's head counts running ones too
            _("Finished games"),
            _("Wins"),
            _("Win rate"),
            _("Average per hand"),
            _("Canastas"),
            # every going out, the concealed ones included (store.fold)
            _("Went out"),
            _("Best hand"),
        ],
        [
            [
                p.name,
                number(rated(stats, p.id)),
                number(stats.players[p.id].games),
                number(stats.players[p.id].wins),
                f"{stats.players[p.id].win_rate} %" if stats.players[p.id].games else "–",
                signed(stats.players[p.id].average_hand) if stats.players[p.id].hands else "–",
                number(stats.players[p.id].canastas),
                number(stats.players[p.id].went_out),
                _optional(stats.players[p.id].best_hand),
            ]
            for p in ranked
        ],
    )
    sections = [standings]
    fifty = [p for p in playing if stats.players[p.id].fifty_decks]
    if fifty:
        sections.append(
            Section(
                _("3 is 50"),
                [_("Player"), _("Games"), _("Wins"), _("Average minus points")],
                [
                    [
                        p.name,
                        number(stats.players[p.id].fifty_games),
                        number(stats.players[p.id].fifty_wins),
                        number(stats.players[p.id].fifty_average),
                    ]
                    for p in fifty
                ],
            )
        )
    if stats.partnerships:
        sections.append(
            Section(
                _("Partnerships"),
                [_("Partnership"), _("Finished games"), _("Wins"), _("Average per hand")],
                [
                    [
                        f"{names.get(a, '')} & {names.get(b, '')}",
                        number(f.games),
                        number(f.wins),
                        signed(f.average_hand) if f.hands else "–",
                    ]
                    for (a, b), f in sorted(stats.partnerships.items())
                ],
            )
        )
    meetings = [
        [f"{names.get(a, '')} – {names.get(b, '')}", f"{m.first} : {m.second}", number(m.games)]
        for (a, b), m in sorted(stats.players_met.items())
    ] + [
        [
            f"{names.get(a[0], '')} & {names.get(a[1], '')} – "
            f"{names.get(b[0], '')} & {names.get(b[1], '')}",
            f"{m.first} : {m.second}",
            number(m.games),
        ]
        for (a, b), m in sorted(stats.partnerships_met.items())
    ]
    if meetings:
        sections.append(Section(_("Head to head"), ["", _("Wins"), _("Games")], meetings))
    if stats.records:
        by_id = {g.game_id: g for g in stats.games}
        rows = []
        for r in stats.records:
            where = long_date(by_id[r.game_id].created_at) if r.game_id in by_id else ""
            if r.hand:
                where += " · " + _("hand %(num)s of the game", num=r.hand)
            rows.append([record_label(r.kind), number(r.value), r.names, where])
        sections.append(Section(_("Records"), ["", _("Points"), _("Side"), _("Game")], rows))
    games = len(stats.games)
    return SeasonSheet(
        _("Season sheet: %(name)s", name=table.name),
        ngettext("%(num)s game", "%(num)s games", games)
        + " · "
        + ngettext("%(num)s player", "%(num)s players", len(playing)),
        _("Canasta scorekeeper"),
        sections,
    )
