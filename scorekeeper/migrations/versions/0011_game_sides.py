"""Side keys and parts: ``game_sides``, one row per side of a partnership game with the side's
own key and the part it has entered of the hand not yet saved. Every Canasta game with
partnerships (not 3-player cutthroat, not 3 ist 50) gets its keys here.

Revision ID: 0011
Revises: 0010
Created: 2026-12-06

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    sides = op.create_table(
        "game_sides",
        sa.Column("key", sa.String(43), primary_key=True),
        sa.Column(
            "game_id",
            sa.String(43),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=True),
        sa.Column("part", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("entry_id", sa.String(64), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("game_id", "side", name="uq_game_sides_game_side"),
    )
    op.create_index("ix_game_sides_game_id", "game_sides", ["game_id"])
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("ruleset", sa.String),
        sa.column("players", sa.Integer),
        sa.column("sides", sa.JSON),
    )
    connection = op.get_bind()
    rows = []
    for game_id, ruleset, players, game_sides in connection.execute(
        sa.select(games.c.id, games.c.ruleset, games.c.players, games.c.sides)
    ):
        # 3 ist 50 has no partnerships; in 3-player cutthroat they change every hand.
        if ruleset == "three-is-fifty" or players == 3 or not isinstance(game_sides, list):
            continue
        rows += [
            {"key": secrets.token_urlsafe(16), "game_id": game_id, "side": i, "version": 0}
            for i in range(len(game_sides))
        ]
    if rows:
        op.bulk_insert(sides, rows)


def downgrade() -> None:
    op.drop_index("ix_game_sides_game_id", table_name="game_sides")
    op.drop_table("game_sides")
