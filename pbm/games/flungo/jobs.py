"""Flungo's jobs for the scheduler, as values: each competition's naming deadline (joining
closes, the draw is made, the fixtures and the zine's first issue are mailed) and the zine's
issue of each resolved stage. The turns themselves are not jobs but the game's sweep
(:func:`pbm.games.flungo.turns.tick`), each of its steps under its own key.

:func:`naming_due` and :func:`naming_wake` are pure (tested as tables); :func:`run` does a
job's work in the scheduler's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.core.errors import GameError
from pbm.db.models import Competition, CompetitionStatus

__all__ = [
    "CompetitionDates",
    "FlungoJob",
    "NamingDeadline",
    "ZineIssue",
    "competition_dates",
    "naming_due",
    "naming_wake",
    "run",
]


@dataclass(frozen=True, slots=True)
class CompetitionDates:
    """What the scheduler needs to know of a competition."""

    code: str
    naming_deadline: datetime
    closed: bool


@dataclass(frozen=True, slots=True)
class NamingDeadline:
    """A competition's naming deadline has passed: close joining and start the season."""

    code: str

    @property
    def key(self) -> str:
        """The idempotency key (the format stored since the first release)."""
        return f"naming-deadline:{self.code}"


@dataclass(frozen=True, slots=True)
class ZineIssue:
    """Mail issue ``number`` of competition ``code``'s zine to every player."""

    code: str
    number: int

    @property
    def key(self) -> str:
        """The idempotency key (``zine:<code>:<number>``, as stored before jobs were values)."""
        from pbm.games.flungo.zine.deliver import zine_key

        return zine_key(self.code, self.number)


FlungoJob = NamingDeadline | ZineIssue


def naming_due(now: datetime, comps: Iterable[CompetitionDates]) -> list[NamingDeadline]:
    """The naming deadlines due at ``now``: every competition still taking teams whose
    deadline is past."""
    return [NamingDeadline(c.code) for c in comps if not c.closed and now >= c.naming_deadline]


def naming_wake(now: datetime, comps: Iterable[CompetitionDates]) -> datetime | None:
    """The next naming deadline after ``now`` (None: none pending)."""
    later = [c.naming_deadline for c in comps if not c.closed and c.naming_deadline > now]
    return min(later, default=None)


def competition_dates(s: Session) -> list[CompetitionDates]:
    """Every competition's dates."""
    # the three columns, not the rows: a competition's row carries its whole season
    rows = s.execute(select(Competition.code, Competition.naming_deadline, Competition.status))
    return [
        CompetitionDates(
            code, deadline, status not in (CompetitionStatus.OPEN, CompetitionStatus.FULL)
        )
        for code, deadline, status in rows
    ]


def run(job: FlungoJob, s: Session, config: Config, clock: Clock) -> None:
    """Do ``job``'s work in ``s``'s transaction."""
    from pbm.games.flungo.zine.deliver import send_issue

    match job:
        case ZineIssue(code, number):  # after each resolved stage, its issue to every player
            send_issue(s, config, clock, code, number)
        case NamingDeadline(code):
            _naming_deadline(s, config, clock, code)


def _naming_deadline(s: Session, config: Config, clock: Clock, code: str) -> None:
    """Close joining and start the season, then tell the GM in a digest headed with what
    happened (a season that cannot start leaves the competition closed, and says why)."""
    from pbm.games.flungo import reports, turns
    from pbm.games.flungo.competitions import record_event
    from pbm.games.flungo.zine.deliver import send_issue
    from pbm.ops.digest import digest_context
    from pbm.outbound.replies import queue_mail

    comp = s.scalars(select(Competition).where(Competition.code == code)).one()
    record_event(s, clock, "naming-deadline", comp)
    try:
        first = turns.start_competition(s, config, clock, comp)
    except GameError as exc:
        comp.status = CompetitionStatus.CLOSED
        headline = (
            f"The naming deadline of [{comp.code}] {comp.name} has passed: it is closed, "
            f"but the season cannot start: {exc.message}"
        )
    else:
        reports.queue_fixtures(s, config, clock, comp, first)
        send_issue(s, config, clock, comp.code, 0)  # the teams, before a ball is bowled
        headline = (
            f"The naming deadline of [{comp.code}] {comp.name} has passed: joining is "
            f"closed, the fixtures are drawn and mailed to {len(comp.seats)} teams."
        )
    ctx = digest_context(s, clock)
    queue_mail(
        s, config, clock, kind="digest", to=config.gm.address, ctx={**ctx, "headline": headline}
    )
