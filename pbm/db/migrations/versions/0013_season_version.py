"""competitions.season_version: raised with each write of the season, so a reader can tell
its copy is current without loading the whole text

Revision ID: 0013_season_version
Revises: 0012_turn_mail
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_season_version"
down_revision = "0012_turn_mail"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "competitions",
        sa.Column("season_version", sa.Integer(), server_default="0", nullable=False),
    )


def downgrade() -> None:
    with op.batch_alter_table("competitions") as batch:
        batch.drop_column("season_version")
