"""zine pdf: the zine's PDF is attached only for a team whose manager asked (ZINE ATTACH)

The issue's HTML and text come inline; the PDF (most of a turn's mail by weight) only when
asked for, per seat. The player-wide choice of attach or link goes: an issue not attached
links to the archive whenever one is served, so a link is no choice of its own.

Revision ID: 0016_zine_pdf
Revises: 0015_zine_off
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_zine_pdf"
down_revision = "0015_zine_off"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("zine_pdf", sa.Boolean(), server_default="0", nullable=False))
    with op.batch_alter_table("players") as batch:
        batch.drop_column("zine_delivery")


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(
            sa.Column("zine_delivery", sa.String(8), server_default="attach", nullable=False)
        )
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("zine_pdf")
