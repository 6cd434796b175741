"""Scores kept beside the entry: ``hands.scored``, what the rules engine made of a
hand when it was saved, tagged with the engine's fingerprint. Nullable: hands saved before it,
or by another engine, are scored again when read.

Revision ID: 0003
Revises: 0002
Created: 2026-11-23

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("scored", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("scored")
