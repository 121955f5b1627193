"""The scheduler: pure due-job tables, and the daily digest and deadline through the daemon."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from pbm.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.scheduler import CompetitionDates, due_jobs, next_wakeup
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import GM
from tests.pbm.helpers import join

D = datetime(2026, 1, 15, tzinfo=UTC)
C = CompetitionDates("DEMO", D, closed=False)


@pytest.mark.parametrize(
    ("now", "done", "expected"),
    [
        (datetime(2026, 1, 1, 6, 59, tzinfo=UTC), set(), []),
        (datetime(2026, 1, 1, 7, 0, tzinfo=UTC), set(), ["digest:2026-01-01"]),
        (datetime(2026, 1, 1, 8, 0, tzinfo=UTC), {"digest:2026-01-01"}, []),
        (datetime(2026, 1, 15, 0, 0, tzinfo=UTC), {"digest:2026-01-14"}, ["naming-deadline:DEMO"]),
        (
            datetime(2026, 1, 15, 7, 0, tzinfo=UTC),
            set(),
            ["naming-deadline:DEMO", "digest:2026-01-15"],
        ),
        (datetime(2026, 1, 16, 1, 0, tzinfo=UTC), {"naming-deadline:DEMO"}, []),
    ],
)
def test_due_jobs(now: datetime, done: set[str], expected: list[str]) -> None:
    """Deadlines fall due once, at or after the deadline; the digest once a day after its hour."""
    assert [j.key for j in due_jobs(now, 7, [C], done)] == expected


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (datetime(2026, 1, 1, 6, 0, tzinfo=UTC), datetime(2026, 1, 1, 7, 0, tzinfo=UTC)),
        (datetime(2026, 1, 1, 8, 0, tzinfo=UTC), datetime(2026, 1, 2, 7, 0, tzinfo=UTC)),
        (datetime(2026, 1, 14, 23, 0, tzinfo=UTC), D),
    ],
)
def test_next_wakeup(now: datetime, expected: datetime) -> None:
    """The next wake-up is the earliest of the next digest and the next deadline."""
    assert next_wakeup(now, 7, [C]) == expected


def test_daily_digest_is_sent_once(
    daemon: Daemon, sender: RecordingSender, demo: str, clock: FixedClock
) -> None:
    """At the digest hour the GM gets one digest listing joins and unnamed teams; not twice."""
    join(daemon, sender, "player1@example.test")
    clock.set(datetime(2026, 1, 1, 23, 30, tzinfo=UTC))
    daemon.run_once()
    daemon.run_once()
    [digest] = sender.to(GM)
    body = body_of(digest)
    assert "[DEMO] Demo Cup: 1/4 teams" in body
    assert "team 1: player1@example.test" in body
    assert 'team 1 "Team 1": player1@example.test' in body


def test_naming_deadline_closes_competition(
    daemon: Daemon, sender: RecordingSender, demo: str, clock: FixedClock
) -> None:
    """Passing the naming deadline closes the competition and tells the GM."""
    clock.set(datetime(2026, 1, 15, 0, 1, tzinfo=UTC))
    daemon.run_once()
    with transaction(daemon.app.sessions) as s:
        assert s.scalars(select(Competition)).one().status == "closed"
    assert any("naming deadline" in body_of(m) for m in sender.to(GM))
