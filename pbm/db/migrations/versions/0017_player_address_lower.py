"""player address lower: an index on lower(address), the form HELP looks a sender up by

Flungo's ``plays`` and the zine's delivery choice compare ``lower(players.address)``, which
the unique index on the address as written cannot serve: each HELP scanned the players.

Revision ID: 0017_player_address_lower
Revises: 0016_zine_pdf
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_player_address_lower"
down_revision = "0016_zine_pdf"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_players_address_lower", "players", [sa.text("lower(address)")])


def downgrade() -> None:
    op.drop_index("ix_players_address_lower", table_name="players")
