"""A person's name once per table whatever its case (``table_players.folded``, the name
casefolded, unique per table), and the trail of merges that can be undone (``table_merges``).

Revision ID: 0009
Revises: 0008
Created: 2026-12-06

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models. Names that differ only in case at one table (two requests
raced before the store locked the table) are told apart first: the later person's name gets a
number (``Ann (2)``), so the index can be made.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _fold_names() -> None:
    """Fill ``folded`` (as ``models.fold`` does: ``str.casefold``, the same on every
    database), numbering a name that another person of the table has in another case."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.text("SELECT id, table_id, name FROM table_players ORDER BY id")
    ).all()
    taken = {(table, name.casefold()) for _id, table, name in rows}
    seen: set[tuple[str, str]] = set()
    for person, table, name in rows:
        if (table, name.casefold()) not in seen:
            seen.add((table, name.casefold()))
            new = name
        else:
            n = 2
            while (table, f"{name[:34]} ({n})".casefold()) in taken:
                n += 1
            new = f"{name[:34]} ({n})"
            taken.add((table, new.casefold()))
            seen.add((table, new.casefold()))
        connection.execute(
            sa.text("UPDATE table_players SET name = :name, folded = :folded WHERE id = :id"),
            {"name": new, "folded": new.casefold()[:80], "id": person},
        )


def upgrade() -> None:
    with op.batch_alter_table("table_players") as batch:
        batch.add_column(sa.Column("folded", sa.String(80), nullable=True))
    _fold_names()
    with op.batch_alter_table("table_players") as batch:
        batch.alter_column("folded", existing_type=sa.String(80), nullable=False)
        batch.create_unique_constraint("uq_table_players_folded", ["table_id", "folded"])
    op.create_table(
        "table_merges",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(43),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("keep_id", sa.Integer(), nullable=False),
        sa.Column("keep_name", sa.String(40), nullable=False),
        sa.Column("gone_id", sa.Integer(), nullable=False),
        sa.Column("gone_name", sa.String(40), nullable=False),
        sa.Column("gone_position", sa.Integer(), nullable=False),
        sa.Column("games", sa.JSON(), nullable=False),
        sa.Column("participants", sa.JSON(), nullable=False),
        sa.Column("table_version", sa.Integer(), nullable=False),
        sa.Column("merged_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_table_merges_table_id", "table_merges", ["table_id"])


def downgrade() -> None:
    op.drop_table("table_merges")
    with op.batch_alter_table("table_players") as batch:
        batch.drop_constraint("uq_table_players_folded", type_="unique")
        batch.drop_column("folded")
