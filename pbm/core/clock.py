"""Time, injected. Nothing else in pbm reads the wall clock: services take a :class:`Clock`.

All datetimes are aware and in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Clock", "FixedClock", "SystemClock", "utc"]


def utc(dt: datetime) -> datetime:
    """``dt`` as an aware UTC datetime; naive values (SQLite hands them back) are taken as UTC."""
    if dt.tzinfo is None:
        return dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC)


class Clock(Protocol):
    """Something that tells the time."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        return datetime.now(UTC)


class FixedClock:
    """A clock that stands still until told to move (tests, replays)."""

    def __init__(self, at: datetime | None = None) -> None:
        self._now = utc(at) if at is not None else datetime(2026, 1, 1, 9, 0, tzinfo=UTC)

    def now(self) -> datetime:
        """The time it was set to."""
        return self._now

    def advance(self, delta: timedelta | float) -> datetime:
        """Move forward by ``delta`` (a timedelta or seconds); returns the new time."""
        self._now += delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        return self._now

    def set(self, at: datetime) -> None:
        """Jump to ``at``."""
        self._now = utc(at)
