"""Outages of the doors, remembered for the GM: the ``incidents`` table and the backoff.

A door (``imap``, ``smtp``, ``database``) reports each failed attempt with
:meth:`Incidents.failed` and its first success after that with :meth:`Incidents.recovered`.
One outage is one row: first seen, last seen, how many attempts failed, the last error, and
when it was resolved (None while open). The rows are written when a door fails and when it
recovers; when the database itself is the door that is down, or cannot be written for any
reason, the records wait in memory and :meth:`Incidents.sync` writes them once it answers.

Error text comes from foreign servers: it is cut to one line, stripped of configured secrets
and neutralised (:func:`pbm.core.textsafe.neutralise_line`) before it is kept, so it can steer
neither the digest nor ``pbm status``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import structlog
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import Clock
from pbm.core.errors import PbmError
from pbm.core.textsafe import neutralise_line
from pbm.db.models import Incident
from pbm.db.session import transaction
from pbm.secrets.scrub import redact

__all__ = ["DOORS", "Backoff", "Incidents", "kind_of", "safe_error"]

log = structlog.get_logger("pbm.ops.incidents")

DOORS = ("imap", "smtp", "database")
_ERROR_CHARS = 300
_REPLY_CODE = re.compile(r"replied ([2-5]\d\d)\b")


class Backoff:
    """Exponential delays between attempts at a door that is down: ``first``, doubling, at
    most ``cap`` seconds; :meth:`reset` after a success."""

    def __init__(self, first: float, cap: float) -> None:
        self.first = max(first, 0.01)
        self.cap = max(cap, self.first)
        self.failures = 0

    def failed(self) -> float:
        """Count a failure; the delay before the next attempt."""
        delay: float = min(self.cap, self.first * 2.0 ** min(self.failures, 30))
        self.failures += 1
        return delay

    def reset(self) -> None:
        """The door works again."""
        self.failures = 0


def safe_error(text: str, secrets: Sequence[str] = ()) -> str:
    """One line of foreign error text, fit to show: secrets out, display controls visible."""
    line = (text.strip().splitlines() or [""])[0]
    return neutralise_line(redact(line, tuple(secrets)))[:_ERROR_CHARS]


def kind_of(exc: BaseException) -> str:
    """A word or two for an outage: refused, timed out, connection lost, replied 421..."""
    seen: BaseException | None = exc
    visited: set[int] = set()
    while seen is not None and id(seen) not in visited:
        visited.add(id(seen))
        if isinstance(seen, ConnectionRefusedError):
            return "refused"
        if isinstance(seen, TimeoutError):
            return "timed out"
        code = getattr(seen, "smtp_code", None)
        if isinstance(code, int) and code > 0:
            return f"replied {code}"
        seen = seen.__cause__ or seen.__context__
    text = str(exc).lower()
    if (said := _REPLY_CODE.search(text)) is not None:
        return f"replied {said.group(1)}"
    for needle, kind in (
        ("refused", "refused"),
        ("timed out", "timed out"),
        ("timeout", "timed out"),
        ("terminat", "connection lost"),
        ("closed", "connection lost"),
        ("lost", "connection lost"),
        ("disconnect", "connection lost"),
    ):
        if needle in text:
            return kind
    return "failed" if not isinstance(exc, PbmError) or exc.transient else "refused service"


@dataclass
class _Record:
    door: str
    kind: str
    first_seen: datetime
    last_seen: datetime
    count: int
    error: str
    resolved_at: datetime | None = None
    row_id: int | None = None
    dirty: bool = True


class Incidents:
    """The outages this process has seen; thread-safe (the SMTP listener's thread too)."""

    def __init__(
        self, sessions: sessionmaker[Session], clock: Clock, secrets: Sequence[str] = ()
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.secrets = tuple(secrets)
        self._lock = threading.Lock()
        self._open: dict[str, _Record] = {}
        self._unwritten: list[_Record] = []  # resolved, not yet written
        self._stale_checked: set[str] = set()

    def is_down(self, door: str) -> bool:
        """Whether ``door`` has an open outage in this process."""
        with self._lock:
            return door in self._open

    def open_doors(self) -> list[str]:
        """The doors that are down, in this process."""
        with self._lock:
            return sorted(self._open)

    def failed(self, door: str, exc: BaseException) -> None:
        """One failed attempt at ``door``: opens its outage or adds to it."""
        now = self.clock.now()
        error = safe_error(str(exc), self.secrets)
        with self._lock:
            rec = self._open.get(door)
            if rec is None:
                rec = _Record(door, kind_of(exc), now, now, 1, error)
                self._open[door] = rec
                log.warning("incident.opened", door=door, kind=rec.kind, error=error)
            else:
                rec.last_seen, rec.count, rec.error, rec.dirty = now, rec.count + 1, error, True
        if door != "database":  # writing now would only fail again
            self.sync()

    def recovered(self, door: str) -> None:
        """``door`` worked: close its outage (and, once, any left open by an earlier run)."""
        with self._lock:
            rec = self._open.pop(door, None)
            if rec is not None:
                rec.resolved_at, rec.dirty = self.clock.now(), True
                self._unwritten.append(rec)
                log.info("incident.resolved", door=door, kind=rec.kind, attempts=rec.count)
            stale = door not in self._stale_checked
            if rec is None and not stale and not self._unwritten:
                return
            self._stale_checked.add(door)
        self.sync(close_stale=door if stale else None)

    def sync(self, close_stale: str | None = None) -> bool:
        """Write what waits in memory; False (kept for later) if the database fails."""
        with self._lock:
            todo = [*self._unwritten, *(r for r in self._open.values() if r.dirty)]
            if not todo and close_stale is None:
                return True
            try:
                with transaction(self.sessions) as s:
                    if close_stale is not None:
                        self._close_stale(s, close_stale)
                    for rec in todo:
                        self._write(s, rec)
            except (SQLAlchemyError, PbmError) as exc:
                log.info("incident.unwritten", error=str(exc).splitlines()[0][:200])
                for rec in todo:
                    rec.dirty = True
                if close_stale is not None:
                    self._stale_checked.discard(close_stale)
                return False
            self._unwritten = [r for r in self._unwritten if r.dirty]
            return True

    def _write(self, s: Session, rec: _Record) -> None:
        row = s.get(Incident, rec.row_id) if rec.row_id is not None else None
        if row is None:
            row = Incident(door=rec.door, kind=rec.kind, first_seen=rec.first_seen)
            s.add(row)
        row.last_seen, row.count, row.last_error = rec.last_seen, rec.count, rec.error
        row.resolved_at = rec.resolved_at
        s.flush()
        rec.row_id, rec.dirty = row.id, False

    def _close_stale(self, s: Session, door: str) -> None:
        # An outage open in the table but not in this process was left by a run that stopped
        # (or crashed) while the door was down; the door works now, so it is over.
        mine = {r.row_id for r in self._open.values()} | {r.row_id for r in self._unwritten}
        for row in s.scalars(
            select(Incident).where(Incident.door == door, Incident.resolved_at.is_(None))
        ):
            if row.id not in mine:
                row.resolved_at = self.clock.now()
