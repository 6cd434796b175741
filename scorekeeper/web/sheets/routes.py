"""Score sheets as PDF: a stored game's sheet and the blank pad (docs/api.md §3).

Labels come from the Babel catalogues in the language of ``?lang=``; the renderer in
:mod:`scorekeeper.sheets` only lays out what it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, abort, request
from flask_babel import gettext as _

from ... import store
from ...rules.ruleset import PRESETS, RuleSet
from ...sheets import (
    BlankSheet,
    ScoreSheet,
    SheetCell,
    SheetColumn,
    SheetHand,
    SheetStatistic,
    TournamentLabels,
)
from ...store import parts, tables
from ...store.db import session_scope
from ...store.table_stats import table_stats
from ...tournaments.model import TableView, TournamentView
from ..games.adjustments import adjustment_lines
from ..games.stats import side_stats, stat_rows
from ..play.pages import find_game
from ..play.sheet_pdf import pdf_language, pdf_response, score_sheet_pdf, sheet_labels
from ..tables.season import season_sheet
from ..words.i18n import (
    file_day,
    forced_locale,
    home_ruleset,
    long_date,
    number,
    signed,
)
from ..words.names import ruleset_title, special_hand_name
from ..words.parameters import house_rule_lines, minimum_ranges, score_step

bp = Blueprint("sheets", __name__)

__all__ = ["bp", "pdf_language", "pdf_response", "score_sheet_pdf", "sheet_labels"]


def minimum_rows(rs: RuleSet, players: int) -> tuple[tuple[str, str], ...]:
    """The minimum table as printed: score range and minimum ("none" for no minimum)."""
    return tuple(minimum_ranges(rs.minimum_table_for(players), score_step(rs)))


def scoring_rows(rs: RuleSet, players: int) -> tuple[tuple[str, str], ...]:
    """The scoring summary printed on the pad: card values, bonuses, penalties."""
    rows = [
        (_("Joker"), number(rs.joker_value)),
        (_("Two"), number(rs.two_value)),
        (_("Ace"), number(rs.ace_value)),
        (_("K, Q, J, 10, 9, 8"), number(rs.high_value)),
        (_("7, 6, 5, 4"), number(rs.low_value)),
        (_("Black three"), number(rs.black_three_value)),
        (_("Natural canasta"), number(rs.natural_canasta_bonus)),
        (_("Mixed canasta"), number(rs.mixed_canasta_bonus)),
    ]
    # docs/rulebook.md §6: the special canastas, each where the ruleset prices it.
    for label, value in (
        (_("Canasta of sevens"), rs.sevens_canasta_bonus),
        (_("Natural canasta of aces"), rs.aces_canasta_bonus),
    ):
        if value:
            rows.append((label, number(value)))
    if rs.allows_wild_canasta():
        rows.append((_("Wild canasta"), number(rs.wild_canasta_bonus)))
        for label, value in (
            (_("Wild canasta with all four jokers"), rs.wild_canasta_jokers_bonus),
            (_("Wild canasta of twos only"), rs.wild_canasta_twos_bonus),
        ):
            if value:
                rows.append((label, number(value)))
    if rs.threes_by_colour:
        # docs/rulebook.md §6: threes of one colour by count; minus, nothing or plus by canastas.
        rows += [
            (_("Threes of one colour: %(count)s", count=number(count)), number(points))
            for count, points in sorted(rs.threes_table.items())
        ]
        rows.append(
            (
                _(
                    "Threes with 0 / %(zero)s / %(plus)s+ canastas",
                    zero=number(rs.threes_zero_canastas),
                    plus=number(rs.threes_plus_canastas),
                ),
                "\u2212 / 0 / +",
            )
        )
    else:
        rows += [
            (_("Red three, each"), number(rs.red_three_value)),
            (
                _("All %(count)s red threes", count=number(rs.red_threes_in_deck(players))),
                number(rs.red_three_score(rs.red_threes_in_deck(players), players)),
            ),
        ]
    rows.append((_("Going out"), number(rs.going_out_bonus)))
    if not rs.concealed_going_out:  # docs/rulebook.md §6: American has none
        rows.append((_("Going out concealed"), _("not played")))
    elif rs.concealed_going_out_bonus != rs.going_out_bonus:
        rows.append((_("Going out concealed"), number(rs.concealed_going_out_bonus)))
    # docs/rulebook.md §6, the American readings of seed 002 a table checks at a glance.
    if rs.melds_minus_without_canasta:
        rows.append((_("Melded cards, side without a canasta"), "\u2212"))
    if rs.new_meld_clean_until:
        rows.append((_("New meld clean until (cards)"), number(rs.new_meld_clean_until)))
    if rs.pile_onto_meld_max:
        rows.append((_("Top card onto a meld of at most (cards)"), number(rs.pile_onto_meld_max)))
    # docs/rulebook.md §6: penalties at the end of the hand.
    for label, value in (
        (_("Unfinished meld of sevens"), rs.unfinished_sevens_penalty),
        (_("Unfinished meld of natural aces"), rs.unfinished_aces_penalty),
        (_("Unfinished meld of wild cards"), rs.unfinished_wild_penalty),
        (
            _("%(count)s+ sevens or aces held", count=rs.held_sevens_aces_count),
            rs.held_sevens_aces_penalty,
        ),
    ):
        if value:
            rows.append((label, number(-value)))
    rows += [
        (_("Black three left in hand"), number(-rs.black_three_in_hand_penalty)),
        (_("Canastas to go out"), number(rs.canastas_needed(players))),
    ]
    rows += [
        (_("Special hand: %(name)s", name=special_hand_name(name)), number(value))
        for name, value in rs.special_hands().items()
    ]
    return tuple(rows)


def draw_tournament_standings(view: TournamentView, labels: TournamentLabels) -> bytes:
    """A tournament's standings as PDF (the route is the tournaments area's)."""
    from ...sheets import tournaments  # reportlab: loaded when the first PDF is drawn

    return tournaments.render_standings(view, labels)


def draw_tournament_round(
    view: TournamentView,
    number: int,
    labels: TournamentLabels,
    game_url: Callable[[TableView], str],
) -> bytes:
    """A tournament round's seating list and table cards as PDF (the route is the
    tournaments area's)."""
    from ...sheets import tournaments  # reportlab: loaded when the first PDF is drawn

    return tournaments.render_round(view, number, labels, game_url)


@bp.get("/sheets/blank.pdf")
def blank_sheet() -> Response:
    """An empty pad for pen and paper, with the ruleset's minimum table and scoring."""
    ruleset_id = request.args.get("ruleset") or home_ruleset()
    base = PRESETS.get(ruleset_id)
    if base is None:
        abort(404)
    players = request.args.get("players", type=int) or base.default_players
    if players not in base.players_allowed:
        players = base.default_players
    from ...sheets import pad  # reportlab: loaded when the first PDF is drawn, not at a start

    with forced_locale(pdf_language()):
        sheet = BlankSheet(
            ruleset_name=ruleset_title(base),
            columns=3 if players == 3 else (3 if request.args.get("sides") == "3" else 2),
            rows=20,
            minimum_table=minimum_rows(base, players),
            scoring_summary=scoring_rows(base, players),
            target=base.target_for(players),
            labels=sheet_labels(),
            format_number=number,
            house_rules=(),
        )

        data = pad.render_blank_sheet(sheet)
    return pdf_response(data, f"canasta-{ruleset_id}-blank.pdf")


def _hand_note(state: store.GameState, row: store.HandRow) -> str:
    notes = []
    if row.stock_out:
        notes.append(_("The stock ran out: nobody went out."))
    elif state.cutthroat and row.lone_player is not None:
        notes.append(_("%(name)s played alone.", name=state.columns[row.lone_player].name))
    for column, score in zip(state.columns, row.scores, strict=True):
        # the special hand's name: the sheet's column says only what it scored.
        if score.items.get("special_hand") and _special_hand(row.teams, score.team):
            notes.append(
                _(
                    "Special hand for %(name)s: %(hand)s.",
                    name=column.name,
                    hand=special_hand_name(_special_hand(row.teams, score.team)),
                )
            )
    for a in adjustment_lines(state, row):  # each with its note (escaped by _text)
        line = _("Adjustment for %(name)s:", name=a.side) + " " + signed(a.points)
        notes.append(f"{line} \u2013 {a.note}." if a.note else f"{line}.")
    if row.corrections:
        # a corrected hand is marked on paper too, with what it said before.
        notes.append(
            _(
                "Corrected; entered before: %(scores)s.",
                scores=" · ".join(
                    " / ".join(signed(score) for score in fix.scores) for fix in row.corrections
                ),
            )
        )
    return " ".join(notes)


def _special_hand(teams: Any, team: int) -> str:
    """The special hand a stored side scored ("straight"), or ""."""
    if isinstance(teams, list) and 0 <= team < len(teams) and isinstance(teams[team], dict):
        name = teams[team].get("special_hand")
        return name if isinstance(name, str) else ""
    return ""


def statistics(state: store.GameState) -> tuple[SheetStatistic, ...]:
    """The game page's end-of-game statistics, for the sheet of a finished game."""
    if not state.finished:
        return ()
    return tuple(
        SheetStatistic(row.label, tuple("\n".join(cell) for cell in row.cells))
        for row in stat_rows(side_stats(state), state.rules.concealed_going_out)
    )


def score_sheet(state: store.GameState) -> ScoreSheet:
    """A stored game as the renderer's plain data, in the current locale."""

    hands = tuple(
        SheetHand(
            number=row.number,
            cells=tuple(
                SheetCell(
                    items=dict(h.items),
                    score=h.score,
                    total=h.total,
                    minimum=h.minimum_meld,
                    went_out=h.went_out,
                    concealed=h.concealed,
                )
                for h in row.scores
            ),
            note=_hand_note(state, row),
            dealer=row.dealer.name,
        )
        for row in state.hands
    )
    return ScoreSheet(
        title=state.name or _("Canasta"),
        ruleset_name=ruleset_title(state.base_rules),
        house_rules=tuple(house_rule_lines(state.rules, state.base_rules)),
        date_text=long_date(state.created_at),
        target=state.target,
        # A player alone (2 players, cutthroat) is the column's name: no list under it.
        columns=tuple(
            SheetColumn(c.name, () if list(c.players) == [c.name] else tuple(c.players))
            for c in state.columns
        ),
        hands=hands,
        winner=state.winner,
        margin=state.margin,
        # a game without a winner has no final score yet.
        labels=sheet_labels()
        if state.finished
        else replace(sheet_labels(), final_score=_("Score so far")),
        format_number=number,
        statistics=statistics(state),
    )


@bp.get("/games/<game_id>/sheet.pdf")
def game_sheet(game_id: str) -> Response:
    """The score sheet of a stored game (also by its read-only view key)."""
    _game, state = find_game(
        game_id, store.game_state, store.get_game, store.get_by_view, parts.get_by_side
    )
    return score_sheet_pdf(score_sheet, state, f"canasta-{file_day(state.created_at)}.pdf")


@bp.get("/tables/<table_id>/sheet.pdf")
def table_sheet(table_id: str) -> Response:
    """A table's season sheet: standings, partnerships, head-to-head and records (also by
    the table's read-only key)."""
    from ...sheets import season  # reportlab: loaded when the first PDF is drawn

    with session_scope() as session:
        table = tables.get_table(session, table_id) or tables.get_by_view(session, table_id)
        if table is None:
            abort(404)
        with forced_locale(pdf_language()):
            sheet = season_sheet(table, tables.people(session, table), table_stats(session, table))
        day = table.created_at
    return pdf_response(season.render_season(sheet), f"table-{file_day(day)}.pdf")
