"""Live updates: the event streams a page watches (``GET /api/v1/games/<key>/events``, and the
same for a table and a tournament), bounded per client and in all; the ``live`` blueprint and
its ``init_app`` are in routes.py (docs/live-updates.md)."""
