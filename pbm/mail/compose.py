"""Build outbound mail: ``compose(OutboundEmail, date=...) -> EmailMessage``.

Every message threads as a reply, says it is automatic (RFC 3834), and cannot carry a header
smuggled in through player-chosen text, on any Python pbm supports:

* pbm writes every header value itself, as ASCII: unstructured text (Subject, extra headers)
  is cleaned of control characters, any ``=?`` in it is broken up, and the words that are
  not ASCII become RFC 2047 encoded-words of UTF-8 text that has no CR or LF in it;
* Message-ID, In-Reply-To and References carry only syntactically valid message ids
  (``<dot-atom-text@dot-atom-text>``, ASCII, at most 250 characters); anything else is dropped;
* addresses must read back as exactly themselves (:mod:`pbm.mail.addresses`).

The message is generated with ``policy.compat32``, which never decodes what it is given, and
read back with :data:`SAFE_POLICY`, which writes headers parsed from bytes exactly as they
were (``policy.default`` re-parses long header lines, decoding encoded-words on the way:
the CR/LF that CVE-2024-6923 lets through on 3.11.7 and 3.12.1).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email import policy as email_policy
from email.charset import QP, Charset
from email.encoders import encode_base64
from email.header import Header
from email.message import EmailMessage, Message
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.parser import BytesParser
from email.utils import format_datetime, make_msgid
from typing import cast

from pbm.core.errors import MailError
from pbm.mail.addresses import AddressRefused, parse_mailbox
from pbm.mail.encoded_words import UTF8
from pbm.mail.headers import clean, valid_text
from pbm.mail.limits import cut_reply

__all__ = [
    "REPLY_PREFIX",
    "SAFE_POLICY",
    "Attachment",
    "Composed",
    "OutboundEmail",
    "compose",
    "compose_message",
    "make_message_id",
    "qp_body",
    "references_for",
    "reply_subject",
    "valid_msgid",
]

_MAX_REFERENCES = 10
_MAX_SUBJECT = 200
#: "Re:", "AW [2]:", "Fwd :"... stacked; each run of spaces is matched by one ``\s*`` only (two
#: beside each other made a hostile subject of spaces quadratic to read)
REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|antw|wg|fwd?|tr)\s*(?:\[\d+\]\s*)?:\s*)+", re.I)
_TAG = re.compile(r"^\s*(\[[^\[\]]{1,40}\])\s*")
_HEADER_NAME = re.compile(r"^[!-9;-~]+$")  # printable ASCII except ':' (RFC 5322 ftext)
_RESERVED = {"from", "to", "cc", "bcc", "subject", "date", "message-id", "in-reply-to"}
_RESERVED |= {"references", "content-type", "content-transfer-encoding", "mime-version"}
_RESERVED |= {"sender", "reply-to", "return-path", "resent-to", "resent-cc", "resent-bcc"}
_ATEXT = r"[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+"
_MSGID = re.compile(rf"^<{_ATEXT}(?:\.{_ATEXT})*@{_ATEXT}(?:\.{_ATEXT})*>$")
_MAX_MSGID = 250

#: Reads messages and writes their headers back byte for byte (no refolding, no decoding).
SAFE_POLICY = email_policy.default.clone(refold_source="none")
_QP_UTF8 = Charset("utf-8")
_QP_UTF8.body_encoding = QP


def valid_msgid(value: str | None) -> str | None:
    """``value`` if it is one syntactically valid ``<id@host>`` message id, else None."""
    if not value:
        return None
    value = value.strip()
    if len(value) > _MAX_MSGID or not _MSGID.match(value) or "=?" in value:
        return None
    return value


def header_value(text: str) -> str | Header:
    """An unstructured header value pbm can write safely: one line, no control characters,
    no encoded-word of the player's, and non-ASCII words as pbm's own encoded-words."""
    text = clean(text).replace("=?", "= ?")
    if text.isascii():
        return text
    # The whole value as one UTF-8 run: mixing ASCII chunks and encoded-words lets readers
    # disagree on the space between them.
    return Header(text, UTF8)


@dataclass(frozen=True, slots=True)
class OutboundEmail:
    """A mail pbm sends. ``to`` is one address or several; text is the plain-text body,
    ``format=flowed`` (RFC 3676) when ``flowed`` says so."""

    to: str | tuple[str, ...]
    subject: str
    text: str
    from_addr: str
    from_name: str = ""
    html: str | None = None
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    message_id: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    attachments: tuple[Attachment, ...] = ()
    #: pictures the HTML shows (each an ``Attachment`` with its ``cid``): sent with the HTML
    #: as ``multipart/related``
    inline: tuple[Attachment, ...] = ()
    cut: bool = True  # replies are cut at the reply limit; a newsletter is not a reply
    flowed: bool = False
    #: RFC 3834: ``auto-replied`` for an answer, ``auto-generated`` for mail pbm sends of its
    #: own accord (see :mod:`pbm.mail.lists`).
    auto_submitted: str = "auto-replied"


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file pbm attaches (the zine's PDF): its name (made safe), MIME type and bytes; with a
    ``cid``, a picture the HTML part shows as ``cid:<cid>`` (sent inline beside it)."""

    filename: str
    maintype: str
    subtype: str
    data: bytes
    cid: str = ""


def make_message_id(domain: str, *, seed: str | None = None) -> str:
    """A new ``<…@domain>`` Message-ID; with ``seed`` it is derived from it (same seed, same id).

    A seed such as the outbox row's id makes a re-sent message keep its id, so threads and
    duplicate suppression at the receiver both work.
    """
    domain = clean(domain).replace(" ", "") or "localhost"
    if seed is None:
        return make_msgid(domain=domain)
    digest = hashlib.sha256(seed.encode("utf-8")).hexdigest()[:32]
    return f"<pbm.{digest}@{domain}>"


def references_for(
    parent_id: str | None, parent_references: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """The References of a reply: the parent's references then its id, at most ten, oldest kept.

    The first id (the thread's root) is kept and the middle trimmed, as RFC 5322 §3.6.4 suggests.
    """
    refs = tuple(dict.fromkeys(r for r in (*parent_references, parent_id) if r))
    if len(refs) > _MAX_REFERENCES:
        refs = (refs[0], *refs[-(_MAX_REFERENCES - 1) :])
    return refs


def reply_subject(subject: str, *, tag: str | None = None) -> str:
    """``"Re: "`` once in front of ``subject``; a game tag like ``[ABC]`` is kept (or added)."""
    text = clean(subject)
    found_tag = None
    for _ in range(3):  # "[ABC] Re: Re: x", "Re: [ABC] AW: x" ...
        text = REPLY_PREFIX.sub("", text)
        match = _TAG.match(text)
        if match and found_tag is None:
            found_tag = match.group(1)
            text = text[match.end() :]
    wanted = f"[{clean(tag)}]" if tag else None
    if wanted and (found_tag is None or found_tag.lower() != wanted.lower()):
        if found_tag is not None:
            text = f"{found_tag} {text}"
        found_tag = wanted
    parts = ["Re:", found_tag, text.strip()]
    return " ".join(p for p in parts if p)


def _address(addr: str, name: str = "") -> str:
    """``addr`` (with a display name) as header text, if it reads back as exactly itself."""
    addr = addr.strip()
    try:
        if parse_mailbox(addr).address != addr.lower():
            raise AddressRefused("it reads as another address")
    except AddressRefused as exc:
        raise MailError(f"not a usable mail address: {addr!r} ({exc})") from exc
    if not addr.isascii():  # SMTPUTF8 (RFC 6532): the header carries the UTF-8 bytes
        addr = addr.encode("utf-8").decode("ascii", "surrogateescape")
    name = clean(name).replace("=?", "= ?")
    if not name:
        return addr
    if name.isascii():
        quoted = name.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{quoted}" <{addr}>'
    encoded = Header(name, UTF8).encode()
    return f"{encoded} <{addr}>"


_SAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]+")
_CID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def _attachment(a: Attachment) -> Message:
    """A base64 part; its filename is reduced to ASCII letters, digits, dots and dashes, so
    no name can carry a header parameter or a path."""
    name = _SAFE_FILENAME.sub("-", a.filename).strip(".-")[:80] or "attachment"
    if not (_HEADER_NAME.match(a.maintype) and _HEADER_NAME.match(a.subtype)):
        raise MailError(f"refusing attachment type {a.maintype}/{a.subtype}")
    part = MIMENonMultipart(a.maintype, a.subtype)
    part.set_payload(a.data)
    encode_base64(part)
    if a.cid:
        if not _CID.match(a.cid):
            raise MailError(f"refusing Content-ID {a.cid!r}")
        part.add_header("Content-ID", f"<{a.cid}>")
        part.add_header("Content-Disposition", "inline", filename=name)
    else:
        part.add_header("Content-Disposition", "attachment", filename=name)
    return part


def _text_part(text: str, subtype: str, *, flowed: bool = False) -> Message:
    part = MIMENonMultipart("text", subtype)
    part.set_payload(text, _QP_UTF8)
    if flowed:
        part.set_param("format", "flowed")
    return part


def compose(out: OutboundEmail, *, date: datetime, message_id: str | None = None) -> EmailMessage:
    """The message :func:`compose_message` writes for ``out``, read back as an
    ``EmailMessage`` with :data:`SAFE_POLICY` (its ``as_bytes()`` gives those bytes again):
    for a reader of the message, not a second composer."""
    msg = BytesParser(policy=SAFE_POLICY).parsebytes(
        compose_message(out, date=date, message_id=message_id).raw
    )
    assert isinstance(msg, EmailMessage)
    return msg


def _headers(
    out: OutboundEmail, date: datetime, message_id: str | None
) -> list[tuple[str, str | Header]]:
    """The headers pbm writes before the MIME ones, in order; unstructured values as
    :func:`header_value` gives them (a ``Header`` for one that is not ASCII)."""
    recipients = (out.to,) if isinstance(out.to, str) else out.to
    subject = clean(out.subject)
    heads: list[tuple[str, str | Header]] = [
        ("From", _address(out.from_addr, out.from_name)),
        ("To", ", ".join(_address(a) for a in recipients)),
        ("Subject", header_value(subject[:_MAX_SUBJECT])),
        ("Date", format_datetime(date)),
    ]
    domain = out.from_addr.rpartition("@")[2]
    mid = valid_msgid(message_id or out.message_id) or valid_msgid(make_message_id(domain))
    heads.append(("Message-ID", mid or make_msgid(domain="localhost")))
    parent = valid_msgid(out.in_reply_to)
    if parent:
        heads.append(("In-Reply-To", parent))
    refs = [r for r in (valid_msgid(x) for x in out.references) if r]
    if parent and parent not in refs:
        refs.append(parent)
    if refs:
        heads.append(("References", " ".join(references_for(None, tuple(refs)))))
    if out.auto_submitted not in ("auto-replied", "auto-generated"):
        raise MailError(f"not an Auto-Submitted value pbm sends: {out.auto_submitted!r}")
    heads.append(("Auto-Submitted", out.auto_submitted))
    for name, value in out.headers.items():
        if not _HEADER_NAME.match(name) or name.lower() in _RESERVED:
            raise MailError(f"refusing to set header {name!r}")
        heads.append((name, header_value(value)))
    return heads


#: compat32's line length: a header line longer than this is folded by the email package.
_FOLD_AT = 78
_PLAIN_MIME = (
    b'MIME-Version: 1.0\nContent-Type: text/plain; charset="utf-8"\n'
    b"Content-Transfer-Encoding: quoted-printable\n\n"
)
_FLOWED_MIME = _PLAIN_MIME.replace(b'charset="utf-8"', b'charset="utf-8"; format="flowed"')
# A part's own headers, in the order the package writes them (set_param("format") moves
# Content-Type after the transfer encoding).
_PART_PLAIN = b"MIME-Version: 1.0\n" + _PLAIN_MIME.removeprefix(b"MIME-Version: 1.0\n")
_PART_FLOWED = (
    b"MIME-Version: 1.0\nContent-Transfer-Encoding: quoted-printable\n"
    b'Content-Type: text/plain; charset="utf-8"; format="flowed"\n\n'
)
_PART_HTML = _PART_PLAIN.replace(b"text/plain", b"text/html")


@functools.lru_cache(maxsize=4096)
def _folded(text: str) -> str:
    """``Header(text, "utf-8")`` as the package writes it (remembered, as subjects repeat)."""
    return Header(text, UTF8).encode(linesep="\n", maxlinelen=_FOLD_AT)


def _plain_bytes(
    heads: list[tuple[str, str | Header]], text: str, *, flowed: bool = False
) -> bytes | None:
    """The bytes the email package writes for a plain-text message whose every header is
    one short ASCII line, written directly (the package's generator and header folding were
    most of a reply's cost); None for anything else, which the package writes.

    The same bytes exactly: ``tests/pbm/mail/test_compose_fast.py`` compares the two."""
    if not text or "\r" in text:
        return None
    head = _head_bytes(heads)
    if head is None:
        return None
    mime = _FLOWED_MIME if flowed else _PLAIN_MIME
    return head + mime + _qp(text)


def _alternative_bytes(
    heads: list[tuple[str, str | Header]], text: str, html: str, *, flowed: bool = False
) -> bytes | None:
    """The bytes the email package writes for a text part and its HTML twin (no pictures,
    no attachments) under the same short ASCII headers as :func:`_plain_bytes`, written
    directly: the package's generator cost five to fifteen times the direct path, on every
    reply. None for anything else, which the package writes.

    The same bytes exactly: ``tests/pbm/mail/test_compose_fast.py`` compares the two."""
    if not text or not html or "\r" in text or "\r" in html:
        return None
    head = _head_bytes(heads)
    if head is None:
        return None
    mid = str(dict(heads)["Message-ID"])
    boundary = f"=_pbm_{hashlib.sha256(mid.encode()).hexdigest()[:24]}".encode("ascii")
    return b"".join(
        (
            head,
            b'MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="',
            boundary,
            b'"\n\n--',
            boundary,
            b"\n",
            _PART_FLOWED if flowed else _PART_PLAIN,
            _qp(text),
            b"\n--",
            boundary,
            b"\n",
            _PART_HTML,
            _qp(html),
            b"\n--",
            boundary,
            b"--\n",
        )
    )


def _qp(text: str) -> bytes:
    """What Message.set_payload(text, utf-8 with QP) stores and the generator writes:
    ``quoprimime.body_encode`` of its UTF-8 bytes, the same bytes
    (``tests/pbm/mail/test_compose_fast.py``), but with each kind of byte to quote replaced
    by its ``=XX`` through the whole body at once (or, past a few kinds, each run of them by
    one regex callback), where the package's ``str.translate`` through a table of 256
    strings was most of the encoding of an HTML twin; the line breaking below is the
    package's."""
    # "=" is most of what an HTML twin quotes (every attribute): replaced at once, not one
    # regex callback a run; the rest (beyond ASCII, controls) a run at a time
    raw = text.encode("utf-8").replace(b"=", b"=3D")
    others = set(raw.translate(None, _QP_KEEP))
    if len(others) <= _QP_FEW:
        # a few kinds of byte to quote (a reply's dashes and quotes): each replaced at once,
        # its "=XX" holding only bytes kept as they are, so no replacement touches another's
        for byte in others:
            raw = raw.replace(bytes((byte,)), b"=%02X" % byte)
        body = raw.decode("ascii")
    else:
        body = _QP_QUOTE.sub(_qp_run, raw).decode("ascii")
    if not body:
        return b""
    out: list[str] = []
    append = out.append
    for line in body.splitlines():
        start = 0
        laststart = len(line) - 1 - _QP_LINE
        while start <= laststart:
            stop = start + _QP_LINE - 1
            if line[stop - 2] == "=":  # never break an escape
                append(line[start : stop - 1])
                start = stop - 2
            elif line[stop - 1] == "=":
                append(line[start:stop])
                start = stop - 1
            else:
                append(line[start:stop] + "=")
                start = stop
        if line and line[-1] in " \t":  # a blank at the end of a line is written quoted
            room = start - laststart
            if room >= 3:
                tail = f"={ord(line[-1]):02X}"
            elif room == 2:
                tail = line[-1] + "=\n"
            else:
                tail = f"=\n={ord(line[-1]):02X}"
            append(line[start:-1] + tail)
        else:
            append(line[start:])
    if body[-1] in "\r\n":
        append("")
    return "\n".join(out).encode("ascii")


#: A text part's quoted-printable body as the composer writes it (the outbox writes a part
#: again with its secrets filled in).
qp_body = _qp

_QP_LINE = 76
#: What quoted-printable keeps as it is in a body: printable ASCII, space, tab, and the line
#: ends (``email.quoprimime``'s table for bodies, and "=", which :func:`_qp` quotes first).
_QP_KEEP = bytes(range(32, 127)) + b" \t\r\n"
#: Up to how many kinds of byte to quote are each replaced through the whole body at once.
_QP_FEW = 12
_QP_QUOTE = re.compile(b"[^" + re.escape(_QP_KEEP) + b"]+")


def _qp_run(found: re.Match[bytes]) -> bytes:
    return b"=" + found.group().hex("=").upper().encode("ascii")


def _head_bytes(heads: list[tuple[str, str | Header]]) -> bytes | None:
    """The header lines as the package writes them, when each is one short ASCII line (or
    pbm's own encoded words); None when the package would fold or encode one its own way."""
    lines = []
    for name, value in heads:
        if isinstance(value, Header):  # pbm's own encoded-words, folded as the package does
            lines.append(f"{name}: {_folded(str(value))}\n")
            continue
        if (
            not value.isascii()
            or "=?" in value
            or "  " in value
            or value != value.strip()
            or len(name) + 2 + len(value) > _FOLD_AT
        ):
            return None
        lines.append(f"{name}: {value}\n")
    return "".join(lines).encode("ascii")


@dataclass(frozen=True, slots=True)
class Composed:
    """A composed message's bytes, with what a reader of them finds in its headers."""

    raw: bytes
    subject: str  # the Subject as it reads decoded
    message_id: str
    #: the texts that went in as written (header values and the body), when the bytes were
    #: written directly; empty when the email package wrote them
    texts: tuple[str, ...] = ()


def compose_message(
    out: OutboundEmail, *, date: datetime, message_id: str | None = None
) -> Composed:
    """The one composer: the message for ``out`` as the bytes to send, dated ``date`` (pbm
    never reads the clock here), with the Subject and Message-ID it wrote (so the caller need
    not parse the bytes back for them).

    ``message_id`` (or ``out.message_id``) is used if it is a valid message id; otherwise one
    is made for the sender's domain. Raises ``MailError`` if an address is unusable or a
    header name is invalid. A reply's text is cut at ``limits.MAX_REPLY_CHARS``."""
    if date.tzinfo is None:
        raise ValueError("compose() needs an aware datetime")
    text = cut_reply(valid_text(out.text)) if out.cut else valid_text(out.text)
    heads = _headers(out, date, message_id)
    values = dict(heads)
    subject = _unstructured(values["Subject"])
    mid = str(values["Message-ID"])
    if not out.attachments and not out.inline:
        html = valid_text(out.html) if out.html is not None else None
        direct = (
            _plain_bytes(heads, text, flowed=out.flowed)
            if html is None
            else _alternative_bytes(heads, text, html, flowed=out.flowed)
        )
        if direct is not None:
            texts = (*(_unstructured(v) for _, v in heads), text, *([html] if html else []))
            return Composed(direct, subject, mid, texts)
    return Composed(_package_bytes(out, heads, text), subject, mid)


def _unstructured(value: str | Header) -> str:
    return str(value) if isinstance(value, Header) else value


def _package_bytes(out: OutboundEmail, heads: list[tuple[str, str | Header]], text: str) -> bytes:
    """The message written by the email package (any message :func:`compose_message` takes):
    ``mixed`` (attachments) around ``alternative`` (text first, then the HTML, inside
    ``related`` with its pictures when it has any)."""
    body: Message
    if out.html is None:
        body = _text_part(text, "plain", flowed=out.flowed)
    else:
        html: Message = _text_part(valid_text(out.html), "html")
        if out.inline:
            related = MIMEMultipart("related", type="text/html")
            related.attach(html)
            for image in out.inline:
                related.attach(_attachment(image))
            html = related
        body = MIMEMultipart("alternative")
        body.attach(_text_part(text, "plain", flowed=out.flowed))
        body.attach(html)
    if out.attachments:
        mixed = MIMEMultipart("mixed")
        mixed.attach(body)
        for a in out.attachments:
            mixed.attach(_attachment(a))
        body = mixed
    for name, value in heads:
        body[name] = cast(str, value)
    if body.is_multipart():
        # Boundaries derived from the Message-ID keep the bytes reproducible for golden tests.
        token = hashlib.sha256(str(body["Message-ID"]).encode()).hexdigest()[:24]
        _set_boundaries(body, f"=_pbm_{token}")
    # MIMEText put MIME-Version and Content-* first: move them after the address headers.
    for name in ("MIME-Version", "Content-Type", "Content-Transfer-Encoding"):
        values = body.get_all(name) or []
        del body[name]
        for value in values:
            body[name] = value
    return body.as_bytes(policy=email_policy.compat32)


def _set_boundaries(part: Message, boundary: str) -> None:
    """``boundary`` on ``part`` and a longer one on each multipart inside it, so no boundary
    is a prefix of another's line."""
    part.set_boundary(boundary)
    suffixes = {"alternative": "_alt", "related": "_rel"}
    for child in part.get_payload():
        if isinstance(child, Message) and child.is_multipart():
            _set_boundaries(child, boundary + suffixes.get(child.get_content_subtype(), "_in"))
