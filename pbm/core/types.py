"""Typed time: every datetime pbm stores goes in as aware UTC and comes out as aware UTC.

SQLite has no time zones: SQLAlchemy writes a datetime's wall time and hands back a naive
one. PostgreSQL's ``timestamptz`` keeps the instant and hands it back in the session's zone.
:class:`UtcDateTime` makes both the same from the caller's side: it refuses a naive
datetime (whose instant nobody knows), writes the instant as UTC (naive UTC wall time on
SQLite, as pbm always stored it, so no migration), and reads back aware UTC on both.

:func:`parse_utc` is the one place where a time typed by a person without a zone (the GM's
``YYYY-MM-DDTHH:MM``) is read, and there it means UTC, as the GM's guide says.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

__all__ = ["NaiveDatetimeError", "UtcDateTime", "parse_utc"]


class NaiveDatetimeError(ValueError):
    """A naive datetime was given where an instant is stored: its zone is unknown."""


class UtcDateTime(TypeDecorator[datetime]):
    """A ``timestamptz`` (PostgreSQL) or naive UTC text (SQLite), aware UTC in Python."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """``value`` as the instant in UTC; naive values are refused."""
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise NaiveDatetimeError(f"a naive datetime cannot be stored: {value!r}")
        value = value.astimezone(UTC)
        # SQLite's DATETIME writes the wall time and drops the zone: give it UTC's.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """The stored instant, aware, in UTC (SQLite's naive values are UTC by the above)."""
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def parse_utc(text: str) -> datetime:
    """``YYYY-MM-DD[THH:MM[:SS]][±HH:MM|Z]`` as an aware UTC datetime: a time typed without
    a zone is UTC. ``ValueError`` if ``text`` is no such time."""
    when = datetime.fromisoformat(text.strip())
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)
