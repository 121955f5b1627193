"""Alembic environment: runs against the engine pbm hands over in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from pbm.db.models import Base
from pbm.games import GAMES

for game in GAMES:  # the games' own tables join Base.metadata (Hit for Six's)
    game.register_tables()

config = context.config
db_engine: Engine = config.attributes["db_engine"]

with db_engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=db_engine.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
