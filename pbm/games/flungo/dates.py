"""A date as a manager writes it in a mail (``AWAY until 12 April``). Pure.

The forms are few and each has one reading: ``2026-04-12``; ``12 April``, ``12th Apr 2026``,
``April 12``, ``April 12, 2026``; a weekday (``Friday``: the next one, never today);
``tomorrow``; ``3 days``, ``2 weeks``, ``10d``. A date written with slashes or dots
(``4/5``) is refused, because half the world reads it as the 4th of May and half as the 5th
of April: a manager who meant the other would be away a month. (A general date parser such as
dateutil's guesses at such dates and at words around them; a mail's date must not be guessed.)
A date without a year is the next such date after today.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

__all__ = ["DATE_FORMS", "parse_date"]

DATE_FORMS = "2026-04-12, 12 April, April 12, Friday, tomorrow, or 2 weeks"

_MONTHS = {
    name: n
    for n, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_DAYS = {
    name: n
    for n, names in enumerate(
        (
            ("monday", "mon"),
            ("tuesday", "tue", "tues"),
            ("wednesday", "wed"),
            ("thursday", "thu", "thur", "thurs"),
            ("friday", "fri"),
            ("saturday", "sat"),
            ("sunday", "sun"),
        )
    )
    for name in names
}
_LEAD = re.compile(r"^(?:until|till|til|to|for|on|back|in)\b\s*", re.IGNORECASE)
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_DAY_MONTH = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+([a-z]+)\.?,?(?:\s+(\d{4}))?$")
_MONTH_DAY = re.compile(r"^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?(?:\s+(\d{4}))?$")
_SPAN = re.compile(r"^(\d{1,3})\s*(d|days?|w|wks?|weeks?)$")


def parse_date(text: str, today: date) -> date:
    """The date ``text`` names, read on ``today``; ``ValueError`` saying why not (every form
    that is read is in :data:`DATE_FORMS`)."""
    words = " ".join(text.split()).strip().rstrip(".!").strip()
    while (m := _LEAD.match(words)) and m.end():
        words = words[m.end() :]
    low = words.lower().removeprefix("next ").strip()
    if not low:
        raise ValueError(f"no date given: write it like {DATE_FORMS}")
    if "/" in low or re.search(r"\d\.\d", low):
        raise ValueError(
            f"{words!r}: a date with slashes or dots reads two ways (4/5 is the 4th of May "
            f"in London and the 5th of April in New York): write it like {DATE_FORMS}"
        )
    if low == "tomorrow":
        return today + timedelta(days=1)
    if low in _DAYS:
        ahead = (_DAYS[low] - today.weekday() - 1) % 7 + 1
        return today + timedelta(days=ahead)
    if m := _SPAN.match(low):
        n = int(m.group(1))
        return today + timedelta(days=n * (7 if m.group(2).startswith("w") else 1))
    if m := _ISO.match(low):
        return _day(int(m.group(1)), int(m.group(2)), int(m.group(3)), words)
    day = month = year = None
    if m := _DAY_MONTH.match(low):
        day, month, year = m.group(1), m.group(2), m.group(3)
    elif m := _MONTH_DAY.match(low):
        month, day, year = m.group(1), m.group(2), m.group(3)
    if day is None or month is None:
        raise ValueError(f"{words!r} is not a date pbm reads: write it like {DATE_FORMS}")
    if month not in _MONTHS:
        raise ValueError(f"{month!r} is not a month: write the date like {DATE_FORMS}")
    if year is not None:
        return _day(int(year), _MONTHS[month], int(day), words)
    found = _day(today.year, _MONTHS[month], int(day), words, leap_ok=True)
    if found <= today:
        found = _day(today.year + 1, _MONTHS[month], int(day), words, leap_ok=True)
    return found


def _day(year: int, month: int, day: int, words: str, *, leap_ok: bool = False) -> date:
    try:
        return date(year, month, day)
    except ValueError as exc:
        if leap_ok and month == 2 and day == 29:  # the next 29 February
            for y in range(year, year + 8):
                try:
                    return date(y, 2, 29)
                except ValueError:
                    continue
        raise ValueError(f"{words!r}: there is no such day ({exc})") from exc
