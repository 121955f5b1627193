"""The real services the suite relies on start and answer."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

from imapclient import IMAPClient
from sqlalchemy import create_engine, text

from tests.services import DovecotInstance, SmtpSink


def _mk(subject: str) -> EmailMessage:
    m = EmailMessage()
    m["From"] = "player1@example.test"
    m["To"] = "pbm@example.test"
    m["Subject"] = subject
    m.set_content("JOIN\n")
    return m


def test_lmtp_delivery_is_seen_over_imap(dovecot: DovecotInstance) -> None:
    """A message delivered by LMTP shows up in the INBOX over IMAP."""
    with smtplib.LMTP(dovecot.host, dovecot.lmtp) as lmtp:
        lmtp.send_message(_mk("via lmtp"), to_addrs=["pbm@example.test"])
    c = IMAPClient(dovecot.host, port=dovecot.imap, ssl=False, timeout=10)
    c.login("pbm", dovecot.users["pbm"])
    c.select_folder("INBOX")
    assert len(c.search(["SUBJECT", "via lmtp"])) == 1
    c.logout()


def test_smtp_sink_receives(smtp_sink: SmtpSink) -> None:
    """The aiosmtpd sink keeps the envelope of what it is sent."""
    with smtplib.SMTP("127.0.0.1", smtp_sink.port) as s:
        s.send_message(_mk("hello"))
    assert smtp_sink.wait_for(1)[0].rcpt_tos == ["pbm@example.test"]


def test_postgres_answers(pg_url: str) -> None:
    """The throwaway PostgreSQL cluster accepts connections."""
    db_engine = create_engine(pg_url)
    with db_engine.connect() as conn:
        assert conn.execute(text("select 1")).scalar() == 1
    db_engine.dispose()
