"""The scheduler: pure due-job tables, and the daily digest and deadline through the daemon."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.games import Job
from pbm.games.flungo.jobs import CompetitionDates, naming_due, naming_wake
from pbm.scheduler import digest_due, digest_wake
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import GM, make_config
from tests.pbm.helpers import join

D = datetime(2026, 1, 15, tzinfo=UTC)
C = CompetitionDates("DEMO", D, closed=False)


def due_jobs(
    now: datetime, hour: int | None, comps: list[CompetitionDates], done: set[str]
) -> list[Job]:
    """Flungo's deadlines, then the digest, as the scheduler asks them, less those done."""
    jobs: list[Job] = [*naming_due(now, comps), *digest_due(now, hour)]
    return [j for j in jobs if j.key not in done]


def next_wakeup(now: datetime, hour: int | None, comps: list[CompetitionDates]) -> datetime:
    """The earlier of the digest's and the deadlines' next moments."""
    return min(t for t in (digest_wake(now, hour), naming_wake(now, comps)) if t is not None)


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


def test_with_the_daily_digest_off_none_is_due_and_none_wakes_the_loop() -> None:
    """``daily_digest = false`` (digest hour None): no digest falls due at any hour, the
    deadline still does, and the loop's next wake-up is the deadline or a day on."""
    for hour in range(24):
        now = datetime(2026, 1, 15, hour, 30, tzinfo=UTC)
        assert [j.key for j in due_jobs(now, None, [C], set())] == ["naming-deadline:DEMO"]
    assert next_wakeup(datetime(2026, 1, 14, 23, 0, tzinfo=UTC), None, [C]) == D
    later = datetime(2026, 1, 16, 9, 0, tzinfo=UTC)
    assert next_wakeup(later, None, [C]) == datetime(2026, 1, 17, 9, 0, tzinfo=UTC)


def test_a_daemon_with_the_daily_digest_off_sends_none(
    app_db_url: str, tmp_path: Path, sender: RecordingSender, clock: FixedClock
) -> None:
    """The setting is read from the config, and the daemon then sends no digest late in the
    day, when one set at any hour would be due; the GM can still ask for one."""
    config = make_config(app_db_url, tmp_path, scheduler={"daily_digest": False})
    assert (
        config.scheduler.digest_at is None
        and make_config(app_db_url, tmp_path).scheduler.digest_at == 23
    )
    app = App.from_config(config, clock, upgrade=True)
    try:
        daemon = Daemon(app, sender)
        clock.set(datetime(2026, 1, 1, 23, 59, tzinfo=UTC))
        daemon.run_once()
        assert sender.to(GM) == []
    finally:
        app.close()


def test_naming_deadline_closes_competition(
    daemon: Daemon, sender: RecordingSender, demo: str, clock: FixedClock
) -> None:
    """Passing the naming deadline closes the competition and tells the GM."""
    clock.set(datetime(2026, 1, 15, 0, 1, tzinfo=UTC))
    daemon.run_once()
    with transaction(daemon.app.sessions) as s:
        assert s.scalars(select(Competition)).one().status == "closed"
    assert any("naming deadline" in body_of(m) for m in sender.to(GM))
