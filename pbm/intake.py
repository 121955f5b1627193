"""The one place the pipeline meets the mail parser: raw bytes to an :class:`Incoming` view.

Everything the flows need from a message, flattened: who, what game, which commands, which
secret, and whether it is automatic (and must never be answered).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parseaddr

__all__ = ["Incoming", "message_key", "read_incoming"]


@dataclass(frozen=True, slots=True)
class Incoming:
    """A message as the flows see it."""

    message_id: str | None
    references: tuple[str, ...]
    from_addr: str
    subject: str
    body: str
    code: str | None
    commands: tuple[str, ...]
    secret: str | None
    is_automatic: bool = False
    auto_reason: str = ""
    bounced: tuple[str, ...] = ()  # addresses a DSN says failed
    attachments: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = field(default=())


def message_key(raw: bytes) -> str:
    """The idempotency key: the Message-ID, or a hash of the bytes when it has none."""
    try:
        headers = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
        mid = str(headers.get("Message-ID") or "").strip()
    except Exception:  # any header soup still gets a key
        mid = ""
    mid = " ".join(mid.split())
    if mid and len(mid) <= 500:
        return mid if mid.startswith("<") else f"<{mid}>"
    return "sha256:" + hashlib.sha256(raw).hexdigest()


_TAG = re.compile(r"\[([A-Za-z][A-Za-z0-9]{1,11})\]")
_SECRET = re.compile(r"^\s*SECRET\s*:?\s*(\S+)", re.IGNORECASE | re.MULTILINE)
_AUTO_FROM = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounce[s]?)@", re.IGNORECASE)


def _route_code(subject: str, recipients: list[str], own: str) -> str | None:
    own_local, _, own_domain = own.partition("@")
    for addr in recipients:
        local, _, domain = addr.lower().partition("@")
        base, plus, tag = local.partition("+")
        if plus and base == own_local and domain == own_domain and tag:
            return tag.upper()
    m = _TAG.search(subject)
    return m.group(1).upper() if m else None


def read_incoming(raw: bytes, own_address: str, recipients: tuple[str, ...] = ()) -> Incoming:
    """Parse and classify one message; never raises on malformed mail."""
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    from_addr = parseaddr(str(msg.get("From", "")))[1].lower()
    subject = " ".join(str(msg.get("Subject", "")).split())
    body_part = msg.get_body(preferencelist=("plain", "html"))
    body = ""
    problems: list[str] = []
    if body_part is not None:
        try:
            body = body_part.get_content()
        except (LookupError, ValueError) as exc:
            problems.append(f"could not decode the text: {exc}")
    attachments = tuple(
        str(p.get_filename() or p.get_content_type()) for p in msg.iter_attachments()
    )
    auto_reason = ""
    auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
    prec = str(msg.get("Precedence", "")).strip().lower()
    if auto and auto != "no":
        auto_reason = f"Auto-Submitted: {auto}"
    elif prec in ("bulk", "junk", "list"):
        auto_reason = f"Precedence: {prec}"
    elif not from_addr or _AUTO_FROM.match(from_addr):
        auto_reason = "sender is a mail system"
    elif from_addr == own_address.lower():
        auto_reason = "our own address"
    rcpts = [
        a for _, a in getaddresses([str(v) for v in msg.get_all("To", []) + msg.get_all("Cc", [])])
    ]
    rcpts += list(recipients)
    lines = [ln.strip() for ln in body.splitlines() if ln.strip()]
    commands = tuple(ln.split()[0].upper().rstrip(":") for ln in lines)
    m = _SECRET.search(body)
    mid = str(msg.get("Message-ID") or "").strip() or None
    refs = tuple(str(msg.get("References", "")).split())
    return Incoming(
        message_id=mid,
        references=refs,
        from_addr=from_addr,
        subject=subject,
        body=body,
        code=_route_code(subject, rcpts, own_address),
        commands=commands,
        secret=m.group(1) if m else None,
        is_automatic=bool(auto_reason),
        auto_reason=auto_reason,
        attachments=attachments,
        problems=tuple(problems),
    )
