"""Club tournaments: the tournament (``tournaments``), its participants
(``tournament_participants``), its rounds (``tournament_rounds``) and the game of each table of
a round (``tournament_games``).

Revision ID: 0008
Revises: 0007
Created: 2026-11-26

Written by hand from scorekeeper/store/models.py; tests/store/test_migrations.py compares the
migrated database with the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(43), primary_key=True),
        sa.Column("view_id", sa.String(43), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("ruleset", sa.String(20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(12), nullable=False),
        sa.Column("scoring", sa.String(16), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("round_end", sa.String(10), nullable=False),
        sa.Column("round_end_value", sa.Integer(), nullable=False),
        sa.Column("odd", sa.String(10), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column(
            "table_id",
            sa.String(43),
            sa.ForeignKey("tables.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournaments_view_id", "tournaments", ["view_id"], unique=True)
    op.create_index("ix_tournaments_table_id", "tournaments", ["table_id"])
    op.create_table(
        "tournament_participants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(43),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("absent", sa.Boolean(), nullable=False),
        sa.Column(
            "table_player_id",
            sa.Integer(),
            sa.ForeignKey("table_players.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.UniqueConstraint("tournament_id", "number", name="uq_tournament_participants_number"),
    )
    op.create_index(
        "ix_tournament_participants_tournament_id", "tournament_participants", ["tournament_id"]
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(43),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("seating", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ending_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("tournament_id", "number", name="uq_tournament_rounds_number"),
    )
    op.create_index("ix_tournament_rounds_tournament_id", "tournament_rounds", ["tournament_id"])
    op.create_table(
        "tournament_games",
        sa.Column(
            "game_id",
            sa.String(43),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("table", sa.Integer(), nullable=False),
    )
    op.create_index("ix_tournament_games_round_id", "tournament_games", ["round_id"])


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_participants")
    op.drop_table("tournaments")
