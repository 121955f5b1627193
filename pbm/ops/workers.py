"""The workers' registry: each ``pbm serve`` is a row in ``workers`` while it runs.

A worker registers at start (id, host, pid, when), then a thread beats every
``[workers] heartbeat_seconds``: the time, and what the worker has in hand at that moment
(``doing``: ``inbound 42``, ``outbox 17``, ``turn matches``; nothing when idle). A warm stop
marks the row stopped; a worker that dies just stops beating, and ``pbm status`` calls it
stale once ``stale_seconds`` pass. The claims themselves stay where they are held: inbound and
outbox rows are locked for one transaction (the beat shows the one in hand), a split stage's
matches carry ``claimed_by`` and a lease (``turn_matches``, read live by ``pbm status``).

The id is also what a worker writes in ``turn_matches.claimed_by``; a process that is not
registered (``pbm run --once``, a test) claims as :func:`default_worker_id`.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import structlog
from sqlalchemy import update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import Clock
from pbm.core.config import WorkersConfig
from pbm.db.models import Worker
from pbm.db.session import transaction

__all__ = ["Registry", "default_worker_id", "new_worker_id", "once_worker_id"]

log = structlog.get_logger("pbm.ops.workers")


def default_worker_id() -> str:
    """This process as a claimant: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


def once_worker_id() -> str:
    """The row ``pbm run --once`` (cron) beats after each pass: one per host, revived each
    time, so that ``pbm health`` sees a cron-driven pbm alive without a row per run."""
    return f"{socket.gethostname()}:run-once"


def new_worker_id() -> str:
    """A fresh worker id, ``host:pid:token`` (the token tells a restarted pid apart)."""
    return f"{default_worker_id()}:{secrets.token_hex(3)}"


class Registry:
    """One worker's row: :meth:`register`, then :meth:`start` the heartbeat thread, and
    :meth:`stop` at the end. :meth:`doing` names the claim in hand for the next beat."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        clock: Clock,
        config: WorkersConfig,
        worker_id: str | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.config = config
        self.id = worker_id or new_worker_id()
        self._doing: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def register(self) -> None:
        """Insert (or revive) this worker's row."""
        now = self.clock.now()
        host, pid = socket.gethostname(), os.getpid()
        with transaction(self.sessions) as s:
            row = s.get(Worker, self.id)
            if row is None:
                s.add(
                    Worker(id=self.id, host=host[:255], pid=pid, started_at=now, heartbeat_at=now)
                )
            else:
                row.started_at = row.heartbeat_at = now
                row.stopped_at = None
                row.doing = None
        log.info("worker.registered", worker=self.id)

    def beat(self) -> None:
        """Write the heartbeat and what is in hand (a failed write is logged, not raised: a
        database hiccup must not stop the worker, and a missed beat only looks stale)."""
        try:
            with transaction(self.sessions) as s:
                s.execute(
                    update(Worker)
                    .where(Worker.id == self.id)
                    .values(heartbeat_at=self.clock.now(), doing=self._doing)
                )
        except SQLAlchemyError as exc:
            log.warning("worker.beat_failed", worker=self.id, error=str(exc).splitlines()[0])

    @contextmanager
    def doing(self, what: str) -> Iterator[None]:
        """Name the claim in hand (``inbound 42``) while the block runs."""
        before, self._doing = self._doing, what[:200]
        try:
            yield
        finally:
            self._doing = before

    @property
    def current(self) -> str | None:
        """The claim in hand, as the next beat will write it."""
        return self._doing

    def start(self) -> None:
        """Register, and beat from a thread until :meth:`stop` (so a long step, or the wait
        for mail, still shows the worker alive)."""
        self.register()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat {self.id}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.config.heartbeat_seconds):
            self.beat()

    def stop(self, at: datetime | None = None) -> None:
        """Stop beating and mark the row stopped (a warm stop)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        try:
            with transaction(self.sessions) as s:
                s.execute(
                    update(Worker)
                    .where(Worker.id == self.id)
                    .values(stopped_at=at or self.clock.now(), doing=None)
                )
        except SQLAlchemyError as exc:
            log.warning("worker.stop_failed", worker=self.id, error=str(exc).splitlines()[0])
