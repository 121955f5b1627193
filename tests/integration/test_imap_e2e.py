"""End to end over IMAP: mail lands in Dovecot by LMTP, the daemon reads it (IDLE), answers
through SmtpSender to an aiosmtpd sink, and moves the mail to Processed only after commit."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from sqlalchemy import func, select

from pbm.app import App
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, OutboxMessage
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.mail.imap import ImapMailbox
from pbm.mail.ports import FetchedMessage
from pbm.mail.smtp import SmtpSender
from pbm.testing import body_of, make_eml
from tests.integration.pbm_proc import wait_until
from tests.pbm.helpers import SECRET_RE, naming_text
from tests.services import DovecotInstance, SmtpSink, own_dovecot, post_office_config

pytestmark = [pytest.mark.services, pytest.mark.slow]

# How long to wait for something that takes well under a second on an idle machine. Only an
# upper bound (every wait is on a condition), so it can be generous: on a loaded machine the
# daemon thread's start (building the order parser) and each pass can take many seconds, and
# the former 20 s made a full-suite run fail once.
PATIENCE = 120.0


@pytest.fixture(scope="module")
def server() -> Iterator[DovecotInstance]:
    """A Dovecot of this module's own, so no other test's mail sits in pbm's INBOX."""
    with own_dovecot("dovecot-e2e") as inst:
        yield inst


class CheckingMailbox(ImapMailbox):
    """An ImapMailbox that records, at each move, whether the message's effects were committed."""

    app: App
    moves: list[tuple[str, str | None]]

    def fetch_new(self) -> list[FetchedMessage]:
        got = super().fetch_new()
        self._ids = {
            m.uid: str(message_from_bytes(m.raw, policy=policy.default)["Message-ID"]) for m in got
        }
        return got

    def mark_processed(self, uid: str) -> None:
        key = self._ids[uid]
        with transaction(self.app.sessions) as s:  # a fresh session sees only committed rows
            status = s.scalar(select(InboundMail.status).where(InboundMail.key == key))
        self.moves.append((key, status))
        super().mark_processed(uid)


def start(
    server: DovecotInstance, smtp_sink: SmtpSink, tmp_path: Path
) -> tuple[App, CheckingMailbox, SmtpSender, Daemon, threading.Thread]:
    """A daemon on its own database, reading Dovecot's INBOX and sending to the sink."""
    config = parse_config(
        post_office_config(f"sqlite:///{tmp_path}/pbm.sqlite3", smtp_sink.port, server),
        env={},
    )
    app = App.from_config(config, upgrade=True)
    with transaction(app.sessions) as s:
        create_competition(
            s,
            app.clock,
            code="DEMO",
            name="Demo Cup",
            fmt="t20",
            teams=4,
            naming_deadline=datetime(2099, 1, 1, tzinfo=UTC),
            seed="e2e",
        )
    mailbox = CheckingMailbox(
        server.host, server.imap, username="pbm", password="secret", security="plain"
    )
    mailbox.app, mailbox.moves = app, []
    sender = SmtpSender("127.0.0.1", smtp_sink.port, security="plain")
    daemon = Daemon(app, sender, [mailbox], max_wait=30)
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    return app, mailbox, sender, daemon, thread


def stop(
    app: App, mailbox: CheckingMailbox, sender: SmtpSender, daemon: Daemon, t: threading.Thread
) -> None:
    daemon.request_stop()
    t.join(PATIENCE)
    mailbox.close()
    sender.close()
    assert not t.is_alive()


def test_join_and_name_over_imap(
    server: DovecotInstance, smtp_sink: SmtpSink, tmp_path: Path
) -> None:
    """JOIN then naming by LMTP into Dovecot; replies at the sink; redelivery ignored."""
    app, mailbox, sender, daemon, thread = start(server, smtp_sink, tmp_path)
    try:
        join_raw = make_eml(
            "JOIN\n",
            sender="p1@example.test",
            subject="[DEMO] let me in",
            message_id="<join-e2e@example.test>",
        )
        server.deliver(join_raw)
        welcome = smtp_sink.reply(1, PATIENCE)
        assert welcome["In-Reply-To"] == "<join-e2e@example.test>"
        assert str(welcome["To"]) == "p1@example.test"
        found = SECRET_RE.search(body_of(welcome))
        assert found, body_of(welcome)

        naming = make_eml(
            naming_text(found.group(1)),
            sender="p1@example.test",
            subject="Re: [DEMO] names",
            message_id="<names-e2e@example.test>",
        )
        server.deliver(naming)
        named = smtp_sink.reply(2, PATIENCE)
        assert named["In-Reply-To"] == "<names-e2e@example.test>"
        assert "The Gloopers" in body_of(named)

        server.deliver(join_raw)  # the same JOIN again, e.g. a retried delivery
        assert wait_until(lambda: server.count("Processed") == 3, PATIENCE)
    finally:
        stop(app, mailbox, sender, daemon, thread)
    assert server.count("INBOX") == 0
    # every move came after its message's effects were committed (never "received")
    assert mailbox.moves == [
        ("<join-e2e@example.test>", "applied"),
        ("<names-e2e@example.test>", "applied"),
        ("<join-e2e@example.test>", "applied"),
    ]
    with transaction(app.sessions) as s:
        assert s.scalar(select(func.count()).select_from(InboundMail)) == 2
        pending = select(func.count()).select_from(OutboxMessage)
        assert s.scalar(pending.where(OutboxMessage.status != "sent")) == 0
    assert len(smtp_sink.messages) == 2  # the redelivered JOIN got no second welcome
    app.close()


def test_automatic_forged_and_broken_mail_over_imap(
    server: DovecotInstance, smtp_sink: SmtpSink, tmp_path: Path
) -> None:
    """Through Dovecot and the sink: an automatic mail gets no reply, a naming without the
    secret from a player's address is refused, and broken MIME is answered, not crashed on."""
    app, mailbox, sender, daemon, thread = start(server, smtp_sink, tmp_path)
    processed = server.count("Processed")
    try:
        server.deliver(make_eml("JOIN\n", sender="p1@example.test", subject="[DEMO] join"))
        smtp_sink.reply(1, PATIENCE)
        auto = make_eml(
            "JOIN\n",
            sender="robot@example.test",
            subject="[DEMO] Out of office",
            headers={"Auto-Submitted": "auto-replied"},
        )
        server.deliver(auto)
        forged = make_eml(
            naming_text("AAAA-BBBB-CCCC"), sender="p1@example.test", subject="Re: [DEMO] names"
        )
        server.deliver(forged)
        refused = smtp_sink.reply(2, PATIENCE)
        assert str(refused["To"]) == "p1@example.test"
        broken = (
            b"From: p2@example.test\r\nTo: pbm@example.test\r\nSubject: [DEMO] =?bogus?Q?x?=\r\n"
            b"Message-ID: <broken-e2e@example.test>\r\nMIME-Version: 1.0\r\n"
            b'Content-Type: multipart/mixed; boundary="never-closed"\r\n\r\n'
            b"--never-closed\r\nContent-Type: text/plain; charset=x-unknown\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\nSk9JTgo=!!!\xff\xfe\r\n"
        )
        server.deliver(broken)
        answered = smtp_sink.reply(3, PATIENCE)
        assert wait_until(lambda: server.count("Processed") == processed + 4, PATIENCE)
    finally:
        stop(app, mailbox, sender, daemon, thread)
    assert str(answered["To"]) == "p2@example.test"
    assert "could not be read as sent" in body_of(answered)
    assert "Refused" in str(refused["Subject"]) and "does not match" in body_of(refused)
    assert [
        str(m["To"]) for m in (message_from_bytes(x.original_content) for x in smtp_sink.messages)
    ] == [
        "p1@example.test",
        "p1@example.test",
        "p2@example.test",
    ]  # nothing went to robot@
    with transaction(app.sessions) as s:
        statuses = dict(s.execute(select(InboundMail.from_addr, InboundMail.status)).all())
    assert statuses["robot@example.test"] == "ignored"
    assert statuses["p2@example.test"] != "shunted"
    app.close()
