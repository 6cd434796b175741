"""Live updates: the event streams a page watches (``GET /api/v1/games/<key>/events``, and the
same for a table and a tournament), bounded per client and in all; see routes.py and
docs/live-updates.md."""

from .routes import bp, init_app

__all__ = ["bp", "init_app"]
