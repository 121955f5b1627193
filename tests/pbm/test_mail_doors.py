"""Pure parts of the mail doors: the listener's accept policy, the Maildir sender, error maps."""

from __future__ import annotations

import imaplib
import smtplib
import socket
import ssl
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.core.errors import ImapError, SmtpError
from pbm.mail.imap import translate_imap_error
from pbm.mail.listener import accepts
from pbm.mail.maildir import MaildirSender
from pbm.mail.ports import Sender
from pbm.mail.smtp import translate_smtp_error

POLICY = ["pbm@example.test", "@games.test", "other.test"]
_LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"
local_parts = st.builds(
    lambda a, b: a + b, st.sampled_from(_LOWER), st.text(_LOWER + "._-", max_size=15)
)


@given(tag=st.text(_LOWER + "ABCXYZ-", min_size=1, max_size=12))
def test_plus_addresses_are_accepted(tag: str) -> None:
    """pbm+ANYTHING@host is accepted wherever pbm@host is, in any letter case."""
    assert accepts(POLICY, f"pbm+{tag}@example.test")
    assert accepts(POLICY, f"PBM+{tag}@EXAMPLE.test")


@given(local=local_parts)
def test_whole_domains_are_accepted(local: str) -> None:
    """Any address at a configured domain (with or without a leading @) is accepted."""
    assert accepts(POLICY, f"{local}@games.test")
    assert accepts(POLICY, f"{local}@other.test")


@given(local=local_parts)
def test_other_addresses_are_refused(local: str) -> None:
    """Addresses outside the policy are refused, including look-alike domains."""
    if local.split("+")[0] != "pbm":
        assert not accepts(POLICY, f"{local}@example.test")
    assert not accepts(POLICY, f"{local}@games.test.evil")
    assert not accepts(POLICY, f"{local}@sub.games.test")


@pytest.mark.parametrize("address", ["", "pbm", "@example.test", "pbm@"])
def test_malformed_addresses_are_refused(address: str) -> None:
    """Addresses without a local part or domain are never accepted."""
    assert not accepts(POLICY, address)


def _msg() -> EmailMessage:
    m = EmailMessage()
    m["From"] = "pbm@example.test"
    m["To"] = "player1@example.test"
    m["Bcc"] = "gm@example.test"
    m["Subject"] = "Your squad"
    m["Message-ID"] = "<r1@example.test>"
    m.set_content("Squad of 18.\n")
    return m


def test_maildir_sender_writes_messages(tmp_path: Path) -> None:
    """Each sent message becomes one readable file in the Maildir's new/, without Bcc."""
    sender: Sender = MaildirSender(tmp_path / "out")
    sender.send(_msg())
    sender.send(_msg())
    md = MaildirSender(tmp_path / "out")
    stored = md.messages()
    assert len(stored) == 2
    assert len(list((tmp_path / "out" / "new").iterdir())) == 2
    assert b"Subject: Your squad" in stored[0]
    assert b"Bcc" not in stored[0]
    assert b"Squad of 18." in stored[0]


def test_maildir_sender_failure_is_transient_smtp_error(tmp_path: Path) -> None:
    """A Maildir that cannot be written raises a transient SmtpError, not an OSError."""
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(SmtpError) as info:
        MaildirSender(blocker / "out").send(_msg())
    assert info.value.transient is True


FOREIGN_IMAP: list[tuple[BaseException, bool]] = [
    (imaplib.IMAP4.abort("socket error: EOF"), True),
    (imaplib.IMAP4.error("NO [UNAVAILABLE] try later"), True),
    (imaplib.IMAP4.error("BAD command unknown"), False),
    (imaplib.IMAP4.readonly("mailbox is read-only"), False),
    (TimeoutError("timed out"), True),
    (TimeoutError(), True),
    (ConnectionResetError(), True),
    (ssl.SSLEOFError(8, "EOF occurred"), True),
    (ssl.SSLCertVerificationError(1, "certificate verify failed"), False),
    (socket.gaierror(-2, "Name or service not known"), True),
    (EOFError(), True),
]


@pytest.mark.parametrize(("exc", "transient"), FOREIGN_IMAP, ids=lambda v: type(v).__name__)
def test_imap_errors_are_all_mapped(exc: BaseException, transient: bool) -> None:
    """Each foreign IMAP-side exception maps to an ImapError with the right transience."""
    err = translate_imap_error(exc, "fetch")
    assert isinstance(err, ImapError)
    assert err.transient is transient


FOREIGN_SMTP: list[tuple[BaseException, bool]] = [
    (smtplib.SMTPServerDisconnected("gone"), True),
    (smtplib.SMTPResponseException(421, b"closing"), True),
    (smtplib.SMTPResponseException(554, b"no"), False),
    (smtplib.SMTPSenderRefused(553, b"bad sender", "pbm@x"), False),
    (smtplib.SMTPDataError(452, b"full"), True),
    (smtplib.SMTPRecipientsRefused({"a@x": (550, b"no"), "b@x": (450, b"later")}), False),
    (smtplib.SMTPRecipientsRefused({"a@x": (451, b"later")}), True),
    (smtplib.SMTPAuthenticationError(535, b"bad"), False),
    (smtplib.SMTPNotSupportedError("no STARTTLS"), False),
    (smtplib.SMTPException("odd"), False),
    (ssl.SSLCertVerificationError(1, "certificate verify failed"), False),
    (ConnectionRefusedError(), True),
    (TimeoutError(), True),
    (UnicodeEncodeError("ascii", "é", 0, 1, "no SMTPUTF8"), False),
]


@pytest.mark.parametrize(("exc", "transient"), FOREIGN_SMTP, ids=lambda v: type(v).__name__)
def test_smtp_errors_are_all_mapped(exc: BaseException, transient: bool) -> None:
    """Each foreign SMTP-side exception maps to an SmtpError: 4xx/network transient, 5xx not."""
    err = translate_smtp_error(exc)
    assert isinstance(err, SmtpError)
    assert err.transient is transient


def test_programming_errors_are_not_swallowed() -> None:
    """Exceptions that are not I/O failures are not disguised as mail errors."""
    assert translate_imap_error(KeyError("x"), "fetch") is None
    assert translate_smtp_error(KeyError("x")) is None
