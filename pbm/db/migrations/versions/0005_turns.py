"""turns: competitions run turn by turn (kind, schedule, season), stages, standby list

Revision ID: 0004_turns
Revises: 0005_zine
Create Date: 2026-12-01 09:15:00

Chained behind 0005_zine (which main merged first), so there is one head.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_turns"
down_revision = "0005_zine"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "standbys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("competition_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["competition_id"],
            ["competitions.id"],
            name=op.f("fk_standbys_competition_id_competitions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_standbys")),
        sa.UniqueConstraint(
            "competition_id", "address", name=op.f("uq_standbys_competition_id_address")
        ),
    )
    op.create_table(
        "turns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("competition_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("stage_key", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("selection", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("orders", sa.JSON(), nullable=True),
        sa.Column("seed", sa.String(length=64), nullable=True),
        sa.Column("state_before", sa.Text(), nullable=True),
        sa.Column("state_after", sa.Text(), nullable=True),
        sa.Column("report", sa.Text(), nullable=True),
        sa.Column("issue", sa.Integer(), nullable=True),
        sa.Column("reminders", sa.JSON(), nullable=False),
        sa.Column("skip_check", sa.Boolean(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["competition_id"],
            ["competitions.id"],
            name=op.f("fk_turns_competition_id_competitions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turns")),
        sa.UniqueConstraint(
            "competition_id",
            "position",
            "generation",
            name=op.f("uq_turns_competition_id_position_generation"),
        ),
    )
    op.create_index("ix_turns_status_deadline", "turns", ["status", "deadline"], unique=False)
    op.create_index(
        "ix_turns_competition_status", "turns", ["competition_id", "status"], unique=False
    )
    op.add_column(
        "competitions",
        sa.Column("kind", sa.String(length=16), server_default="league", nullable=False),
    )
    op.add_column("competitions", sa.Column("schedule", sa.String(length=200), nullable=True))
    op.add_column("competitions", sa.Column("settings", sa.JSON(), nullable=True))
    op.add_column("competitions", sa.Column("season", sa.Text(), nullable=True))
    op.add_column(
        "competitions", sa.Column("issue", sa.Integer(), server_default="0", nullable=False)
    )
    op.add_column("competitions", sa.Column("hold_reason", sa.Text(), nullable=True))
    op.add_column("competitions", sa.Column("editorial", sa.Text(), nullable=True))
    op.add_column("players", sa.Column("time_zone", sa.String(length=64), nullable=True))
    op.add_column("seats", sa.Column("retired", sa.Boolean(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("retired")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("time_zone")
    with op.batch_alter_table("competitions") as batch:
        for column in ("editorial", "hold_reason", "issue", "season", "settings", "schedule"):
            batch.drop_column(column)
        batch.drop_column("kind")
    op.drop_index("ix_turns_competition_status", table_name="turns")
    op.drop_index("ix_turns_status_deadline", table_name="turns")
    op.drop_table("turns")
    op.drop_table("standbys")
