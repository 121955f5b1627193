"""The outbox sends a stored reply's bytes as they are (``Sender.send_bytes``), and what goes
out reads as what the email package's reading and smtplib's flattening sent: the same header
fields, the same parts, no Bcc, every line CRLF on the wire; a secret is filled only where
pbm's text put its placeholder, never into a header. Hostile rows (a CR or a Bcc in the
headers, a header line the package ends the block at, bytes beyond ASCII, a placeholder in
the Subject) are checked through every sender: SMTP, Maildir, DKIM signing, the fake."""

from __future__ import annotations

import copy
import io
import re
from email import policy
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import dkim
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.core.config import SecurityConfig
from pbm.core.errors import SmtpError
from pbm.mail.compose import SAFE_POLICY
from pbm.mail.dkim import DkimSigner, SigningSender
from pbm.mail.maildir import MaildirSender
from pbm.mail.ports import Envelope
from pbm.mail.smtp import SmtpSender
from pbm.mail.wire import crlf, header, outgoing
from pbm.outbound.outbox import _fill, _ready
from pbm.secrets.seats import SecretBox
from pbm.secrets.shapes import secret_placeholder
from pbm.testing import RecordingSender
from tests.integration.test_dkim import DOMAIN, SELECTOR, dns, keypair
from tests.pbm.test_own_mail_scrub import _composed, _messages
from tests.services import SmtpSink

_EOL = re.compile(rb"\r\n|\r|\n")

# What a hostile row may hold in or near its header block.
_header_edits = st.sampled_from(
    [
        b"",
        b"\rBcc: evil@attacker.test",
        b"\nbcc: evil@attacker.test\n",
        b"\nResent-Bcc: evil@attacker.test\n",
        b"\nBCC:\n evil@attacker.test\n",
        b"\nFrom nobody\n",
        b"\n:x\n",
        b"\r\n",
        b"\n\tfolded",
        b"\xff",
        b"\nX-Evil: \xe2\x84\xaa\n",
    ]
)


def _package_wire(raw: bytes) -> bytes:
    """What smtplib's ``send_message`` put on the wire for the outbox's old reading."""
    msg = BytesParser(policy=SAFE_POLICY).parsebytes(raw)
    out = copy.copy(msg)
    del out["Bcc"]
    del out["Resent-Bcc"]
    buf = io.BytesIO()
    BytesGenerator(buf).flatten(out, linesep="\r\n")
    return buf.getvalue()


def _read(raw: bytes) -> list[tuple[list[tuple[str, str]], object]]:
    """Each part's header fields (name, value as a reader sees it) and decoded payload."""
    msg = BytesParser(policy=policy.compat32).parsebytes(raw)
    return [
        (
            [(n.lower(), " ".join(str(v).split())) for n, v in part.items()],
            None if part.is_multipart() else part.get_payload(decode=True),
        )
        for part in msg.walk()
    ]


def _head_names(wire: bytes) -> list[bytes]:
    """The field names of the header block (up to the first empty line; none if the message
    starts with one)."""
    head = b"" if wire.startswith(b"\r\n") else wire.split(b"\r\n\r\n", 1)[0]
    return [line.split(b":")[0].lower() for line in head.split(b"\r\n") if line[:1] not in b" \t"]


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=_messages(), edit=_header_edits, at=st.integers(0, 500))
def test_what_goes_out_reads_as_what_the_package_sent(raw: bytes, edit: bytes, at: int) -> None:
    """For pbm's composed mail, edited anywhere by something hostile: either it is refused
    (permanently, saying it was altered), or the bytes on
    the wire are CRLF throughout, carry no Bcc field, and read (header fields, parts) as the
    package's flattening did; the package's one change of a body, '>' before a line's
    'From ', is no longer made (the stored bytes go as they are). Bytes the package could
    not write at all go as stored, less their Bcc."""
    raw = raw[:at] + edit + raw[at:]
    try:
        wire = crlf(outgoing(raw))
    except SmtpError as exc:
        assert not exc.transient, exc
        assert str(exc).startswith("not sent: the stored message was altered: ")
        return
    assert b"\r" not in wire.replace(b"\r\n", b"") and b"\n" not in wire.replace(b"\r\n", b"")
    assert b"bcc" not in _head_names(wire) and b"resent-bcc" not in _head_names(wire)
    try:
        old = _package_wire(raw).replace(b"\n>From ", b"\nFrom ")
    except UnicodeEncodeError:
        # The package could not send these bytes at all (a byte beyond ASCII outside any
        # header, which its generator cannot write): they go as stored, less their Bcc.
        hidden = ("bcc", "resent-bcc")
        stored = _read(_EOL.sub(b"\r\n", raw))
        stored[0] = ([f for f in stored[0][0] if f[0] not in hidden], stored[0][1])
        assert _read(wire) == stored
        return
    assert _read(wire) == _read(_EOL.sub(b"\r\n", old))


def test_a_composed_reply_goes_out_byte_for_byte_as_stored() -> None:
    """A reply in the composer's shape is sent exactly as stored, but for CRLF."""
    raw = _reply("Your orders.", "<p>Your orders.</p>")
    assert outgoing(raw) is raw
    assert crlf(raw) == _package_wire(raw)


BOX = SecretBox(SecurityConfig(secret_key="wire-test-key-0123456789abcdef"))
HOLDER = secret_placeholder(7, 2)


def _reply(text: str, html: str | None, subject: str = "Re: [CCC] join") -> bytes:
    return _composed(subject, text, html, "")


_words = st.text(
    st.characters(
        codec="utf-8", categories=("L", "M", "N", "P", "S", "Zs", "Cc"), exclude_characters="\r"
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    before=_words,
    after=_words,
    html=st.booleans(),
    subject=st.sampled_from(["Re: [CCC] join", f"Re: {HOLDER}", "Re: é " * 20]),
)
def test_secrets_are_filled_as_the_package_filled_them(
    before: str, after: str, html: bool, subject: str
) -> None:
    """A reply waiting for a secret (in its text and its HTML twin, at any place of a long
    line) reads, once filled without the package, as the package's filling read: the same
    headers, the same texts with the secret in them (the package also ended an HTML text
    with a line end); the Subject keeps its placeholder."""
    text = f"{before}{HOLDER}{after}\n" * 3
    raw = _reply(text, f"<p>{before}{HOLDER}{after}</p>" if html else None, subject)
    ready = _ready(raw, BOX)
    package = _fill(raw, BOX)
    assert package is not None
    ours, theirs = _read(ready), _read(package.as_bytes())
    content = ("content-type", "content-transfer-encoding", "mime-version")
    assert [[f for f in h if f[0] not in content] for h, _ in ours] == [
        [f for f in h if f[0] not in content] for h, _ in theirs
    ]
    # set_content ended a text without a line end with one; the composer's text is kept
    assert [p for _, p in ours] == [
        p[:-1] if isinstance(p, bytes) and isinstance(o, bytes) and not o.endswith(b"\n") else p
        for (_, p), (_, o) in zip(theirs, ours, strict=True)
    ]
    secret = BOX.derive(7, 2).encode()
    assert secret in b"".join(p for _, p in ours if isinstance(p, bytes))
    assert (HOLDER in subject) == (HOLDER in (header(ready, "Subject") or ""))
    assert max(len(line) for line in ready.split(b"\n")) <= 998


def test_a_reply_without_a_placeholder_is_not_written_again() -> None:
    """No placeholder: the stored bytes themselves are handed to the sender."""
    raw = _reply("Orders received.", "<p>Orders received.</p>")
    assert _ready(raw, BOX) is raw


# -- every sender, one hostile row -------------------------------------------------------------

HOSTILE = _reply(f"Your secret: {HOLDER}\nFrom the captain\n", None, subject="Re: x").replace(
    b"Subject: Re: x\n", b"Subject: Re: x\rBcc: evil@attacker.test\nresent-bcc: e2@attacker.test\n"
)
ENVELOPE = Envelope("bounces+1@example.test", ("player1@example.test",))


def _check_wire(wire: bytes) -> None:
    """What a hostile row must look like wherever it arrives."""
    assert b"bcc" not in _head_names(_EOL.sub(b"\r\n", wire))
    assert b"attacker" not in wire
    msg = BytesParser(policy=policy.default).parsebytes(wire)
    assert isinstance(msg, EmailMessage)
    body = msg.get_body(("plain",))
    assert body is not None
    text = body.get_content()
    assert BOX.derive(7, 2) in text and HOLDER not in text
    assert "\nFrom the captain" in text  # no '>' added


@pytest.fixture
def ready() -> bytes:
    return _ready(HOSTILE, BOX)


def test_smtp_sends_the_hostile_row_clean(smtp_sink: SmtpSink, ready: bytes) -> None:
    """Through SMTP: the envelope is the row's alone, no Bcc reaches the wire."""
    with SmtpSender("127.0.0.1", smtp_sink.port, security="plain") as sender:
        sender.send_bytes(ready, ENVELOPE)
    (got,) = smtp_sink.wait_for(1)
    assert got.mail_from == ENVELOPE.mail_from
    assert got.rcpt_tos == list(ENVELOPE.rcpt_to)
    assert b"\n" not in got.original_content.replace(b"\r\n", b"")
    _check_wire(got.original_content)


def test_maildir_stores_the_hostile_row_clean(tmp_path: Path, ready: bytes) -> None:
    """Into a Maildir: one file, LF line ends, no Bcc."""
    sender = MaildirSender(tmp_path / "out")
    sender.send_bytes(ready, ENVELOPE)
    (stored,) = sender.messages()
    assert b"\r" not in stored
    _check_wire(stored)


def test_a_signed_hostile_row_verifies_and_is_clean(
    tmp_path: Path, smtp_sink: SmtpSink, ready: bytes
) -> None:
    """Signed with DKIM over the bytes that go out: the signature verifies at the sink."""
    path, record = keypair(tmp_path)
    signer = DkimSigner.load(path, SELECTOR, DOMAIN)
    inner = SmtpSender("127.0.0.1", smtp_sink.port, security="plain")
    with inner:
        SigningSender(inner, signer).send_bytes(ready, ENVELOPE)
    (got,) = smtp_sink.wait_for(1)
    assert dkim.verify(got.original_content, dnsfunc=dns(record))
    _check_wire(got.original_content)


def test_the_fake_records_the_hostile_row_clean(ready: bytes) -> None:
    """The fake sender records what would go out, with the envelope."""
    sender = RecordingSender()
    sender.send_bytes(ready, ENVELOPE)
    (msg,) = sender.sent
    assert sender.envelopes == [ENVELOPE]
    _check_wire(msg.as_bytes())
