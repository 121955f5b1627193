"""Property tests: whatever header values a player sends or pbm is handed (encoded-words,
CR, LF, NUL, lone surrogates, bidi controls), every reply pbm composes parses back with
exactly the headers pbm meant, none holds CR or LF after any decoding, and the envelope has
exactly one recipient."""

from __future__ import annotations

import base64
import email
import itertools
import re
from datetime import UTC, datetime, timedelta
from email import policy
from email.header import decode_header
from email.utils import getaddresses
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.mail.compose import OutboundEmail, compose, valid_msgid
from pbm.mail.headers import clean
from pbm.testing import RecordingSender
from tests.pbm.conftest import make_config

FRAGMENTS = [
    "=?utf-8?q?=0D=0ABcc:_victim@third.test?=",
    "=?x-bogus?q?a?=",
    "=?utf-8?b?DQpDYzogdjJAdGhpcmQudGVzdA0KDQpCVVk=?=",
    "\r",
    "\n",
    "\r\n",
    "\x00",
    "\ud800",
    "\udcff",
    "\u202e",
    "\u2066",
    "\x85",
    "\x9b",
    "Bcc: v@third.test",
    "<",
    ">",
    "@",
    " ",
    "=?",
    "?=",
    "é",
]
hostile = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=12).map(
    "".join
)
PBM = "pbm@example.test"
PLAYER = "player1@example.test"
DATE = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
_examples = itertools.count()


def decoded_twice(value: str) -> str:
    """A header value RFC 2047-decoded, and the result decoded once more."""
    text = str(value)
    for _ in range(2):
        parts = decode_header(text)
        text = "".join(
            c.decode(cs or "ascii", "replace") if isinstance(c, bytes) else c for c, cs in parts
        )
    return text


def check_reply(raw: bytes, expected_names: list[str]) -> None:
    """The reply's headers are exactly ``expected_names``, to the player alone, and no
    value holds CR, LF or NUL however often it is decoded."""
    head = raw.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
    assert head.isascii()
    for reader in (policy.default, policy.compat32):
        msg = email.message_from_bytes(raw, policy=reader)
        assert list(msg.keys()) == expected_names
        recipients = getaddresses(msg.get_all("To", []) + msg.get_all("Cc", []))
        assert [a for _, a in recipients] == [PLAYER]
        for name, value in msg.items():
            unfolded = re.sub(r"\r?\n(?=[ \t])", "", str(value))  # folding is not a line break
            for text in (unfolded, decoded_twice(unfolded)):
                assert not any(c in text for c in "\r\n\x00"), (name, text)


@settings(max_examples=150, deadline=None)
@given(subject=hostile, name=hostile, parent=hostile, ref=hostile, extra=hostile, text=hostile)
def test_composed_headers_are_exactly_pbms(
    subject: str, name: str, parent: str, ref: str, extra: str, text: str
) -> None:
    """compose(): arbitrary values in every field give exactly pbm's headers, one recipient,
    and the Subject pbm meant (cleaned, encoded-words broken up)."""
    out = OutboundEmail(
        to=PLAYER,
        subject=subject,
        text=text,
        from_addr=PBM,
        from_name=name,
        in_reply_to=parent,
        references=(ref, parent),
        headers={"X-Auto-Response-Suppress": extra},
    )
    msg = compose(out, date=DATE, message_id="<m1@example.test>")
    names = ["From", "To", "Subject", "Date", "Message-ID"]
    if valid_msgid(parent):
        names.append("In-Reply-To")
    if valid_msgid(parent) or valid_msgid(ref):
        names.append("References")
    names += ["Auto-Submitted", "X-Auto-Response-Suppress"]
    names += ["MIME-Version", "Content-Type", "Content-Transfer-Encoding"]
    raw = msg.as_bytes()
    check_reply(raw, names)
    meant = clean(subject)[:200].replace("=?", "= ?")
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert " ".join(str(parsed["Subject"]).split()) == " ".join(meant.split())


def _word(text: str) -> str:
    data = text.encode("utf-8", "surrogatepass")
    return f"=?utf-8?b?{base64.b64encode(data).decode()}?="


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(subject=hostile, mid=hostile, ref=hostile)
def test_replies_through_the_pipeline_have_one_envelope_recipient(
    tmp_path: Path, subject: str, mid: str, ref: str
) -> None:
    """A mail with hostile Subject, Message-ID and References (raw and as encoded-words),
    handled and sent by the outbox: one reply, envelope to the sender alone, exactly pbm's
    headers."""
    db = tmp_path / "p.sqlite3"
    n = next(_examples)  # a new hour each example: the rate limit is not under test here
    clock = FixedClock(DATE + timedelta(hours=n))
    app = App.from_config(make_config(f"sqlite:///{db}", tmp_path), clock, upgrade=not db.exists())
    try:
        ascii_only = "".join(c for c in subject + mid if " " <= c <= "~")
        raw = (
            f"From: {PLAYER}\r\nTo: {PBM}\r\nSubject: {_word(subject)} {ascii_only}\r\n"
            f"Message-ID: <{_word(mid)}{re.sub('[ <>]', '', ascii_only)}.{n}@x>\r\n"
            f"References: {_word(ref)} <{_word(ref)}@y>\r\n\r\nHELP\r\n"
        ).encode("utf-8", "surrogateescape")
        app.inbound.store(raw, "smtp")
        for mail_id in app.inbound.pending_ids():
            app.inbound.process(mail_id)
        sender = RecordingSender()
        sent, failed = app.outbox(sender).flush()
        assert (sent, failed) == (1, 0)
        [envelope] = sender.envelopes
        assert envelope is not None and envelope.rcpt_to == (PLAYER,)
        assert envelope.mail_from.startswith("pbm+bounce-")
        names = ["From", "To", "Subject", "Date", "Message-ID"]
        parsed = sender.sent[0]
        names += [n for n in ("In-Reply-To", "References") if n in parsed]
        names += ["Auto-Submitted", "X-Auto-Response-Suppress"]
        names += ["MIME-Version", "Content-Type"]
        # a text-only reply is one part; one with its HTML twin has no body encoding of its own
        names += [] if parsed.is_multipart() else ["Content-Transfer-Encoding"]
        check_reply(parsed.as_bytes(), names)
        for n in ("In-Reply-To", "References"):
            for ident in str(parsed.get(n, "")).split():
                assert valid_msgid(ident)
    finally:
        app.close()
