"""Canasta's pages: a new game, the game page and its read-only view, entering and correcting a
hand with its live preview, statistics and chart, backups (JSON, CSV, import).

- ``routes``: every URL of the area (the ``games`` blueprint)
- ``entry`` (the entry flow filled in for Canasta), ``hand_form``, ``preview``, ``new_game``
- ``board`` (what the game page shows), ``stats``, ``chart``, ``adjustments``, ``backup``
"""
