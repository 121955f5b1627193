"""The courier: the outbox's sends on a thread of their own, beside the daemon's pass.

A reply is committed with the change it reports (:func:`pbm.outbound.replies.enqueue`); the
send is a separate step (:class:`~pbm.outbound.outbox.Outbox`). While the daemon's loop runs,
the courier's thread takes every send: as a mail's transaction commits, the pass claims its
answers (a short write: the row's send lease) and hands them over (:meth:`Courier.answers`),
then goes on to the next mail at once, instead of waiting for the relay's round trips and
the record of the send. A mail that reaches the mailbox while a burst is being answered is
then fetched after the other mails' handling alone, not after their sends too
(bench/RESULTS.md, "Ack latency ... a courier"). The claim is the pass's own: made by the
courier, it waited for the next mail's whole transaction (SQLite has one writer at a time).

The courier sends the answers that are due first, then bulk mail (turn reports, zine issues)
in slices that a newly queued answer ends, and sleeps until the outbox's next due row (kept
by the daemon's :class:`~pbm.db.wakes.Wakes`) or the next answer. The relay's backoff and
the sends not yet recorded are written by its thread alone (the pass only reads whether the
relay is down before it claims).

Without a running thread (``pbm run --once``, ``pbm ingest``, the tests' single passes) the
same calls send in the caller's thread, before they return: a pass is the same code either
way, and what it reports sent is what went.

The guarantees are the outbox's, unchanged: a row is claimed (a lease) before it is sent and
recorded after, so a process killed mid-send sends it again after the lease (at least once,
never lost), and two senders (this thread and another worker) never both take a row. A row
handed over has its lease renewed just before its send, and is not sent if the lease ran out
in the queue and the row was claimed again meanwhile. A lost database, or SQLite's lock held
past the busy timeout, pauses the courier (with backoff), never ends it; what it was handed
and did not send is given back when it stops, unless the stop is forced or the database is
down then (those rows wait out their lease).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager

import structlog
from sqlalchemy.exc import SQLAlchemyError

from pbm.core.errors import DatabaseUnavailable
from pbm.db.session import is_busy
from pbm.ops.incidents import Backoff, Incidents
from pbm.outbound.outbox import Claimed, Outbox

__all__ = ["PASS_SEND_BUDGET", "REPLY_SEND_BUDGET", "Courier"]

log = structlog.get_logger("pbm.outbound.courier")

#: Seconds of bulk mail in one slice: a stage's thousands of reports go out in slices, each
#: ended early by an answer queued meanwhile (on the courier's thread) or followed by the next
#: pass's fetch (sent inline). How long the rush's answers waited at each setting:
#: bench/RESULTS.md ("Figures once written in the code").
PASS_SEND_BUDGET = 0.5
#: Seconds of answers sent inline after a mail (no courier thread): a backlog of them, after a
#: relay outage, goes out in slices between the mails of a burst.
REPLY_SEND_BUDGET = 0.5
#: The most answers a pass claims after a mail (its own, as a rule; this many for each mail
#: of a batch that shared a commit), and the most that wait in the courier's hands for each:
#: while it is behind (a slow relay), the next mails' answers stay due, for the courier's own
#: flush or another worker, instead of waiting out their lease in its queue. A backlog of
#: them, after a relay outage, is the courier's to claim.
HAND_ROWS = 4
#: The shortest sleep of the courier between two looks at a due outbox that sent nothing (a
#: row in another worker's hands), so that it does not spin.
_MIN_SLEEP = 0.05


class Courier:
    """The outbox's sends: on the courier's thread once :meth:`start` ran, else inline."""

    def __init__(
        self,
        outbox: Outbox,
        should_stop: Callable[[], bool],
        *,
        max_wait: float,
        retry_first: float,
        retry_max: float,
        on_failure: Callable[[], None] = lambda: None,
        in_hand: Callable[[str], AbstractContextManager[object]] | None = None,
        incidents: Incidents | None = None,
    ) -> None:
        self.outbox = outbox
        #: Whether sending should stop (a warm stop past its sending time, a second signal).
        self.should_stop = should_stop
        self.max_wait = max_wait
        self._backoff = Backoff(retry_first, retry_max)
        #: Where a lost database is reported: the outage the pass would have met in its send.
        self.incidents = incidents
        self._db_down = False
        self._on_failure = on_failure
        #: Names the row in hand in the workers' registry, for the sends made inline (the
        #: registry keeps one name a process: the pass's, while the courier's thread sends).
        self.in_hand = in_hand
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()
        #: Answers the pass claimed and handed over, oldest first.
        self._handed: deque[Claimed] = deque()
        self._closing = threading.Event()
        #: The error that ended the courier's thread (re-raised by the daemon's loop, which
        #: stops as it did when a send raised in its own thread).
        self.failure: BaseException | None = None
        #: Sends made on the courier's thread (sent, failed for good), for the loop's log.
        self.sent = 0
        self.failed = 0

    @property
    def running(self) -> bool:
        """Whether the courier's thread takes the sends."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start the courier's thread: from now on :meth:`answers` and :meth:`bulk` hand over."""
        self._closing.clear()
        self.failure = None
        self._thread = threading.Thread(target=self._run, name="pbm-courier", daemon=True)
        self._thread.start()

    def stop(self, timeout: float) -> None:
        """Send what is due while ``should_stop`` allows it, then end the thread (a warm
        stop); the rest waits, pending, for the next start. What was handed over and not
        sent is given back, due at once (not after a forced stop: ``timeout`` 0)."""
        thread = self._thread
        if thread is None:
            return
        self._closing.set()
        self._wake.set()
        thread.join(timeout)
        if thread.is_alive():
            log.warning("courier.still_sending", seconds=timeout)
        self._thread = None
        if timeout <= 0:
            return  # a stop at once: the rows handed over wait out their lease
        try:
            # Handed after the thread's last look, or left by a thread that died or is still
            # in a send (each row is taken from the queue by one of the two threads).
            self._give_back()
        except (DatabaseUnavailable, SQLAlchemyError) as exc:
            log.warning("courier.not_given_back", rows=len(self._handed), error=str(exc))

    # -- the pass's calls ------------------------------------------------------------------

    def answers(self, mails: int = 1) -> tuple[int, int]:
        """The transaction of ``mails`` mails committed: their answers go now. Claimed here
        and handed to the courier's thread, which sends them at once (the claim, a write, is
        made here: on the courier's thread it waited for the next mail's transaction), or
        sent here for at most ``REPLY_SEND_BUDGET``. Returns what was sent, and failed for
        good, here."""
        if self.running:
            failed = 0
            room = HAND_ROWS * max(mails, 1) - len(self._handed)
            if room > 0 and not self.outbox.relay_down:
                for row_id in self.outbox.due_ids(answers_only=True, limit=room):
                    claimed = self.outbox.claim(row_id)
                    if isinstance(claimed, Claimed):
                        self._handed.append(claimed)
                    else:
                        failed += claimed == "failed"
            self._wake.set()
            return 0, failed
        return self.outbox.flush(
            self.should_stop, self.in_hand, REPLY_SEND_BUDGET, answers_only=True
        )

    def bulk(self) -> tuple[int, int]:
        """The end of a pass: the answers due, then a slice of bulk mail. The courier's
        thread sends bulk mail on its own (``(0, 0)`` returned at once), else sent here."""
        if self.running:
            self._wake.set()
            return 0, 0
        return self.outbox.flush(self.should_stop, self.in_hand, PASS_SEND_BUDGET)

    def until_due(self) -> float:
        """Seconds until the outbox has a row due (at most ``max_wait``; 0 or less: now)."""
        due = self.outbox.next_due()
        if due is None:
            return self.max_wait
        return min(self.max_wait, (due - self.outbox.clock.now()).total_seconds())

    # -- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while True:
                closing = self._closing.is_set()
                try:
                    went = self._round()
                    done = closing or self.should_stop()
                    # The outbox's next due is kept (no statement) and "now" while a queued
                    # row waits for a flush that took every due row: a cut slice goes on at
                    # once. It may read the database: inside the guard.
                    pause = None
                    if not done and not self._handed:
                        pause = max(0.0 if went else _MIN_SLEEP, self.until_due())
                except Exception as exc:
                    if not (isinstance(exc, DatabaseUnavailable) or is_busy(exc)):
                        raise
                    if closing:
                        return  # the rows wait, pending, for the next start
                    self._database_failed(exc)
                    continue
                self._backoff.reset()
                if self._db_down:
                    self._db_down = False
                    if self.incidents is not None:
                        self.incidents.recovered("database")
                if done:
                    return
                if pause is not None:
                    self._wake.wait(pause)
        except BaseException as exc:
            self.failure = exc
            log.exception("courier.failed", error=str(exc))
            self._on_failure()

    def _database_failed(self, exc: Exception) -> None:
        """The courier pauses (with backoff), and tries again: a lost database is an outage;
        SQLite's lock held past the busy timeout (a long pass) is not, the database works."""
        delay = self._backoff.failed()
        if isinstance(exc, DatabaseUnavailable):
            log.warning("courier.database_unavailable", error=str(exc), retry_in=delay)
            self._db_down = True
            if self.incidents is not None:
                self.incidents.failed("database", exc)
        else:
            log.warning("courier.database_busy", retry_in=delay)
        self._closing.wait(delay)

    def _round(self) -> bool:
        """The answers handed over; then the others due and a slice of bulk mail, ended by an
        answer queued meanwhile (the next round reads what is due again, answers first);
        whether anything went."""
        self._wake.clear()
        if self._handed and self._deliver_handed() and not self._closing.is_set():
            return True  # the next round looks for more handed first

        def answer_waits() -> bool:
            return self.should_stop() or self._wake.is_set()

        sent, failed = self.outbox.flush(answer_waits, None, PASS_SEND_BUDGET)
        self.sent += sent
        self.failed += failed
        return bool(sent or failed)

    def _deliver_handed(self) -> bool:
        while self._handed:
            if self.should_stop() or self.outbox.relay_down:
                self._give_back()  # due again now (the relay: at its next try)
                break
            claimed = self._take_handed()
            if claimed is None:
                break
            try:
                outcome = self.outbox.deliver(claimed, renew=True)
            except Exception as exc:
                if isinstance(exc, DatabaseUnavailable) or is_busy(exc):
                    # Its renewal met the database's trouble: it goes first once the courier's
                    # pause ends, not after its lease. Had the renewal gone through (the send's
                    # record failed), its next one finds the lease changed and skips it.
                    self._handed.appendleft(claimed)
                raise
            self.sent += outcome == "sent"
            self.failed += outcome == "failed"
        return True

    def _take_handed(self) -> Claimed | None:
        # The courier's thread and a stop that gives back may take from the queue at once.
        try:
            return self._handed.popleft()
        except IndexError:
            return None

    def _give_back(self) -> None:
        while (claimed := self._take_handed()) is not None:
            try:
                self.outbox.release(claimed)
            except BaseException:
                self._handed.appendleft(claimed)  # given back at the next try
                raise
