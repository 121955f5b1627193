"""Bytes in, an understood mail out: ``parse_message(raw) -> InboundEmail``.

Never raises on any bytes. What could not be understood is listed in ``problems`` and the
daemon answers the sender anyway; the idempotency ``key`` always exists.

The MIME tree is parsed with ``policy.compat32``, not ``policy.default``: the modern policy
re-parses Content-Type into header objects on every access, which made parsing many times
slower (the figures: bench/RESULTS.md, "Figures once written in the code"), and its lazy
header parsing is one more place hostile bytes can raise. pbm reads raw header values and decodes
them itself (``pbm.mail.headers``), so it loses nothing by it.
"""

from __future__ import annotations

import email
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import parsedate_to_datetime

from pbm.mail.addresses import AddressRefused, parse_from
from pbm.mail.auto import Bounce, find_bounce, is_automatic
from pbm.mail.headers import addresses, decoded, header_index, raw_headers
from pbm.mail.limits import MAX_MULTIPARTS, count_multiparts
from pbm.mail.mime import Attachment, BodyText, extract_text
from pbm.mail.quotes import strip_quotes
from pbm.secrets.scrub import scrub_text

__all__ = ["Attachment", "Bounce", "InboundEmail", "normalise_message_id", "parse_message"]

_BODY_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_MSGID = re.compile(r"<([^<>\s]+)>")
#: What an id may not hold: whitespace (``\s`` is ``str.isspace``) or a control character.
_NOT_IN_ID = re.compile(r"[\s\x00-\x20]")
_MAX_MSGID = 250  # longer ids are treated as absent, so the key fits any database column


@dataclass(frozen=True, slots=True)
class InboundEmail:
    """What pbm understood of one inbound message. Addresses are lower-cased addr-specs."""

    message_id: str | None
    content_hash: str
    key: str
    from_addr: str | None
    from_name: str
    reply_to: str | None
    to_addrs: tuple[str, ...]
    cc_addrs: tuple[str, ...]
    delivered_to: tuple[str, ...]
    subject: str
    date: datetime | None
    in_reply_to: str | None
    references: tuple[str, ...]
    body: str
    full_text: str
    attachments: tuple[Attachment, ...]
    notes: tuple[str, ...]
    problems: tuple[str, ...]
    auto_reason: str | None
    bounce: Bounce | None
    #: The MIME tree as parsed (None when it was refused unread or could not be parsed): what
    #: reads a delivery report reads this, never the bytes again.
    tree: Message | None = field(default=None, compare=False, repr=False)

    @property
    def is_automatic(self) -> bool:
        """True if pbm must not answer this mail (see ``auto_reason``)."""
        return self.auto_reason is not None

    @property
    def recipients(self) -> tuple[str, ...]:
        """Envelope hints first, then To and Cc, without repeats."""
        return tuple(dict.fromkeys(self.delivered_to + self.to_addrs + self.cc_addrs))


def normalise_message_id(value: str | None) -> str | None:
    """``<id@host>`` from a Message-ID-like header value, or None if there is none."""
    if not value:
        return None
    match = _MSGID.search(value)
    ident = match.group(1) if match else value.strip()
    if not ident or len(ident) > _MAX_MSGID or _NOT_IN_ID.search(ident):
        return None
    return f"<{ident}>"


def _id_list(values: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"<{m}>" for v in values for m in _MSGID.findall(v)))


def _date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        parsed = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed


def _addrs(index: dict[str, list[str]], *names: str) -> tuple[str, ...]:
    values = [v for n in names for v in index.get(n.lower(), ())]
    if not values:
        return ()
    return tuple(dict.fromkeys(a for _, a in addresses(values)))


def _first(index: dict[str, list[str]], name: str) -> str | None:
    values = index.get(name.lower())
    return values[0] if values else None


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def _body_notes(stripped_quoted: int, stripped_sig: int, forwarded: bool) -> list[str]:
    notes = []
    if stripped_quoted:
        notes.append(f"quoted text removed: {_lines(stripped_quoted)}")
    if stripped_sig:
        notes.append(f"signature removed: {_lines(stripped_sig)}")
    if forwarded:
        notes.append("forwarded message: its headers removed, its text read")
    return notes


def parse_message(raw: bytes, *, own_addresses: Iterable[str] = ()) -> InboundEmail:
    """Understand ``raw``; ``own_addresses`` are pbm's, so mail from them counts as automatic.

    Never raises: a failure inside pbm's own reading is reported in ``problems`` (starting
    "internal error") with the crudest reading of the sender and text, so it can be answered.
    """
    content_hash = hashlib.sha256(raw).hexdigest()
    try:
        return _parse(raw, content_hash, tuple(own_addresses))
    except Exception as exc:  # a bug here must not cost the player their answer
        return _crude(raw, content_hash, f"internal error while reading: {type(exc).__name__}")


def _parse(raw: bytes, content_hash: str, own_addresses: tuple[str, ...]) -> InboundEmail:
    problems: list[str] = []
    too_deep = count_multiparts(raw) > MAX_MULTIPARTS
    parsed = not too_deep  # a whole tree to keep for whoever reads a report
    try:
        if too_deep:  # the headers only: the MIME tree is refused unread (limits.screen)
            msg = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
        else:
            msg = email.message_from_bytes(raw, policy=policy.compat32)
    except Exception as exc:  # the parser is lenient, but never trust that on hostile bytes
        problems.append(f"could not parse the message structure: {type(exc).__name__}")
        msg = email.message_from_string("", policy=policy.compat32)
        parsed = False
    defects = [type(d).__name__ for part in _walk(msg) for d in getattr(part, "defects", [])]
    if defects:
        problems.append("MIME defects: " + ", ".join(sorted(set(defects))))

    try:
        if too_deep:
            body_text = BodyText("", (), (), (f"more than {MAX_MULTIPARTS} MIME parts",))
        else:
            body_text = extract_text(msg)
    except Exception as exc:
        problems.append(f"could not read the text: {type(exc).__name__}")
        body_text = BodyText(_fallback_text(raw), (), (), ())
    problems.extend(body_text.problems)
    full_text = _printable(body_text.text)
    stripped = strip_quotes(full_text)

    headers = header_index(msg)
    message_id = normalise_message_id(_first(headers, "Message-ID"))
    try:
        sender = parse_from(headers.get("from", []))
        from_addr: str | None = sender.address
        from_name = sender.name
        refused = None
    except AddressRefused as exc:  # never answered: pbm would be mailing a guess
        from_addr, from_name, refused = None, "", f"From refused: {exc}"
    reply_to = _addrs(headers, "Reply-To")
    subject = decoded(_first(headers, "Subject"))
    auto_reason = is_automatic(msg, own_addresses, headers=headers, subject=subject) or refused
    bounce = None
    if auto_reason is not None:
        bounce = find_bounce(msg)
    return InboundEmail(
        message_id=message_id,
        content_hash=content_hash,
        key=message_id or f"sha256:{content_hash}",
        from_addr=from_addr,
        from_name=from_name,
        reply_to=reply_to[0] if reply_to else None,
        to_addrs=_addrs(headers, "To"),
        cc_addrs=_addrs(headers, "Cc"),
        delivered_to=_addrs(headers, "Delivered-To", "X-Original-To", "Envelope-To"),
        subject=scrub_text(subject),
        date=_date(_first(headers, "Date")),
        in_reply_to=normalise_message_id(_first(headers, "In-Reply-To")),
        references=_id_list(headers.get("references", [])),
        body=stripped.text,
        full_text=full_text,
        attachments=body_text.attachments,
        notes=(
            *body_text.notes,
            *_body_notes(stripped.quoted_lines, stripped.signature_lines, stripped.forwarded),
            *(
                ["too long to look for quoted text; all of it was read"]
                if stripped.too_long
                else []
            ),
        ),
        problems=tuple(problems),
        auto_reason=auto_reason,
        bounce=bounce,
        tree=msg if parsed else None,
    )


def _crude_from(raw: bytes) -> str | None:
    """The strictly read From of ``raw``'s header block, or None."""
    try:
        head = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
        return parse_from(raw_headers(head, "From")).address
    except Exception:
        return None


def _crude(raw: bytes, content_hash: str, problem: str) -> InboundEmail:
    text = _printable(_fallback_text(raw))
    return InboundEmail(
        message_id=None,
        content_hash=content_hash,
        key=f"sha256:{content_hash}",
        from_addr=_crude_from(raw),
        from_name="",
        reply_to=None,
        to_addrs=(),
        cc_addrs=(),
        delivered_to=(),
        subject="",
        date=None,
        in_reply_to=None,
        references=(),
        body=text,
        full_text=text,
        attachments=(),
        notes=(),
        problems=(problem,),
        auto_reason=None,
        bounce=None,
    )


def _printable(text: str) -> str:
    """Newlines as ``\\n``; other control characters but tab become U+FFFD (PostgreSQL
    refuses NUL in text)."""
    return _BODY_CONTROL.sub("\ufffd", text.replace("\r\n", "\n").replace("\r", "\n"))


def _walk(msg: Message) -> list[Message]:
    try:
        return list(msg.walk())
    except Exception:
        return [msg]


def _fallback_text(raw: bytes) -> str:
    """The bytes after the first blank line, decoded as best we can: better than nothing."""
    _, _, rest = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    return rest.decode("utf-8", "replace")
