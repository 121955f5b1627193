"""The GM's digest: outages since the last digest, joins, teams still unnamed, sentences
flagged for the GM, mails not understood, dead letters, bounces.

Every text a player chose (a sentence, a subject, a team name, an address) is shown through
:func:`pbm.core.textsafe.neutralise_line`, so bidi overrides and control characters cannot
rearrange or hide what the GM reads. So is a server's error text in an outage: it was
neutralised when recorded (:mod:`pbm.ops.incidents`) and is again here."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from engine.flungo.squad import Team
from pbm.core.clock import Clock
from pbm.core.textsafe import neutralise_line
from pbm.db.models import (
    Bounce,
    Competition,
    Event,
    Flag,
    FlagStatus,
    InboundMail,
    Incident,
    JobRun,
    MailStatus,
    OutboxMessage,
    OutboxStatus,
    Player,
    Seat,
)

__all__ = ["digest_context", "duration_text", "flag_rows", "outage_rows", "safe_row"]


def safe_row(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with every string value neutralised for display."""
    return {k: neutralise_line(v) if isinstance(v, str) else v for k, v in row.items()}


STAMP = "%Y-%m-%d %H:%M"


def flag_rows(session: Session, flags: list[Flag]) -> list[dict[str, Any]]:
    """Flags as rows for the digest and ``pbm gm flags``: id, competition, team, the sentence."""
    rows = []
    for f in flags:
        seat = session.get(Seat, f.seat_id)
        comp = session.get(Competition, f.competition_id)
        rows.append(
            safe_row(
                {
                    "id": f.id,
                    "code": comp.code if comp else "?",
                    "seat": seat.number if seat else "?",
                    "team": Team.from_json(seat.team).name if seat else "?",
                    "line": f.line,
                    "text": f.text,
                    "reason": f.reason,
                    "status": f.status,
                    "at": f.created_at.strftime(STAMP),
                }
            )
        )
    return rows


def duration_text(seconds: float) -> str:
    """``2 h 5 min``, ``3 min 20 s``, ``12 s``: how long an outage lasted."""
    s = max(round(seconds), 0)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    if h:
        return f"{h} h {m} min"
    return f"{m} min {sec} s" if m else f"{sec} s"


def outage_rows(session: Session, now: datetime, since: datetime) -> list[dict[str, Any]]:
    """The outages still open or seen since ``since``, oldest first, ready to show."""
    found = session.scalars(
        select(Incident)
        .where(
            or_(
                Incident.resolved_at.is_(None),
                Incident.last_seen >= since,
                Incident.resolved_at >= since,
            )
        )
        .order_by(Incident.first_seen, Incident.id)
    ).all()
    rows = []
    for i in found:
        first = i.first_seen
        end = i.resolved_at if i.resolved_at is not None else None
        rows.append(
            safe_row(
                {
                    "door": i.door,
                    "kind": i.kind,
                    "first_seen": first.strftime(STAMP + ":%S"),
                    "until": end.strftime(STAMP + ":%S") if end else "still open",
                    "open": end is None,
                    "duration": duration_text(((end or now) - first).total_seconds()),
                    "count": i.count,
                    "error": i.last_error or "",
                }
            )
        )
    return rows


def _last_digest(session: Session, now: datetime) -> datetime | None:
    # The digest being written now has its job row at ``now`` already: the one before it.
    when = session.scalar(
        select(func.max(JobRun.ran_at)).where(JobRun.key.like("digest:%"), JobRun.ran_at < now)
    )
    return when if when is not None else None


def _losses(session: Session, since: datetime) -> dict[str, int]:
    dead = session.scalar(
        select(func.count()).where(
            InboundMail.status == MailStatus.SHUNTED, InboundMail.processed_at >= since
        )
    )
    given_up = session.scalar(
        select(func.count()).where(
            OutboxMessage.status == OutboxStatus.FAILED,
            or_(OutboxMessage.created_at >= since, OutboxMessage.next_attempt_at >= since),
        )
    )
    pending = session.scalar(
        select(func.count()).where(OutboxMessage.status == OutboxStatus.PENDING)
    )
    waiting = session.scalar(select(func.count()).where(InboundMail.status == MailStatus.RECEIVED))
    return {
        "dead_letters": int(dead or 0),
        "replies_given_up": int(given_up or 0),
        "replies_pending": int(pending or 0),
        "mail_waiting": int(waiting or 0),
    }


def digest_context(session: Session, clock: Clock, since: datetime | None = None) -> dict[str, Any]:
    """Template context for the digest; "recent" means since ``since`` (default: a day)."""
    now = clock.now()
    since = since or now - timedelta(days=1)
    comps = []
    for comp in session.scalars(select(Competition).order_by(Competition.code)):
        seats = session.scalars(
            select(Seat).where(Seat.competition_id == comp.id).order_by(Seat.number)
        ).all()
        joins = session.scalars(
            select(Event)
            .where(Event.competition_id == comp.id, Event.kind == "join", Event.at >= since)
            .order_by(Event.id)
        ).all()
        unnamed = []
        for seat in seats:
            if not seat.named:
                player = session.get(Player, seat.player_id)
                unnamed.append(
                    safe_row(
                        {
                            "seat": seat.number,
                            "team": Team.from_json(seat.team).name,
                            "address": player.address if player else "?",
                        }
                    )
                )
        comps.append(
            {
                "code": comp.code,
                "name": comp.name,
                "status": comp.status,
                "joined": len(seats),
                "teams": comp.teams,
                "naming_deadline": comp.naming_deadline.strftime(STAMP),
                "recent_joins": [
                    safe_row(
                        {
                            "seat": e.data.get("seat"),
                            "address": e.data.get("address"),
                            "at": e.at.strftime(STAMP),
                        }
                    )
                    for e in joins
                ],
                "unnamed": unnamed,
            }
        )
    not_understood = session.scalars(
        select(InboundMail)
        .where(
            InboundMail.status == MailStatus.REJECTED,
            InboundMail.note.like("not understood%"),
            InboundMail.received_at >= since,
        )
        .order_by(InboundMail.id)
    ).all()
    too_big = session.scalars(
        select(InboundMail)
        .where(InboundMail.note.like("too big%"), InboundMail.received_at >= since)
        .order_by(InboundMail.id)
    ).all()
    shunted = session.scalars(
        select(InboundMail).where(InboundMail.status == MailStatus.SHUNTED).order_by(InboundMail.id)
    ).all()
    bounces = session.scalars(
        select(Bounce).where(Bounce.created_at >= since).order_by(Bounce.id)
    ).all()
    outages_since = _last_digest(session, now) or since
    return {
        "headline": "",
        "now": now.strftime(STAMP),
        "since": since.strftime(STAMP),
        "outages_since": outages_since.strftime(STAMP),
        "outages": outage_rows(session, now, outages_since),
        "outage_losses": _losses(session, outages_since),
        "competitions": comps,
        "flags": flag_rows(
            session,
            list(
                session.scalars(
                    select(Flag).where(Flag.status == FlagStatus.OPEN).order_by(Flag.id)
                )
            ),
        ),
        "not_understood": [
            safe_row(
                {"id": m.id, "from": m.from_addr or "?", "subject": m.subject or "", "note": m.note}
            )
            for m in not_understood
        ],
        "too_big": [
            safe_row(
                {
                    "id": m.id,
                    "from": m.from_addr or m.envelope_from or "?",
                    "subject": m.subject or "",
                    "note": m.note,
                    "answered": m.status == MailStatus.REJECTED,
                }
            )
            for m in too_big
        ],
        "dead_letters": [
            safe_row(
                {
                    "id": m.id,
                    "from": m.from_addr or m.envelope_from or "?",
                    "subject": m.subject or "",
                    "error": ((m.error or "").strip().splitlines() or [""])[-1],
                }
            )
            for m in shunted
        ],
        "bounces": [
            safe_row({"address": b.address, "reason": b.reason, "at": b.created_at.strftime(STAMP)})
            for b in bounces
        ],
    }
