"""incidents: outages of the doors (IMAP, SMTP relay, database) for the digest and status

Revision ID: 0009_incidents
Revises: 0003_hostile
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_incidents"
down_revision = "0003_hostile"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "incidents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("door", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_incidents")),
    )
    op.create_index(op.f("ix_incidents_first_seen"), "incidents", ["first_seen"])


def downgrade() -> None:
    op.drop_index(op.f("ix_incidents_first_seen"), table_name="incidents")
    op.drop_table("incidents")
