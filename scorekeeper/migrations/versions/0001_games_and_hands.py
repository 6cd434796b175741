"""The first schema: games and their hands (as create_all made it before migrations).

Revision ID: 0001
Revises:
Created: 2026-11-23

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models on SQLite and PostgreSQL. A database made earlier by
``create_all`` has exactly these tables and is stamped at this revision instead of migrated.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(43), primary_key=True),
        sa.Column("view_id", sa.String(43), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("ruleset", sa.String(20), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("sides", sa.JSON(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_view_id", "games", ["view_id"], unique=True)
    op.create_index("ix_games_updated_at", "games", ["updated_at"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.String(43), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("teams", sa.JSON(), nullable=False),
        sa.Column("lone_player", sa.Integer(), nullable=True),
        sa.Column("stock_out", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "number", name="uq_hands_game_number"),
    )
    op.create_index("ix_hands_game_id", "hands", ["game_id"])


def downgrade() -> None:
    op.drop_table("hands")
    op.drop_table("games")
