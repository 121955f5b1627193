"""Mail in: store the raw message first, then handle it in one transaction.

1. :meth:`Inbound.store` commits the raw bytes under a unique key (Message-ID, or a hash of
   the bytes), whichever door they came by. A redelivery finds the key taken and does nothing.
   :meth:`Inbound.store_many` does the same for a whole IMAP fetch in one commit.
2. :meth:`Inbound.process` handles one stored message in ONE transaction: understand it
   once (:func:`pbm.mail.understand.understand`: a bounce to record, automatic mail to ignore,
   a refusal to send, or a player's mail), route and decide in one call on that value
   (:func:`pbm.inbound.dispatch.route`), then :func:`pbm.inbound.dispatch.admitted` admits it
   (rate limit, "mailed again") and :func:`pbm.inbound.dispatch.execute` runs the registered
   command's handler, which queues the reply in the outbox. The status moves from
   ``received`` to applied, rejected or ignored.
3. Any unexpected exception rolls that transaction back and, in a second one, marks the
   message ``shunted`` (a dead letter) with the traceback and alerts the GM. Nothing is
   dropped: :meth:`Inbound.retry` puts a dead letter back to ``received``.

The raw bytes are stored scrubbed of secrets, with an encrypted copy (``sealed``) to handle;
the sealed copy is dropped once the message is handled, and kept for a dead letter's retry
(:mod:`pbm.secrets.at_rest`).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import structlog
from sqlalchemy import Connection, Row, Select, bindparam, event, inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, defer, sessionmaker

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.core.errors import (
    DatabaseUnavailable,
    MessageParseError,
    NotFound,
    PbmError,
)
from pbm.core.events import record
from pbm.db.models import Competition, InboundMail, table_of
from pbm.db.session import SKIP_LOCKED, batch, is_postgres, transaction
from pbm.db.wakes import written_table
from pbm.inbound.context import Handled, MailContext, Status, StoredMail
from pbm.inbound.dispatch import Decision, Run, admitted, execute, route
from pbm.inbound.intake import Incoming, message_key
from pbm.inbound.routing import extract_secret
from pbm.mail.understand import Kind, understand
from pbm.outbound.bounces import record_report
from pbm.outbound.replies import queue_mail
from pbm.secrets import Sealer, SecretBox, known_secrets, redact
from pbm.testhooks import crash_point

__all__ = ["BATCH_MAILS", "BATCH_SECONDS", "Arrival", "Inbound", "Stored"]

log = structlog.get_logger("pbm.inbound")


#: Keys per ``IN (...)`` query: well under SQLite's and PostgreSQL's parameter limits.
_KEYS_PER_QUERY = 500
#: The most mails one commit takes on SQLite (:meth:`Inbound.process_pending`), and the
#: seconds after which a batch takes no further mail: an answer waits for its batch's
#: commit, so the batch is bounded well inside the acknowledgement's budget (0.3 s at p99
#: through the IMAP door, bench/ack_latency.py), and the doors' wait for the write lock
#: (``door_wait_ms``, 250 by default) outlasts it.
BATCH_MAILS = 16
BATCH_SECONDS = 0.05


@dataclass(frozen=True, slots=True)
class _Item:
    raw: bytes
    key: str
    envelope_from: str | None
    envelope_to: str | None
    door: str | None = None  # the batch's door when None
    received_at: datetime | None = None  # now when None


@dataclass(frozen=True, slots=True)
class Arrival:
    """A mail a door accepted earlier, kept outside the database (the spool): the raw bytes,
    the door, its envelope and when it came."""

    raw: bytes
    door: str
    envelope_from: str | None
    envelope_to: tuple[str, ...]
    received_at: datetime


@dataclass(frozen=True, slots=True)
class _Meta:
    """What handling learns about the stored row (written with its status, in one UPDATE)."""

    from_addr: str | None
    subject: str | None
    competition_id: int | None


@dataclass(frozen=True, slots=True)
class _Claim:
    """The statement that claims a message, and whether it claims the next pending one
    (nothing found: none is left) rather than one by its id."""

    statement: Select[Any]
    params: dict[str, Any]
    next: bool = True
    id: int | None = None


class _Failed(Exception):
    """A mail of a batch failed (anything but a lost database): the batch is rolled back."""

    def __init__(self, mail_id: int) -> None:
        super().__init__(mail_id)
        self.mail_id = mail_id


@dataclass(frozen=True, slots=True)
class Stored:
    """The stored message's id, and whether this call stored it (False: a redelivery)."""

    id: int
    created: bool
    status: Status


class Inbound:
    """The inbound pipeline, shared by every door."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        config: Config,
        clock: Clock,
        box: SecretBox | None = None,
    ) -> None:
        self.sessions = sessions
        self.config = config
        self.clock = clock
        self.box = box or SecretBox(config.security)
        self.sealer = Sealer(config.security.secret_key, config.security.old_secret_keys)
        self._seen_secrets: tuple[str, ...] = ()
        self._meta = _Meta(None, None, None)
        self._known_games: dict[str, str] | None = None
        #: The competitions a batch read, while it runs (SQLite: the batch's transaction is
        #: the only writer, and what it writes to them drops them).
        self._kept: _KeptCompetitions | None = None
        #: A batch's bounds (:meth:`process_pending`): at most this many mails a commit, and
        #: none taken after this many seconds.
        self.batch_mails = BATCH_MAILS
        self.batch_seconds = BATCH_SECONDS

    # -- 1. store ----------------------------------------------------------------------------

    def store(
        self,
        raw: bytes,
        door: str,
        envelope_from: str | None = None,
        envelope_to: tuple[str, ...] | list[str] = (),
    ) -> Stored:
        """Commit the raw message (idempotent by key). Safe to call from any thread.

        Raises :class:`~pbm.core.errors.MessageParseError` for bytes that are no message at all
        (empty or blank): there is nothing to store, answer or retry."""
        if not raw.strip():
            raise MessageParseError("an empty message: nothing to store")
        item = _Item(raw, message_key(raw), envelope_from or None, " ".join(envelope_to) or None)
        return self._store([item], door)[0]

    def store_many(self, raws: Sequence[bytes], door: str) -> list[Stored]:
        """Commit a batch of raw messages in ONE transaction (idempotent by key), one result
        per message in order: a mailbox's fetch is durable before any of it is handled or
        moved, for one commit instead of one per message. The same key twice in the batch is
        stored once (the second result has ``created=False``)."""
        items = [_Item(raw, message_key(raw), None, None) for raw in raws]
        return self._store(items, door) if items else []

    def store_arrivals(self, arrivals: Sequence[Arrival]) -> list[Stored]:
        """Commit mail the doors spooled (:mod:`pbm.inbound.spool`) in ONE transaction,
        idempotent by the same key as :meth:`store`, each row with its own door, envelope and
        time of arrival."""
        items = [
            _Item(
                a.raw,
                message_key(a.raw),
                a.envelope_from or None,
                " ".join(a.envelope_to) or None,
                a.door,
                a.received_at,
            )
            for a in arrivals
        ]
        return self._store(items, "spool") if items else []

    def _store(self, items: list[_Item], door: str) -> list[Stored]:
        try:
            with transaction(self.sessions) as s:
                found = self._existing(s, [i.key for i in items])
                now = self.clock.now()
                rows: dict[str, InboundMail] = {}
                for item in items:
                    if item.key in found or item.key in rows:
                        continue
                    rows[item.key] = InboundMail(
                        key=item.key,
                        door=item.door or door,
                        raw=item.raw,
                        sealed=self.sealer.seal(item.raw),
                        status=Status.RECEIVED,
                        received_at=item.received_at or now,
                        envelope_from=item.envelope_from,
                        envelope_to=item.envelope_to,
                        attempts=0,
                    )
                s.add_all(rows.values())
                s.flush()
        except IntegrityError:
            if len(items) > 1:  # another door stored one of them meanwhile: one by one
                return [self._store([item], door)[0] for item in items]
            # Two doors raced with the same message: the other one stored it.
            with transaction(self.sessions) as s:
                key = items[0].key
                row = s.scalars(select(InboundMail).where(InboundMail.key == key)).one_or_none()
                stored = None if row is None else Stored(row.id, False, Status(row.status))
            if stored is None:
                raise  # no race: the database refused the row itself (a CHECK, a trigger)
            return [stored]
        out = []
        first: set[str] = set()
        for item in items:
            if item.key in found:
                out.append(found[item.key])
                log.info("inbound.duplicate", id=found[item.key].id, door=door)
            elif item.key in first:  # twice in this batch
                out.append(Stored(rows[item.key].id, False, Status.RECEIVED))
            else:
                first.add(item.key)
                out.append(Stored(rows[item.key].id, True, Status.RECEIVED))
                row = rows[item.key]
                log.info("inbound.stored", id=row.id, door=row.door, bytes=len(item.raw))
        crash_point("after-store")
        return out

    @staticmethod
    def _existing(s: Session, keys: list[str]) -> dict[str, Stored]:
        """The already stored messages among ``keys``."""
        found = {}
        for k in range(0, len(keys), _KEYS_PER_QUERY):
            chunk = set(keys[k : k + _KEYS_PER_QUERY])
            query = select(InboundMail.key, InboundMail.id, InboundMail.status)
            for key, id_, status in s.execute(query.where(InboundMail.key.in_(chunk))):
                found[key] = Stored(id_, False, Status(status))
        return found

    # -- 2. process --------------------------------------------------------------------------

    def pending_ids(self) -> list[int]:
        """Stored messages not yet handled, oldest first."""
        with transaction(self.sessions) as s:
            return list(
                s.scalars(
                    select(InboundMail.id)
                    .where(InboundMail.status == Status.RECEIVED)
                    .order_by(InboundMail.id)
                )
            )

    def process(self, mail_id: int) -> Status | None:
        """Handle one stored message; returns its new status (None if it was not pending)."""
        done = self._process(self._claim_id(mail_id), mail_id)
        return done[1] if done is not None else None

    def process_next(self, after: int = 0, upto: int | None = None) -> tuple[int, Status] | None:
        """Claim the oldest pending message (id above ``after``, at most ``upto``) that no
        other worker holds, handle it, and return its id and new status; None when there is
        none. The claim is one ``SELECT ... ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED``: a
        worker goes straight to the next free row instead of trying, one transaction each,
        every id that other workers hold or have just handled."""
        return self._process(self._claim_next(after, upto))

    def process_pending(
        self,
        after: int = 0,
        upto: int | None = None,
        *,
        mails: int | None = None,
        seconds: float | None = None,
        stop: Callable[[], bool] = lambda: False,
    ) -> list[tuple[int, Status]]:
        """:meth:`process_next` for up to ``mails`` messages (none taken after ``seconds``;
        by default the instance's ``batch_mails`` and ``batch_seconds``),
        in ONE commit on SQLite. Nothing of the batch is durable, and no answer of it can be
        sent, before that commit: a crash or a lost database anywhere in it rolls every
        message back to ``received`` for the next pass. A message that fails rolls the batch
        back, and its messages are handled again one a transaction: the one that fails
        becomes a dead letter alone, as it would have handled alone (a savepoint a message,
        as SQLAlchemy makes them, cost more than the commits it saved).

        On PostgreSQL one message a commit, as :meth:`process_next`: a batch would hold each
        of its messages' competition locks to its end, and two workers taking two
        competitions in opposite orders would deadlock. The ids and new statuses, in order
        ([]: nothing was pending). No message is taken after ``stop()`` says so (a warm
        stop: the one in hand is finished and committed)."""
        mails = self.batch_mails if mails is None else mails
        if mails <= 1 or self._postgres:
            done = self.process_next(after, upto)
            return [] if done is None else [done]
        claim = lambda _k, last: self._claim_next(last, upto)  # noqa: E731
        seconds = self.batch_seconds if seconds is None else seconds
        taken = self._batch(claim, after, mails, seconds, stop)
        return [d for d in taken if d is not None]

    def process_many(
        self,
        ids: Sequence[int],
        *,
        mails: int | None = None,
        seconds: float | None = None,
        stop: Callable[[], bool] = lambda: False,
    ) -> list[tuple[int, Status] | None]:
        """:meth:`process` for the first of ``ids`` as :meth:`process_pending` batches them
        (at least one, whatever ``stop`` says): a result for each id taken, in order (None:
        it was not pending)."""
        if not ids:
            return []
        mails = self.batch_mails if mails is None else mails
        if mails <= 1 or self._postgres or len(ids) == 1:
            return [self._process(self._claim_id(ids[0]), ids[0])]
        mails = min(mails, len(ids))
        seconds = self.batch_seconds if seconds is None else seconds
        return self._batch(lambda k, _last: self._claim_id(ids[k]), 0, mails, seconds, stop)

    def _batch(
        self,
        claim: Callable[[int, int], _Claim],
        last: int,
        mails: int,
        seconds: float,
        stop: Callable[[], bool],
    ) -> list[tuple[int, Status] | None]:
        """Up to ``mails`` claims (``claim(k, last id handled)``) handled in one transaction;
        None for a claim that found nothing pending. A mail that fails rolls the batch back,
        and the batch's mails are handled again one a transaction (:meth:`_alone`)."""
        done: list[tuple[int, Status] | None] = []
        taken: list[int | None] = []  # each claim's mail, for doing them again alone
        began = time.monotonic()
        try:
            with batch(self.sessions) as conn, _KeptCompetitions(conn) as self._kept:
                while not done or (
                    len(done) < mails and time.monotonic() - began < seconds and not stop()
                ):
                    one = claim(len(done), last)
                    got = self._process(one, within=conn)
                    if got is None and one.next:
                        break  # nothing left pending
                    done.append(got)
                    taken.append(one.id if got is None else got[0])
                    last = got[0] if got is not None else last
                if len(done) > 1:
                    crash_point("batch-before-commit")
        except _Failed as failed:
            return self._alone([*taken, failed.mail_id])
        finally:
            self._kept = None
        for got in done:
            if got is not None:
                log.info("inbound.handled", id=got[0], status=got[1])
        crash_point("after-commit")
        return done

    def _alone(self, ids: list[int | None]) -> list[tuple[int, Status] | None]:
        """A failed batch's mails again, in order, each in a transaction of its own: the one
        that failed fails alone and is shunted (a dead letter, the GM alerted), as a mail
        handled alone always was. Nothing of the batch was committed or sent."""
        log.warning("inbound.batch_failed", mails=len(ids))
        return [None if i is None else self._process(self._claim_id(i), i) for i in ids]

    @property
    def _postgres(self) -> bool:
        bind = self.sessions.kw.get("bind")
        return bind is not None and bind.dialect.name == "postgresql"

    @staticmethod
    def _claim_id(mail_id: int) -> _Claim:
        return _Claim(_CLAIM_ID, {"b_id": mail_id}, next=False, id=mail_id)

    @staticmethod
    def _claim_next(after: int, upto: int | None) -> _Claim:
        if upto is None:
            return _Claim(_CLAIM_NEXT, {"b_after": after})
        return _Claim(_CLAIM_UPTO, {"b_after": after, "b_upto": upto})

    def _process(
        self, claim: _Claim, mail_id: int | None = None, within: Connection | None = None
    ) -> tuple[int, Status] | None:
        found_secrets: tuple[str, ...] = ()
        try:
            with transaction(self.sessions, within) as s:
                # The claim: FOR UPDATE SKIP LOCKED. A second worker on PostgreSQL skips a
                # message another one is handling (None: not ours), and finds it handled once
                # that one commits. The lease is the transaction itself: a worker that dies
                # mid-message loses its connection, PostgreSQL rolls back and frees the row,
                # and the next pass of any worker takes it (nothing was committed, so it is
                # handled once). SQLite has one writer at a time (BEGIN IMMEDIATE).
                # Core statements of the pipeline's own go to the connection: the session's
                # execute (the ORM's plugin lookup, its event, an autoflush) cost half again.
                db = s.connection()
                mail = _stored(db.execute(claim.statement, claim.params).first())
                if mail is None or mail.status != Status.RECEIVED:
                    return None
                mail_id = mail.id
                self._meta = _Meta(None, None, None)
                handled = self._handle(s, mail)
                found_secrets = handled.secrets
                # One Core UPDATE of the row; its columns' types scrub what it writes.
                done: dict[str, object] = {
                    "b_id": mail.id,
                    "from_addr": self._meta.from_addr,
                    "subject": self._meta.subject,
                    "status": handled.status,
                    "note": handled.note[:500],
                    "processed_at": self.clock.now(),
                    "sealed": None,  # handled: nothing at rest needs the plaintext now
                }
                if self._meta.competition_id is not None:
                    done["competition_id"] = self._meta.competition_id
                if handled.secrets:
                    done["raw"] = mail.raw  # scrubbed again, now of the secrets it carried
                # What handlers left to the unit of work, then the row's update, hiding the
                # secrets the mail carried wherever they were written.
                with known_secrets(handled.secrets):
                    s.flush()
                    db.execute(_DONE, done)
                crash_point("before-commit")
        except DatabaseUnavailable:
            # The database went away, not the message: the transaction rolled back, the mail
            # is still ``received`` and the next pass handles it (no dead letter, no alert).
            log.warning("inbound.db_unavailable", id=mail_id)
            raise
        except Exception as exc:  # the shunt: anything unexpected becomes a dead letter
            if mail_id is None:
                raise  # the claim itself failed: nothing was taken, nothing to shunt
            if within is not None:  # the batch is rolled back: its mails go again alone
                raise _Failed(mail_id) from exc
            tb = redact(traceback.format_exc(), (*self.config.secrets(), *found_secrets))
            self._shunt(mail_id, tb)
            log.error("inbound.shunted", id=mail_id, error=redact(repr(exc), self.config.secrets()))
            return mail_id, Status.SHUNTED
        if within is None:  # else logged, and crashed after, at the batch's commit
            log.info("inbound.handled", id=mail_id, status=handled.status, note=handled.note)
            crash_point("after-commit")
        return mail_id, handled.status

    def _handle(self, s: Session, mail: StoredMail) -> Handled:
        h = self._dispatch(s, mail)
        return replace(h, secrets=(*h.secrets, *self._seen_secrets))

    def _dispatch(self, s: Session, mail: StoredMail) -> Handled:
        self._seen_secrets = ()
        raw = self.sealer.unseal(mail.sealed) if mail.sealed is not None else mail.raw
        own = self.config.server.address
        key = self.config.security.keys  # a report of mail sent before a key rotation too
        # The one reading of the bytes: everything below reads ``mail_is``, never ``raw``.
        mail_is = understand(
            raw,
            own_address=own,
            envelope_from=mail.envelope_from,
            envelope_to=tuple((mail.envelope_to or "").split()),
            keys=key,
        )
        self._meta = _Meta(mail_is.sender or None, mail_is.email.subject[:1000] or None, None)
        if mail_is.kind is Kind.BOUNCE:
            # a report quoting a player's mail may quote its SECRET line: hidden where stored
            secret = extract_secret(mail_is.email.body)[0]
            self._seen_secrets = (secret,) if secret else ()
            mail.from_addr, mail.subject = self._meta.from_addr, self._meta.subject  # read there
            return Handled(Status.IGNORED, record_report(s, self.clock, mail, mail_is, own, key))
        gm = self.config.gm.address
        # Routing and the decision, one call on the understood mail, before any row is read.
        routed = route(mail_is, own, self._games(s), gm)
        if routed.msg.code is None and routed.msg.unknown_code is not None:
            # A code we do not know yet may be a competition created since the codes were
            # read (by another process): read them again before calling it unknown.
            routed = route(mail_is, own, self._games(s, reload=True), gm)
        competition = None
        if routed.msg.code is not None:
            competition = self._competition(s, routed.msg.code, routed.decision)
            if competition is None:  # deleted since the codes were read
                self._known_games = None
                routed = route(mail_is, own, self._games(s), gm)
        # the context is made from the routing that stands, so a handler never reads the
        # message as it was routed to a competition that is gone
        msg, decision = routed.msg, routed.decision
        self._seen_secrets = _secrets_of(msg)
        ctx = MailContext(s, self.config, self.clock, _MessageBox(self.box), mail, msg)
        ctx.competition = competition
        if ctx.competition is not None:
            self._meta = replace(self._meta, competition_id=ctx.competition.id)
        if mail_is.refusal is not None:
            if mail_is.refusal.answer is not None:
                ctx.reply("refused", reason=mail_is.refusal.answer)
            return ctx.handled(Status(mail_is.refusal.status), mail_is.refusal.note)
        outcome = admitted(ctx, decision, person=mail_is.kind is Kind.PLAYER)
        return execute(ctx, outcome) if isinstance(outcome, Run) else outcome

    def _competition(self, s: Session, code: str, decision: Decision) -> Competition | None:
        """The competition ``code`` names, in ``s``: as the batch keeps it when it does (no
        statement), else read (on PostgreSQL with this mail's lock on it, in the same
        statement)."""
        kept = self._kept
        if kept is not None and (found := kept.get(code)) is not None:
            return s.merge(found, load=False)
        by_code = _by_code(is_postgres(s), shared=_seat_scoped(decision))
        competition = s.scalars(by_code, {"code": code}).first()
        if kept is not None and competition is not None:
            kept.put(code, competition)
        return competition

    def _games(self, s: Session, *, reload: bool = False) -> Mapping[str, str]:
        """Each competition's code (upper case) and its game, read once per process: neither
        is ever changed, and a code created since (by another process) is found by the
        re-read of an unknown code."""
        if reload or self._known_games is None:
            rows = s.execute(select(Competition.code, Competition.game))
            self._known_games = {code.upper(): game for code, game in rows}
        return self._known_games

    # -- 3. the shunt ------------------------------------------------------------------------

    def shunt(self, mail_id: int, error: str) -> None:
        """Make a stored message a dead letter with ``error`` and tell the GM (the spool's
        unreadable files come here too)."""
        self._shunt(mail_id, error)

    def _shunt(self, mail_id: int, tb: str) -> None:
        with transaction(self.sessions) as s:
            mail = s.get(InboundMail, mail_id)
            if mail is None:  # pragma: no cover - the row was committed before processing
                return
            self.shunt_in(s, mail, tb)

    def shunt_in(self, s: Session, mail: InboundMail, tb: str) -> None:
        """:meth:`shunt` in the caller's transaction: the dead letter and the GM's alert
        commit together, or neither does."""
        mail.status = Status.SHUNTED
        mail.error = tb
        mail.processed_at = self.clock.now()
        mail.attempts += 1
        queue_mail(
            s,
            self.config,
            self.clock,
            kind="gm-alert",
            to=self.config.gm.address,
            ctx={
                "mail_id": mail.id,
                "sender": mail.from_addr or mail.envelope_from or "unknown",
                "subject": mail.subject or "",
                "error": (tb.strip().splitlines() or [""])[-1],
            },
            reply_to=None,
            inbound_id=mail.id,
        )
        record(s, self.clock, "shunted", inbound=mail.id)

    def retry(self, mail_id: int) -> None:
        """Put a dead letter back in the queue; a message still queued is left as it is.

        A handled message is refused: its secrets were redacted when it was handled, so a
        second pass would refuse the player's orders, send a second reply and overwrite the
        record of what the first pass did.
        """
        with transaction(self.sessions) as s:
            mail = s.get(InboundMail, mail_id)
            if mail is None:
                raise NotFound(f"no inbound mail with id {mail_id}")
            if mail.status == Status.RECEIVED:
                return
            if mail.status != Status.SHUNTED:
                raise PbmError(
                    f"#{mail_id} is not a dead letter: it was {mail.status}"
                    f" ({mail.note or 'no note'}); only dead letters are retried"
                )
            if mail.door == "spool" and not mail.raw:  # an unreadable spool file's
                raise PbmError(
                    f"#{mail_id} holds no mail but names a spool file: "
                    "pbm.inbound.spool.retry_dead reads the file again"
                )
            mail.status = Status.RECEIVED
            mail.note = f"retried (was {mail.note or 'shunted'})"[:500]
            record(s, self.clock, "retry", inbound=mail.id)


class _KeptCompetitions:
    """The competitions a batch's mails read, by code, for the batch's life: its later mails
    take the row into their session (``merge(load=False)``: no statement) instead of reading
    it again, which costs several times the merge (bench/RESULTS.md, "A pass's mails, one
    commit").
    Only one batch's transaction writes while it runs (SQLite), and any statement of it that
    writes the ``competitions`` table (a handler's flush, a Core update) drops them all; one
    whose ``seats`` a mail loaded is never handed out again (:meth:`get`)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._rows: dict[str, Competition] = {}

    def __enter__(self) -> _KeptCompetitions:
        event.listen(self.conn, "before_cursor_execute", self._statement)
        return self

    def __exit__(self, *_exc: object) -> None:
        event.remove(self.conn, "before_cursor_execute", self._statement)
        self._rows.clear()

    def get(self, code: str) -> Competition | None:
        """The competition kept under ``code``, unless a mail loaded one of its relationships
        (``seats``: SCOUT, reports, GM commands): ``merge`` would carry those rows, as they
        were then, into the next mail's session, where a read of a seat another mail of the
        batch changed (a revoked secret, a retired seat) finds them first. Such a one is
        read again; only the competition's own columns are safe to keep."""
        found = self._rows.get(code)
        if found is None:
            return None
        state = inspect(found)
        if any(rel.key not in state.unloaded for rel in state.mapper.relationships):
            del self._rows[code]
            return None
        return found

    def put(self, code: str, competition: Competition) -> None:
        self._rows[code] = competition

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if self._rows and written_table(statement) in (None, _COMPETITIONS):
            self._rows.clear()  # written, or a statement whose table cannot be told


_COMPETITIONS = table_of(Competition).name


class _MessageBox(SecretBox):
    """The box for one message: each (hash, secret) pair is checked by argon2 once. The rate
    limit and the handler both check a seat's secret, and argon2 is slow by design (at
    OWASP's cost, a check is a visible part of a mail's time). Kept for the message only: no
    secret outlives it here."""

    def __init__(self, box: SecretBox) -> None:
        self.__dict__.update(box.__dict__)
        self._checked: dict[tuple[str, str], bool] = {}

    def verify(self, stored_hash: str, secret: str) -> bool:
        key = (stored_hash, secret)
        if key not in self._checked:
            self._checked[key] = super().verify(stored_hash, secret)
        return self._checked[key]


def _seat_scoped(decision: Decision) -> bool:
    """Whether the mail changes only its sender's own seat: a Flungo seat's naming and orders
    (the game's fallback). Those take the competition's lock shared and their seat's row
    exclusively, so one competition's players are handled in parallel; anything else (JOIN
    numbers seats, the GM's commands change the competition) takes it exclusively."""
    return isinstance(decision, Run) and all(cmd is None for cmd, _ in decision.steps)


def _by_code(postgres: bool, *, shared: bool) -> Select[Competition]:
    """The competition by its code; on PostgreSQL locked for this message in the same
    statement (SQLite has one writer).

    A turn step takes ``FOR UPDATE SKIP LOCKED`` on the row: it skips a competition whose mail
    is being handled, and mail waits while a step runs, in both modes. Exclusive is
    ``FOR NO KEY UPDATE``, shared is ``FOR SHARE``; both are taken before anything here refers
    to the row and neither conflicts with the ``KEY SHARE`` locks of foreign keys, so no
    deadlock. Shared holders never write the row (so never need to upgrade the lock). A
    locking read that waited returns the row as the holder committed it (read committed
    reads a locked row's newest version), as the refresh under the lock that it replaces did."""
    if not postgres:
        return _BY_CODE
    return _BY_CODE_SHARED if shared else _BY_CODE_EXCLUSIVE


_INBOUND = table_of(InboundMail)
_CLAIMED = (
    _INBOUND.c.id,
    _INBOUND.c.status,
    _INBOUND.c.raw,
    _INBOUND.c.sealed,
    _INBOUND.c.envelope_from,
    _INBOUND.c.envelope_to,
)
# Built once, Core on the table: the ORM's load of the row and its flush of the status cost
# more than most handlers. FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite emits none.
_CLAIM_ID = (
    select(*_CLAIMED).where(_INBOUND.c.id == bindparam("b_id")).with_for_update(**SKIP_LOCKED)
)
_PENDING = select(*_CLAIMED).where(
    _INBOUND.c.status == Status.RECEIVED, _INBOUND.c.id > bindparam("b_after")
)
_CLAIM_NEXT = _PENDING.order_by(_INBOUND.c.id).limit(1).with_for_update(**SKIP_LOCKED)
_CLAIM_UPTO = (
    _PENDING.where(_INBOUND.c.id <= bindparam("b_upto"))
    .order_by(_INBOUND.c.id)
    .limit(1)
    .with_for_update(**SKIP_LOCKED)
)
_DONE = update(_INBOUND).where(_INBOUND.c.id == bindparam("b_id"))
#: The season (over half a megabyte for a 64-team league) and the state (the teams' issue of
#: the zine, as long) are left to load when read: an orders mail knows its kept fixture lines
#: and outlooks are current from ``season_version``, and no mail reads the state.
_BY_CODE = (
    select(Competition)
    .where(Competition.code == bindparam("code"))
    .options(defer(Competition.season), defer(Competition.state))
)
_BY_CODE_SHARED = _BY_CODE.with_for_update(read=True)
_BY_CODE_EXCLUSIVE = _BY_CODE.with_for_update(key_share=True)


def _stored(row: Row[Any, Any, Any, Any, Any, Any] | None) -> StoredMail | None:
    if row is None:
        return None
    return StoredMail(row.id, row.status, row.raw, row.sealed, row.envelope_from, row.envelope_to)


def _secrets_of(msg: Incoming) -> tuple[str, ...]:
    return (msg.secret,) if msg.secret else ()
