"""The dates a manager writes (AWAY until ...): each form read one way, ambiguous ones refused."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.games.flungo.dates import parse_date

TODAY = date(2026, 3, 1)  # a Sunday


@given(
    st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 12, 31)), st.sampled_from(range(6))
)
def test_a_date_with_its_year_reads_back(day: date, form: int) -> None:
    """Every date written in one of the forms with a year reads as that date."""
    text = [
        day.isoformat(),
        f"{day.day} {day:%B %Y}",
        f"{day.day}th {day:%b} {day.year}",
        f"{day:%B} {day.day}, {day.year}",
        f"until {day.day} {day:%B} {day.year}",
        f"till {day:%b}. {day.day} {day.year}",
    ][form]
    assert parse_date(text, TODAY) == day


@given(st.dates(min_value=date(2026, 3, 2), max_value=date(2027, 3, 1)))
def test_a_date_without_a_year_is_the_next_one(day: date) -> None:
    """A day and month without a year is the next such date after today."""
    assert parse_date(f"{day.day} {day:%B}", TODAY) == day
    assert parse_date(f"{day:%B} {day.day}", TODAY) == day


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Friday", date(2026, 3, 6)),
        ("next friday", date(2026, 3, 6)),
        ("Sunday", date(2026, 3, 8)),  # today is Sunday: the next one
        ("tomorrow", date(2026, 3, 2)),
        ("2 weeks", date(2026, 3, 15)),
        ("for 10 days", date(2026, 3, 11)),
        ("3d", date(2026, 3, 4)),
        ("1 March", date(2027, 3, 1)),  # today: the next one
    ],
)
def test_words_for_days(text: str, expected: date) -> None:
    """Weekdays, tomorrow and spans of days or weeks count from today."""
    assert parse_date(text, TODAY) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("4/5", "reads two ways"),
        ("04.05.2026", "reads two ways"),
        ("", "no date given"),
        ("soon", "is not a date pbm reads"),
        ("12 Smarch", "is not a month"),
        ("30 February 2026", "no such day"),
    ],
)
def test_dates_refused(text: str, says: str) -> None:
    """A date that reads two ways, or none, is refused with the reason."""
    with pytest.raises(ValueError, match=says):
        parse_date(text, TODAY)


def test_29_february_without_a_year_is_the_next_leap_day() -> None:
    """29 February without a year is the next 29 February there is."""
    assert parse_date("29 February", TODAY) == date(2028, 2, 29)
    assert parse_date("29 Feb", TODAY) - TODAY > timedelta(days=365)
