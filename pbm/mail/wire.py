"""A stored message made ready for the wire, as bytes: what every
:class:`~pbm.mail.ports.Sender`'s ``send_bytes`` sends, so that no sender can skip it.

The outbox keeps each message as pbm composed it; sending it used to mean reading it back
with the email package and letting smtplib flatten it again (a third of a reply's CPU at
send). :func:`outgoing` gives the bytes that path put on the wire, without it: every line end
(CRLF, a lone CR, a lone LF, as the package's parser splits lines) one LF, and no ``Bcc`` or
``Resent-Bcc`` field (smtplib's ``send_message`` drops them; the envelope says who gets the
mail, never a header). It reads only the header block, and only when every line of it is a
field or a field's continuation in ASCII; any other message (a header line the package would
end the header block at, bytes beyond ASCII) takes the package's way, as before.
``tests/pbm/mail/test_stored_bytes_go_out_as_the_package_sent_them.py`` compares the two
over hostile messages.
"""

from __future__ import annotations

import copy
import re
from email.message import EmailMessage
from email.parser import BytesParser

from pbm.mail.compose import SAFE_POLICY

__all__ = ["crlf", "header", "outgoing"]

_EOL = re.compile(rb"\r\n|\r|\n")
#: A header field's first line (RFC 5322 ftext name) or a continuation line.
_FIELD = re.compile(rb"[!-9;-~]+:[^\n]*\n|[ \t][^\n]*\n")
_HIDDEN = (b"bcc:", b"resent-bcc:")


def outgoing(raw: bytes) -> bytes:
    """``raw`` as it goes out: LF line ends, no Bcc or Resent-Bcc field (see module doc)."""
    if b"\r" in raw:
        raw = _EOL.sub(b"\n", raw)
    head = _head(raw)
    if head is None:
        return _by_package(raw)
    fields, body_at = head
    if not any(f[:1] in b"Bb" or f[:7].lower() == b"resent-" for f in fields):
        return raw
    kept = b"".join(f for f in fields if not f.lower().startswith(_HIDDEN))
    return kept + raw[body_at - 1 :]


def crlf(raw: bytes) -> bytes:
    """LF-ended ``raw`` with CRLF line ends, as SMTP and a DKIM signature want them."""
    return raw.replace(b"\n", b"\r\n")


def header(raw: bytes, name: str) -> str | None:
    """The first ``name`` field's value in ``raw``'s header block, unfolded (for logs and an
    envelope's default); None without one."""
    head = _head(raw if b"\r" not in raw else _EOL.sub(b"\n", raw))
    if head is None:
        return None
    want = name.lower().encode("ascii") + b":"
    fields = head[0]
    for field in fields:
        if field.lower().startswith(want):
            value = field[len(want) :].decode("ascii")
            return " ".join(value.split())
    return None


def _head(raw: bytes) -> tuple[list[bytes], int] | None:
    """The header fields of LF-ended ``raw`` (each with its continuation lines) and where its
    body starts; None unless the block is ASCII, every line a field or a continuation (not
    the first), and ends at an empty line."""
    end = raw.find(b"\n\n")
    if end < 0 or not raw[: end + 1].isascii():
        return None
    fields: list[bytes] = []
    at = 0
    while at <= end:
        line = _FIELD.match(raw, at)
        if line is None or line.end() > end + 1:
            return None
        if line.group()[:1] in b" \t":
            if not fields:
                return None
            fields[-1] += line.group()
        else:
            fields.append(line.group())
        at = line.end()
    return fields, end + 2


def _by_package(raw: bytes) -> bytes:
    """What smtplib's ``send_message`` flattened for a message read with
    :data:`~pbm.mail.compose.SAFE_POLICY`, LF-ended."""
    msg = BytesParser(policy=SAFE_POLICY).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    out = copy.copy(msg)
    del out["Bcc"]
    del out["Resent-Bcc"]
    return out.as_bytes()
