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
    REPLY_PREFIX,
    Attachment,
    Composed,
    OutboundEmail,
    compose_message,
    make_message_id,
)
from pbm.mail.headers import clean
from pbm.mail.lists import LIST_KINDS, auto_submitted, list_headers
from pbm.outbound.render import render_email

__all__ = [
    "ReplyTo",
    "competition_list_headers",
    "compose_mail",
    "enqueue",
    "queue_mail",
    "tagged_subject",
    "threaded_subject",
]

# What pbm's own subjects begin with (after any tag): its statuses, which it puts after " — "
# in a reply, and its topics. A player answering a pbm mail sends it back; pbm's part is cut
# off before the new one is added, so subjects do not grow with each reply.
_OURS = (
    r"(?:Orders\b|Squad names\b|The GM\b|Refused:|Not understood|Not read:|No game with"
    r"|Naming is closed|Welcome to|How to play|Too many mails|Your new secret|You are already"
    r"|Competition\b|Hit for Six:|The Averages:|Test by Post:|GM digest\b|ALERT:)"
)
#: pbm's separator and all after it, or a subject that is only pbm's own words (as pbm
#: writes them, capitals and all: a player's "orders" is the player's topic).
_STATUS = re.compile(r"\s+—\s+.*$", re.DOTALL)
_OWN = re.compile(rf"^{_OURS}", re.DOTALL)
_TAG = re.compile(r"^\s*\[([^\[\]]{1,40})\]\s*")


def _topic(subject: str) -> tuple[str | None, str]:
    """``subject`` as its first tag (without brackets) and its topic: every reply prefix
    ("Re:", "AW:", "Fwd:"...) and leading tag taken off, however a client stacked them."""
    tag = None
    # spaces folded first: a subject is one line to its reader, and a hostile run of them
    # costs every pattern below nothing
    text = " ".join(clean(subject).split())
    while True:
        before = text
        text = REPLY_PREFIX.sub("", text)
        if found := _TAG.match(text):
            tag = tag or found.group(1).strip()
            text = text[found.end() :]
        if text == before:
            return tag, text.strip()


def _without(text: str, tag: str) -> str:
    """``text`` with every ``[tag]`` in it taken out (a subject carries its tag once)."""
    pattern = re.compile(rf"\s*\[\s*{re.escape(tag)}\s*\]\s*", re.IGNORECASE)
    return " ".join(pattern.sub(" ", text).split())


def threaded_subject(theirs: str, ours: str, tag: str | None) -> str:
    """The subject of pbm's answer (``ours``) to a mail whose subject is ``theirs``: one
    "Re:", one tag, one topic.

    A subject of pbm's that names its own topic under its own tag (a Test by Post over, an
    answer's title) is the topic: "Re: [H6 G72AAY] Test by Post: over 1 sealed". Otherwise
    the player's topic stays, pbm's earlier words cut off, and pbm's status follows it:
    "Re: [DEMO] orders — Orders received (version 2)". The competition's ``tag`` is kept
    (or added)."""
    our_tag, our_topic = _topic(ours)
    their_tag, base = _topic(theirs)
    wanted = our_tag or (clean(tag) if tag else None) or their_tag
    if our_tag:
        topic = our_topic
    else:
        base = "" if _OWN.match(base) else _STATUS.sub("", base).strip()
        topic = f"{base} — {our_topic}" if base else our_topic
    if wanted:
        topic = _without(topic, wanted)
        return f"Re: [{wanted}] {topic}".rstrip()
    return f"Re: {topic}".rstrip()


def tagged_subject(subject: str, tag: str) -> str:
    """``subject`` with the competition's ``[TAG]`` in front, once (so a reply to it is
    routed)."""
    found, topic = _topic(subject)
    wanted = found if found and found.lower() == tag.lower() else tag
    return f"[{wanted}] {_without(topic, wanted)}".rstrip()


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
    from_name: str | None = None,
    kind: str = "",
    html: str | None = None,
    images: Sequence[Attachment] = (),
) -> Composed:
    out = OutboundEmail(
        to=to,
        subject=subject,
        text=text,
        flowed=flowed,
        html=html,
        inline=tuple(images) if html is not None else (),
        from_addr=config.server.address,
        from_name=from_name or config.server.display_name,
        in_reply_to=reply_to.message_id if reply_to else None,
        references=reply_to.references if reply_to else (),
        headers={"X-Auto-Response-Suppress": "All", **(headers or {})},
        auto_submitted=auto_submitted(answer, kind),
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
    images: Sequence[Attachment] = (),
    from_name: str | None = None,
) -> None:
    """Render ``kind`` with ``ctx`` and add the message to the outbox (not yet committed): a
    kind with an HTML twin goes as ``multipart/alternative``, its HTML showing ``images`` (each
    referenced as ``cid:<cid>``); a kind without one goes as text alone. ``from_name``: the
    name a game that signs as itself (Hit for Six) sends and signs with (None: the server's)."""
    composed = compose_mail(
        config,
        clock,
        kind=kind,
        to=to,
        ctx=ctx,
        reply_to=reply_to,
        images=images,
        from_name=from_name,
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
    images: Sequence[Attachment] = (),
    from_name: str | None = None,
) -> Composed:
    """The message :func:`queue_mail` queues, composed but not queued (``pbm mail preview``
    writes it to a file)."""
    signed = {"sender_name": from_name} if from_name else {}
    rendered = render_email(kind, {"server": config.server, **ctx, **signed})
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
        from_name=from_name,
        kind=kind,
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
    # A Core insert, run at once on the session's connection: the unit of work's bookkeeping
    # for one object cost more than rendering the reply, and the session's execute (the
    # ORM's plugin lookup, its event, an autoflush) half again the statement's own cost.
    session.connection().execute(
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
#: running the insert.
_INSERT = insert(table_of(OutboxMessage))
