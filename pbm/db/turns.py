"""SQLite's write lock, taken in turn by the threads of one process.

Every write transaction on SQLite begins with ``BEGIN IMMEDIATE``; a thread that finds the
lock held sleeps in SQLite's busy handler (1, 2, 5, 10 ... 100 ms) and looks again. Two
threads of one process that both write often (the daemon's pass and its courier, the SMTP
listener's store) then do not take turns: the pass commits a mail and begins the next one's
transaction within a millisecond, while the other thread sleeps through the gap, and a
burst's replies waited for its last mail (bench/RESULTS.md, "Ack latency ... a courier").

:class:`WriteTurns` queues this process's writers first, in the order they came, and hands
the turn to the next one when the holder's COMMIT or ROLLBACK is done: the waiter wakes at
once, and the thread that just committed cannot take the lock back before it. Other
processes still meet at SQLite's lock, as before. A writer that does not get its turn within
its lock wait goes to SQLite's lock without it (and gets "database is locked" at once if it
is held): what waits at most ``LOCK_WAIT_MS`` (the doors) still waits no longer.
"""

from __future__ import annotations

import threading
from collections import deque

__all__ = ["WriteTurns"]


class WriteTurns:
    """A first-come lock whose holder is a DBAPI connection (released by the connection's
    COMMIT or ROLLBACK, whichever thread runs it)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._holder: object | None = None
        self._queue: deque[tuple[threading.Lock, object]] = deque()

    @property
    def holder(self) -> object | None:
        """The connection whose transaction has the turn (None: free)."""
        return self._holder

    @property
    def waiting(self) -> int:
        """How many writers are queued for the turn."""
        return len(self._queue)

    def take(self, connection: object, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the turn, for ``connection``; whether it came."""
        with self._mutex:
            if self._holder is None:
                self._holder = connection
                return True
            if self._holder is connection:
                return True  # its transaction already has it
            handed = threading.Lock()
            handed.acquire()
            entry = (handed, connection)
            self._queue.append(entry)
        try:
            if handed.acquire(timeout=max(0.0, timeout)):
                return True
        except BaseException:
            # Interrupted (a second SIGTERM's SystemExit, KeyboardInterrupt): a queued entry
            # left behind would be handed the turn later and hold every writer of the process
            # for its whole lock wait, so the waiter leaves the queue, or passes the turn on.
            with self._mutex:
                if entry in self._queue:
                    self._queue.remove(entry)
                elif self._holder is connection:
                    self._pass_on()
            raise
        with self._mutex:
            if entry in self._queue:
                self._queue.remove(entry)
                return False
        return True  # handed over just as the wait ended: the turn is ours

    def give_back(self, connection: object) -> None:
        """``connection``'s transaction ended: the next writer in the queue has the turn."""
        with self._mutex:
            if self._holder is connection:
                self._pass_on()

    def _pass_on(self) -> None:
        # Called with the mutex held.
        if self._queue:
            handed, self._holder = self._queue.popleft()
            handed.release()
        else:
            self._holder = None
