"""hostile mail: sealed inbound copies, soft bounce counts, bounce kind and message

Revision ID: 0003_hostile
Revises: 0004_turns
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_hostile"
down_revision = "0004_turns"  # the chain: 0003, 0005_zine, 0004_turns, then this
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_mail") as batch:
        batch.add_column(sa.Column("sealed", sa.LargeBinary(), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(
            sa.Column("soft_bounces", sa.Integer(), server_default="0", nullable=False)
        )
    with op.batch_alter_table("bounces") as batch:
        batch.add_column(sa.Column("kind", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("outbox_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            batch.f("fk_bounces_outbox_id_outbox"), "outbox", ["outbox_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("bounces") as batch:
        batch.drop_constraint(batch.f("fk_bounces_outbox_id_outbox"), type_="foreignkey")
        batch.drop_column("outbox_id")
        batch.drop_column("kind")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("soft_bounces")
    with op.batch_alter_table("inbound_mail") as batch:
        batch.drop_column("sealed")
