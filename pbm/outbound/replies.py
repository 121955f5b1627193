"""Queue outbound mail: render a template, compose the message, write an outbox row.

Called inside the transaction of the change the mail reports, so the mail exists if and only
if the change does. Nothing is sent here; :mod:`pbm.outbound.outbox` sends after commit.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.db.models import OutboxMessage, table_of
from pbm.mail.compose import (
    Attachment,
    Composed,
    OutboundEmail,
    compose_message,
    make_message_id,
    reply_subject,
)
from pbm.mail.lists import LIST_KINDS, auto_submitted, list_headers
from pbm.outbound.render import InlineImage, render_email

__all__ = [
    "ReplyTo",
    "competition_list_headers",
    "compose_mail",
    "enqueue",
    "queue_mail",
    "tagged_subject",
    "threaded_subject",
]

# What pbm puts after " — " in a reply's subject: the start of each template's subject. A
# player answering a pbm mail sends it back, and it is cut off before the new one is added,
# so subjects do not grow with each reply.
_STATUS = re.compile(
    r"\s+—\s+(?:Orders\b|Squad names\b|The GM\b|Refused:|Not understood|No game with"
    r"|Naming is closed|Welcome to|How to play|Too many mails|Your new secret|You are already"
    r"|Competition\b).*$",
    re.IGNORECASE | re.DOTALL,
)


def threaded_subject(theirs: str, ours: str, tag: str | None) -> str:
    """The subject of a reply to ``theirs``: "Re: [TAG] <their subject> — <ours>", with the
    competition's tag kept (or added), and any earlier pbm status cut off."""
    base = _STATUS.sub("", theirs)
    return f"{reply_subject(base, tag=tag)} — {ours}"


def tagged_subject(subject: str, tag: str) -> str:
    """``subject`` with the competition's ``[TAG]`` in front (so a reply to it is routed)."""
    wanted = f"[{tag}]"
    return subject if wanted.lower() in subject.lower() else f"{wanted} {subject}"


@dataclass(frozen=True, slots=True)
class ReplyTo:
    """The message being answered, for threading."""

    message_id: str | None
    references: tuple[str, ...] = field(default=())
    subject: str = ""


def _reply(
    config: Config,
    clock: Clock,
    *,
    to: str,
    subject: str,
    text: str,
    reply_to: ReplyTo | None,
    flowed: bool = False,
    answer: bool = True,
    headers: dict[str, str] | None = None,
    html: str | None = None,
    images: Sequence[InlineImage] = (),
) -> Composed:
    inline = tuple(Attachment(i.filename, "image", i.subtype, i.data, cid=i.cid) for i in images)
    out = OutboundEmail(
        to=to,
        subject=subject,
        text=text,
        flowed=flowed,
        html=html,
        inline=inline if html is not None else (),
        from_addr=config.server.address,
        from_name=config.server.display_name,
        in_reply_to=reply_to.message_id if reply_to else None,
        references=reply_to.references if reply_to else (),
        headers={"X-Auto-Response-Suppress": "All", **(headers or {})},
        auto_submitted=auto_submitted(answer),
    )
    message_id = make_message_id(config.server.message_id_domain, seed=uuid.uuid4().hex)
    return compose_message(out, date=clock.now(), message_id=message_id)


def competition_list_headers(config: Config, code: str, name: str) -> dict[str, str]:
    """``List-Id`` and ``List-Unsubscribe`` of competition ``code`` as this pbm sends them."""
    server = config.server
    return list_headers(code, name, server.address, server.message_id_domain)


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
    images: Sequence[InlineImage] = (),
) -> None:
    """Render ``kind`` with ``ctx`` and add the message to the outbox (not yet committed): a
    kind with an HTML twin goes as ``multipart/alternative``, its HTML showing ``images`` (each
    referenced as ``cid:<cid>``); a kind without one goes as text alone."""
    composed = compose_mail(
        config, clock, kind=kind, to=to, ctx=ctx, reply_to=reply_to, images=images
    )
    enqueue(session, clock, composed, kind=kind, to=to, inbound_id=inbound_id)


def compose_mail(
    config: Config,
    clock: Clock,
    *,
    kind: str,
    to: str,
    ctx: dict[str, Any],
    reply_to: ReplyTo | None = None,
    images: Sequence[InlineImage] = (),
) -> Composed:
    """The message :func:`queue_mail` queues, composed but not queued (``pbm mail preview``
    writes it to a file)."""
    rendered = render_email(kind, {"server": config.server, **ctx})
    subject = rendered.subject
    competition = ctx.get("competition")
    tag = competition.get("code") if isinstance(competition, dict) else None
    if reply_to is not None and reply_to.subject and kind not in ("digest", "gm-alert"):
        subject = threaded_subject(reply_to.subject, rendered.subject, tag)
    elif tag and kind not in ("digest", "gm-alert"):
        subject = tagged_subject(subject, str(tag))
    # An answer is mail caused by its recipient's mail; the rest is pbm's own (RFC 3834), and
    # a competition's bulk mail to its teams is list mail (RFC 2919, 2369).
    extra = None
    if reply_to is None and kind in LIST_KINDS and isinstance(competition, dict) and tag:
        extra = competition_list_headers(config, str(tag), str(competition.get("name") or ""))
    return _reply(
        config,
        clock,
        to=to,
        subject=subject,
        text=rendered.flowed,
        reply_to=reply_to,
        flowed=True,
        answer=reply_to is not None,
        headers=extra,
        html=rendered.html,
        images=images,
    )


def enqueue(
    session: Session,
    clock: Clock,
    composed: Composed,
    *,
    kind: str,
    to: str,
    inbound_id: int | None = None,
) -> None:
    """Add a composed message to the outbox, due now (not yet committed): the one way in,
    for replies, reports and zine issues alike, so every row is written (and scrubbed) the
    same way. The caller's transaction commits it with the change it reports, or not."""
    now = clock.now()
    # A Core insert, run at once: the unit of work's bookkeeping for one object cost more
    # than rendering the reply.
    session.execute(
        _INSERT,
        {
            "kind": kind,
            "to_addr": to,
            # subject and raw are scrubbed by their columns' types, here as everywhere
            "subject": composed.subject,
            "message_id": composed.message_id,
            "raw": composed.raw,
            "status": "pending",
            "attempts": 0,
            "next_attempt_at": now,
            "created_at": now,
            "inbound_id": inbound_id,
        },
    )


#: On the table and built once: the ORM's DML plugin and coercing each value cost more than
#: running the insert. (The session still autoflushes before it, as before any statement.)
_INSERT = insert(table_of(OutboxMessage))
