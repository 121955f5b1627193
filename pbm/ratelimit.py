"""Per-sender rate limit: a counter per address per clock hour, in the database."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from pbm.db.models import RateCounter

__all__ = ["count_mail", "window_start"]


def window_start(now: datetime) -> datetime:
    """The start of the hour ``now`` falls in."""
    return now.replace(minute=0, second=0, microsecond=0)


def count_mail(session: Session, sender: str, now: datetime) -> int:
    """Count one more mail from ``sender`` this hour; returns the count including it."""
    start = window_start(now)
    row = session.get(RateCounter, (sender, start))
    if row is None:
        row = RateCounter(sender=sender, window_start=start, count=0)
        session.add(row)
    row.count += 1
    session.flush()
    return row.count
