"""Blueprints: api, main (start page), and the areas added by later work."""

from __future__ import annotations

from importlib import import_module

from flask import Flask

# Module names under scorekeeper.web whose ``bp`` is registered when the module exists.
BLUEPRINTS = ("api", "games_api", "main", "games", "referee", "rules_pages", "sheets",
               "fifty")


def register_blueprints(app: Flask) -> None:
    for name in BLUEPRINTS:
        try:
            module = import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"{__name__}.{name}":
                continue
            raise
        app.register_blueprint(module.bp)
    endpoints = frozenset(app.view_functions)
    app.jinja_env.globals["url_rules"] = endpoints
    from .messages import canastas_text, card_label, cards_text, points_text, rank_name

    app.jinja_env.globals.update(canastas_text=canastas_text, cards_text=cards_text,
                                 points_text=points_text, card_label=card_label,
                                 rank_name=rank_name)
