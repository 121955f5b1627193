"""Database trouble pauses the courier, never ends it: a send whose record meets SQLite's
lock held past the busy timeout (a long pass) is held as sent and recorded later, never sent
again (V3 finding 2); a lost connection in the courier's look at what is due next does not
end its thread, and the loop goes back to waiting on the mailbox (V3 finding 3); an answer
whose lease renewal meets the lock waits only for the courier's pause, not its lease (V4
finding 3)."""

from __future__ import annotations

import threading
from datetime import datetime
from email.message import EmailMessage

import pytest
import structlog
from sqlalchemy import select, text, update
from sqlalchemy.orm import sessionmaker

from pbm.app import App
from pbm.core.errors import DatabaseUnavailable
from pbm.daemon import Daemon
from pbm.db.models import OutboxMessage
from pbm.db.session import LOCK_WAIT_MS, READ_ONLY, transaction
from pbm.testing import FakeMailbox, RecordingSender, make_eml
from tests.integration.pbm_proc import wait_until

#: An upper bound only: every wait ends as soon as its condition holds.
PATIENCE = 30.0


def _statuses(app: App) -> list[str]:
    """The outbox rows' statuses, read without the write lock (which the test may hold)."""
    reads = sessionmaker(app.db_engine.execution_options(**{READ_ONLY: True}))
    with transaction(reads) as s:
        return [str(x) for x in s.scalars(select(OutboxMessage.status).order_by(OutboxMessage.id))]


@pytest.mark.parametrize("app_db_url", ["sqlite"], indirect=True)
def test_a_send_whose_record_finds_the_lock_held_is_recorded_later_and_sent_once(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """The relay takes a reply while another transaction holds SQLite's write lock past the
    courier's busy timeout (the outbox's wait is cut short here, so the test need not wait
    15 s). The courier keeps the send as unrecorded and lives on; once the lock is free the
    row is recorded sent, and the reply went once."""
    app.inbound.store(make_eml("JOIN\n", sender="p0@example.test", subject="[DEMO] join"), "smtp")
    assert app.inbound.process_next(0) is not None
    d = Daemon(app, sender, retry_first=0.05, retry_max=0.2)
    d.outbox.sessions = sessionmaker(
        app.db_engine.execution_options(**{LOCK_WAIT_MS: 200}), expire_on_commit=False
    )
    d.incidents.recovered("smtp")  # the first send's incidents write, done before the lock
    locked, release = threading.Event(), threading.Event()

    def long_pass() -> None:  # a pass's long transaction (a big IMAP batch, a freeze)
        with transaction(app.sessions) as s:
            s.execute(text("UPDATE competitions SET name = name"))
            locked.set()
            release.wait(PATIENCE)

    holder = threading.Thread(target=long_pass)

    def relay_then_lock(_message: EmailMessage) -> None:
        holder.start()
        assert locked.wait(PATIENCE)

    sender.on_send = relay_then_lock
    with structlog.testing.capture_logs() as logs:
        d.courier.start()
        try:
            assert wait_until(
                lambda: any(e["event"] == "courier.database_busy" for e in list(logs)), PATIENCE
            )
            assert _statuses(app) == ["pending"]
            release.set()
            holder.join(PATIENCE)
            assert wait_until(lambda: _statuses(app) == ["sent"], PATIENCE)
            assert d.courier.running and d.courier.failure is None
        finally:
            release.set()
            d.courier.stop(PATIENCE)
    assert len(sender.sent) == 1


class WatchedMailbox(FakeMailbox):
    """A mailbox that says whether the loop is waiting on it."""

    def __init__(self) -> None:
        super().__init__()
        self.in_wait = False

    def wait(self, timeout: float) -> bool:
        self.in_wait = True
        try:
            return super().wait(timeout)
        finally:
            self.in_wait = False


@pytest.mark.parametrize("app_db_url", ["sqlite"], indirect=True)
def test_an_answer_whose_renewal_finds_the_lock_held_goes_when_the_lock_is_free(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """An answer waits in the courier's queue (the courier is in a slow send) while another
    transaction takes SQLite's write lock past the courier's busy timeout (cut short here).
    Its lease renewal meets the lock; once the lock is free the courier sends it, though its
    lease (the clock stands still) never runs out, and each player gets one reply."""
    app.inbound.store(make_eml("JOIN\n", sender="p0@example.test", subject="[DEMO] join"), "smtp")
    assert app.inbound.process_next(0) is not None
    with transaction(app.sessions) as s:  # bulk mail: no pass claims it
        s.execute(update(OutboxMessage).values(kind="digest"))
    d = Daemon(app, sender, retry_first=0.05, retry_max=0.2)
    d.outbox.sessions = sessionmaker(
        app.db_engine.execution_options(**{LOCK_WAIT_MS: 200}), expire_on_commit=False
    )
    d.incidents.recovered("smtp")  # the first send's incidents write, done before the lock
    in_send, gate = threading.Event(), threading.Event()
    locked, release = threading.Event(), threading.Event()

    def slow_relay(_message: EmailMessage) -> None:
        if not in_send.is_set():
            in_send.set()
            gate.wait(PATIENCE)

    def long_pass() -> None:
        with transaction(app.sessions) as s:
            s.execute(text("UPDATE competitions SET name = name"))
            locked.set()
            release.wait(PATIENCE)

    holder = threading.Thread(target=long_pass)
    sender.on_send = slow_relay
    with structlog.testing.capture_logs() as logs:
        d.courier.start()
        try:
            assert in_send.wait(PATIENCE)
            app.inbound.store(
                make_eml("JOIN\n", sender="p1@example.test", subject="[DEMO] join"), "smtp"
            )
            assert app.inbound.process_next(0) is not None
            d.courier.answers()  # p1's answer, claimed and handed over
            holder.start()
            assert locked.wait(PATIENCE)
            gate.set()
            # the first: the bulk send's record; the second: the answer's renewal
            assert wait_until(
                lambda: [e["event"] for e in list(logs)].count("courier.database_busy") >= 2,
                PATIENCE,
            )
            release.set()
            holder.join(PATIENCE)
            assert wait_until(lambda: _statuses(app) == ["sent", "sent"], PATIENCE)
            assert d.courier.running and d.courier.failure is None
        finally:
            gate.set()
            release.set()
            d.courier.stop(PATIENCE)
    assert [len(sender.to(f"p{n}@example.test")) for n in range(2)] == [1, 1]


def test_a_lost_connection_as_the_courier_looks_ahead_does_not_end_it(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """The database is lost once as the courier reads when the outbox is next due (a
    PostgreSQL restart). The courier pauses and goes on: a mail that comes after is answered
    by it, the loop reports no database outage of its own, and it waits on the mailbox
    again, instead of passing and warning every second."""
    mb = WatchedMailbox()
    d = Daemon(app, sender, [mb], max_wait=30, retry_first=0.05, retry_max=0.2)
    original = d.outbox.next_due
    blipped = threading.Event()

    def next_due() -> datetime | None:
        if not blipped.is_set() and threading.current_thread().name == "pbm-courier":
            blipped.set()
            raise DatabaseUnavailable("server closed the connection unexpectedly")
        return original()

    d.outbox.next_due = next_due  # type: ignore[method-assign]
    loop = threading.Thread(target=d.run)
    with structlog.testing.capture_logs() as logs:
        loop.start()
        try:
            assert blipped.wait(PATIENCE)
            mb.deliver(make_eml("JOIN\n", sender="late@example.test", subject="[DEMO] join"))
            d.wake()
            assert wait_until(lambda: _statuses(app) == ["sent"], PATIENCE)
            assert wait_until(lambda: mb.in_wait, PATIENCE)
            assert d.courier.running and d.courier.failure is None
        finally:
            d.request_stop()
            loop.join(PATIENCE)
    assert not loop.is_alive()
    assert len(sender.to("late@example.test")) == 1
    events = [e["event"] for e in logs]
    assert "courier.database_unavailable" in events
    assert "daemon.database_unavailable" not in events
