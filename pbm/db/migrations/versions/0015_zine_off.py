"""zine off: a team's manager may unsubscribe from the zine (ZINE OFF, List-Unsubscribe)

Revision ID: 0015_zine_off
Revises: 0014_managers
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_zine_off"
down_revision = "0014_managers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("zine", sa.Boolean(), server_default="1", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("zine")
