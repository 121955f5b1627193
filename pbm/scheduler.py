"""The scheduler tick: the GM's daily digest, the naming deadlines (joining closes, the draw
is made and the fixtures mailed), every competition's turns (:func:`pbm.games.flungo.turns.tick`),
Test by Post's reminders and over deadlines (:mod:`pbm.games.hitforsix.schedule`), and the zine's
issue after each resolved stage (:mod:`pbm.games.flungo.zine.deliver`), and once a day the
retention purge
(:mod:`pbm.ops.retention`).

:func:`due_jobs` is pure (tested with tables); :func:`run_due` runs what is due, each job in
its own transaction with its key recorded in ``job_runs``, so it runs exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

import structlog
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.core.errors import GameError
from pbm.db.models import Competition, CompetitionStatus, JobRun
from pbm.db.session import transaction
from pbm.games.flungo import reports, turns
from pbm.games.flungo.competitions import record_event
from pbm.games.flungo.zine.deliver import due_issues, send_issue, zine_key
from pbm.games.hitforsix import schedule as h6_schedule
from pbm.ops.digest import digest_context
from pbm.ops.retention import purge
from pbm.outbound.replies import queue_mail

__all__ = ["CompetitionDates", "Job", "due_jobs", "next_wakeup", "run_due"]

log = structlog.get_logger("pbm.scheduler")


@dataclass(frozen=True, slots=True)
class CompetitionDates:
    """What the scheduler needs to know of a competition."""

    code: str
    naming_deadline: datetime
    closed: bool


@dataclass(frozen=True, slots=True)
class Job:
    """A job to run once: ``key`` is its idempotency key."""

    key: str
    kind: str  # digest, naming-deadline, h6-over (a Test by Post reminder or deadline), purge
    code: str | None = None  # the competition's code, or the Test by Post match's wire code


def _digest_time(day: datetime, hour: int) -> datetime:
    return day.replace(hour=hour, minute=0, second=0, microsecond=0)


def due_jobs(
    now: datetime, digest_hour: int | None, comps: Iterable[CompetitionDates], done: set[str]
) -> list[Job]:
    """Jobs due at ``now`` that are not in ``done``: deadlines first, then today's digest
    (none when ``digest_hour`` is None: the daily digest is off)."""
    jobs = [
        Job(f"naming-deadline:{c.code}", "naming-deadline", c.code)
        for c in comps
        if not c.closed and now >= c.naming_deadline
    ]
    jobs = [j for j in jobs if j.key not in done]
    key = f"digest:{now:%Y-%m-%d}"
    if digest_hour is not None and now >= _digest_time(now, digest_hour) and key not in done:
        jobs.append(Job(key, "digest"))
    return jobs


def next_wakeup(
    now: datetime, digest_hour: int | None, comps: Iterable[CompetitionDates]
) -> datetime:
    """The next time a job may fall due after ``now`` (a day on, when nothing is due)."""
    candidates = [now + timedelta(days=1)]
    if digest_hour is not None:
        today = _digest_time(now, digest_hour)
        candidates.append(today if today > now else today + timedelta(days=1))
    candidates += [c.naming_deadline for c in comps if not c.closed and c.naming_deadline > now]
    return min(candidates)


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


def run_due(
    sessions: sessionmaker[Session],
    config: Config,
    clock: Clock,
    worker: str | None = None,
    budget: float | None = None,
    as_of: datetime | None = None,
) -> int:
    """Run every due job once; returns how many ran. The zine's issues go last, after the
    turns, so a stage's issue leaves in the same pass as its turn reports. ``worker`` is who
    claims a split stage's matches (this process by default). ``budget`` bounds the seconds
    spent resolving stages (see :func:`pbm.games.flungo.turns.tick`); the rest is the next pass's.
    ``as_of``: when the pass began, the moment turns fall due by (see the same)."""
    now = clock.now()
    with transaction(sessions) as s:
        comps = competition_dates(s)
        jobs = due_jobs(now, config.scheduler.digest_at, comps, set())
        jobs += [Job(k, "h6-over", w) for k, w in h6_schedule.due(s, now)]
        purge_job = Job(f"purge:{now:%Y-%m-%d}", "purge")  # retention, once a day
        done = _done(s, [j.key for j in (*jobs, purge_job)])
    ran = _run_jobs(sessions, config, clock, [j for j in jobs if j.key not in done])
    if purge_job.key not in done:
        # housekeeping, not counted as work done: an idle pass stays idle
        _run_jobs(sessions, config, clock, [purge_job])
    ran += turns.tick(sessions, config, clock, worker, budget=budget, as_of=as_of)
    with transaction(sessions) as s:
        issues = due_issues(s, set())
        done = _done(s, [zine_key(c, n) for c, n in issues])
        zines = [Job(zine_key(c, n), "zine", f"{c}:{n}") for c, n in issues]
    return ran + _run_jobs(sessions, config, clock, [z for z in zines if z.key not in done])


def _done(s: Session, keys: list[str]) -> set[str]:
    """Which of ``keys`` have run: only those are read (every step of every turn leaves a
    key, so reading them all each pass would grow with the seasons played)."""
    done: set[str] = set()
    for i in range(0, len(keys), 500):  # within every database's limit on parameters
        done.update(s.scalars(select(JobRun.key).where(JobRun.key.in_(keys[i : i + 500]))))
    return done


def _run_jobs(
    sessions: sessionmaker[Session], config: Config, clock: Clock, jobs: list[Job]
) -> int:
    ran = 0
    now = clock.now()
    for job in jobs:
        try:
            with transaction(sessions) as s:
                s.add(JobRun(key=job.key, ran_at=now))
                s.flush()  # the key's uniqueness: a second daemon would fail here
                _run(s, config, clock, job)
        except IntegrityError:
            continue
        log.info("scheduler.ran", job=job.key)
        ran += 1
    return ran


def _run(s: Session, config: Config, clock: Clock, job: Job) -> None:
    if job.kind == "purge":
        report = purge(s, config, clock.now())
        log.info("retention.purged", **{k: v for k, v in asdict(report).items() if v})
        return
    if job.kind == "h6-over":
        assert job.code is not None
        h6_schedule.run(s, config, clock, job.code)
        return
    if job.kind == "zine":  # after each resolved stage, its issue to every player
        assert job.code is not None
        code, number = job.code.rsplit(":", 1)
        send_issue(s, config, clock, code, int(number))
        return
    headline = ""
    if job.kind == "naming-deadline":
        comp = s.scalars(select(Competition).where(Competition.code == job.code)).one()
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
