"""Entry receipts: ``entry_receipts``, each ``entry_id`` a game has taken with the hand it
made or corrected, unique per game, so that an entry sent twice (the outbox of a phone that
lost the answer) is stored once.

Revision ID: 0006
Revises: 0005
Created: 2026-11-26

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "entry_receipts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(43),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("entry_id", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("created", sa.Boolean(), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "entry_id", name="uq_entry_receipts_game_entry"),
    )
    op.create_index("ix_entry_receipts_game_id", "entry_receipts", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_entry_receipts_game_id", table_name="entry_receipts")
    op.drop_table("entry_receipts")
