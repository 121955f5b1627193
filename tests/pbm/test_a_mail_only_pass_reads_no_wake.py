"""The daemon keeps when the scheduler and the outbox next have work (``pbm.db.wakes``)
between passes: a pass that only answered mail reads neither again, and every write that can
move one of them (a deadline changed, a reply queued, a retry) is seen at once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from sqlalchemy import event, update

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.errors import SmtpError
from pbm.daemon import Daemon
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.testing import FakeMailbox, RecordingSender, make_eml


@contextmanager
def statements(app: App) -> Iterator[list[str]]:
    """Every SELECT the block runs on the App's engine."""
    seen: list[str] = []

    def note(*args: object) -> None:
        text = str(args[2])
        if text.lstrip().upper().startswith("SELECT"):
            seen.append(text)

    event.listen(app.db_engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(app.db_engine, "before_cursor_execute", note)


def _mail_only_pass(d: Daemon, mb: FakeMailbox, body: str, n: int) -> None:
    mb.deliver(make_eml(body, sender=f"p{n}@example.test", subject="[DEMO] join"))
    assert d.run_once().fetched == 1


def test_after_a_mail_only_pass_the_wait_reads_nothing(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """Once read, the scheduler's next wake and the outbox's next due are not read again
    after a pass that only handled a mail and sent its answer: the wait is worked out with
    no statement, and is the same as read afresh."""
    mb = FakeMailbox()
    d = Daemon(app, sender, [mb], max_wait=3600)
    _mail_only_pass(d, mb, "JOIN\n", 1)
    first = d._until_due()
    _mail_only_pass(d, mb, "HELP\n", 2)
    with statements(app) as seen:
        kept = d._until_due()
    assert seen == []
    assert len(sender.sent) == 2
    d.wakes.close()  # from now on every answer is read
    assert abs(d._until_due() - kept) < 1 and abs(first - kept) < 1


def test_a_changed_deadline_is_seen_at_once(
    app: App, sender: RecordingSender, demo: str, clock: FixedClock
) -> None:
    """A write to a table the next wake was read from (the naming deadline, brought near)
    makes the next wait end by the new deadline."""
    d = Daemon(app, sender, max_wait=30 * 24 * 3600)
    before = d._until_due()
    soon = clock.now() + timedelta(seconds=90)
    with transaction(app.sessions) as s:
        s.execute(update(Competition).where(Competition.code == demo).values(naming_deadline=soon))
    after = d._until_due()
    assert before > 90 and 0 < after <= 90


def test_a_queued_reply_is_due_at_once_and_a_retry_when_it_falls(
    app: App, sender: RecordingSender, demo: str, clock: FixedClock
) -> None:
    """A reply queued makes the outbox due now (no statement needed); once sent, the kept
    answer holds again; a send that fails for a while makes the outbox due at its retry."""
    d = Daemon(app, sender, max_wait=30 * 24 * 3600)
    assert d.outbox.next_due() is None
    app.inbound.store(make_eml("JOIN\n", subject="[DEMO] join"), "smtp")
    assert app.inbound.process_next(0) is not None
    with statements(app) as seen:
        assert d.outbox.next_due() == clock.now()
    assert seen == []
    sender.fail_next(SmtpError("450 try later", transient=True))
    d.outbox.flush()
    retry = d.outbox.next_due()
    assert retry is not None and retry > clock.now()
    assert d.outbox._earliest() == retry  # as read afresh
    clock.set(retry)
    assert d.outbox.flush() == (1, 0)
    assert d.outbox.next_due() is None


def test_an_answer_is_read_again_when_its_time_comes_or_it_is_old(
    app: App, sender: RecordingSender, demo: str, clock: FixedClock
) -> None:
    """A kept wake is not trusted once its moment has come (the scheduler has work), nor
    after ``max_age`` seconds (another process may have written what this one cannot see)."""
    d = Daemon(app, sender, max_wait=0.0)  # every answer too old at once
    d._until_due()
    with statements(app) as seen:
        d._until_due()
    assert seen
    d = Daemon(app, sender, max_wait=30 * 24 * 3600)
    clock.set(clock.now() + timedelta(seconds=d._until_due()))  # the next wake's moment
    with statements(app) as seen:
        d._until_due()
    assert any("competitions" in text for text in seen)
