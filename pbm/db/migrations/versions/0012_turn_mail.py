"""turn mails: an assembled split stage's report mails, in batches any worker may queue

Revision ID: 0012_turn_mail
Revises: 0010_turn_matches
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_turn_mail"
down_revision = "0010_turn_matches"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_mails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("turn_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("claimed_by", sa.String(length=128), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("mails", sa.Text(), nullable=False),
        sa.Column("queued_by", sa.String(length=128), nullable=True),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["turn_id"], ["turns.id"], name=op.f("fk_turn_mails_turn_id_turns")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turn_mails")),
        sa.UniqueConstraint("turn_id", "seq", name=op.f("uq_turn_mails_turn_id_seq")),
    )
    op.create_index("ix_turn_mails_status_lease_until", "turn_mails", ["status", "lease_until"])


def downgrade() -> None:
    op.drop_index("ix_turn_mails_status_lease_until", table_name="turn_mails")
    op.drop_table("turn_mails")
