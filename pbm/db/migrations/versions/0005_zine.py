"""zine delivery preference per player

Revision ID: 0005_zine
Revises: 0003
Create Date: 2026-12-01 10:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_zine"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("zine_delivery", sa.String(length=8), server_default="attach", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("zine_delivery")
