"""The daemon: :meth:`Daemon.run_once` does one pass of everything; :meth:`Daemon.run` loops.

One pass (shared by ``pbm run --once`` for cron and the ``pbm serve`` loop):

1. fetch new mail from each mailbox (IMAP); store the whole batch in one transaction; then for
   each message: handle it in its own transaction, mark it processed on the server only after
   that commit, and send its reply (:mod:`pbm.outbound.courier`: in the loop, its answers are
   claimed and handed to the courier's thread, which sends them while the pass goes on);
2. handle every stored message still pending (the SMTP listener's and ``pbm ingest``'s, and
   any left by a crash); before step 1, the spool (:mod:`pbm.inbound.spool`: what those doors
   accepted while a pass held SQLite's write lock) is imported, so it is pending too;
3. the scheduler tick (daily GM digest, naming deadlines, Test by Post's reminders and over
   deadlines);
4. flush the outbox (in the loop: wake the courier, which sends on its own).

The loop waits when a pass did nothing, or did nothing but handle the one mailbox's mail with
nothing else due: on the mailbox when there is one (IDLE, or NOOPs while mail flows; its wait
returns at once for mail that came meanwhile), else on an event that the SMTP listener's store
sets. Signals: a first SIGTERM or SIGINT asks for a warm stop (finish the current message, then
exit); a second exits at once. SIGHUP reopens the log file (``[logging] file``, for logrotate).

Outages (docs/ops/operations.md, "Outages"): a mailbox that cannot be reached is tried again
with exponential backoff (``retry_first`` doubling to ``retry_max`` seconds) while everything
else goes on; the relay's outages are the outbox's (:mod:`pbm.outbound.outbox`); a lost database
(:class:`~pbm.core.errors.DatabaseUnavailable`) abandons the pass, whose unit of work rolled back,
and the loop tries again with the same backoff. Each outage is an incident
(:mod:`pbm.ops.incidents`), opened at the first failure and resolved at the first success.

Under systemd (``Type=notify``, docs/ops/pbm.service) the loop says ``READY=1`` once it
serves, ``WATCHDOG=1`` at each pass (its waits are cut to a third of ``WatchdogSec``), and
``STOPPING=1`` when it leaves (:mod:`pbm.ops.sdnotify`).

The longest warm stop is bounded by one message's transaction plus the courier's sending time
(``WARM_STOP_SEND_SECONDS``) and one SMTP send in progress (the sender's timeout, ``[smtp]
timeout``), plus the IMAP logout: the systemd unit's ``TimeoutStopSec`` is set above that sum
(see docs/ops/pbm.service).
"""

from __future__ import annotations

import gc
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from types import FrameType

import structlog

from pbm.app import App, Listener
from pbm.core.errors import DatabaseUnavailable, MailError
from pbm.db.models import MailStatus
from pbm.db.session import transaction
from pbm.db.wakes import Wakes
from pbm.games import GAMES, Game
from pbm.inbound.pipeline import Stored
from pbm.inbound.spool import import_spool
from pbm.mail.ports import FetchedMessage, Mailbox, Sender
from pbm.ops.incidents import Backoff
from pbm.ops.logs import request_reopen
from pbm.ops.sdnotify import Notifier
from pbm.ops.workers import Registry
from pbm.outbound.courier import PASS_SEND_BUDGET, REPLY_SEND_BUDGET, Courier
from pbm.scheduler import next_wake, run_due

__all__ = ["PASS_SEND_BUDGET", "REPLY_SEND_BUDGET", "Daemon", "Listener", "Stats"]

log = structlog.get_logger("pbm.daemon")

#: How long a warm stop keeps sending due outbox rows. The longest warm stop is this, plus one
#: SMTP send in progress (``[smtp] timeout``, 30 s), plus one IMAP logout (``[imap] timeout``,
#: 30 s), plus the message or turn step in hand (seconds): under 90 s with the defaults, and
#: docs/ops/pbm.service sets TimeoutStopSec=120.
WARM_STOP_SEND_SECONDS = 20.0
#: How many times a pass fetches again while the mailboxes keep giving new mail.
DRAIN_ROUNDS = 5
#: Seconds of stage resolving in one pass: many stages falling due at once would otherwise
#: be resolved in one pass, and every answer to mail that came meanwhile would wait for all
#: of them. Freezes are not bounded. A pass costs little, so the slices are short: a longer
#: one made the answers to mail that came at a deadline wait for it.
SCHEDULER_BUDGET = 1.0
#: Seconds after which a batch of a fetch's mail takes no further mail (SQLite): each answer
#: waits for its batch's commit, and a mailbox's mail is what the acknowledgement's budget is
#: measured on; the pending mail's longer bound visibly delayed its answers (bench/RESULTS.md,
#: "A pass's mails, one commit"), and the pending mail keeps it.
FETCH_BATCH_SECONDS = 0.02
#: The first wait, and the longest, before trying a mailbox or the database again (seconds).
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 60.0


@dataclass
class Stats:
    """What one pass did."""

    fetched: int = 0
    processed: int = 0
    jobs: int = 0
    sent: int = 0
    failed: int = 0
    errors: int = 0

    @property
    def busy(self) -> bool:
        """Whether the pass did anything (if so, the loop goes again without waiting, unless it
        only handled the mailbox's mail)."""
        return bool(self.fetched or self.processed or self.jobs or self.sent or self.failed)


class Daemon:
    """One process: mailboxes in, outbox out, the scheduler, and optional listeners."""

    def __init__(
        self,
        app: App,
        sender: Sender,
        mailboxes: Sequence[Mailbox] = (),
        listeners: Sequence[Listener] = (),
        *,
        handle_signals: bool = False,
        max_wait: float | None = None,
        retry_first: float = RETRY_FIRST_SECONDS,
        retry_max: float = RETRY_MAX_SECONDS,
    ) -> None:
        self.app = app
        self.incidents = app.incidents()
        self.outbox = app.outbox(sender, self.incidents)
        self.max_wait = max_wait if max_wait is not None else app.config.scheduler.tick_seconds
        #: When the scheduler and the outbox next have work, kept between passes for the
        #: daemon's life (a pass that only answered mail seldom moves either).
        self.wakes = Wakes(app.db_engine, max_age=self.max_wait)
        self.outbox.wakes = self.wakes
        self.mailboxes = list(mailboxes)
        self._mailbox_backoff = [Backoff(retry_first, retry_max) for _ in self.mailboxes]
        self._mailbox_retry_at = [0.0 for _ in self.mailboxes]  # time.monotonic()
        self._db_backoff = Backoff(retry_first, retry_max)
        self.listeners = list(listeners)
        self.handle_signals = handle_signals
        #: This process in the workers' registry (``run`` registers it and beats; a single
        #: ``run_once`` claims a split stage's matches under its id without registering).
        self.worker = Registry(app.sessions, app.clock, app.config.workers)
        #: The outbox's sends: on their own thread while the loop runs, inline in a lone pass.
        self.courier = Courier(
            self.outbox,
            self._stop_sending,
            max_wait=self.max_wait,
            retry_first=retry_first,
            retry_max=retry_max,
            on_failure=self.wake,
            in_hand=self.worker.doing,
            incidents=self.incidents,
        )
        self._stop = threading.Event()
        self._stop_at = 0.0  # time.monotonic() of the warm stop's request
        self._wake = threading.Event()
        self._signals = 0
        self._forced = 0  # the signal that asked for a stop at once
        #: systemd's notify socket (a no-op outside systemd): READY, the watchdog, STOPPING.
        self.notify = Notifier()
        if self.notify.watchdog is not None:  # the loop must come round before it bites
            self.max_wait = min(self.max_wait, self.notify.watchdog / 3)

    # -- doors -----------------------------------------------------------------------------

    def store(self, raw: bytes, mail_from: str, rcpt_tos: list[str]) -> None:
        """Store a message from a listener, durably (the database, or the spool while a pass
        holds SQLite's write lock), and wake the loop to handle it."""
        self.app.doors.store(raw, "smtp", mail_from, rcpt_tos)
        self.wake()

    def wake(self) -> None:
        """Cut the current wait short."""
        self._wake.set()
        for mb in self.mailboxes:
            interrupt = getattr(mb, "interrupt", None)
            if callable(interrupt):
                interrupt()

    # -- stopping --------------------------------------------------------------------------

    @property
    def stopping(self) -> bool:
        """Whether a stop was requested."""
        return self._stop.is_set()

    def request_stop(self) -> None:
        """Warm stop: finish the current message, then leave ``run``."""
        if not self._stop.is_set():
            self._stop_at = time.monotonic()
        self._stop.set()
        self.wake()

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        # The handler runs on the main thread between two bytecodes, maybe while that thread
        # holds a lock: inside one of the daemon's Events (a wait's set-up, a clear), or the
        # log's (writing a line). Taking either here would wait for ever, so the handler
        # takes none: the warm stop is asked for, and logged, by a thread; the force stop
        # only raises, and run() logs it as it unwinds (the lock released by then).
        self._signals += 1
        if self._signals > 1:
            self._forced = signum
            raise SystemExit(128 + signum)
        threading.Thread(
            target=self._warm_stop, args=(signum,), name="pbm-warm-stop", daemon=True
        ).start()

    def _warm_stop(self, signum: int) -> None:
        log.info("daemon.warm_stop", signal=signal.Signals(signum).name)
        self.request_stop()

    # -- one pass --------------------------------------------------------------------------

    def run_once(self) -> Stats:
        """One pass of everything; see the module docstring."""
        stats = Stats()
        inbound = self.app.inbound
        # Turns fall due by this moment, not by the scheduler's: every mail that reached the
        # mailbox or a door before it is fetched and handled in this pass, before any freeze.
        began = self.app.clock.now()
        # What the doors spooled while a pass held the database comes first, as if stored.
        if self.app.spool is not None:
            self._import_spool(stats)
        # Drain the mailboxes (bounded) before the scheduler runs: mail that reached the
        # server while a burst was being handled is fetched and handled before a deadline's
        # freeze, instead of waiting behind it and counting as late.
        for _ in range(DRAIN_ROUNDS):
            fetched_before = stats.fetched
            for i, mb in enumerate(self.mailboxes):
                if self.stopping:
                    break
                if time.monotonic() < self._mailbox_retry_at[i]:
                    continue  # down: its backoff has not passed
                try:
                    fetched = mb.fetch_new()
                except MailError as exc:
                    delay = self._mailbox_backoff[i].failed()
                    self._mailbox_retry_at[i] = time.monotonic() + delay
                    log.warning(
                        "daemon.fetch_failed", mailbox=repr(mb), error=str(exc), retry_in=delay
                    )
                    self.incidents.failed("imap", exc)
                    stats.errors += 1
                    continue
                self._mailbox_backoff[i].reset()
                self.incidents.recovered("imap")
                stats.fetched += len(fetched)
                # The whole batch is durable (one commit) before any of it is handled or moved.
                batch = inbound.store_many([fm.raw for fm in fetched], "imap")
                self._handle_fetched(mb, fetched, batch, stats)
            if stats.fetched == fetched_before or self.stopping:
                break
        # Each claim takes the oldest pending row no other worker holds; the pass stops at the
        # newest one pending when it began, so mail stored meanwhile waits for the next pass
        # instead of keeping the scheduler and the outbox waiting.
        # On SQLite a few mails share one commit (Inbound.process_pending): their answers go
        # once it is made, as a lone mail's did after its own.
        pending = inbound.pending_ids()
        after = 0
        while pending and not self.stopping:
            with self.worker.doing("inbound (the next pending)"):
                done = inbound.process_pending(after, upto=pending[-1], stop=lambda: self.stopping)
            if not done:
                break
            after = done[-1][0]
            stats.processed += len(done)
            self._flush(stats, handled=len(done))
        if not self.stopping:
            with self.worker.doing("scheduler (turns, split stages' matches)"):
                stats.jobs = run_due(
                    self.app.sessions,
                    self.app.config,
                    self.app.clock,
                    self.worker.id,
                    SCHEDULER_BUDGET,
                    as_of=began,
                    games=self.app.games,
                )
        self._flush(stats, bulk=True)
        # A whole pass talked to the database: any outage of it is over.
        self._db_backoff.reset()
        self.incidents.recovered("database")
        return stats

    def _import_spool(self, stats: Stats) -> None:
        # Whatever the import raises, the rest of the pass runs (a lost database is the
        # loop's outage): its files wait for the next pass, and an import failing for long
        # is an incident of the "spool" door, which ``pbm health`` reports.
        assert self.app.spool is not None
        try:
            with self.worker.doing("spool import"):
                done = import_spool(self.app.spool, self.app.inbound, lambda: self.stopping)
            if done.left:  # answered mail the import had no time for: the loop must not wait
                self._wake.set()
        except DatabaseUnavailable:
            raise
        except Exception as exc:
            log.exception("daemon.spool_import_failed", error=str(exc))
            self.incidents.failed("spool", exc)
            stats.errors += 1
            return
        self.incidents.recovered("spool")

    def _handle_fetched(
        self, mb: Mailbox, fetched: Sequence[FetchedMessage], stored: Sequence[Stored], stats: Stats
    ) -> None:
        """Handle a fetch's stored mail in order, a few mails a commit (SQLite), and mark each
        processed on the server once its commit is made."""
        inbound = self.app.inbound
        k = 0
        while k < len(fetched) and not self.stopping:
            # stored and still on the server when stopping: handled as pending next time
            if stored[k].status != MailStatus.RECEIVED:  # handled before: only moved
                taken = 1
            else:
                ids = []
                for s in stored[k:]:
                    if s.status != MailStatus.RECEIVED:
                        break
                    ids.append(s.id)
                with self.worker.doing(f"inbound {ids[0]}"):
                    done = inbound.process_many(
                        ids, seconds=FETCH_BATCH_SECONDS, stop=lambda: self.stopping
                    )
                taken = len(done)
                stats.processed += sum(d is not None for d in done)
            for fm in fetched[k : k + taken]:
                try:
                    mb.mark_processed(fm.uid)
                except MailError as exc:
                    # The effects are committed; the message will come again and be a no-op.
                    log.warning("daemon.mark_failed", uid=fm.uid, error=str(exc))
                    stats.errors += 1
            self._flush(stats, handled=taken)
            k += taken

    def _flush(self, stats: Stats, bulk: bool = False, handled: int = 1) -> None:
        # After each commit of handled mail its answers go; at the end of a pass the answers
        # and a slice of bulk mail. The loop's courier sends them on its own thread while the
        # pass goes on to the next mail; a lone pass sends them here.
        sent, failed = self.courier.bulk() if bulk else self.courier.answers(handled)
        stats.sent += sent
        stats.failed += failed

    def _stop_sending(self) -> bool:
        # A warm stop still sends what is due (the replies of the mail just handled), for
        # WARM_STOP_SEND_SECONDS at most; the rest waits, pending, for the next start.
        if not self._stop.is_set():
            return False
        return self._signals > 1 or time.monotonic() - self._stop_at > WARM_STOP_SEND_SECONDS

    # -- the loop --------------------------------------------------------------------------

    def _wait_seconds(self) -> float:
        return max(0.05, self._until_due())

    def _until_due(self) -> float:
        """Seconds until the scheduler or the outbox has work (at most ``max_wait``; 0 or
        less: now)."""
        now = self.app.clock.now()
        until = [self.wakes.scheduler(now, lambda: self._next_wake(now)) or now]
        # The courier's thread wakes itself for the outbox; a lone pass's loop has none.
        due = None if self.courier.running else self.outbox.next_due()
        if due is not None:
            until.append(due)
        seconds = min((t - now).total_seconds() for t in until)
        return min(seconds, self.max_wait)

    def _next_wake(self, now: datetime) -> datetime:
        with transaction(self.app.sessions) as s:
            return next_wake(s, self.app.config, now, self.app.games)

    def _mail_only(self, stats: Stats) -> bool:
        """Whether a busy pass only handled the one mailbox's mail (and sent the answers).

        Then the loop need not pass again at once to find what came meanwhile: the mailbox's
        wait returns at once for mail newer than its last fetch, a listener's store wakes it,
        and anything else due now is seen by ``_until_due``. Passing again cost an empty
        pass (the scheduler's and the outbox's queries) for every mail that came alone, as
        mail does while the IMAP door polls (bench/RESULTS.md, "Ack latency").
        """
        return (
            len(self.mailboxes) == 1
            and stats.fetched > 0
            and not (stats.jobs or stats.failed or stats.errors)
        )

    def _wait(self, timeout: float) -> None:
        if self._wake.is_set():
            self._wake.clear()
            return
        retry_in = self._mailbox_retry_at[0] - time.monotonic() if self.mailboxes else 0.0
        if retry_in > 0:  # the mailbox is down: wait for its next try, not on it
            self._wake.wait(min(timeout, retry_in))
        elif self.mailboxes:
            try:
                self.mailboxes[0].wait(timeout)
            except MailError as exc:
                log.warning("daemon.wait_failed", error=str(exc))
                self._wake.wait(min(timeout, 5.0))
        else:
            self._wake.wait(timeout)
        self._wake.clear()

    def run(self) -> None:
        """Loop until stopped; waits when a pass did nothing, or only handled mail."""
        previous: dict[signal.Signals, object] = {}
        if self.handle_signals and threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                previous[sig] = signal.signal(sig, self._on_signal)
            previous[signal.SIGHUP] = signal.signal(signal.SIGHUP, _on_hangup)
        started: list[Listener] = []
        try:
            for listener in self.listeners:
                listener.start()
                started.append(listener)
            _warm_up(self.app.games)
            self.worker.start()
            self.courier.start()
            log.info(
                "daemon.started",
                mailboxes=len(self.mailboxes),
                listeners=len(started),
                worker=self.worker.id,
            )
            self.notify.ready()
            while not self.stopping:
                self.notify.ping()  # each pass of the loop feeds systemd's watchdog
                try:
                    stats = self.run_once()
                    if self.courier.failure is not None:
                        raise self.courier.failure  # a send raised: stop, as in this thread
                    if self.stopping or (stats.busy and not self._mail_only(stats)):
                        continue
                    until = self._until_due()
                    if stats.busy and until <= 0:
                        continue  # the pass left work that is due now
                    timeout = max(0.05, until)
                except DatabaseUnavailable as exc:
                    self._database_down(exc)
                    continue
                self._wait(timeout)
        except SystemExit:
            if self._forced:
                log.warning("daemon.force_stop", signal=signal.Signals(self._forced).name)
            raise
        finally:
            self.notify.stopping()
            try:
                self._stop_courier()
            finally:
                self.worker.stop()
                for listener in reversed(started):
                    listener.stop()
                for mb in self.mailboxes:
                    try:
                        mb.close()
                    except MailError as exc:
                        log.warning("daemon.close_failed", error=str(exc))
                for sig, handler in previous.items():
                    signal.signal(sig, handler)  # type: ignore[arg-type]
                self.wakes.close()
                log.info("daemon.stopped")

    def _stop_courier(self) -> None:
        # A warm stop waits for the replies of the mail just handled (WARM_STOP_SEND_SECONDS
        # at most, and the send in hand: ``[smtp] timeout``, 30 s by default, and a margin);
        # a second signal, which may land here, leaves the send in hand to die with the
        # process.
        try:
            self.courier.stop(0.0 if self._forced else WARM_STOP_SEND_SECONDS + 35.0)
        except SystemExit:
            if self._forced:
                log.warning("daemon.force_stop", signal=signal.Signals(self._forced).name)
            raise

    def _database_down(self, exc: DatabaseUnavailable) -> None:
        # The pass's unit of work rolled back: the mail in hand is still ``received`` (or on
        # the IMAP server), so the next pass takes it again. Held in memory until then.
        delay = self._db_backoff.failed()
        log.warning("daemon.database_unavailable", error=str(exc), retry_in=delay)
        self.incidents.failed("database", exc)
        self._wake.wait(delay)  # a stop request sets it
        self._wake.clear()


def _on_hangup(_signum: int, _frame: FrameType | None) -> None:
    request_reopen()  # a flag only: the next log line reopens the file


def _warm_up(games: Sequence[Game] = GAMES) -> None:
    """Load what each game's first mail would wait for (Flungo's order parser) now, the
    mail commands' table (it imports every handler's module: the first mail paid for it) and
    every mail kind's templates (the first answer of each kind compiled its own)."""
    from pbm.inbound.commands import fallbacks, registry
    from pbm.outbound.render import compile_templates

    registry()
    fallbacks()
    compile_templates()
    for game in games:
        game.warm_up()
    # What is loaded by now (the parser's tables, the templates, the ORM's mappers) lives as
    # long as the process: frozen, the cyclic collector stops scanning it at each full
    # collection, which was a large share of a burst of orders' time.
    gc.collect()
    gc.freeze()
