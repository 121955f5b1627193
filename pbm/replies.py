"""Queue outbound mail: render a template, compose the message, write an outbox row.

Called inside the transaction of the change the mail reports, so the mail exists if and only
if the change does. Nothing is sent here; :mod:`pbm.outbox` sends after commit.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from sqlalchemy.orm import Session

from pbm.clock import Clock
from pbm.config import Config
from pbm.db.models import OutboxMessage
from pbm.render import render_email

__all__ = ["ReplyTo", "compose", "queue_mail"]


@dataclass(frozen=True, slots=True)
class ReplyTo:
    """The message being answered, for threading."""

    message_id: str | None
    references: tuple[str, ...] = field(default=())
    subject: str = ""


def compose(
    config: Config,
    clock: Clock,
    *,
    to: str,
    subject: str,
    text: str,
    reply_to: ReplyTo | None,
    auto: str = "auto-replied",
) -> EmailMessage:
    """A complete message: threading headers, ``Auto-Submitted`` and a fresh Message-ID."""
    msg = EmailMessage()
    local, _, domain = config.server.address.partition("@")
    msg["From"] = Address(config.server.display_name, local, domain)
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(clock.now())
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@{config.server.message_id_domain}>"
    if reply_to is not None and reply_to.message_id:
        msg["In-Reply-To"] = reply_to.message_id
        refs = [*reply_to.references, reply_to.message_id]
        msg["References"] = " ".join(dict.fromkeys(refs))
    # RFC 3834: mark every message as automatic so well-behaved robots never answer it.
    msg["Auto-Submitted"] = auto
    msg["X-Auto-Response-Suppress"] = "All"
    msg.set_content(text, charset="utf-8")
    return msg


def queue_mail(
    session: Session,
    config: Config,
    clock: Clock,
    *,
    kind: str,
    to: str,
    ctx: dict[str, Any],
    reply_to: ReplyTo | None = None,
    inbound_id: int | None = None,
) -> OutboxMessage:
    """Render ``kind`` with ``ctx`` and add the message to the outbox (not yet committed)."""
    rendered = render_email(kind, {"server": config.server, **ctx})
    subject = rendered.subject
    if reply_to is not None and reply_to.subject and kind not in ("digest", "gm-alert"):
        base = reply_to.subject
        subject = base if base.lower().startswith("re:") else f"Re: {base}"
        subject = f"{subject} — {rendered.subject}" if rendered.subject else subject
    msg = compose(
        config,
        clock,
        to=to,
        subject=subject,
        text=rendered.text,
        reply_to=reply_to,
        auto="auto-replied" if reply_to is not None else "auto-generated",
    )
    now = clock.now()
    row = OutboxMessage(
        kind=kind,
        to_addr=to,
        subject=str(msg["Subject"]),
        message_id=str(msg["Message-ID"]),
        raw=msg.as_bytes(),
        status="pending",
        attempts=0,
        next_attempt_at=now,
        created_at=now,
        inbound_id=inbound_id,
    )
    session.add(row)
    return row
