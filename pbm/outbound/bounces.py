"""Delivery reports: believe one only when it is about a mail pbm sent.

pbm sends every mail with a VERP envelope sender, ``pbm+bounce-<row>-<mac>@host``
(:func:`verp_address`), so a report comes back addressed to the outbox row it concerns, with
an HMAC under ``security.secret_key`` that nobody else can make. A report that reaches
pbm without one is still accepted when it quotes the Message-ID of a mail pbm sent (its
returned headers). Anything else, whatever its ``Final-Recipient`` says, is recorded as
ignored and changes nothing: a forged report cannot silence a player.

The address marked is always the one pbm sent that row to, never one the report names.
``Action: delayed`` is a delay, not a failure (recorded only); a 4.x.x failure is soft and
:data:`SOFT_LIMIT` of them in a row mark the address undeliverable; a 5.x.x failure marks it
at once. The mark is cleared by the GM (``pbm mail deliverable ADDRESS``) or when the player
mails pbm again (:func:`mailed_again`).
"""

from __future__ import annotations

import email
import hashlib
import hmac
import re
from collections.abc import Iterable, Sequence
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, or_, select
from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.db.models import Bounce, Event, OutboxMessage, Player, table_of
from pbm.mail.auto import base_address
from pbm.mail.compose import valid_msgid
from pbm.mail.headers import addresses, raw_headers
from pbm.mail.limits import MAX_MULTIPARTS, count_multiparts

if TYPE_CHECKING:
    from pbm.inbound.context import StoredMail

__all__ = [
    "SOFT_LIMIT",
    "clear",
    "is_report",
    "mailed_again",
    "read_verp",
    "record_report",
    "verp_address",
]

#: Soft bounces in a row before pbm stops mailing an address.
SOFT_LIMIT = 3

_VERP = re.compile(
    r"^(?P<local>[^+@]+)\+bounce-(?P<row>\d{1,12})-(?P<mac>[0-9a-f]{12})@(?P<dom>.+)$"
)
_STATUS = re.compile(r"^\s*([245])\.\d{1,3}\.\d{1,3}")
_MSGID = re.compile(r"<[^<>\s]{1,250}>")


def record_event(s: Session, clock: Clock, event: str, **data: object) -> None:
    """Append to the audit log (an event of no competition)."""
    s.add(Event(at=clock.now(), kind=event, competition_id=None, data=data))


def _mac(key: str, row_id: int) -> str:
    return hmac.new(key.encode(), f"bounce:{row_id}".encode(), hashlib.sha256).hexdigest()[:12]


def verp_address(own_address: str, key: str, row_id: int) -> str:
    """The envelope sender for outbox row ``row_id``: ``local+bounce-<id>-<mac>@domain``."""
    local, _, domain = own_address.rpartition("@")
    return f"{local.split('+', 1)[0]}+bounce-{row_id}-{_mac(key, row_id)}@{domain}"


def read_verp(address: str, own_address: str, key: str | Sequence[str]) -> int | None:
    """The outbox row a VERP address of ours names, if its MAC is right under ``key`` (or
    any of the keys given: a report of mail sent before a key rotation comes back too)."""
    match = _VERP.match(address.strip().strip("<>").lower())
    if match is None:
        return None
    if base_address(f"{match['local']}@{match['dom']}") != base_address(own_address):
        return None
    row = int(match["row"])
    keys = (key,) if isinstance(key, str) else key
    return row if any(hmac.compare_digest(match["mac"], _mac(k, row)) for k in keys) else None


def _recipients(raw: bytes, envelope: Iterable[str]) -> list[str]:
    """Where a report was sent: the envelope, then the headers MTAs and mailboxes add."""
    found = list(envelope)
    try:
        head = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
        for name in ("Delivered-To", "X-Original-To", "Envelope-To", "To"):
            found += [a for _, a in addresses(raw_headers(head, name))]
    except Exception:  # headers beyond reading: the envelope alone
        pass
    return found


def is_report(
    raw: bytes, envelope: Iterable[str], own_address: str, key: str | Sequence[str]
) -> bool:
    """Whether an automatic mail is a delivery report (for pbm's bounce bookkeeping)."""
    if any(read_verp(r, own_address, key) is not None for r in _recipients(raw, envelope)):
        return True
    head = _report(raw)
    return head is not None and head.get_content_type() == "multipart/report"


def _report(raw: bytes) -> Message | None:
    if count_multiparts(raw) > MAX_MULTIPARTS:
        return None
    try:
        return email.message_from_bytes(raw, policy=policy.compat32)
    except Exception:
        return None


def _kind(msg: Message | None) -> str:
    """hard, soft or delay, from the report's delivery-status fields (RFC 3464)."""
    actions: list[str] = []
    statuses: list[str] = []
    if msg is not None:
        try:
            parts = list(msg.walk())
        except RecursionError:
            parts = []
        for part in parts:
            if part.get_content_type() != "message/delivery-status":
                continue
            payload = part.get_payload()
            blocks = payload if isinstance(payload, list) else []
            text = "\n".join(str(b) for b in blocks) if blocks else str(payload)
            for line in text.splitlines():
                name, _, value = line.partition(":")
                if name.strip().lower() == "action":
                    actions.append(value.strip().lower())
                elif name.strip().lower() == "status" and (m := _STATUS.match(value)):
                    statuses.append(m.group(1))
    if actions and all(a in ("delayed", "delivered", "relayed", "expanded") for a in actions):
        return "delay"
    if "5" in statuses:
        return "hard"
    if "4" in statuses:
        return "soft"
    return "soft"  # a report pbm cannot read the status of: counted, not believed at once


def _quoted_ids(msg: Message | None) -> list[str]:
    """Message-IDs in the returned headers or message of a report."""
    if msg is None:
        return []
    found: list[str] = []
    try:
        parts = list(msg.walk())
    except RecursionError:
        return []
    for part in parts[1:]:
        ctype = part.get_content_type()
        if ctype in ("text/rfc822-headers", "message/rfc822-headers"):
            payload = part.get_payload(decode=True)
            text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
            for line in re.findall(r"(?im)^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)", text):
                found += _MSGID.findall(line)
        elif ctype == "message/rfc822" or (part.get("Message-ID") and part is not msg):
            found += _MSGID.findall(str(part.get("Message-ID") or ""))
    return [m for m in found if valid_msgid(m)]


def record_report(
    s: Session,
    clock: Clock,
    mail: StoredMail,
    raw: bytes,
    recipients: Iterable[str],
    own_address: str,
    key: str | Sequence[str],
) -> str:
    """Record a delivery report; returns the note for the inbound mail."""
    report = _report(raw)
    row = None
    for rcpt in _recipients(raw, recipients):
        if (row_id := read_verp(rcpt, own_address, key)) is not None:
            row = s.get(OutboxMessage, row_id)
            if row is not None:
                break
    if row is None:
        for mid in _quoted_ids(report):
            row = s.scalars(select(OutboxMessage).where(OutboxMessage.message_id == mid)).first()
            if row is not None:
                break
    if row is None:
        record_event(s, clock, "bounce-ignored", inbound=mail.id)
        return "bounce ignored: it is not about a mail pbm sent"
    kind = _kind(report)
    now = clock.now()
    address = row.to_addr.lower()
    reason = (mail.subject or "delivery report")[:500]
    s.add(
        Bounce(
            address=address,
            reason=reason,
            inbound_id=mail.id,
            created_at=now,
            kind=kind,
            outbox_id=row.id,
        )
    )
    record_event(s, clock, "bounce", address=address, inbound=mail.id, kind=kind)
    player = s.scalars(select(Player).where(Player.address == address)).first()
    if player is None or kind == "delay":
        return f"bounce ({kind}) for {address}, mail #{row.id}"
    if kind == "soft":
        player.soft_bounces = (player.soft_bounces or 0) + 1
    if player.undeliverable_at is None and (kind == "hard" or player.soft_bounces >= SOFT_LIMIT):
        player.undeliverable_at = now
        player.undeliverable_reason = (
            reason if kind == "hard" else f"{player.soft_bounces} soft bounces: {reason}"
        )[:500]
    return f"bounce ({kind}) for {address}, mail #{row.id}"


def clear(s: Session, address: str) -> bool:
    """Make ``address`` deliverable again; False if it was not marked."""
    player = s.scalars(select(Player).where(Player.address == address.lower())).first()
    if player is None or (player.undeliverable_at is None and not player.soft_bounces):
        return False
    player.undeliverable_at = None
    player.undeliverable_reason = None
    player.soft_bounces = 0
    return True


def mailed_again(s: Session, clock: Clock, address: str) -> None:
    """The player wrote to pbm: their address works again (the reply goes out)."""
    if not address or s.execute(_MARKED, {"address": address.lower()}).first() is None:
        return  # the usual case, found by one Core query: nothing to clear
    if clear(s, address):
        record_event(s, clock, "deliverable", address=address, by="mail")


#: A player whose address is marked (undeliverable or soft bounces), by address.
_MARKED = select(table_of(Player).c.id).where(
    table_of(Player).c.address == bindparam("address"),
    or_(table_of(Player).c.undeliverable_at.is_not(None), table_of(Player).c.soft_bounces > 0),
)
