"""The web layer: one package per area, each with its blueprint and its routes written out in
``routes.py`` (``grep -rn '"/games/<game_id>/hands' scorekeeper/web`` finds the hand entry).

Areas with pages or an API:

- ``home``: the start page, this phone's games, the web app manifest (blueprint ``main``)
- ``canasta``: a Canasta game: new game, game page, view, hand entry, statistics, backups
  (blueprint ``games``)
- ``fifty``: the same for "3 ist 50" (blueprint ``fifty``)
- ``referee``: the rule questions of both games (blueprint ``referee``)
- ``rulebook``: each ruleset explained (blueprint ``rules_pages``)
- ``sheets``: the score sheet PDFs and blank pads (blueprint ``sheets``)
- ``tables``: a table of regular players, its games and statistics (blueprint ``tables``)
- ``tournaments``: a club tournament: the director's page, the public standings, the
  projector, the new form and the PDFs (blueprint ``tournaments``)
- ``api``: the JSON API of CONTRACT.md §3 (blueprints ``api``, ``games_api``, ``tables_api``,
  ``tournaments_api``)
- ``engine``: the files of the rules engine on the phone, Pyodide and the engine archive
  (blueprint ``engine``, bound in ``init_app``; docs/engine.md)

Shared by the areas, without routes:

- ``play``: the hand-entry flow and the helpers of a game's pages
- ``words``: the reader's language, names, messages, ruleset parameters in words
- ``app``: security, rate limits, errors, static files, catalogues (bound in ``init_app``),
  and the app's URL rule class (``routing``)
"""

from __future__ import annotations

from flask import Flask

from . import api, canasta, fifty, home, referee, rulebook, sheets, tables, tournaments
from .rulebook.links import rule_links
from .words.names import (
    canastas_text,
    card_label,
    cards_text,
    points_text,
    rank_name,
    ruleset_title,
    special_hand_name,
)


def register_blueprints(app: Flask) -> None:
    for bp in (
        api.bp,
        api.games_bp,
        api.tables_bp,
        api.tournaments_bp,
        home.bp,
        canasta.bp,
        referee.bp,
        rulebook.bp,
        sheets.bp,
        fifty.bp,
        tables.bp,
        tournaments.bp,
    ):
        app.register_blueprint(bp)
    app.jinja_env.globals.update(
        canastas_text=canastas_text,
        cards_text=cards_text,
        points_text=points_text,
        card_label=card_label,
        rank_name=rank_name,
        ruleset_title=ruleset_title,
        rule_links=rule_links,
        special_hand_name=special_hand_name,
    )
