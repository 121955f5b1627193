"""Incidents: one row per outage, written at failure and recovery (held while the database is
the door that is down), foreign error text neutralised, and the digest's account of them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock, utc
from pbm.core.errors import DatabaseUnavailable, ImapError, SmtpError
from pbm.db.models import InboundMail, Incident, JobRun, MailStatus
from pbm.db.session import transaction
from pbm.ops.digest import digest_context, duration_text
from pbm.ops.incidents import Backoff, kind_of
from pbm.outbound.render.email import render_email
from tests.pbm.conftest import migrated_sqlite


@pytest.fixture
def app_db_url(tmp_path: Path, sqlite_migrated_template: Path) -> str:
    """SQLite only: PostgreSQL's outages are tests/integration/test_outages.py's."""
    return migrated_sqlite(sqlite_migrated_template, tmp_path / "pbm.sqlite3")


def rows(app: App) -> list[Incident]:
    with transaction(app.sessions) as s:
        return list(s.scalars(select(Incident).order_by(Incident.id)))


def digest(app: App) -> str:
    with transaction(app.sessions) as s:
        ctx = digest_context(s, app.clock)
    return render_email("digest", {"server": app.config.server, **ctx}).text


def test_backoff_doubles_to_its_cap_and_resets() -> None:
    """Delays double from the first to the cap and start again after a success."""
    b = Backoff(0.5, 3.0)
    assert [b.failed() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    b.reset()
    assert b.failed() == 0.5


def test_kind_names_the_failure() -> None:
    """Refused, timed out, a reply code, a lost connection: from the cause or the text."""
    try:
        raise SmtpError("SMTP: network error", relay=True) from ConnectionRefusedError(111, "x")
    except SmtpError as exc:
        assert kind_of(exc) == "refused"
    assert kind_of(SmtpError("SMTP: timed out", transient=True)) == "timed out"
    assert kind_of(DatabaseUnavailable("terminating connection due to admin")) == "connection lost"


def test_one_row_per_outage_with_neutralised_error(app: App, clock: FixedClock) -> None:
    """Two failures and a recovery make one resolved row counting both; the server's control
    and bidi characters are made visible and a configured secret is hidden."""
    inc = app.incidents()
    secret = app.config.gm.secret
    inc.failed("smtp", SmtpError(f"SMTP: server replied 554 \x1b[2J\u202e{secret}", relay=True))
    assert [(r.door, r.count, r.resolved_at) for r in rows(app)] == [("smtp", 1, None)]
    clock.advance(30)
    inc.failed("smtp", SmtpError(f"SMTP: server replied 421 \x1b]0;x\x07 {secret}", relay=True))
    clock.advance(30)
    inc.recovered("smtp")
    [row] = rows(app)
    assert row.count == 2 and row.resolved_at is not None
    assert utc(row.resolved_at) - utc(row.first_seen) == timedelta(seconds=60)
    assert row.last_error is not None
    assert "\x1b" not in row.last_error and "\x07" not in row.last_error
    assert "<U+001B>" in row.last_error and secret not in row.last_error
    assert not inc.is_down("smtp")


def test_database_outage_waits_in_memory(app: App, clock: FixedClock) -> None:
    """A database outage is not written while it lasts (it could not be), and is written,
    with its times, when the database answers again."""
    inc = app.incidents()
    inc.failed("database", DatabaseUnavailable("server closed the connection unexpectedly"))
    clock.advance(5)
    inc.failed("database", DatabaseUnavailable("connection refused"))
    assert rows(app) == [] and inc.open_doors() == ["database"]
    clock.advance(5)
    inc.recovered("database")
    [row] = rows(app)
    assert (row.door, row.kind, row.count) == ("database", "connection lost", 2)
    assert row.resolved_at is not None


def test_an_outage_left_open_by_an_earlier_run_is_closed(app: App, clock: FixedClock) -> None:
    """A row a stopped run left open is resolved by this run's first success at that door."""
    app.incidents().failed("imap", ImapError("IMAP fetch: timed out"))
    later = app.incidents()  # a new process: knows nothing of the open row
    later.recovered("imap")
    [row] = rows(app)
    assert row.resolved_at is not None


def test_digest_tells_outages_since_the_last_digest(app: App, clock: FixedClock) -> None:
    """Outages after the previous digest are listed with times and attempts, one still open;
    one over before the previous digest is not; losses are counted."""
    inc = app.incidents()
    inc.failed("imap", ImapError("IMAP fetch: timed out"))
    clock.advance(60)
    inc.recovered("imap")
    clock.advance(3600)
    with transaction(app.sessions) as s:
        s.add(JobRun(key="digest:previous", ran_at=clock.now()))
    clock.advance(60)
    inc.failed("smtp", SmtpError("SMTP: server replied 554 \u202eevil", relay=True))
    clock.advance(125)
    text = digest(app)
    assert "Since the last digest (2026-01-01 10:01): 1 outage(s)" in text
    assert "smtp replied 554: from 2026-01-01 10:02:00" in text
    assert "to still open (2 min 5 s so far), 1 failed attempt(s)" in text
    assert "<U+202E>evil" in text and "\u202e" not in text
    assert "imap" not in text.split("Since the last digest")[1].split("\n\n")[0]
    assert "Nothing was lost" in text

    with transaction(app.sessions) as s:
        s.add(
            InboundMail(
                key="<dead@example.test>",
                door="smtp",
                raw=b"Subject: x\r\n\r\nx",
                status=MailStatus.SHUNTED,
                received_at=clock.now(),
                processed_at=clock.now(),
                attempts=1,
            )
        )
    assert "Lost in that time: 1 dead letter(s)" in digest(app)


def test_durations_read_as_people_say_them() -> None:
    """Seconds, minutes and seconds, hours and minutes."""
    assert [duration_text(s) for s in (12, 200, 7500)] == ["12 s", "3 min 20 s", "2 h 5 min"]
