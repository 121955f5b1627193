"""The operator's tools: queue status, a health check, SQLite backup and restore.

* :func:`status` reads the queues (inbound by status, the outbox's pending, leased and failed
  rows, dead letters), the open incidents (a door that is down: IMAP, the SMTP relay, the
  database), the workers (alive, stale or stopped by their heartbeat, and the claims each
  holds), the split stages' matches, and the next turns due, as plain data for a table or
  JSON.
* :func:`health` is what a supervisor calls: the database answers, the migrations are at
  head, the outbox is not stuck, dead letters are not piling up.
* :func:`backup` copies a SQLite database with SQLite's online backup API (safe while pbm
  runs); :func:`restore` copies a backup back, refusing a file that is not a pbm database and
  a database a running daemon holds (:func:`serving_lock`).

Workers hold their inbound claims as row locks inside one transaction (see
:mod:`pbm.inbound.pipeline`) and the outbox's send lease as ``next_attempt_at``: a worker's
heartbeat names the one in hand (``doing``, :mod:`pbm.ops.workers`). A split stage's matches are
claimed by name (``turn_matches.claimed_by``, with a lease), read here live.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from pbm.core.errors import DatabaseUnavailable, PbmError
from pbm.core.textsafe import neutralise_line
from pbm.db import migrate
from pbm.db.models import (
    Competition,
    CompetitionStatus,
    InboundMail,
    Incident,
    MailStatus,
    OutboxMessage,
    Turn,
    TurnMail,
    TurnMatch,
    TurnMatchStatus,
    TurnStatus,
    Worker,
)
from pbm.db.session import READ_ONLY, make_db_engine, make_session_factory, transaction
from pbm.inbound.spool import SpoolState

__all__ = [
    "Health",
    "backup",
    "health",
    "restore",
    "serving_lock",
    "sqlite_path",
    "status",
    "workers",
]

#: A pending outbox row this long past due means nothing is sending.
STUCK_AFTER = timedelta(minutes=30)
#: More dead letters than this and the health check fails.
MAX_DEAD_LETTERS = 10
#: The tables a pbm database has (a restore refuses a file without them).
_PBM_TABLES = frozenset({"alembic_version", "inbound_mail", "outbox", "competitions"})


#: Stopped workers stay in ``pbm status`` this long after their stop.
SHOW_STOPPED = timedelta(hours=1)


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def workers(s: Session, now: datetime, stale_after: timedelta) -> list[dict[str, Any]]:
    """Each worker that runs (or stopped within the hour), alive or stale by its heartbeat,
    with what it had in hand at its last beat and the split stages' matches it has claimed.
    A claimant that never registered (``pbm run --once``) is listed as ``unregistered``."""
    claims: dict[str, list[dict[str, Any]]] = {}
    rows = s.execute(
        select(
            TurnMatch.claimed_by,
            Competition.code,
            Turn.stage_key,
            func.count(),
            func.min(TurnMatch.lease_until),
        )
        .join(Turn, Turn.id == TurnMatch.turn_id)
        .join(Competition, Competition.id == Turn.competition_id)
        .where(TurnMatch.status == TurnMatchStatus.CLAIMED)
        .group_by(TurnMatch.claimed_by, Competition.code, Turn.stage_key)
        .order_by(TurnMatch.claimed_by, Competition.code, Turn.stage_key)
    ).all()
    for who, code, stage, n, lease in rows:
        claims.setdefault(str(who), []).append(
            {
                "competition": code,
                "stage": stage,
                "matches": int(n),
                "lease_until": _iso(lease),
                "lapsed": lease is not None and lease < now,
            }
        )
    out = []
    listed = s.scalars(
        select(Worker)
        .where((Worker.stopped_at.is_(None)) | (Worker.stopped_at > now - SHOW_STOPPED))
        .order_by(Worker.started_at, Worker.id)
    ).all()
    for w in listed:
        beat = w.heartbeat_at
        if w.stopped_at is not None:
            state = "stopped"
        else:
            state = "alive" if now - beat <= stale_after else "stale"
        out.append(
            {
                "id": w.id,
                "host": w.host,
                "pid": w.pid,
                "started": _iso(w.started_at),
                "heartbeat": beat.isoformat(),
                "state": state,
                "doing": w.doing if state == "alive" else None,
                "last_doing": w.doing,
                "turn_matches": claims.pop(w.id, []),
            }
        )
    for who, held in sorted(claims.items()):
        out.append(
            {
                "id": who,
                "host": None,
                "pid": None,
                "started": None,
                "heartbeat": None,
                "state": "unregistered",
                "doing": None,
                "last_doing": None,
                "turn_matches": held,
            }
        )
    return out


def status(
    s: Session, now: datetime, turns: int = 5, stale_after: timedelta = timedelta(seconds=60)
) -> dict[str, Any]:
    """The queues, the workers and their claims, and the next turns due, as JSON-ready data
    (a worker is stale after ``stale_after`` without a heartbeat)."""
    inbound = dict(
        s.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status)).all()
    )
    pending = s.scalar(select(func.count()).where(OutboxMessage.status == "pending")) or 0
    leased = (
        s.scalar(
            select(func.count()).where(
                OutboxMessage.status == "pending", OutboxMessage.next_attempt_at > now
            )
        )
        or 0
    )
    failed = s.scalar(select(func.count()).where(OutboxMessage.status == "failed")) or 0
    oldest = s.scalar(
        select(func.min(OutboxMessage.next_attempt_at)).where(OutboxMessage.status == "pending")
    )
    due = s.execute(
        select(Competition.code, Turn.stage_key, Turn.status, Turn.deadline)
        .join(Competition, Competition.id == Turn.competition_id)
        .where(
            Turn.status.in_((TurnStatus.OPEN, TurnStatus.FROZEN)),
            Competition.status == CompetitionStatus.RUNNING,
        )
        .order_by(Turn.deadline)
        .limit(turns)
    ).all()
    incidents = s.scalars(
        select(Incident).where(Incident.resolved_at.is_(None)).order_by(Incident.first_seen)
    ).all()
    split = dict(
        s.execute(
            select(TurnMatch.status, func.count())
            .join(Turn, Turn.id == TurnMatch.turn_id)
            .where(Turn.status == TurnStatus.FROZEN)
            .group_by(TurnMatch.status)
        ).all()
    )
    mails = dict(
        s.execute(
            select(TurnMail.status, func.count())
            .where(TurnMail.status != TurnMatchStatus.DONE)
            .group_by(TurnMail.status)
        ).all()
    )
    return {
        "workers": workers(s, now, stale_after),
        "turn_matches": {  # of the stages being resolved now (split, frozen)
            str(st): int(split.get(st, 0)) for st in TurnMatchStatus
        },
        "turn_mails": {  # rows of assembled split stages' mails not yet queued
            str(st): int(mails.get(st, 0))
            for st in (TurnMatchStatus.PENDING, TurnMatchStatus.CLAIMED)
        },
        "inbound": {str(k): int(v) for k, v in sorted(inbound.items())},
        "incidents": [
            {
                "door": i.door,
                "kind": i.kind,
                "since": i.first_seen.isoformat(),
                "last_seen": i.last_seen.isoformat(),
                "attempts": i.count,
                "error": neutralise_line(i.last_error or ""),
            }
            for i in incidents
        ],
        "outbox": {
            "pending": int(pending),
            "not_yet_due": int(leased),  # backing off, or under a worker's send lease
            "failed": int(failed),
            "oldest_due": oldest.isoformat() if oldest is not None else None,
        },
        "dead_letters": int(inbound.get(MailStatus.SHUNTED, 0)),
        "turns": [
            {
                "competition": code,
                "stage": stage,
                "status": str(st),
                "deadline": deadline.isoformat(),
            }
            for code, stage, st, deadline in due
        ],
    }


@dataclass(frozen=True, slots=True)
class Health:
    """The health check's verdict: ``ok``, and every problem found."""

    ok: bool
    problems: tuple[str, ...]


def _heartbeat_problem(s: Session, now: datetime, fresh_within: timedelta) -> str | None:
    """Why no worker is alive by its heartbeat, or None if one is."""
    newest = s.execute(
        select(Worker.id, Worker.heartbeat_at, Worker.stopped_at)
        .order_by(Worker.heartbeat_at.desc())
        .limit(1)
    ).first()
    if newest is None:
        return "no worker has ever run: start `pbm serve` (or `pbm run --once` from cron)"
    wid, beat, stopped = newest
    fresh = s.scalar(
        select(func.count()).where(
            Worker.stopped_at.is_(None), Worker.heartbeat_at >= now - fresh_within
        )
    )
    if fresh:
        return None
    age = int((now - beat).total_seconds())
    if stopped is not None:
        return f"no worker is running: the last ({wid}) stopped at {_iso(stopped)}"
    return (
        f"no worker's heartbeat is fresh: the newest ({wid}) is {age} s old "
        f"(limit {fresh_within.total_seconds():g} s); is `pbm serve` running?"
    )


def health(
    url: str,
    now: datetime,
    max_dead: int = MAX_DEAD_LETTERS,
    *,
    fresh_within: timedelta | None = timedelta(seconds=120),
    max_outbox: int | None = None,
    spool: SpoolState | None = None,
    max_spool_age: timedelta = timedelta(seconds=120),
) -> Health:
    """Check the database answers, is migrated, that a worker beats (its heartbeat younger
    than ``fresh_within``; None skips it) and that mail flows (the outbox not stuck nor above
    ``max_outbox`` due rows, dead letters not above ``max_dead``, the ``spool``'s oldest mail
    not older than ``max_spool_age``: every pass imports it); never raises."""
    db_engine = make_db_engine(url)
    try:
        try:
            reader = db_engine.execution_options(**{READ_ONLY: True})  # no wait on a pass
            if not migrate.is_current(reader):
                return Health(False, ("the migrations are not at head: run `pbm db upgrade`",))
            with transaction(make_session_factory(reader)) as s:
                st = status(s, now, turns=0)
                beating = (
                    _heartbeat_problem(s, now, fresh_within) if fresh_within is not None else None
                )
        except (SQLAlchemyError, DatabaseUnavailable) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return Health(False, (f"the database does not answer: {reason}",))
    finally:
        db_engine.dispose()
    problems = [beating] if beating else []
    due = st["outbox"]["pending"] - st["outbox"]["not_yet_due"]
    if max_outbox is not None and due > max_outbox:
        problems.append(f"{due} mails due and unsent in the outbox (more than {max_outbox})")
    oldest = st["outbox"]["oldest_due"]
    if oldest is not None and datetime.fromisoformat(oldest) < now - STUCK_AFTER:
        problems.append(f"the outbox is stuck: a row due since {oldest} is unsent")
    for inc in st["incidents"]:  # a door down this long needs a person, not more retries
        if datetime.fromisoformat(inc["since"]) < now - STUCK_AFTER:
            problems.append(
                f"the {inc['door']} door has been down since {inc['since']} "
                f"({inc['attempts']} attempts; last: {inc['error']})"
            )
    age = spool.oldest_seconds(now) if spool is not None else None
    if age is not None and age > max_spool_age.total_seconds():
        problems.append(
            f"the spool holds {spool.count if spool else 0} mails, the oldest {age:.0f} s old "
            f"(limit {max_spool_age.total_seconds():g} s): no pass is importing it"
        )
    if st["dead_letters"] > max_dead:
        problems.append(
            f"{st['dead_letters']} dead letters (more than {max_dead}): see `pbm mail list --dead`"
        )
    return Health(not problems, tuple(problems))


# -- SQLite backup and restore ----------------------------------------------------------------


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for PostgreSQL or an in-memory database)."""
    u = make_url(url)
    if not u.drivername.startswith("sqlite") or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


def _lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".serve.lock")


@contextmanager
def serving_lock(url: str) -> Iterator[None]:
    """Held by ``pbm serve`` and ``pbm run`` on a SQLite database while they run (a shared
    flock, so several may run): :func:`restore` refuses while anyone holds it."""
    db = sqlite_path(url)
    if db is None:
        yield
        return
    fd = os.open(_lock_path(db), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


def _pbm_tables(path: Path) -> set[str]:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            return {r[0] for r in rows}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return set()


def backup(url: str, target: Path) -> int:
    """Copy the SQLite database to ``target`` with the online backup API (consistent while
    pbm runs); returns the bytes written. PostgreSQL: raises, naming ``pg_dump``."""
    db = sqlite_path(url)
    if db is None:
        raise PbmError(
            "pbm backs up SQLite only; for PostgreSQL run: "
            f"pg_dump -Fc -f {target} {make_url(url).database or 'pbm'}"
            " (restore with pg_restore --clean -d DBNAME FILE; see docs/ops/operations.md)"
        )
    if not db.exists():
        raise PbmError(f"no database at {db}")
    if target.exists():
        raise PbmError(f"{target} exists: pbm does not overwrite a backup")
    try:
        src = sqlite3.connect(db)
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
    except sqlite3.Error as exc:
        raise PbmError(f"backup failed: {exc}") from exc
    return target.stat().st_size


def restore(url: str, source: Path) -> None:
    """Copy a backup over the SQLite database, refusing a file that is not a pbm database
    and a database that a running ``pbm serve``/``pbm run`` holds."""
    db = sqlite_path(url)
    if db is None:
        raise PbmError("pbm restores SQLite only; for PostgreSQL use pg_restore")
    if not source.is_file():
        raise PbmError(f"no backup at {source}")
    missing = _PBM_TABLES - _pbm_tables(source)
    if missing:
        raise PbmError(f"{source} is not a pbm database (no {', '.join(sorted(missing))})")
    fd = os.open(_lock_path(db), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise PbmError(f"{db} is in use by a running pbm: stop it first") from exc
        try:
            src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
            dst = sqlite3.connect(db)
            try:
                src.backup(dst)
            finally:
                dst.close()
                src.close()
        except sqlite3.Error as exc:
            raise PbmError(f"restore failed: {exc}") from exc
    finally:
        os.close(fd)
