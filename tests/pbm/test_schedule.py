"""Deadlines: cadences in IANA zones, DST-correct, and the pure rules of when a stage runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbm.core.config import TurnsConfig
from pbm.core.dates import format_deadline
from pbm.db.models import Competition
from pbm.games.flungo.schedule import next_deadline, parse_duration, parse_schedule
from pbm.games.flungo.turns import hold_reason, is_due, reminders_due, settings_for


def utc(*a: int) -> datetime:
    """An aware UTC datetime."""
    return datetime(*a, tzinfo=UTC)


@pytest.mark.parametrize(
    ("cadence", "after", "want"),
    [
        # 20:00 London is 20:00 GMT in winter, 19:00 UTC in summer (BST).
        ("mon,thu 20:00 Europe/London", utc(2026, 3, 23, 12), utc(2026, 3, 23, 20)),
        ("mon,thu 20:00 Europe/London", utc(2026, 3, 26, 21), utc(2026, 3, 30, 19)),
        ("mon,thu 20:00 Europe/London", utc(2026, 10, 22, 21), utc(2026, 10, 26, 20)),
        ("every 2d 18:00 UTC", utc(2026, 3, 2, 18), utc(2026, 3, 4, 18)),
        ("every 2d 18:00 UTC", utc(2026, 3, 2, 10), utc(2026, 3, 4, 18)),
        ("every 3m", utc(2026, 3, 2, 18), utc(2026, 3, 2, 18, 3)),
        ("daily 20:00 America/New_York", utc(2026, 3, 7, 12), utc(2026, 3, 9, 0)),
        # 01:30 does not exist in London on 29 March 2026: it moves on by the gap (02:30 BST).
        ("daily 01:30 Europe/London", utc(2026, 3, 28, 1, 30), utc(2026, 3, 29, 1, 30)),
        # 01:30 exists twice on 25 October 2026: the first (BST) is taken.
        ("daily 01:30 Europe/London", utc(2026, 10, 24, 0, 30), utc(2026, 10, 25, 0, 30)),
    ],
)
def test_next_deadline(cadence: str, after: datetime, want: datetime) -> None:
    """Each cadence gives the expected next deadline, across DST changes."""
    assert next_deadline(cadence, after) == want


@pytest.mark.parametrize(
    "bad",
    ["", "every", "every 0m", "mon 25:00 UTC", "funday 20:00", "mon", "every 2d 18:00 Mars/Base"],
)
def test_bad_schedules_say_why(bad: str) -> None:
    """A cadence that cannot be read raises ValueError with a reason."""
    with pytest.raises(ValueError, match=r".+"):
        parse_schedule(bad)


def test_durations_and_the_players_zone() -> None:
    """Durations read in s/m/h/d/w; a deadline shows the player's own zone beside UTC."""
    assert parse_duration("90s") == timedelta(seconds=90)
    assert parse_duration("2h") == timedelta(hours=2)
    text = format_deadline(utc(2026, 7, 1, 19), "Europe/Paris")
    assert text == "Wednesday 1 July 2026, 21:00 CEST (19:00 UTC)"
    assert format_deadline(utc(2026, 12, 3, 20)) == "Thursday 3 December 2026, 20:00 UTC"
    late = format_deadline(utc(2026, 12, 3, 20), "Asia/Kolkata")
    assert late == "Friday 4 December 2026, 01:30 IST (20:00 UTC Thursday 3 December 2026)"


def _settings(**over: object) -> object:
    comp = Competition(schedule="every 1h", settings=over)
    return settings_for(comp, TurnsConfig())


def test_due_at_deadline_plus_grace_or_early_when_all_in() -> None:
    """A stage runs at its deadline plus grace, or early once all orders are in and the delay
    for second thoughts has passed."""
    s = _settings(grace=600, early=300)
    dl = utc(2026, 1, 1, 20)
    assert not is_due(dl, s, dl, None)  # type: ignore[arg-type]
    assert is_due(dl, s, dl + timedelta(minutes=10), None)  # type: ignore[arg-type]
    early = dl - timedelta(hours=2)
    assert not is_due(dl, s, early + timedelta(minutes=4), early)  # type: ignore[arg-type]
    assert is_due(dl, s, early + timedelta(minutes=5), early)  # type: ignore[arg-type]


def test_reminders_at_offsets_and_skipped_when_too_late() -> None:
    """A reminder goes once at its offset; one already past when the stage opened is skipped."""
    s = _settings(reminders=[86400, 3600])
    opened, dl = utc(2026, 1, 1, 0), utc(2026, 1, 1, 20)
    remind, skip = reminders_due(opened, dl, s, utc(2026, 1, 1, 19, 0), [])  # type: ignore[arg-type]
    assert (remind, skip) == ([3600.0], [86400.0])
    assert reminders_due(opened, dl, s, utc(2026, 1, 1, 19, 5), [3600.0, 86400.0]) == ([], [])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("teams", "sent", "dead", "share", "held"),
    [(4, 1, 0, 0.5, True), (4, 2, 0, 0.5, False), (4, 4, 1, 0.5, True), (4, 0, 0, 1.0, False)],
)
def test_pre_run_check(teams: int, sent: int, dead: int, share: float, held: bool) -> None:
    """The stage is held when too many teams sent nothing or mail failed to be handled."""
    s = _settings(hold_share=share)
    assert (hold_reason(teams, sent, dead, s, False) is not None) is held  # type: ignore[arg-type]
    assert hold_reason(teams, sent, dead, s, True) is None  # type: ignore[arg-type]
