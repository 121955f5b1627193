"""When the scheduler and the outbox next have work, kept between the daemon's passes.

After every pass the loop asks when to wake: the games' next deadline, reminder or lease
(several queries) and the outbox's earliest pending row. While mail comes one at a time (the
polling IMAP door), every mail paid those queries again, though a mail rarely moves either.
:class:`Wakes` keeps each answer until a statement of this process writes a table it was read
from (seen on the engine's ``before_cursor_execute``: every statement, ORM or Core or text),
until the time it named has come, or for ``max_age`` seconds at most (another process's
writes are not seen here: they are seen as late as the loop's longest wait, as before).

The outbox's answer is kept through the outbox's own traffic: a reply queued
(:func:`pbm.outbound.replies.enqueue`, the one way in, inserts rows due at once) makes the
answer "now" until a flush has taken every due row; the outbox's own claims and records say
what they write (:meth:`Wakes.outbox_at`) instead of dropping the answer. Any other write to
the outbox drops it.

One :class:`Wakes` per daemon, for the daemon's life: :meth:`close` removes its listener.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, event

__all__ = ["Wakes", "written_table"]

_OUTBOX = "outbox"
_WRITE = re.compile(r'\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)', re.I)
_READ = re.compile(r'\b(?:FROM|JOIN)\s+"?(\w+)', re.I)
#: Statements that write no table (a transaction's edges, SQLite's settings).
_NEUTRAL = ("SELECT", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "PRAGMA", "SHOW")


def written_table(statement: str) -> str | None:
    """The table ``statement`` writes (lower case); ``""`` for one that writes none (a
    SELECT, a transaction's edge, a setting); None when that cannot be told."""
    if statement.lstrip()[:9].upper().startswith(_NEUTRAL):
        return ""
    found = _WRITE.match(statement)
    return None if found is None else found.group(1).lower()


@dataclass(slots=True)
class _Answer:
    value: datetime | None
    tables: frozenset[str]
    writes: tuple[int, ...]  # each table's write count when it was read
    unknown: int  # statements of no known table, then
    asked_at: datetime
    read_at: float  # time.monotonic()


class Wakes:
    """The scheduler's next wake and the outbox's next due, kept (see the module doc)."""

    def __init__(self, db_engine: Engine, max_age: float) -> None:
        self.db_engine = db_engine
        self.max_age = max_age
        self._writes: Counter[str] = Counter()
        self._unknown = 0  # statements whose written table could not be told
        self._inserts = 0  # rows queued into the outbox
        # Per thread, as the outbox's own traffic: the engine's listener runs on every
        # thread's statements (the SMTP door's store, the heartbeat), and only the reading
        # thread's SELECTs name the answer's tables.
        self._reading = threading.local()
        self._own = threading.local()  # the outbox writing its own rows, on this thread
        self._answers: dict[str, _Answer] = {}
        self._due_from_inserts = 0  # queued rows no complete flush has taken yet
        self._closed = False
        event.listen(db_engine, "before_cursor_execute", self._statement)

    def close(self) -> None:
        """Stop watching the engine: from now on every answer is read again."""
        self._closed = True
        self._answers.clear()
        if event.contains(self.db_engine, "before_cursor_execute", self._statement):
            event.remove(self.db_engine, "before_cursor_execute", self._statement)

    # -- the answers -----------------------------------------------------------------------

    def scheduler(self, now: datetime, read: Callable[[], datetime | None]) -> datetime | None:
        """The scheduler's next wake at ``now``: kept, or ``read()`` (kept from now on)."""
        return self._answer("scheduler", now, read)

    def outbox(self, now: datetime, read: Callable[[], datetime | None]) -> datetime | None:
        """The outbox's earliest pending row at ``now``: ``now`` while a queued row waits for
        a flush, else kept, or ``read()``."""
        if self._due_from_inserts and not self._closed:
            return now
        return self._answer(_OUTBOX, now, read)

    def _answer(
        self, name: str, now: datetime, read: Callable[[], datetime | None]
    ) -> datetime | None:
        if self._closed:
            return read()
        kept = self._answers.get(name)
        if kept is not None and self._holds(kept, now):
            return kept.value
        writes, unknown = dict(self._writes), self._unknown
        reading: set[str] = set()
        self._reading.tables = reading
        try:
            value = read()
        finally:
            self._reading.tables = None
        tables = frozenset(reading)
        self._answers[name] = _Answer(
            value,
            tables,
            tuple(writes.get(t, 0) for t in sorted(tables)),
            unknown,
            now,
            time.monotonic(),
        )
        return value

    def _holds(self, kept: _Answer, now: datetime) -> bool:
        return (
            kept.asked_at <= now
            and (kept.value is None or now < kept.value)
            and time.monotonic() - kept.read_at < self.max_age
            and kept.unknown == self._unknown
            and kept.writes == tuple(self._writes[t] for t in sorted(kept.tables))
        )

    # -- the outbox's own traffic ----------------------------------------------------------

    @contextmanager
    def own_outbox(self) -> Iterator[None]:
        """Within the block, this thread's writes to the outbox are the outbox's own: they
        keep its answer (the outbox reports what they make due with :meth:`outbox_at`)."""
        self._own.active = True
        try:
            yield
        finally:
            self._own.active = False

    def outbox_at(self, when: datetime) -> None:
        """A pending row falls due at ``when`` (a retry, a lease, the relay's next try)."""
        kept = self._answers.get(_OUTBOX)
        if kept is not None and (kept.value is None or when < kept.value):
            kept.value = when

    def queued(self) -> int:
        """How many rows were queued so far (for :meth:`flushed`)."""
        return self._inserts

    def flushed(self, queued_before: int) -> None:
        """A flush took every row due when it began, and ``queued_before`` rows had been
        queued by then: only those queued since still wait."""
        self._due_from_inserts = min(self._due_from_inserts, self._inserts - queued_before)

    # -- the engine's statements -----------------------------------------------------------

    def _statement(self, *args: Any) -> None:
        statement: str = args[2]
        head = statement.lstrip()[:9].upper()
        if head.startswith(_NEUTRAL):
            reading: set[str] | None = getattr(self._reading, "tables", None)
            if reading is not None and head.startswith("SELECT"):
                reading.update(t.lower() for t in _READ.findall(statement))
            return
        found = _WRITE.match(statement)
        if found is None:
            self._unknown += 1
            return
        table = found.group(1).lower()
        if table == _OUTBOX:
            if head.startswith("INSERT"):
                self._inserts += 1
                self._due_from_inserts += 1
                return
            if getattr(self._own, "active", False):
                return
        self._writes[table] += 1
