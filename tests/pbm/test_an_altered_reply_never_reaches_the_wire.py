"""A stored reply goes out as its stored bytes (``Sender.send_bytes``). Bytes altered in the
database after pbm composed them are refused before the wire by every sender (SMTP, the
local Maildir, DKIM signing over SMTP): the outbox gives the row up with a reason the GM
reads (``pbm mail list --outbox``), and nothing is sent. What can be made harmless is: a Bcc
field is dropped, a lone CR in the body is a line end (no second message can be smuggled into
SMTP's DATA). Nothing ever reaches an address but the row's, and DKIM signs exactly the
bytes that are sent."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import dkim
import pytest
from click.testing import CliRunner
from sqlalchemy import select, update

from pbm.app import App
from pbm.cli import main
from pbm.db.models import OutboxMessage
from pbm.db.session import transaction
from pbm.mail.dkim import DkimSigner, SigningSender
from pbm.mail.maildir import MaildirSender
from pbm.mail.ports import Sender
from pbm.mail.smtp import SmtpSender
from pbm.mail.wire import crlf, outgoing
from pbm.outbound.replies import queue_mail
from tests.integration.test_dkim import DOMAIN, SELECTOR, dns, keypair
from tests.pbm.test_gm import _toml
from tests.services import SmtpSink

PLAYER = "player1@example.test"
EVIL = b"evil@attacker.test"


def _after_first_line(field: bytes) -> Callable[[bytes], bytes]:
    return lambda raw: raw.replace(b"\n", b"\n" + field + b"\n", 1)


def _in_body(extra: bytes) -> Callable[[bytes], bytes]:
    return lambda raw: raw.rstrip(b"\n") + b"\n" + extra + b"\n"


def _subject(value: bytes) -> Callable[[bytes], bytes]:
    return lambda raw: re.sub(rb"\nSubject: [^\n]*", b"\nSubject: " + value, raw, count=1)


def _crlf_but_one(raw: bytes) -> bytes:
    return crlf(raw).replace(b"\r\nSubject: ", b"\nSubject: ", 1)


#: Altered rows pbm refuses, and the reason the GM reads.
REFUSED = {
    "a Reply-To field injected": (_after_first_line(b"Reply-To: " + EVIL), "a Reply-To field"),
    "a Cc field injected": (_after_first_line(b"Cc: " + EVIL), "a Cc field"),
    "a second To field": (_after_first_line(b"To: " + EVIL), "a second To field"),
    "a bare CR in a header": (_subject(b"hello\rReply-To: " + EVIL), "a CR inside line"),
    "a bare LF among CRLFs": (_crlf_but_one, "ends unlike the first"),
    "a NUL": (_in_body(b"before\0after"), "a NUL byte"),
    "an 8-bit header": (_subject("caf\u00e9 \u2615".encode()), "beyond ASCII"),
    "an over-long line": (_in_body(b"x" * 1200), "longer than 998 octets"),
    "a line that is no field": (_after_first_line(b"From nobody"), "is no header field"),
}
#: Altered rows made harmless, and what must not be on the wire.
NEUTRALISED = {
    "a Bcc field injected": (_after_first_line(b"Bcc: " + EVIL), b"bcc:"),
    "a DATA end smuggled with bare CRs": (
        _in_body(b"\r.\rMAIL FROM:<" + EVIL + b">\rRCPT TO:<" + EVIL + b">\rDATA\rhi"),
        b"\r.\r",
    ),
}
SENDERS = ["smtp", "maildir", "dkim"]


@pytest.fixture
def stored_row(app: App) -> int:
    """A real reply in the outbox (the GM's alert, addressed to the player)."""
    with transaction(app.sessions) as s:
        queue_mail(
            s,
            app.config,
            app.clock,
            kind="gm-alert",
            to=PLAYER,
            ctx={"mail_id": 1, "sender": "x", "subject": "", "error": "e"},
            reply_to=None,
        )
        return s.scalars(select(OutboxMessage.id)).one()


def _alter(app: App, row_id: int, how: Callable[[bytes], bytes]) -> bytes:
    with transaction(app.sessions) as s:
        raw = s.scalars(select(OutboxMessage.raw).where(OutboxMessage.id == row_id)).one()
        altered = how(raw)
        assert altered != raw
        s.execute(update(OutboxMessage).where(OutboxMessage.id == row_id).values(raw=altered))
    return altered


Arrived = Callable[[], list[bytes]]


def _sender(kind: str, sink: SmtpSink, tmp_path: Path) -> tuple[Sender, Arrived, bytes]:
    """The sender; what reached its far side (the sink's data, the Maildir's files); the
    DNS record of its DKIM key (empty: it does not sign)."""
    if kind == "maildir":
        maildir = MaildirSender(tmp_path / "out")
        return maildir, maildir.messages, b""
    smtp = SmtpSender("127.0.0.1", sink.port, security="plain")

    def received() -> list[bytes]:
        return [m.original_content for m in sink.messages]

    if kind == "smtp":
        return smtp, received, b""
    path, record = keypair(tmp_path)
    return SigningSender(smtp, DkimSigner.load(path, SELECTOR, DOMAIN)), received, record


@dataclass(frozen=True)
class World:
    """An App with a reply in its outbox, an SMTP sink, a folder."""

    app: App
    row: int
    sink: SmtpSink
    tmp: Path


@pytest.fixture
def world(app: App, stored_row: int, smtp_sink: SmtpSink, tmp_path: Path) -> World:
    """The App, its outbox row, the sink and a folder, together."""
    return World(app, stored_row, smtp_sink, tmp_path)


Sent = tuple[tuple[int, int], bytes, Arrived, bytes]


def _send(world: World, how: Callable[[bytes], bytes], kind: str) -> Sent:
    """Alter the row ``how``, then flush the outbox through a ``kind`` sender: (sent,
    failed), the altered bytes, what arrived, the DKIM record (see :func:`_sender`)."""
    altered = _alter(world.app, world.row, how)
    sender, arrived, record = _sender(kind, world.sink, world.tmp)
    return world.app.outbox(sender).flush(), altered, arrived, record


def _row(app: App, row_id: int) -> OutboxMessage:
    with transaction(app.sessions) as s:
        row = s.get(OutboxMessage, row_id)
        assert row is not None
        s.expunge(row)
        return row


@pytest.mark.parametrize("kind", SENDERS)
@pytest.mark.parametrize("alteration", list(REFUSED))
def test_an_altered_reply_is_refused_by_every_sender(
    world: World, kind: str, alteration: str
) -> None:
    """The altered row is given up at once (no retry: it would be refused again), with a
    reason that says it was altered and how; nothing reached the relay or the Maildir."""
    how, reason = REFUSED[alteration]
    flushed, _altered, arrived, _record = _send(world, how, kind)
    assert flushed == (0, 1)
    row = _row(world.app, world.row)
    assert row.status == "failed" and row.last_error is not None
    assert row.last_error.startswith("not sent: the stored message was altered: ")
    assert reason in row.last_error, row.last_error
    assert arrived() == [] and world.sink.messages == []


def test_the_gm_reads_why_an_altered_reply_was_not_sent(
    app: App, stored_row: int, tmp_path: Path
) -> None:
    """``pbm mail list --outbox`` shows the row failed, and why."""
    _alter(app, stored_row, _after_first_line(b"To: " + EVIL))
    assert app.outbox(MaildirSender(tmp_path / "out")).flush() == (0, 1)
    # a terminal wide enough for the reason on one row: rich wraps a cell to the width
    args = ["mail", "list", "--outbox", "--config", str(_toml(app.config, tmp_path))]
    out = CliRunner().invoke(main, args, env={"COLUMNS": "300"}).output
    words = " ".join(out.replace("│", " ").split())
    assert "failed" in words and "not sent: the stored message was altered" in words, out


@pytest.mark.parametrize("kind", SENDERS)
@pytest.mark.parametrize("alteration", list(NEUTRALISED))
def test_an_altered_reply_is_made_harmless_by_every_sender(
    world: World, kind: str, alteration: str
) -> None:
    """The row is sent once, to the player alone: no Bcc field, no lone CR or LF, no second
    message in the SMTP session; signed, the signature covers exactly the bytes sent."""
    how, gone = NEUTRALISED[alteration]
    flushed, altered, arrived, record = _send(world, how, kind)
    assert flushed == (1, 0)
    assert _row(world.app, world.row).status == "sent"
    [wire] = arrived()
    if kind != "maildir":
        [got] = world.sink.messages
        assert got.rcpt_tos == [PLAYER]
        assert b"\n" not in wire.replace(b"\r\n", b"") and b"\r" not in wire.replace(b"\r\n", b"")
    else:
        assert b"\r" not in wire
    head = re.split(rb"\r?\n\r?\n", wire, maxsplit=1)[0].lower()
    assert gone not in head and gone not in wire.lower().replace(b"\r\n", b"\n")
    assert EVIL not in head
    if kind == "dkim":
        assert dkim.verify(wire, dnsfunc=dns(record))
        signature = re.match(rb"DKIM-Signature:[^\r]*\r\n(?:[ \t][^\r]*\r\n)*", wire)
        assert signature is not None
        assert wire[signature.end() :] == crlf(outgoing(altered))
