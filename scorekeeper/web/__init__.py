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
- ``docs``: the reference pages built from docs/ (blueprint ``docs``)
- ``live``: the event streams the pages watch (blueprint ``live``, ``/api/v1/…/events``)
- ``api``: the JSON API of docs/api.md §3 (blueprints ``api``, ``games_api``, ``tables_api``,
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
from werkzeug.routing import BaseConverter

from .app import lazy_views
from .rulebook.links import rule_links
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


#: the module of each blueprint, in the order they are registered
AREAS = (
    "scorekeeper.web.api.score",
    "scorekeeper.web.api.games",
    "scorekeeper.web.api.parts",
    "scorekeeper.web.api.rule_search",
    "scorekeeper.web.api.openapi",
    "scorekeeper.web.api.tables",
    "scorekeeper.web.api.tournaments",
    "scorekeeper.web.home.routes",
    "scorekeeper.web.games.routes",
    "scorekeeper.web.referee.routes",
    "scorekeeper.web.rulebook.routes",
    "scorekeeper.web.sheets.routes",
    "scorekeeper.web.fifty.routes",
    "scorekeeper.web.tables.routes",
    "scorekeeper.web.tournaments.routes",
    "scorekeeper.web.docs.routes",
    "scorekeeper.web.live.routes",
)
#: modules whose routes join another module's blueprint
JOINED: dict[str, tuple[str, ...]] = {
    "scorekeeper.web.referee.routes": ("scorekeeper.web.referee.fifty",)
}
#: imported at start: the start page, a server's first answer
EAGER = frozenset({"scorekeeper.web.home.routes"})


def register_blueprints(app: Flask) -> None:
    app.url_map.converters["key"] = KeyConverter
    # An area's package imports none of its modules (another area's module may need one of its
    # helpers without its routes, and an import cycle would follow): each blueprint is taken
    # from its area's ``routes``. The start page's module is imported at start; the others'
    # routes are registered from what the last start kept, their modules imported once the
    # first answer is out (``app/lazy_views.py``).
    lazy_views.register(app, AREAS, JOINED, EAGER, lazy=app.config.get("LAZY_VIEWS"))
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
