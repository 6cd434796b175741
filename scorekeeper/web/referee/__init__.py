"""The referee: rule questions answered live (``/referee``) and "What may I play?" of 3 ist 50
(``/fifty/referee``).

- ``routes``: the Canasta referee's URLs; ``fifty``: the 3 ist 50 referee's (both on the
  ``referee`` blueprint, defined in ``routes``)
- ``forms`` (reading the questions), ``moves`` ("What may I do?")
"""
