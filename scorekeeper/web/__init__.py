"""The web layer: one package per area, each with its blueprint and its routes written out in
``routes.py`` (``grep -rn '"/games/<game_id>/hands' scorekeeper/web`` finds the hand entry).

Areas with pages or an API:

- ``home``: the start page, this phone's games, the web app manifest (blueprint ``home``)
- ``games``: a Canasta game: new game, game page, view, hand entry, statistics, backups
  (blueprint ``games``)
- ``fifty``: the same for "3 ist 50" (blueprint ``fifty``)
- ``referee``: the rule questions of both games (blueprint ``referee``)
- ``rulebook``: each ruleset explained (blueprint ``rulebook``)
- ``sheets``: the score sheet PDFs and blank pads (blueprint ``sheets``)
- ``tables``: a table of regular players, its games and statistics (blueprint ``tables``)
- ``tournaments``: a club tournament: the director's page, the public standings, the
  projector, the new form and the PDFs (blueprint ``tournaments``)
- ``docs``: the reference pages built from docs/ (blueprint ``docs``)
- ``live``: the event streams the pages watch (blueprint ``live``, ``/api/v1/…/events``)
- ``api``: the JSON API of docs/api.md §3 (blueprints ``api``, ``games_api``, ``parts_api``,
  ``rulebook_api``, ``openapi_api``, ``tables_api``, ``tournaments_api``)
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
from werkzeug.routing import BaseConverter

from .api import games as games_api
from .api import openapi as openapi_api
from .api import parts as parts_api
from .api import rule_search as rulebook_api
from .api import score as score_api
from .api import tables as tables_api
from .api import tournaments as tournaments_api
from .docs import routes as docs
from .fifty import routes as fifty
from .games import routes as games
from .home import routes as home
from .live import routes as live
from .referee import fifty as _referee_fifty  # noqa: F401 -- its routes join the referee's
from .referee import routes as referee
from .rulebook import routes as rulebook
from .rulebook.links import rule_links
from .sheets import routes as sheets
from .tables import routes as tables
from .tournaments import routes as tournaments
from .words.names import (
    canastas_text,
    card_label,
    card_name,
    cards_text,
    points_text,
    rank_name,
    ruleset_title,
    said_totals,
    special_hand_name,
)


class KeyConverter(BaseConverter):
    """A key in an API path: any segment but ``import``, the name of the import beside it
    (``/api/v1/games/import`` then allows POST only, not the key's GET as well)."""

    regex = r"(?!import$)[^/]+"


def register_blueprints(app: Flask) -> None:
    app.url_map.converters["key"] = KeyConverter
    # An area's package imports none of its modules (another area's module may need one of its
    # helpers without its routes, and an import cycle would follow): each blueprint is taken
    # from its area's ``routes``.
    for bp in (
        score_api.bp,
        games_api.bp,
        parts_api.bp,
        rulebook_api.bp,
        openapi_api.bp,
        tables_api.bp,
        tournaments_api.bp,
        home.bp,
        games.bp,
        referee.bp,
        rulebook.bp,
        sheets.bp,
        fifty.bp,
        tables.bp,
        tournaments.bp,
        docs.bp,
        live.bp,
    ):
        app.register_blueprint(bp)
    app.jinja_env.globals.update(
        canastas_text=canastas_text,
        cards_text=cards_text,
        points_text=points_text,
        card_label=card_label,
        card_name=card_name,
        rank_name=rank_name,
        ruleset_title=ruleset_title,
        rule_links=rule_links,
        said_totals=said_totals,
        special_hand_name=special_hand_name,
    )
