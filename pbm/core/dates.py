"""Dates for people: an IANA zone by name, and a deadline written as a reader reads it.

Every game shows its deadlines through :func:`format_deadline`, so a reader who set a zone
(the ZONE command) sees each one in it, with UTC beside it, whatever game sent the mail.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["format_deadline", "zone"]


def zone(name: str) -> ZoneInfo:
    """The IANA zone ``name``; ``ValueError`` if unknown."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"{name!r} is not an IANA time zone (like Europe/London)") from exc


def format_deadline(when: datetime, tz_name: str | None = None) -> str:
    """A deadline as people write it: ``Thursday 3 December 2026, 20:00 UTC``; in the reader's
    zone ``tz_name`` when known, with UTC beside it where they differ:
    ``Sunday 29 March 2026, 20:00 BST (19:00 UTC)``. A zone that is no longer known (a name
    stored before the zone database dropped it) falls back to UTC rather than fail a mail."""
    at = when.astimezone(UTC)
    if tz_name:
        try:
            local = when.astimezone(zone(tz_name))
        except ValueError:
            local = at
        if local.utcoffset() != at.utcoffset() or tz_name != "UTC":
            text = f"{_day(local)}, {local:%H:%M} {local.tzname()}"
            if local.utcoffset() != at.utcoffset():
                text += f" ({at:%H:%M} UTC" + (
                    ")" if local.date() == at.date() else f" {_day(at)})"
                )
            return text
    return f"{_day(at)}, {at:%H:%M} UTC"


def _day(when: datetime) -> str:
    # %-d is not portable: the day without its leading zero, by hand.
    return f"{when:%A} {when.day} {when:%B} {when.year}"
