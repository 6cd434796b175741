"""The JSON API (CONTRACT.md §3).

- ``score``: stateless scoring, the referee's questions and the rulesets (the ``api`` blueprint,
  ``/api/v1``)
- ``games``: the stored games (the ``games_api`` blueprint, ``/api/v1/games``); ``fifty``: the
  games of 3 ist 50 behind the same URLs; ``undo``: taking back a deletion
- ``tables``: the tables of regular players (the ``tables_api`` blueprint, ``/api/v1/tables``);
  ``table_json`` their JSON
- ``tournaments``: club tournaments (the ``tournaments_api`` blueprint,
  ``/api/v1/tournaments``), with their JSON
- ``serialize``: a stored game as JSON; ``answers``: responses, the request body, problems
"""

from . import rule_search as rule_search  # noqa: F401  (its route joins the api blueprint)
from .games import bp as games_bp
from .score import bp
from .tables import bp as tables_bp
from .tournaments import bp as tournaments_bp

__all__ = ["bp", "games_bp", "tables_bp", "tournaments_bp"]
