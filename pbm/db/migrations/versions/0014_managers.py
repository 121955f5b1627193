"""managers: house teams, a manager away until a date, the stages in a row a team sent
nothing for, and the seat offered to an address on the standby list

Revision ID: 0014_managers
Revises: 0013_season_version
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_managers"
down_revision = "0013_season_version"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("house", sa.Boolean(), server_default="0", nullable=False))
        batch.add_column(sa.Column("away_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("missed", sa.Integer(), server_default="0", nullable=False))
    with op.batch_alter_table("standbys") as batch:
        batch.add_column(sa.Column("offered_seat", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("standbys") as batch:
        batch.drop_column("offered_seat")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("missed")
        batch.drop_column("away_until")
        batch.drop_column("house")
