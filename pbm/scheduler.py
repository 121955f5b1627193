"""The scheduler tick: every game's due jobs (:data:`pbm.games.GAMES`: Flungo's naming
deadlines, Test by Post's reminders and over deadlines), the GM's daily digest, once a day the
retention purge (:mod:`pbm.ops.retention`), then every game's sweep (Flungo's turns), then the
jobs the sweep made due (the zine's issue of each resolved stage).

Jobs are values (:class:`pbm.games.Job`): the scheduler asks each owner for its due jobs and
hands each back to the owner that made it, each in its own transaction with its key recorded
in ``job_runs``, so it runs exactly once. The machinery's own jobs (the digest, the purge) are
:class:`Housekeeping`'s. :func:`digest_due` and :func:`digest_wake` are pure (tested as tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta

import structlog
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.db.models import JobRun
from pbm.db.session import transaction
from pbm.games import GAMES, Game, Job, JobSource
from pbm.ops.digest import digest_context
from pbm.ops.retention import purge
from pbm.outbound.replies import queue_mail

__all__ = [
    "Digest",
    "Housekeeping",
    "Purge",
    "digest_due",
    "digest_wake",
    "due_now",
    "next_wake",
    "run_due",
]

log = structlog.get_logger("pbm.scheduler")


@dataclass(frozen=True, slots=True)
class Digest:
    """The GM's daily digest of ``day``."""

    day: date

    @property
    def key(self) -> str:
        """The idempotency key (the format stored before jobs were values)."""
        return f"digest:{self.day:%Y-%m-%d}"


@dataclass(frozen=True, slots=True)
class Purge:
    """The retention purge of ``day`` (housekeeping: not counted as work done, so an idle
    pass stays idle)."""

    day: date

    @property
    def key(self) -> str:
        """The idempotency key (the format stored before jobs were values)."""
        return f"purge:{self.day:%Y-%m-%d}"


def _digest_time(day: datetime, hour: int) -> datetime:
    return day.replace(hour=hour, minute=0, second=0, microsecond=0)


def digest_due(now: datetime, digest_hour: int | None) -> list[Digest]:
    """Today's digest once its hour has come (none when ``digest_hour`` is None: the daily
    digest is off)."""
    if digest_hour is not None and now >= _digest_time(now, digest_hour):
        return [Digest(now.date())]
    return []


def digest_wake(now: datetime, digest_hour: int | None) -> datetime:
    """The next digest after ``now`` (a day on, when the digest is off: the loop still wakes
    daily, for the purge)."""
    if digest_hour is None:
        return now + timedelta(days=1)
    today = _digest_time(now, digest_hour)
    return min(now + timedelta(days=1), today if today > now else today + timedelta(days=1))


class Housekeeping:
    """The machinery's own jobs: the GM's daily digest and the daily retention purge."""

    def due(self, session: Session, config: Config, now: datetime) -> list[Digest]:
        """Today's digest, once its hour has come (the purge runs apart: see :func:`run_due`)."""
        return digest_due(now, config.scheduler.digest_at)

    def next_wake(self, session: Session, config: Config, now: datetime) -> datetime:
        """The next digest, or a day on."""
        return digest_wake(now, config.scheduler.digest_at)

    def run(self, job: Job, session: Session, config: Config, clock: Clock) -> None:
        """Mail the digest to the GM, or purge what retention lets go."""
        match job:
            case Purge():
                report = purge(session, config, clock.now())
                log.info("retention.purged", **{k: v for k, v in asdict(report).items() if v})
            case Digest():
                ctx = digest_context(session, clock)
                queue_mail(
                    session,
                    config,
                    clock,
                    kind="digest",
                    to=config.gm.address,
                    ctx={**ctx, "headline": ""},
                )
            case _:
                raise TypeError(f"not a housekeeping job: {job!r}")


HOUSEKEEPING = Housekeeping()

#: A job and the one who runs it.
Owned = tuple[JobSource, Job]


def due_now(
    session: Session,
    config: Config,
    now: datetime,
    games: Sequence[Game] = GAMES,
    done: set[str] | None = None,
) -> list[Owned]:
    """Every job due at ``now``, each with its owner: the games' (in their order), then the
    digest, so it tells of the deadlines just passed. Without ``done``, the keys already run
    are read from ``job_runs`` (only those asked about)."""
    owned: list[Owned] = [(g, j) for g in games for j in g.due(session, config, now)]
    owned += [(HOUSEKEEPING, j) for j in HOUSEKEEPING.due(session, config, now)]
    return _not_done(session, owned, done)


def next_wake(
    session: Session, config: Config, now: datetime, games: Sequence[Game] = GAMES
) -> datetime:
    """The next time a job may fall due after ``now`` (a day on, when nothing is due)."""
    times = [HOUSEKEEPING.next_wake(session, config, now)]
    times += [t for g in games if (t := g.next_wake(session, config, now)) is not None]
    return min(times)


def run_due(
    sessions: sessionmaker[Session],
    config: Config,
    clock: Clock,
    worker: str | None = None,
    budget: float | None = None,
    as_of: datetime | None = None,
    games: Sequence[Game] = GAMES,
) -> int:
    """Run every due job once; returns how many ran. The jobs a sweep makes due go last, after
    the sweeps, so a stage's zine issue leaves in the same pass as its turn reports.
    ``worker`` is who claims a split stage's matches (this process by default). ``budget``
    bounds the seconds a game's sweep spends (see :func:`pbm.games.flungo.turns.tick`); the
    rest is the next pass's. ``as_of``: when the pass began, the moment turns fall due by."""
    now = clock.now()
    with transaction(sessions) as s:
        jobs = due_now(s, config, now, games)
        housework = _not_done(s, [(HOUSEKEEPING, Purge(now.date()))], None)
    ran = _run_jobs(sessions, config, clock, jobs)
    # housekeeping, not counted as work done: an idle pass stays idle
    _run_jobs(sessions, config, clock, housework)
    for game in games:
        ran += game.sweep(sessions, config, clock, worker=worker, budget=budget, as_of=as_of)
    with transaction(sessions) as s:
        follow = _not_done(s, [(g, j) for g in games for j in g.after_sweep(s, now)], None)
    return ran + _run_jobs(sessions, config, clock, follow)


def _not_done(s: Session, owned: list[Owned], done: set[str] | None) -> list[Owned]:
    if done is None:
        done = _done(s, [job.key for _, job in owned])
    return [(owner, job) for owner, job in owned if job.key not in done]


def _done(s: Session, keys: list[str]) -> set[str]:
    """Which of ``keys`` have run: only those are read (every step of every turn leaves a
    key, so reading them all each pass would grow with the seasons played)."""
    done: set[str] = set()
    for i in range(0, len(keys), 500):  # within every database's limit on parameters
        done.update(s.scalars(select(JobRun.key).where(JobRun.key.in_(keys[i : i + 500]))))
    return done


def _run_jobs(
    sessions: sessionmaker[Session], config: Config, clock: Clock, jobs: list[Owned]
) -> int:
    ran = 0
    now = clock.now()
    for owner, job in jobs:
        try:
            with transaction(sessions) as s:
                s.add(JobRun(key=job.key, ran_at=now))
                s.flush()  # the key's uniqueness: a second daemon would fail here
                owner.run(job, s, config, clock)
        except IntegrityError:
            continue
        log.info("scheduler.ran", job=job.key)
        ran += 1
    return ran
