"""A stored message made ready for the wire, as bytes: what every
:class:`~pbm.mail.ports.Sender`'s ``send_bytes`` sends, so that no sender can skip it.

The outbox keeps each message as pbm composed it; sending it used to mean reading it back
with the email package and letting smtplib flatten it again (a third of a reply's CPU at
send). :func:`outgoing` gives the bytes that path put on the wire, without it: every line end
(CRLF, a lone CR, a lone LF, as the package's parser splits lines) one LF, and no ``Bcc`` or
``Resent-Bcc`` field (smtplib's ``send_message`` drops them; the envelope says who gets the
mail, never a header). It reads only the header block.

The stored bytes are what pbm composed, unless someone altered the row: what pbm never
writes is refused (:class:`~pbm.core.errors.SmtpError`, permanent: the outbox gives the row
up with the reason, which ``pbm mail list --outbox`` shows and the GM's digest counts), never
sent: a NUL byte; a header block that is not ASCII, holds a line that is no field, a CR that
does not end its line, or line ends of two kinds; a line over 998 octets (RFC 5322); a field
a message has once (To, Subject, ...) twice; a field that names an address pbm never writes
(Cc, Reply-To, Sender, Resent-To, ...), through which a reader's answer would go elsewhere.
A lone CR or LF in the body becomes a line end, as before.
``tests/pbm/mail/test_stored_bytes_go_out_as_the_package_sent_them.py`` compares the two
ways over hostile messages; ``tests/pbm/test_an_altered_reply_never_reaches_the_wire.py``
sends altered rows through every sender.
"""

from __future__ import annotations

import re
from typing import NoReturn

from pbm.core.errors import SmtpError

__all__ = ["crlf", "header", "outgoing"]

_EOL = re.compile(rb"\r\n|\r|\n")
#: A header field's first line (RFC 5322 ftext name) or a continuation line.
_FIELD = re.compile(rb"[!-9;-~]+:[^\n]*\n|[ \t][^\n]*\n")
_HIDDEN = (b"bcc:", b"resent-bcc:")
#: RFC 5322's limit of a line, without its line end.
MAX_LINE = 998
#: The fields a message has at most once (RFC 5322, 3.6).
_ONCE = frozenset(
    b"from sender reply-to to cc bcc message-id in-reply-to references subject date".split()
)
#: Fields that name where mail or answers go, which pbm never writes (compose refuses them
#: as extra headers): the envelope says who gets the mail, and nothing else may.
_NEVER = frozenset(
    b"cc sender reply-to return-path resent-to resent-cc resent-from resent-sender"
    b" mail-followup-to mail-reply-to errors-to disposition-notification-to".split()
)


def outgoing(raw: bytes) -> bytes:
    """``raw`` as it goes out: LF line ends, no Bcc or Resent-Bcc field; :class:`SmtpError`
    (permanent) for bytes pbm never composes (see module doc)."""
    if b"\0" in raw:
        _refuse("a NUL byte")
    if b"\r" in raw:
        _line_ends(raw)
        raw = _EOL.sub(b"\n", raw)
    head = _head(raw)
    if head is None:
        _refuse(_malformed(raw))
    fields, body_at = head
    # split, not a regex: a pattern of 999 octets tries each position (20 times the cost)
    if max(map(len, raw.split(b"\n"))) > MAX_LINE:
        lines = enumerate(raw.split(b"\n"), 1)
        line = next(n for n, text in lines if len(text) > MAX_LINE)
        _refuse(f"line {line} is longer than {MAX_LINE} octets")
    seen: set[bytes] = set()
    for field in fields:
        name = field[: field.index(b":")].lower()
        if name in _NEVER:
            _refuse(f"a {_name(field)} field, which pbm never writes")
        if name in _ONCE:
            if name in seen:
                _refuse(f"a second {_name(field)} field")
            seen.add(name)
    if not any(f[:1] in b"Bb" or f[:7].lower() == b"resent-" for f in fields):
        return raw
    kept = b"".join(f for f in fields if not f.lower().startswith(_HIDDEN))
    return kept + raw[body_at - 1 :]


def _refuse(why: str) -> NoReturn:
    raise SmtpError(f"not sent: the stored message was altered: {why}", transient=False)


def _name(field: bytes) -> str:
    return field[: field.index(b":")].decode("ascii")


def _line_ends(raw: bytes) -> None:
    """Refuse a header block (up to its first empty line) whose lines do not all end alike,
    in LF or in CRLF, or that holds any other CR: made one line end each, they would make
    fields of what was a field's value."""
    ends = [at for at in (raw.find(b"\n\n"), raw.find(b"\n\r\n")) if at >= 0]
    crlf = None
    for n, line in enumerate(raw[: min(ends, default=len(raw)) + 1].split(b"\n"), 1):
        if line in (b"", b"\r"):
            return
        ends_cr = line.endswith(b"\r")
        if b"\r" in (line[:-1] if ends_cr else line):
            _refuse(f"a CR inside line {n} of the header block")
        if crlf is None:
            crlf = ends_cr
        elif crlf != ends_cr:
            _refuse(f"line {n} of the header block ends unlike the first (a bare LF or CRLF)")


def _malformed(raw: bytes) -> str:
    """Why the LF-ended ``raw`` has no header block :func:`_head` reads."""
    end = raw.find(b"\n\n")
    if end < 0:
        return "no empty line ends the header block"
    block = raw[: end + 1]
    if (at := _foreign_line(block)) is not None:
        return f"a byte beyond ASCII in line {at} of the header block"
    for n, line in enumerate(block.split(b"\n")[:-1], 1):
        if not _FIELD.fullmatch(line + b"\n") or (n == 1 and line[:1] in b" \t"):
            return f"line {n} of the header block is no header field: {line[:60]!r}"
    return "the header block cannot be read"  # pragma: no cover - _head reads every other


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


def _foreign_line(block: bytes) -> int | None:
    """The first line of a header block with a byte pbm never writes there, or None. The
    block is ASCII but for a player's internationalised address in To (RFC 6531/6532: an
    address such as "jörg@example.de" goes out as it is, in UTF-8, with SMTPUTF8)."""
    if block.isascii():
        return None
    name = b""
    for n, line in enumerate(block.split(b"\n"), 1):
        if line[:1] not in (b" ", b"\t"):
            name = line.split(b":", 1)[0].lower()
        if not line.isascii():
            try:
                line.decode("utf-8")
            except UnicodeDecodeError:
                return n
            if name != b"to":
                return n
    return None


def _head(raw: bytes) -> tuple[list[bytes], int] | None:
    """The header fields of LF-ended ``raw`` (each with its continuation lines) and where its
    body starts; None unless the block is ASCII, every line a field or a continuation (not
    the first), and ends at an empty line."""
    end = raw.find(b"\n\n")
    if end < 0 or _foreign_line(raw[: end + 1]) is not None:
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
