"""SIGKILL of a real ``pbm run --once`` while several mails share one uncommitted batch
(SQLite, ``Inbound.process_pending``): nothing of the batch survives, no answer of it is sent,
and the next pass handles every mail once and answers it once."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from pbm.db.models import InboundMail, OutboxMessage, Seat
from pbm.testing import make_eml
from tests.integration.pbm_proc import pbm
from tests.integration.test_crash import _count, _setup
from tests.services import SmtpSink

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_sigkill_inside_a_batch_loses_nothing_and_sends_nothing_twice(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    """Three JOINs from three players, stored; the pass is killed with two or three of them
    handled in its batch, before the batch's commit: those are still ``received``, with no
    seat and no reply queued or sent. The next pass answers each player once; a third pass
    sends nothing."""
    db_url = f"sqlite:///{tmp_path}/pbm.sqlite3"
    config = _setup(tmp_path, smtp_sink, db_url)
    for i in range(3):
        raw = make_eml(
            "JOIN\n",
            sender=f"player{i}@example.test",
            subject="[DEMO] join",
            message_id=f"<batch-{i}@example.test>",
        )
        assert pbm("ingest", "--config", str(config), input=raw).returncode == 0
    r = pbm("run", "--once", "--config", str(config), crash_at="batch-before-commit")
    assert r.returncode == -signal.SIGKILL, r.stderr
    # A batch takes no more mail after 50 ms: a cold process's first mail may have had its
    # own commit (and its answer sent) before the batch that was killed.
    pending = _count(db_url, InboundMail, InboundMail.status == "received")
    assert pending >= 2  # the killed batch's mails
    assert _count(db_url, Seat) == 3 - pending and _count(db_url, OutboxMessage) == 3 - pending
    assert len(smtp_sink.messages) == 3 - pending

    r = pbm("run", "--once", "--config", str(config))
    assert r.returncode == 0, r.stderr
    sent = smtp_sink.wait_for(3)
    assert sorted(rcpt for e in sent for rcpt in e.rcpt_tos) == [
        f"player{i}@example.test" for i in range(3)
    ]
    assert _count(db_url, Seat) == 3
    assert pbm("run", "--once", "--config", str(config)).returncode == 0
    assert len(smtp_sink.messages) == 3
    assert _count(db_url, OutboxMessage, OutboxMessage.status == "sent") == 3
