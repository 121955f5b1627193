"""Time, injected. Nothing else in pbm reads the wall clock: services take a :class:`Clock`.

All datetimes are aware and in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Clock", "FixedClock", "SystemClock", "utc"]


def utc(dt: datetime) -> datetime:
    """The instant ``dt`` names, in UTC: for a time handed in (the database's columns are
    typed aware UTC already, :mod:`pbm.core.types`). A naive ``dt`` names no instant and is
    refused (``ValueError``); a time typed without a zone is read by ``parse_utc``."""
    if dt.tzinfo is None or dt.utcoffset() is None:
        raise ValueError(f"a naive datetime names no instant: {dt!r}")
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
