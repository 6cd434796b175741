"""A stored game's score sheet as PDF, shared by both games' pages (Canasta's sheets area and
3 ist 50's): the sheet's labels in the reader's language, the language of ``?lang=``, and the
PDF answer. Below the areas that draw sheets, so that none imports another's routes."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, request
from flask_babel import gettext as _

from ...rules.scoring import ADJUSTMENTS, ALL_ITEM_KEYS
from ...sheets import ScoreSheet, SheetLabels
from ..words.i18n import LANGUAGES, current_language, forced_locale
from ..words.names import item_labels
from .pages import State


def sheet_labels() -> SheetLabels:

    return SheetLabels(
        title=_("Canasta score sheet"),
        ruleset=_("Rules"),
        house_rules=_("House rules"),
        date=_("Date"),
        players=_("Players"),
        target=_("Target"),
        hand=_("No."),
        **item_labels(short=True, keys=(*ALL_ITEM_KEYS, ADJUSTMENTS)),
        bonus=_("Bonuses"),
        cards=_("Cards"),
        score=_("Score"),
        total=_("Total"),
        minimum=_("Minimum"),
        concealed=_("went out concealed"),
        final_score=_("Final score"),
        winner=_("Winner"),
        margin=_("Margin"),
        no_winner=_("Game still running"),
        minimum_table=_("Initial meld minimum"),
        scoring_summary=_("Scoring"),
        page_of=_("Page {page} of {pages}"),
        pad_title=_("Canasta score pad"),
        chart=_("Running totals"),
        dealer=_("Dealer"),
        statistics=_("Statistics"),
    )


def pdf_response(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def score_sheet_pdf(build: Callable[[State], ScoreSheet], state: State, filename: str) -> Response:
    """A stored game's score sheet as PDF, in the language of ``?lang=``."""
    from ...sheets import pdf  # reportlab: loaded when the first PDF is drawn, not at a start

    with forced_locale(pdf_language()):
        data = pdf.render_score_sheet(build(state))
    return pdf_response(data, filename)


def pdf_language() -> str:
    """The language of ``?lang=``, else the reader's."""
    asked = request.args.get("lang", "")
    return asked if asked in LANGUAGES else current_language()
