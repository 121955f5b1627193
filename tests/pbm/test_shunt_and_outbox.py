"""Nothing is dropped: dead letters with tracebacks, GM alerts, retry; the outbox retries."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from pbm.core.errors import PbmError, SmtpError
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, OutboxMessage
from pbm.db.session import transaction
from pbm.inbound import pipeline
from pbm.inbound.context import Handled, MailContext
from pbm.inbound.dispatch import Run
from pbm.testing import RecordingSender, body_of, make_eml
from tests.pbm.conftest import GM
from tests.pbm.helpers import SECRET_RE, say


def _boom(ctx: MailContext, decision: Run) -> Handled:
    raise RuntimeError("kaboom in a handler")


def test_exception_shunts_message_and_alerts_gm(
    daemon: Daemon, sender: RecordingSender, demo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unexpected exception leaves a dead letter with its traceback and mails the GM."""
    monkeypatch.setattr(pipeline, "execute", _boom)
    say(daemon, sender, "JOIN\n", subject="[DEMO] join")
    with transaction(daemon.app.sessions) as s:
        mail = s.scalars(select(InboundMail)).one()
        assert mail.status == "shunted"
        assert mail.error is not None and "kaboom in a handler" in mail.error
        assert "Traceback" in mail.error
    [alert] = sender.to(GM)
    assert "ALERT" in str(alert["Subject"]) and "pbm mail retry" in body_of(alert)
    assert sender.to("player1@example.test") == []


def test_retry_puts_dead_letter_back(
    daemon: Daemon, sender: RecordingSender, demo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the cause is fixed, retry handles the dead letter like new mail."""
    monkeypatch.setattr(pipeline, "execute", _boom)
    say(daemon, sender, "JOIN\n", subject="[DEMO] join")
    monkeypatch.undo()
    with transaction(daemon.app.sessions) as s:
        mail_id = s.scalars(select(InboundMail.id)).one()
    daemon.app.inbound.retry(mail_id)
    daemon.run_once()
    [reply] = sender.to("player1@example.test")
    assert SECRET_RE.search(body_of(reply))
    with transaction(daemon.app.sessions) as s:
        assert s.get(InboundMail, mail_id).status == "applied"  # type: ignore[union-attr]


def test_retry_refuses_a_handled_mail(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """Retrying a handled (not dead) mail is refused: no second pass, no second reply."""
    say(daemon, sender, "JOIN\n", subject="[DEMO] join")
    with transaction(daemon.app.sessions) as s:
        mail_id = s.scalars(select(InboundMail.id)).one()
    with pytest.raises(PbmError, match="not a dead letter: it was applied"):
        daemon.app.inbound.retry(mail_id)
    daemon.run_once()
    assert len(sender.to("player1@example.test")) == 1
    with transaction(daemon.app.sessions) as s:
        assert s.get(InboundMail, mail_id).status == "applied"  # type: ignore[union-attr]


def test_transient_send_failure_backs_off_then_sends(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A transient failure schedules a retry after the backoff; the retry delivers once."""
    sender.fail_next(SmtpError("421 try later", transient=True))
    daemon.app.inbound.store(make_eml("HELP\n", subject="help"), "smtp")
    stats = daemon.run_once()
    assert stats.sent == 0 and sender.sent == []
    with transaction(daemon.app.sessions) as s:
        row = s.scalars(select(OutboxMessage)).one()
        assert row.status == "pending" and row.attempts == 1 and row.last_error
    assert daemon.run_once().sent == 0  # not due yet
    daemon.app.clock.advance(31)  # type: ignore[attr-defined]
    assert daemon.run_once().sent == 1
    assert len(sender.sent) == 1


def test_permanent_send_failure_is_recorded(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A permanent failure marks the row failed with the error, and it is not retried."""
    sender.fail_next(SmtpError("550 no such user", transient=False))
    daemon.app.inbound.store(make_eml("HELP\n", subject="help"), "smtp")
    assert daemon.run_once().failed == 1
    daemon.app.clock.advance(86400)  # type: ignore[attr-defined]
    daemon.run_once()
    with transaction(daemon.app.sessions) as s:
        row = s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "help")).one()
        assert row.status == "failed" and "550" in (row.last_error or "")
    assert sender.to("player1@example.test") == []


def test_backoff_doubles_and_caps() -> None:
    """The wait doubles per attempt from the base and stops at the cap."""
    from pbm.core.config import OutboxConfig
    from pbm.outbound.outbox import backoff

    cfg = OutboxConfig(max_attempts=10, backoff_seconds=30, backoff_max_seconds=100)
    assert [backoff(cfg, n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 100, 100]


def test_gives_up_after_max_attempts(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """After max_attempts transient failures the row is failed, not retried forever."""
    sender.fail_next(SmtpError("421 later", transient=True), times=8)
    daemon.app.inbound.store(make_eml("HELP\n", subject="help"), "smtp")
    for _ in range(9):
        daemon.run_once()
        daemon.app.clock.advance(3600)  # type: ignore[attr-defined]
    with transaction(daemon.app.sessions) as s:
        row = s.scalars(select(OutboxMessage)).one()
        assert row.status == "failed" and row.attempts == 8


def test_row_being_sent_is_not_sent_by_a_second_worker(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """While one worker sends a row, another worker skips it; a dead worker's row falls due
    again after the lease."""
    daemon.app.inbound.store(make_eml("HELP\n", subject="help"), "smtp")
    mail_id = daemon.app.inbound.pending_ids()[0]
    daemon.app.inbound.process(mail_id)
    outbox = daemon.outbox
    [row_id] = outbox.due_ids()
    seen: list[str] = []
    sender.on_send = lambda _m: seen.append(outbox.send_one(row_id))
    assert outbox.send_one(row_id) == "sent"
    assert seen == ["skipped"] and len(sender.sent) == 1


def test_claimed_row_of_a_dead_worker_is_resent_after_the_lease(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A row claimed by a worker that died mid-send is sent after the lease runs out."""
    daemon.app.inbound.store(make_eml("HELP\n", subject="help"), "smtp")
    daemon.app.inbound.process(daemon.app.inbound.pending_ids()[0])
    outbox = daemon.outbox

    def die(_m: object) -> None:
        raise KeyboardInterrupt  # stands for the process dying inside send()

    sender.on_send = die
    with pytest.raises(KeyboardInterrupt):
        outbox.flush()
    sender.on_send = None
    assert outbox.flush() == (0, 0)  # still leased
    daemon.app.clock.advance(301)  # type: ignore[attr-defined]
    assert outbox.flush() == (1, 0)
    assert len(sender.sent) == 2  # at least once: the dead worker's copy may have gone out


def test_the_send_lease_is_the_configured_one(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """``[outbox] send_lease_seconds`` sets how long a dead sender's claim holds a row: a
    20-second lease frees the row after 21 s, not after the default five minutes."""
    from dataclasses import replace

    daemon.outbox.config = replace(daemon.outbox.config, send_lease_seconds=20)
    daemon.app.inbound.store(make_eml("HELP\n", subject="help"), "smtp")
    daemon.app.inbound.process(daemon.app.inbound.pending_ids()[0])

    def die(_m: object) -> None:
        raise KeyboardInterrupt  # stands for the process dying inside send()

    sender.on_send = die
    with pytest.raises(KeyboardInterrupt):
        daemon.outbox.flush()
    sender.on_send = None
    daemon.app.clock.advance(19)  # type: ignore[attr-defined]
    assert daemon.outbox.flush() == (0, 0)  # still leased
    daemon.app.clock.advance(2)  # type: ignore[attr-defined]
    assert daemon.outbox.flush() == (1, 0)


def _queue_bulk(daemon: Daemon, kind: str, subject: str, count: int) -> None:
    """``count`` rows of bulk mail of ``kind``, due now, as a stage would have queued them."""
    now = daemon.app.clock.now()
    with transaction(daemon.app.sessions) as s:
        for n in range(count):
            s.add(
                OutboxMessage(
                    kind=kind,
                    to_addr=f"team{n}@example.test",
                    subject=subject,
                    message_id=f"<bulk-{n}@pbm.test>",
                    raw=f"Subject: {subject}\r\n\r\nbody\r\n".encode(),
                    status="pending",
                    attempts=0,
                    next_attempt_at=now,
                    created_at=now,
                )
            )


@pytest.mark.parametrize("kind", ["fixtures", "h6-test-reminder"])
def test_a_burst_is_answered_before_the_bulk_mail_waiting_for_it(
    daemon: Daemon, sender: RecordingSender, demo: str, kind: str
) -> None:
    """Bulk mail queued before a burst of mail waits for the end of the pass: every answer
    of the burst goes first (bulk mail sent between the burst's mails made each of them wait
    for a slice of it). Bulk is every kind pbm sends of its own accord whatever caused it, a
    Test by Post's reminder as much as a league's fixtures."""
    _queue_bulk(daemon, kind, "fixtures", 5)
    for n in range(3):
        daemon.store(
            make_eml("HELP\n", subject="help", sender=f"asker{n}@example.test"),
            f"asker{n}@example.test",
            ["pbm@example.test"],
        )
    stats = daemon.run_once()
    assert stats.processed == 3 and stats.sent == 8
    subjects = [str(m["Subject"]) for m in sender.sent]
    assert "fixtures" not in subjects[:3], subjects  # the three answers first
    assert subjects[3:] == ["fixtures"] * 5
    assert [m["To"] for m in sender.sent[:3]] == [f"asker{n}@example.test" for n in range(3)]


def test_answers_go_before_bulk_mail_and_bulk_goes_in_slices(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A stage's bulk mail (reports, zine issues) queued before an answer does not hold the
    answer up: the answer is sent first, and a budget of no time sends one row and stops."""
    _queue_bulk(daemon, "turn-report", "report", 3)
    daemon.app.inbound.store(make_eml("HELP\n", subject="help"), "smtp")
    daemon.app.inbound.process(daemon.app.inbound.pending_ids()[0])
    outbox = daemon.outbox
    assert outbox.flush(budget=0.0) == (1, 0)  # one send started, then the budget is spent
    assert "report" not in str(sender.sent[0]["Subject"])  # the answer, not a report
    assert outbox.flush() == (3, 0)
    assert [str(m["Subject"]) for m in sender.sent[1:]] == ["report"] * 3
