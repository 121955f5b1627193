"""The GM's digest: joins, teams still unnamed, sentences flagged for the GM, mails not
understood, dead letters, bounces.

Every text a player chose (a sentence, a subject, a team name, an address) is shown through
:func:`pbm.textsafe.neutralise_line`, so bidi overrides and control characters cannot
rearrange or hide what the GM reads."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.flungo.squad import Team
from pbm.clock import Clock, utc
from pbm.db.models import (
    Bounce,
    Competition,
    Event,
    Flag,
    FlagStatus,
    InboundMail,
    MailStatus,
    Player,
    Seat,
)
from pbm.textsafe import neutralise_line

__all__ = ["digest_context", "flag_rows", "safe_row"]


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
                    "at": utc(f.created_at).strftime(STAMP),
                }
            )
        )
    return rows


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
                "naming_deadline": utc(comp.naming_deadline).strftime(STAMP),
                "recent_joins": [
                    safe_row(
                        {
                            "seat": e.data.get("seat"),
                            "address": e.data.get("address"),
                            "at": utc(e.at).strftime(STAMP),
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
    shunted = session.scalars(
        select(InboundMail).where(InboundMail.status == MailStatus.SHUNTED).order_by(InboundMail.id)
    ).all()
    bounces = session.scalars(
        select(Bounce).where(Bounce.created_at >= since).order_by(Bounce.id)
    ).all()
    return {
        "headline": "",
        "now": now.strftime(STAMP),
        "since": utc(since).strftime(STAMP),
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
            safe_row(
                {"address": b.address, "reason": b.reason, "at": utc(b.created_at).strftime(STAMP)}
            )
            for b in bounces
        ],
    }
