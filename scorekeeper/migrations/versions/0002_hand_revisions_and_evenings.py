"""Corrections kept and evenings linked: the table ``hand_revisions`` (a hand as it
was before each correction or deletion) and ``games.previous_id`` (the game a "same players
again" game was started from).

Revision ID: 0002
Revises: 0001
Created: 2026-11-23

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite cannot add a foreign key to an existing table in place.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("previous_id", sa.String(43), nullable=True))
        batch.create_index("ix_games_previous_id", ["previous_id"])
        batch.create_foreign_key(
            "fk_games_previous_id", "games", ["previous_id"], ["id"], ondelete="SET NULL"
        )
    op.create_table(
        "hand_revisions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.String(43), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("teams", sa.JSON(), nullable=False),
        sa.Column("lone_player", sa.Integer(), nullable=True),
        sa.Column("stock_out", sa.Boolean(), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hand_created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_hand_revisions_game_id", "hand_revisions", ["game_id"])


def downgrade() -> None:
    op.drop_table("hand_revisions")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("fk_games_previous_id", type_="foreignkey")
        batch.drop_index("ix_games_previous_id")
        batch.drop_column("previous_id")
