"""The pages of "3 ist 50" (docs/rulebook.md §7, seed 001): a new evening, its page and read-only
view,
entering and correcting one game (a deck), its score sheet.

- ``routes``: every URL of the area (the ``fifty`` blueprint)
- ``entry`` (the entry flow filled in for 3 ist 50), ``forms``
"""
