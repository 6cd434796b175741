"""The tournament sheets as PDF, drawn from the read model
:class:`~scorekeeper.tournaments.model.TournamentView` with every word given by the web layer
(:class:`~scorekeeper.sheets.tournament_model.TournamentLabels`):

- :mod:`.round_sheet`: a round's seating list, who sits where, and the table cards with their
  QR codes (:func:`render_round`);
- :mod:`.standings_sheet`: the standings or the final results (:func:`render_standings`);
- :mod:`.common`: what both share (styles, a page's heading, a grid's lines).

The web layer calls :func:`render_round` and :func:`render_standings` from here.
"""

from __future__ import annotations

from ..tournament_model import TournamentLabels
from .round_sheet import render_round, seat_order
from .standings_sheet import render_standings

__all__ = ["TournamentLabels", "render_round", "render_standings", "seat_order"]
