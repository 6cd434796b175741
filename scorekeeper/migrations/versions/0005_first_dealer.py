"""The first dealer of a game: ``games.first_dealer``, the seat (in dealing order) that deals
the first hand. "Same players again" continues the rotation of the game it starts from; games
stored before it start with seat 0, as they always did.

Revision ID: 0005
Revises: 0004
Created: 2026-11-26

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("first_dealer", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("first_dealer")
