"""Deadlines: a competition's cadence in an IANA time zone, DST-correct. Pure.

A cadence is one of::

    mon,thu 20:00 Europe/London     the next of these weekdays at 20:00 local time
    every 2d 18:00 UTC              the first 18:00 (local) at least 2 days after the last
    every 3m                        3 minutes after the last (also s, h; for demos and tests)
    daily 20:00 America/New_York    as "every 1d"

"The last" is the previous stage's deadline (never the moment the stage happened to run, so a
late pass does not shift the season: :func:`deadline_after`), or the moment the first stage
opens. Days are counted on the local calendar. Local wall
times are kept across a DST change (20:00 London is 20:00 in summer and winter); a wall time
that does not exist that day (the spring gap) moves forward by the gap, one that exists twice
(the autumn fold) is the first. Every datetime returned is aware and in UTC.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

# The deadline for people and the zone by name are the machinery's (every game shows its
# deadlines the same way); re-exported here, where Flungo's modules have always found them.
from pbm.core.dates import format_deadline, zone
from pbm.core.durations import parse_duration

__all__ = [
    "Cadence",
    "Slot",
    "deadline_after",
    "format_deadline",
    "next_deadline",
    "parse_duration",
    "parse_schedule",
    "zone",
]

_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True, slots=True)
class Cadence:
    """A parsed cadence: ``weekdays`` (0 = Monday) at ``at`` in ``tz``; or ``every`` with an
    optional wall time ``at``."""

    text: str
    tz: str = "UTC"
    at: time | None = None
    weekdays: tuple[int, ...] = ()
    every: timedelta | None = None


@lru_cache(maxsize=256)
def parse_schedule(text: str) -> Cadence:
    """Read a cadence (see the module docstring); ``ValueError`` says what is wrong. A pure
    memo (a text reads as the same frozen Cadence in any process): every JOIN and every
    stage's settings read the competition's schedule again, and its time zone with it."""
    words = text.split()
    if not words:
        raise ValueError("an empty schedule: try 'mon,thu 20:00 Europe/London' or 'every 2d'")
    first = words[0].lower()
    every: timedelta | None = None
    weekdays: tuple[int, ...] = ()
    rest = words[1:]
    if first == "every":
        if not rest:
            raise ValueError("'every' needs a duration, like 'every 2d 18:00 UTC'")
        every = parse_duration(rest[0])
        if every <= timedelta(0):
            raise ValueError("the cadence must be longer than nothing")
        rest = rest[1:]
    elif first == "daily":
        every = timedelta(days=1)
    else:
        days = []
        for d in first.split(","):
            if d[:3] not in _DAYS:
                raise ValueError(
                    f"{d!r} is not a weekday: use mon,tue,wed,thu,fri,sat,sun or 'every 2d'"
                )
            days.append(_DAYS.index(d[:3]))
        weekdays = tuple(sorted(set(days)))
    at: time | None = None
    if rest and re.fullmatch(r"\d{1,2}:\d{2}", rest[0]):
        hh, mm = (int(x) for x in rest[0].split(":"))
        if hh > 23 or mm > 59:
            raise ValueError(f"{rest[0]!r} is not a time of day")
        at = time(hh, mm)
        rest = rest[1:]
    tz = "UTC"
    if rest:
        tz = rest[0]
        zone(tz)
        rest = rest[1:]
    if rest:
        raise ValueError(f"unexpected {' '.join(rest)!r} at the end of the schedule")
    if weekdays and at is None:
        raise ValueError("weekdays need a time of day, like 'mon,thu 20:00 Europe/London'")
    if every is not None and at is not None and every < timedelta(days=1):
        raise ValueError("a time of day goes with a cadence of a day or more")
    return Cadence(text=text, tz=tz, at=at, weekdays=weekdays, every=every)


def _local(day: datetime, at: time, tz: ZoneInfo) -> datetime:
    """Wall time ``at`` on ``day``'s date in ``tz``, as UTC (gaps move forward, folds first)."""
    # fold=0: in the autumn fold the first of the two; in the spring gap the offset before
    # the change applies, which lands the wall time just past the gap (moved on by its length).
    return datetime.combine(day.date(), at).replace(tzinfo=tz, fold=0).astimezone(UTC)


def _on_slot(when: datetime, at: time, tz: ZoneInfo) -> datetime | None:
    """The local wall time of ``when`` as the schedule sees it: ``at`` on its local date when
    ``when`` is that day's slot (a slot moved on by the spring gap counts as its own wall time),
    else None."""
    day = when.astimezone(tz)
    if _local(day, at, tz) == when:
        return datetime.combine(day.date(), at)
    return None


def next_deadline(cadence: Cadence | str, after: datetime) -> datetime:
    """The schedule's first slot after ``after``: after a deadline, the next one the schedule
    keeps (``every 2d 20:00`` two local days on, at 20:00 local, whatever the clocks did in
    between); after another moment (when the first stage opens), the first slot the cadence
    allows from then."""
    c = parse_schedule(cadence) if isinstance(cadence, str) else cadence
    after = after.astimezone(UTC)
    tz = zone(c.tz)
    if c.every is not None and c.at is None:
        return after + c.every
    assert c.at is not None
    if c.every is not None:
        # Days are counted on the local calendar: a day across the spring change is 23 hours,
        # and 20:00 is still 20:00.
        start = _on_slot(after, c.at, tz) or after.astimezone(tz).replace(tzinfo=None)
        earliest = start + c.every
        day = earliest.date()
        if datetime.combine(day, c.at) < earliest:
            day += timedelta(days=1)
        return _local(datetime.combine(day, c.at), c.at, tz)
    local = after.astimezone(tz)
    for k in range(15):
        day = local + timedelta(days=k)
        if day.weekday() not in c.weekdays:
            continue
        when = _local(day, c.at, tz)
        if when > after:
            return when
    raise AssertionError("a weekday cadence always has a day within a fortnight")


@dataclass(frozen=True, slots=True)
class Slot:
    """The deadline a stage gets: the schedule's next ``deadline`` after the previous one, and
    the slots it ``skipped`` because they had passed before the stage opened (0 on time)."""

    deadline: datetime
    skipped: int = 0
    missed: datetime | None = None


def deadline_after(cadence: Cadence | str, previous: datetime, now: datetime) -> Slot:
    """The next stage's deadline: the schedule's next slot after ``previous`` (the last
    deadline), however late the stage ran; if that slot has passed by ``now``, the first slot
    still ahead, with how many were ``skipped`` and the first of them (``missed``)."""
    c = parse_schedule(cadence) if isinstance(cadence, str) else cadence
    now = now.astimezone(UTC)
    when = next_deadline(c, previous)
    if when > now:
        return Slot(when)
    missed = when
    if c.every is not None and c.at is None:
        # A fixed interval: count the slots passed instead of walking them.
        passed = (now - when) // c.every + 1
        return Slot(when + passed * c.every, int(passed), missed)
    skipped = 0
    while when <= now:
        when = next_deadline(c, when)
        skipped += 1
    return Slot(when, skipped, missed)
