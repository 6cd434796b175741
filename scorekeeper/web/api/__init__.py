"""The JSON API (CONTRACT.md §3).

- ``score``: stateless scoring, the referee's questions and the rulesets (the ``api`` blueprint,
  ``/api/v1``)
- ``games``: the stored games (the ``games_api`` blueprint, ``/api/v1/games``); ``fifty``: the
  games of 3 ist 50 behind the same URLs; ``undo``: taking back a deletion
- ``tables``: the tables of regular players (the ``tables_api`` blueprint, ``/api/v1/tables``);
  ``table_json`` their JSON
- ``tournaments``: club tournaments (the ``tournaments_api`` blueprint,
  ``/api/v1/tournaments``), with their JSON
- ``parts``: a hand entered by its sides, each side's part on its own phone (the
  ``parts_api`` blueprint, ``/api/v1/games/<key>/parts``)
- ``serialize``: a stored game as JSON; ``answers``: responses, the request body, problems
"""

from .games import bp as games_bp
from .parts import bp as parts_bp
from .score import bp
from .tables import bp as tables_bp
from .tournaments import bp as tournaments_bp

__all__ = ["bp", "games_bp", "parts_bp", "tables_bp", "tournaments_bp"]
