"""Alembic environment: runs against the engine pbm hands over in ``config.attributes``."""

from __future__ import annotations

import warnings
from typing import Any

from alembic import context
from sqlalchemy import Engine

from pbm.db.models import Base
from pbm.games import GAMES

for game in GAMES:  # the games' own tables join Base.metadata (Hit for Six's)
    game.register_tables()

config = context.config
db_engine: Engine = config.attributes["db_engine"]

#: Indexes on an expression: SQLAlchemy cannot reflect them from SQLite (it warns and skips
#: them) and PostgreSQL gives their expression back in its own spelling, so ``alembic check``
#: leaves them out; ``tests/pbm/test_db.py`` checks each is there and used.
EXPRESSION_INDEXES = frozenset({"ix_players_address_lower"})


def _compared(obj: Any, name: str | None, kind: str, reflected: bool, other: Any) -> bool:
    return not (kind == "index" and name in EXPRESSION_INDEXES)


for index in EXPRESSION_INDEXES:  # both say what the docstring above says, once a check
    warnings.filterwarnings(
        "ignore", message=f"Skipped unsupported reflection of expression-based index {index}"
    )
    warnings.filterwarnings(
        "ignore",
        message=f"autogenerate skipping metadata-specified expression-based index '{index}'",
    )

with db_engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=db_engine.dialect.name == "sqlite",
        compare_type=True,
        include_object=_compared,
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
