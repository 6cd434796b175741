"""Entry receipts remember what the entry said and whether its hand is still there:
``entry_receipts.content`` (a digest of the entry; an ``entry_id`` sent again with other
content is refused, ``entry.reused``) and ``entry_receipts.deleted_at_version`` (the game's
version when the hand the entry made was deleted; a repeat of it says so, ``entry.deleted``).
Receipts kept before have neither: they are answered as repeats, as before.

Revision ID: 0010
Revises: 0009
Created: 2026-12-06

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("entry_receipts") as batch:
        batch.add_column(sa.Column("content", sa.String(64), nullable=True))
        batch.add_column(sa.Column("deleted_at_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("entry_receipts") as batch:
        batch.drop_column("deleted_at_version")
        batch.drop_column("content")
