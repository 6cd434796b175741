"""The JSON API (docs/api.md §3). Each module below holds its own blueprint; scorekeeper.web
registers them. This file imports none of them: a module that only needs ``answers`` (the app's
error handlers do) must not pull every route of the API in with it.

- ``rule_search``: a dispute asked in words (the ``rulebook_api`` blueprint,
  ``/api/v1/rules/search``; docs/rules.md)
- ``score``: stateless scoring, the referee's questions and the rulesets (the ``api`` blueprint,
  ``/api/v1``)
- ``parts``: a hand entered by its sides (the ``parts_api`` blueprint,
  ``/api/v1/games/<key>/parts``; docs/parts.md)
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
