"""A game's summary: ``games.summary``, what the next save needs of the derived sheet
(hand count and column totals), tagged with the engine's fingerprint and the game's version and
``updated_at``. Nullable: games saved before it, or changed since by anything but a new hand,
are derived from their hands as before.

Revision ID: 0004
Revises: 0003
Created: 2026-11-23

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("summary", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("summary")
