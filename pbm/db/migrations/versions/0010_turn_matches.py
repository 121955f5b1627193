"""turn matches and workers: a large stage split by match across workers; the workers' registry

Revision ID: 0010_turn_matches
Revises: 0009_incidents
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_turn_matches"
down_revision = "0009_incidents"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("turn_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("fixture_id", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("claimed_by", sa.String(length=128), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("job", sa.Text(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("resolved_by", sa.String(length=128), nullable=True),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["turn_id"], ["turns.id"], name=op.f("fk_turn_matches_turn_id_turns")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turn_matches")),
        sa.UniqueConstraint(
            "turn_id", "fixture_id", name=op.f("uq_turn_matches_turn_id_fixture_id")
        ),
    )
    op.create_index("ix_turn_matches_status_lease_until", "turn_matches", ["status", "lease_until"])
    op.create_index("ix_turn_matches_turn_id_status", "turn_matches", ["turn_id", "status"])
    op.create_table(
        "workers",
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("doing", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_workers")),
    )


def downgrade() -> None:
    op.drop_table("workers")
    op.drop_index("ix_turn_matches_turn_id_status", table_name="turn_matches")
    op.drop_index("ix_turn_matches_status_lease_until", table_name="turn_matches")
    op.drop_table("turn_matches")
