"""Persistence: typed SQLAlchemy 2 models, the engine factory and Alembic migrations.

The database knows nothing of mail or rendering; the services wire them together.
"""

from pbm.db.models import (
    Base,
    Bounce,
    Competition,
    Event,
    InboundMail,
    JobRun,
    NamingVersion,
    OutboxMessage,
    Player,
    RateCounter,
    Seat,
)
from pbm.db.session import make_db_engine, make_session_factory

__all__ = [
    "Base",
    "Bounce",
    "Competition",
    "Event",
    "InboundMail",
    "JobRun",
    "NamingVersion",
    "OutboxMessage",
    "Player",
    "RateCounter",
    "Seat",
    "make_db_engine",
    "make_session_factory",
]
