"""Typed time as it really passes (``pbm.core.types.UtcDateTime``), on SQLite and PostgreSQL:
the real clock's now is stored and read back the same instant, aware UTC, and later than it
is soon after; a naive datetime is refused by a Core statement as by the ORM; what is on disk
is the instant in UTC (naive UTC text on SQLite, as pbm always stored it); and a deadline
written by a process in one system time zone reads as the same instant in a process in
another (the machine's TZ, and PostgreSQL's session zone with it, count for nothing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import StatementError

from pbm.app import App
from pbm.core.clock import SystemClock
from pbm.core.types import NaiveDatetimeError
from pbm.db.models import Event, table_of
from pbm.db.session import transaction

ROOT = Path(__file__).resolve().parents[2]

#: Run in a child process with its own TZ (and PGTZ, PostgreSQL's session zone for libpq):
#: write (an instant given as local wall time, aware) or read every "tz" event's instant.
CHILD = """
import json, sys, time
from datetime import datetime
from sqlalchemy import select
from pbm.db.models import Event
from pbm.db.session import make_db_engine, make_session_factory, transaction
url, action = sys.argv[1], sys.argv[2]
time.tzset()
db_engine = make_db_engine(url)
sessions = make_session_factory(db_engine)
with transaction(sessions) as s:
    if action == "write":
        # The local wall time, aware in the machine's zone: what a clock in this TZ shows.
        local = datetime.fromisoformat(sys.argv[3]).astimezone()
        s.add(Event(at=local, kind="tz", data={"tzname": local.tzname()}))
        print(json.dumps({"wrote": local.isoformat()}))
    else:
        rows = s.execute(select(Event.at, Event.data).where(Event.kind == "tz")).all()
        print(json.dumps([[at.isoformat(), str(at.tzinfo), d["tzname"]] for at, d in rows]))
db_engine.dispose()
"""


def _child(url: str, zone: str, *args: str) -> object:
    """Run :data:`CHILD` with the system zone ``zone``; its printed JSON."""
    env = {**os.environ, "TZ": zone, "PGTZ": zone}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, url, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_deadline_written_under_one_system_zone_reads_the_same_under_another(
    app: App,
) -> None:
    """A process in Sydney (summer, +11) writes its local 18:30 on 1 March 2026 (07:30
    UTC); a process in New York (winter, -5) reads 07:30 UTC, aware, not 18:30 nor its own
    02:30; and so does this process, whatever its own zone."""
    url = app.config.database.url
    wrote = _child(url, "Australia/Sydney", "write", "2026-03-01T18:30:00")
    assert wrote == {"wrote": "2026-03-01T18:30:00+11:00"}
    read = _child(url, "America/New_York", "read")
    assert read == [["2026-03-01T07:30:00+00:00", "UTC", "AEDT"]]
    with transaction(app.sessions) as s:
        at = s.scalars(select(Event.at).where(Event.kind == "tz")).one()
    assert at == datetime(2026, 3, 1, 7, 30, tzinfo=UTC) and at.tzinfo is UTC


def test_the_real_clocks_now_reads_back_the_same_instant_and_time_moves_on(app: App) -> None:
    """``SystemClock().now()`` stored reads back equal (to the microsecond), aware UTC; a
    query comparing it with a now taken after it finds it in the past, and none in the
    future."""
    clock = SystemClock()
    before = clock.now()
    with transaction(app.sessions) as s:
        s.add(Event(at=before, kind="now", data={}))
    time.sleep(0.01)
    after = clock.now()
    assert after > before
    with transaction(app.sessions) as s:
        got = s.scalars(select(Event.at).where(Event.kind == "now")).one()
        assert got == before and got.tzinfo is UTC
        assert s.scalar(select(Event.id).where(Event.at < after)) is not None
        assert s.scalar(select(Event.id).where(Event.at > after)) is None


def test_a_naive_datetime_is_refused_by_core_statements_too(app: App) -> None:
    """Core's insert() and update() refuse a naive datetime as the ORM does: its instant is
    unknown, so nothing is guessed and nothing is written."""
    events = table_of(Event)
    naive = datetime(2026, 3, 1, 12, 0)
    with pytest.raises(StatementError) as err, transaction(app.sessions) as s:
        s.execute(insert(events).values(at=naive, kind="naive", data={}))
    assert isinstance(err.value.orig, NaiveDatetimeError)
    with transaction(app.sessions) as s:
        s.add(Event(at=datetime(2026, 3, 1, tzinfo=UTC), kind="kept", data={}))
    with pytest.raises(StatementError) as err, transaction(app.sessions) as s:
        s.execute(update(events).where(events.c.kind == "kept").values(at=naive))
    assert isinstance(err.value.orig, NaiveDatetimeError)
    with transaction(app.sessions) as s:
        kinds = list(s.scalars(select(Event.kind)))
        at = s.scalars(select(Event.at).where(Event.kind == "kept")).one()
    assert "naive" not in kinds and at == datetime(2026, 3, 1, tzinfo=UTC)


def test_what_is_on_disk_is_the_instant_in_utc(app: App) -> None:
    """Bare SQL, past the type, finds the instant in UTC: SQLite's naive text is UTC's wall
    time (so rows stored before the type read the same: no migration), PostgreSQL's
    ``timestamptz`` is the instant itself."""
    when = datetime(2026, 10, 25, 1, 30, tzinfo=timezone(timedelta(hours=1)))  # BST's last
    with transaction(app.sessions) as s:
        s.add(Event(at=when, kind="disk", data={}))
    with app.db_engine.connect() as conn:
        if app.db_engine.dialect.name == "sqlite":
            raw = conn.execute(text("SELECT at FROM events WHERE kind = 'disk'")).scalar_one()
            assert str(raw).startswith("2026-10-25 00:30:00")
        else:
            raw = conn.execute(
                text("SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM events "
                     "WHERE kind = 'disk'")
            ).scalar_one()  # fmt: skip
            assert raw == "2026-10-25 00:30"
