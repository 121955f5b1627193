"""A season on a clock that runs late, as a daemon's passes do: every stage runs 30 s after its
deadline, across the spring change, and every deadline stays on the schedule; a stage that
runs days late takes the first slot still ahead, and the GM's digest says which it missed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import make_config
from tests.pbm.season import GM, MINI_TEAMS, Season, StoreDoor, is_zine, new_competition

LONDON = ZoneInfo("Europe/London")
SETTINGS = {
    "naming_after_full": 600,
    "early": 10**6,  # no stage runs early: each waits for its deadline and the late pass
    "reminders": [],
    "hold_share": 1.0,
}


@pytest.fixture
def season(tmp_path: Path) -> Iterator[Season]:
    """A mini-tournament on ``daily 20:00 Europe/London``, joined and drawn on 24 March 2026
    (the clocks go forward on Sunday 29 March)."""
    clock = FixedClock(datetime(2026, 3, 24, 9, 0, tzinfo=UTC))
    app = App.from_config(
        make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), clock, upgrade=True
    )
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    s = Season(daemon, StoreDoor(daemon, sender), clock, "LATE")
    new_competition(
        daemon,
        clock,
        code="LATE",
        kind="mini",
        teams=4,
        settings=SETTINGS,
        schedule="daily 20:00 Europe/London",
    )
    for address, team, prefix in MINI_TEAMS:
        s.join(address, team, prefix)
    clock.advance(timedelta(minutes=10))
    s.pump()  # the draw: round 1's selection opens
    try:
        yield s
    finally:
        app.close()


def _local(when: datetime) -> tuple[date, time]:
    here = when.astimezone(LONDON)
    return here.date(), here.time()


@pytest.mark.slow
def test_every_stage_30_seconds_late_keeps_the_daily_slot_across_the_spring_change(
    season: Season,
) -> None:
    """Each stage runs 30 s after its deadline, the daemon's usual case. The deadlines are
    20:00 London time on consecutive days, Sunday 29 March (20:00 BST, 19:00 UTC) included,
    from the first stage to the final; each report names the next one, and no digest says a
    slot was missed."""
    deadlines = []
    while season.show()["turn"] is not None:
        deadlines.append(season.deadline())
        season.clock.set(season.deadline() + timedelta(seconds=30))
        mail = season.pump()
        digests = [m for m in mail if str(m["To"]) == GM and "Digest" in str(m["Subject"])]
        assert len(digests) == 1, [str(m["Subject"]) for m in mail]
        assert "opened late" not in body_of(digests[0])
    assert season.show()["phase"] == "finished"
    assert len(deadlines) >= 10
    first_day = _local(deadlines[0])[0]
    assert first_day == date(2026, 3, 25)
    for k, when in enumerate(deadlines):
        assert _local(when) == (first_day + timedelta(days=k), time(20, 0)), (k, when)
    assert datetime(2026, 3, 29, 19, tzinfo=UTC) in deadlines  # the 23-hour Sunday
    assert datetime(2026, 3, 30, 19, tzinfo=UTC) in deadlines


def test_a_stage_run_days_late_takes_the_next_slot_ahead_and_the_digest_says_so(
    season: Season,
) -> None:
    """The daemon was down for two days: the stage runs 2 days and 2 hours late. The next
    deadline is the first 20:00 still ahead (not a slot already past, nor a day later than the
    schedule gives), and the GM's digest of the stage names the slots skipped."""
    missed = season.deadline()
    season.clock.set(missed + timedelta(days=2, hours=2))
    mail = season.pump()
    following = season.deadline()
    assert following == missed + timedelta(days=3)
    assert _local(following)[1] == time(20, 0)
    [digest] = [m for m in mail if str(m["To"]) == GM and "Digest" in str(m["Subject"])]
    text = " ".join(body_of(digest).split())
    assert "opened late: 2 slots from" in text, text
    reports = [m for m in mail if not is_zine(m) and str(m["To"]) != GM]
    assert reports  # the managers were told the stage and the next deadline
    # Back on schedule: the stage after runs 30 s late and keeps the next day's slot (Sunday
    # 29 March, 20:00 BST: 23 hours on).
    season.clock.set(following + timedelta(seconds=30))
    season.pump()
    day, _ = _local(following)
    assert _local(season.deadline()) == (day + timedelta(days=1), time(20, 0))
    assert season.deadline() == following + timedelta(hours=23)
