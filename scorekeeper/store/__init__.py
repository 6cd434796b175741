"""Stored games: SQLAlchemy models and the few functions that change a game."""
