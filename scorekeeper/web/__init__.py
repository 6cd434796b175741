"""The web layer: one blueprint module per area (flaskr's shape), registered by the app factory.

- ``main``: the start page, the recent-games list, the web app manifest
- ``games``: Canasta's new-game form, game page, read-only view and hand entry
- ``fifty``: the same for "3 ist 50"
- ``referee``: the rule questions (Canasta and 3 ist 50)
- ``rules_pages``: each ruleset explained
- ``sheets``: the score sheet PDFs and blank pads
- ``api`` and ``games_api``: the JSON API of CONTRACT.md §3
"""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    from . import api, fifty, games, games_api, main, referee, rules_pages, sheets
    from .names import (
        canastas_text,
        card_label,
        cards_text,
        points_text,
        rank_name,
        ruleset_title,
        special_hand_name,
    )

    for module in (api, games_api, main, games, referee, rules_pages, sheets, fifty):
        app.register_blueprint(module.bp)
    app.jinja_env.globals.update(
        canastas_text=canastas_text,
        cards_text=cards_text,
        points_text=points_text,
        card_label=card_label,
        rank_name=rank_name,
        ruleset_title=ruleset_title,
        special_hand_name=special_hand_name,
    )
