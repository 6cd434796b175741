"""Tables: a group of regular players (``tables``), its people (``table_players``) and the
games it played (``table_games``, one row per game naming the person behind each name).

Revision ID: 0007
Revises: 0006
Created: 2026-11-26

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(43), primary_key=True),
        sa.Column("view_id", sa.String(43), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tables_view_id", "tables", ["view_id"], unique=True)
    op.create_table(
        "table_players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(43),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.UniqueConstraint("table_id", "name", name="uq_table_players_name"),
    )
    op.create_index("ix_table_players_table_id", "table_players", ["table_id"])
    op.create_table(
        "table_games",
        sa.Column(
            "game_id",
            sa.String(43),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "table_id",
            sa.String(43),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("players", sa.JSON(), nullable=False),
    )
    op.create_index("ix_table_games_table_id", "table_games", ["table_id"])


def downgrade() -> None:
    op.drop_table("table_games")
    op.drop_table("table_players")
    op.drop_table("tables")
