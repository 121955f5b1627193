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

import re
from collections.abc import Sequence
from email.message import Message
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, or_, select
from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.core.events import record
from pbm.db.models import Bounce, OutboxMessage, Player, table_of
from pbm.mail.compose import valid_msgid
from pbm.mail.understand import Understood
from pbm.mail.verp import read_verp, verp_address

if TYPE_CHECKING:
    from pbm.inbound.context import StoredMail

__all__ = [
    "SOFT_LIMIT",
    "clear",
    "mailed_again",
    "read_verp",
    "record_report",
    "verp_address",
]

#: Soft bounces in a row before pbm stops mailing an address.
SOFT_LIMIT = 3

_STATUS = re.compile(r"^\s*([245])\.\d{1,3}\.\d{1,3}")
_MSGID = re.compile(r"<[^<>\s]{1,250}>")


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
    report: Understood,
    own_address: str,
    key: str | Sequence[str],
) -> str:
    """Record a delivery report (read from its one parse, ``report.email.tree``); returns
    the note for the inbound mail."""
    tree = report.email.tree
    row = None
    for rcpt in report.recipients:
        if (row_id := read_verp(rcpt, own_address, key)) is not None:
            row = s.get(OutboxMessage, row_id)
            if row is not None:
                break
    if row is None:
        for mid in _quoted_ids(tree):
            row = s.scalars(select(OutboxMessage).where(OutboxMessage.message_id == mid)).first()
            if row is not None:
                break
    if row is None:
        record(s, clock, "bounce-ignored", inbound=mail.id)
        return "bounce ignored: it is not about a mail pbm sent"
    kind = _kind(tree)
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
    record(s, clock, "bounce", address=address, inbound=mail.id, kind=kind)
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
    marked = s.connection().execute(_MARKED, {"address": address.lower()}) if address else None
    if marked is None or marked.first() is None:
        return  # the usual case, found by one Core query: nothing to clear
    if clear(s, address):
        record(s, clock, "deliverable", address=address, by="mail")


#: A player whose address is marked (undeliverable or soft bounces), by address.
_MARKED = select(table_of(Player).c.id).where(
    table_of(Player).c.address == bindparam("address"),
    or_(table_of(Player).c.undeliverable_at.is_not(None), table_of(Player).c.soft_bounces > 0),
)
