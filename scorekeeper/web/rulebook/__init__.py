"""The rule book: every ruleset explained in the reader's language (``/rules/<ruleset>``).

- ``routes``: its URLs (the ``rulebook`` blueprint)
- ``book`` (the items of each section), ``play`` (the rules of play), ``score_tables``
  (the tables of numbers), ``readings`` (where the sources are unclear), ``house_rules``
  (house rules read from a link, also for the referee)
"""
