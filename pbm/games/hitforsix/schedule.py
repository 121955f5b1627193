"""Test by Post's jobs for the scheduler (:mod:`pbm.scheduler`), as values: each over's
reminder and deadline, each run exactly once by its key (``h6-reminder:<wire>:<over>``,
``h6-deadline:<wire>:<over>``), and the next time one falls due for the daemon's wait."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.games.hitforsix import HitForSix
from pbm.games.hitforsix.card_images import hand_images
from pbm.games.hitforsix.models import H6Match
from pbm.games.hitforsix.post import reminder_at, tick_match
from pbm.outbound.replies import queue_mail

__all__ = ["OverDeadline", "OverJob", "OverReminder", "due", "next_due", "run"]


@dataclass(frozen=True, slots=True)
class OverReminder:
    """Remind the seats of match ``wire`` whose over ``over`` still waits for their answer."""

    wire: str
    over: int

    @property
    def key(self) -> str:
        """The idempotency key (the format stored before jobs were values)."""
        return f"h6-reminder:{self.wire}:{self.over}"


@dataclass(frozen=True, slots=True)
class OverDeadline:
    """Over ``over`` of match ``wire`` is past its deadline: play it with what came."""

    wire: str
    over: int

    @property
    def key(self) -> str:
        """The idempotency key (the format stored before jobs were values)."""
        return f"h6-deadline:{self.wire}:{self.over}"


OverJob = OverReminder | OverDeadline


def _playing(session: Session) -> list[H6Match]:
    return list(session.scalars(select(H6Match).where(H6Match.status == "playing")))


def due(session: Session, now: datetime) -> list[OverJob]:
    """The jobs due at ``now``: one per match at most, its deadline if past, else its
    reminder if due and not yet sent."""
    jobs: list[OverJob] = []
    for m in _playing(session):
        remind = reminder_at(m)
        if m.deadline_at is None or remind is None:
            continue
        if now >= m.deadline_at:
            jobs.append(OverDeadline(m.wire, m.over))
        elif not m.reminded and now >= remind:
            jobs.append(OverReminder(m.wire, m.over))
    return jobs


def next_due(session: Session, now: datetime) -> datetime | None:
    """The next reminder or deadline after ``now`` of any match in play."""
    times = []
    for m in _playing(session):
        remind = reminder_at(m)
        if m.deadline_at is None or remind is None:
            continue
        times.append(m.deadline_at)
        if not m.reminded:
            times.append(remind)
    later = [t for t in times if t > now]
    return min(later) if later else None


def run(session: Session, config: Config, clock: Clock, wire: str) -> int:
    """Run the match's due reminder or deadline and queue its mails; returns how many."""
    match = session.scalar(select(H6Match).where(H6Match.wire == wire))
    if match is None:
        return 0
    replies = tick_match(session, clock, match)
    for r in replies:
        assert r.to is not None
        queue_mail(session, config, clock, kind=r.kind, to=r.to, ctx=r.ctx,
                   images=hand_images(r.kind, r.ctx), from_name=HitForSix.sender_name)  # fmt: skip
    return len(replies)
