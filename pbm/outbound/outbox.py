"""Mail out: deliver pending outbox rows through a :class:`~pbm.mail.ports.Sender`.

Rows are sent only after the transaction that wrote them committed (they are read from the
database). A transient failure (network, 4xx) schedules a retry with exponential backoff; a
permanent one (5xx, or too many attempts, or a recipient known to bounce) marks the row
``failed`` with the error. A row is marked ``sent`` right after the sender accepted it; a
crash between those two steps is the one window where a message can go twice (at least once
beats at most once for replies people wait for): the row is claimed for ``[outbox]
send_lease_seconds`` (5 minutes by default) before the send, so the second copy goes once that
lease has run out, and a row claimed by a sender that died is never lost, only that late.

When the relay itself fails (``SmtpError.relay``: refused, greeting 4xx/5xx, stalled, hung up)
the row stays pending with its attempts unspent, the pass stops there (every other row would
fail the same way, each after the sender's timeout), and no row is tried again until the
relay's own backoff has passed: from ``[outbox] backoff_seconds``, doubling, at most
:data:`RELAY_PROBE_MAX` seconds. So an outage of any length loses no reply, and the daemon's
other work waits at most one sender timeout per probe. If the database drops between a send
and the record of it, or (SQLite) another transaction holds the write lock past the busy
timeout, the outcome is held in memory and recorded first thing in the next flush: the row
is not sent again meanwhile.
"""

from __future__ import annotations

import quopri
import re
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses

import structlog
from sqlalchemy import case, func, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import Clock
from pbm.core.config import OutboxConfig
from pbm.core.errors import DatabaseUnavailable, PbmError, SmtpError
from pbm.db.models import OutboxMessage, Player, Seat, table_of
from pbm.db.session import READ_ONLY, SKIP_LOCKED, is_busy, transaction
from pbm.db.wakes import Wakes
from pbm.mail.compose import SAFE_POLICY, qp_body
from pbm.mail.lists import GENERATED_KINDS
from pbm.mail.ports import Envelope, Sender
from pbm.mail.wire import header
from pbm.ops.incidents import Backoff, Incidents
from pbm.secrets.scrub import own_spans
from pbm.secrets.seats import HashLookup, SecretBox, has_placeholder
from pbm.secrets.shapes import PLACEHOLDER_START
from pbm.testhooks import crash_point

__all__ = ["RELAY_PROBE_MAX", "Claimed", "Outbox", "backoff"]

log = structlog.get_logger("pbm.outbound.outbox")

#: The longest wait between two tries of a relay that is down, in seconds: replies wait at
#: most this long after the relay returns.
RELAY_PROBE_MAX = 300.0
#: The most rows a flush with a budget reads (a send takes a millisecond at the least).
SLICE_ROWS = 2000
#: Mail pbm sends in bulk, of its own accord whatever caused it (the one classification:
#: :data:`pbm.mail.lists.GENERATED_KINDS`): sent after every answer that is due.
BULK_KINDS = tuple(sorted(GENERATED_KINDS))
_OUT = table_of(OutboxMessage)


@dataclass(frozen=True, slots=True)
class Claimed:
    """A row this worker claimed (its lease running), to be sent by :meth:`Outbox.deliver`."""

    row_id: int
    raw: bytes
    to: str
    kind: str
    attempts: int
    lease: datetime


def backoff(config: OutboxConfig, attempts: int) -> timedelta:
    """The wait before attempt ``attempts + 1``: doubling from the base, capped."""
    seconds = config.backoff_seconds * (2 ** max(attempts - 1, 0))
    return timedelta(seconds=min(seconds, config.backoff_max_seconds))


#: The start of a placeholder in a quoted-printable payload: written as it is (printable
#: ASCII, no "="), but a soft line break ("=" at a line's end) may fall anywhere in it.
_MARK_QP = re.compile(b"(?:=\n)?".join(re.escape(bytes([c])) for c in PLACEHOLDER_START.encode()))


def _ready(raw: bytes, box: SecretBox, hash_of: HashLookup | None = None) -> bytes:
    """The stored message ``raw`` as it is sent: its bytes as stored, but for the text lines
    that wait for a secret, written again with it filled in (never a header: a secret goes
    only where pbm's text put its placeholder). A message in one of the composer's own shapes
    has those lines found and written without the email package; any other is read by it."""
    spans = own_spans(raw) if b"\r" not in raw and raw.isascii() else None
    if spans is None:
        msg = _fill(raw, box, hash_of)
        return raw if msg is None else msg.as_bytes()
    out: list[bytes] = []
    done = 0
    for _values, span in spans:
        if span is None:
            continue
        for start, end in _lines_waiting(raw, *span):
            # A line of quoted-printable is encoded alone: the composer's encoding of the
            # filled text is its lines' encodings, each line written again alone here.
            text = quopri.decodestring(raw[start:end]).decode("utf-8", "replace")
            if has_placeholder(text):
                out += (raw[done:start], qp_body(box.fill_secrets(text, hash_of)))
                done = end
    return raw if not out else b"".join((*out, raw[done:]))


def _lines_waiting(raw: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """Where in the quoted-printable payload ``raw[start:end]`` each text line holding the
    start of a placeholder lies (its soft breaks inside, its line end outside)."""
    lines: list[tuple[int, int]] = []
    for found in _MARK_QP.finditer(raw, start, end):
        if lines and found.start() < lines[-1][1]:
            continue  # a second placeholder on a line already taken
        begin = found.start()
        while (at := raw.rfind(b"\n", start, begin)) >= 0 and raw[at - 1 : at] == b"=":
            begin = at - 1  # the line before ends in a soft break: the same text line
        begin = start if at < 0 else at + 1
        stop = found.end()
        while (stop := raw.find(b"\n", stop, end)) >= 0 and raw[stop - 1 : stop] == b"=":
            stop += 1
        lines.append((begin, end if stop < 0 else stop))
    return lines


def _fill(raw: bytes, box: SecretBox, hash_of: HashLookup | None = None) -> EmailMessage | None:
    """``raw`` read by the email package with its text parts' placeholders filled in; None
    when no text part has one."""
    # SAFE_POLICY writes the headers back exactly as composed: never re-decoded, refolded.
    msg = BytesParser(policy=SAFE_POLICY).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    filled = False
    for part in msg.walk():
        if part.get_content_maintype() != "text" or part.is_multipart():
            continue
        text = part.get_content()
        if has_placeholder(text):
            filled = True
            flowed = part.get_param("format") == "flowed"
            part.set_content(
                box.fill_secrets(text, hash_of),
                subtype=part.get_content_subtype(),
                charset="utf-8",
                # quoted-printable keeps a soft break's trailing space through any relay
                cte="quoted-printable" if flowed else None,
            )
            if flowed:  # set_content wrote a new Content-Type; put it back where it was
                part.replace_header("Content-Type", f'{part["Content-Type"]}; format="flowed"')
    return msg if filled else None


def _sender_of(raw: bytes) -> str:
    """The address of ``raw``'s From field (the envelope's reverse-path when the outbox has
    no VERP address to give)."""
    found = getaddresses([header(raw, "From") or ""])
    return found[0][1] if found else ""


class Outbox:
    """The sender worker's logic; :meth:`flush` is one pass."""

    def _hash_of(self, kind: str, seat_id: int) -> str | None:
        """The stored hash of a seat's secret or a Test by Post ticket (see
        :meth:`pbm.secrets.seats.SecretBox.fill_secrets`: read only while old keys are
        configured)."""
        from pbm.games import secret_holder

        holder = secret_holder(kind)  # a game keeping it in its own tables (Test by Post's)
        # Only read, during a send: no write turn to wait for (on SQLite a pass may hold it).
        with transaction(self._reads) as s:
            if holder is not None:
                return holder.secret_hash(s, kind, seat_id)
            return s.scalar(select(Seat.secret_hash).where(Seat.id == seat_id))

    def __init__(
        self,
        sessions: sessionmaker[Session],
        sender: Sender,
        config: OutboxConfig,
        clock: Clock,
        box: SecretBox,
        envelope_from: Callable[[int], str] | None = None,
        incidents: Incidents | None = None,
    ) -> None:
        self.sessions = sessions
        # What is due is only read: on SQLite a plain BEGIN, which takes no write lock, so the
        # courier's look does not queue behind (or hold up) a mail's transaction.
        self._reads = sessionmaker(sessions.kw["bind"].execution_options(**{READ_ONLY: True}))
        self.sender = sender
        self.config = config
        self.clock = clock
        self.box = box
        #: The reverse-path for a row (pbm's VERP address, see ``pbm.outbound.bounces``).
        self.envelope_from = envelope_from
        self.incidents = incidents
        self._relay = Backoff(
            config.backoff_seconds, min(config.backoff_max_seconds, RELAY_PROBE_MAX)
        )
        self._relay_retry_at: datetime | None = None  # the relay is down until then
        self._unrecorded: dict[int, PbmError | None] = {}  # sent (None) or failed, not noted
        #: The daemon's record of when it next has work (None: nothing kept, every
        #: :meth:`next_due` reads it).
        self.wakes: Wakes | None = None

    @property
    def relay_down(self) -> bool:
        """Whether the relay failed and its backoff has not passed yet."""
        return self._relay_retry_at is not None and self.clock.now() < self._relay_retry_at

    def due_ids(self, answers_only: bool = False, limit: int | None = None) -> list[int]:
        """Pending rows whose time has come: answers first, then bulk mail (turn reports,
        zine issues, digests), each oldest first, so a player's acknowledgement never waits
        behind a stage's thousands of reports. ``answers_only``: no bulk mail at all;
        ``limit``: the first so many."""
        query = select(OutboxMessage.id).where(
            OutboxMessage.status == "pending",
            OutboxMessage.next_attempt_at <= self.clock.now(),
        )
        if answers_only:
            query = query.where(OutboxMessage.kind.not_in(BULK_KINDS)).order_by(OutboxMessage.id)
        else:
            query = query.order_by(
                case((OutboxMessage.kind.in_(BULK_KINDS), 1), else_=0), OutboxMessage.id
            )
        if limit is not None:
            query = query.limit(limit + len(self._unrecorded))
        with transaction(self._reads) as s:
            return [row_id for row_id in s.scalars(query) if row_id not in self._unrecorded]

    def next_due(self) -> datetime | None:
        """When the earliest pending row is due (for the loop's sleep; kept between passes
        by the daemon's :class:`~pbm.db.wakes.Wakes`)."""
        if self.wakes is None:
            when = self._earliest()
        else:
            when = self.wakes.outbox(self.clock.now(), self._earliest)
        if when is None:
            return None
        if self.relay_down and self._relay_retry_at is not None:
            return max(when, self._relay_retry_at)
        return when

    def _earliest(self) -> datetime | None:
        with transaction(self._reads) as s:
            return s.scalar(
                select(func.min(OutboxMessage.next_attempt_at)).where(
                    OutboxMessage.status == "pending"
                )
            )

    def flush(
        self,
        should_stop: object = None,
        in_hand: Callable[[str], AbstractContextManager[object]] | None = None,
        budget: float | None = None,
        answers_only: bool = False,
    ) -> tuple[int, int]:
        """Send every due row; returns (sent, failed permanently). While the relay is down
        (its backoff not passed) nothing is tried; a pass stops at the relay's failure.
        ``in_hand(what)`` wraps each send (the workers registry names the row in hand).
        ``budget``: stop starting sends after this many seconds (the rest waits for the next
        pass, so bulk mail is sent in slices between fetches of new mail). ``answers_only``:
        leave the bulk mail for a later flush."""
        self._record_held()
        if self.relay_down:
            return 0, 0
        sent = failed = 0
        stop = should_stop if callable(should_stop) else (lambda: False)
        end = None if budget is None else time.monotonic() + budget
        # A slice of a second sends far fewer than SLICE_ROWS: the rest need not be read.
        limit = None if budget is None else SLICE_ROWS
        queued = self.wakes.queued() if self.wakes is not None else 0
        due = self.due_ids(answers_only, limit)
        whole = not answers_only and (limit is None or len(due) < limit)
        for n, row_id in enumerate(due):
            if stop() or (n and end is not None and time.monotonic() > end):
                whole = False
                break  # the budget stops after one send at least, so every pass progresses
            with in_hand(f"outbox {row_id}") if in_hand else nullcontext():
                outcome = self.send_one(row_id)
            sent += outcome == "sent"
            failed += outcome == "failed"
            if outcome == "relay-down":
                whole = False
                break
        if whole and self.wakes is not None:
            self.wakes.flushed(queued)  # every row queued before it was due, and taken
        return sent, failed

    def _record_held(self) -> None:
        for row_id, error in list(self._unrecorded.items()):
            self._record(row_id, error)  # raises DatabaseUnavailable while it is still down
            del self._unrecorded[row_id]

    def _own(self) -> AbstractContextManager[None]:
        """Where the outbox writes its rows (what it makes due, it tells ``wakes``)."""
        return self.wakes.own_outbox() if self.wakes is not None else nullcontext()

    def _due_at(self, when: datetime | None) -> None:
        if self.wakes is not None:
            self.wakes.outbox_at(when or self.clock.now())

    def send_one(self, row_id: int) -> str:
        """Try one row; returns sent, retry, failed, relay-down or skipped."""
        claimed = self.claim(row_id)
        return claimed if isinstance(claimed, str) else self.deliver(claimed)

    def claim(self, row_id: int) -> Claimed | str:
        """Claim one due row for a while (its lease), or say why not: skipped (not due, or in
        another worker's hands) or failed (its recipient is undeliverable)."""
        # Core statements: the unit of work's bookkeeping for one row cost more than the row's
        # statements (the claim and the record were most of a send's CPU once the reply was
        # no longer parsed).
        with self._own(), transaction(self.sessions) as s:
            row = s.execute(
                select(_OUT.c.status, _OUT.c.next_attempt_at, _OUT.c.raw, _OUT.c.to_addr)
                .add_columns(_OUT.c.kind, _OUT.c.attempts)
                .where(_OUT.c.id == row_id)
                .with_for_update(**SKIP_LOCKED)
            ).first()
            now = self.clock.now()
            if row is None or row.status != "pending" or row.next_attempt_at > now:
                self._due_at(None)  # in another worker's hands: when it falls due is unknown
                return "skipped"
            # Claim the row for a while: another worker skips it, and if this process dies
            # mid-send the row falls due again after the lease (at least once, never lost).
            lease = now + timedelta(seconds=self.config.send_lease_seconds)
            s.execute(update(_OUT).where(_OUT.c.id == row_id).values(next_attempt_at=lease))
            to = row.to_addr
            bounced = s.execute(
                select(Player.undeliverable_reason)
                .where(Player.address == to, Player.undeliverable_at.is_not(None))
                .limit(1)
            ).first()
            if bounced is not None:
                error = f"{to} is undeliverable: {bounced.undeliverable_reason or 'bounced'}"
                s.execute(
                    update(_OUT)
                    .where(_OUT.c.id == row_id)
                    .values(status="failed", last_error=error)
                )
                log.warning("outbox.undeliverable", id=row_id, to=to)
                return "failed"
        return Claimed(row_id, row.raw, to, row.kind, row.attempts, lease)

    def deliver(self, claimed: Claimed, *, renew: bool = False) -> str:
        """Send a claimed row and record the outcome: sent, retry, failed or relay-down.
        ``renew``: the row waited since its claim (handed to the courier), so its lease may
        have run out meanwhile: it is renewed first, and the row is not sent (skipped) if
        the lease was lost (the row claimed again by another pass or worker, or recorded)."""
        try:
            if renew:
                renewed = self._renew(claimed)
                if renewed is None:
                    log.info("outbox.lease_lost", id=claimed.row_id)
                    return "skipped"
                claimed = renewed
            return self._send_claimed(
                claimed.row_id, claimed.raw, claimed.to, (claimed.kind, claimed.attempts)
            )
        except BaseException:
            self._due_at(claimed.lease)  # the row stays claimed: due again when its lease ends
            raise

    def _renew(self, claimed: Claimed) -> Claimed | None:
        """``claimed`` with its lease running again from now, or None if it is no longer this
        claim's (its lease is not the one written by the claim)."""
        lease = self.clock.now() + timedelta(seconds=self.config.send_lease_seconds)
        with self._own(), transaction(self.sessions) as s:
            done = s.execute(
                update(_OUT)
                .where(
                    _OUT.c.id == claimed.row_id,
                    _OUT.c.status == "pending",
                    _OUT.c.next_attempt_at == claimed.lease,
                )
                .values(next_attempt_at=lease)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                return None
        return replace(claimed, lease=lease)

    def release(self, claimed: Claimed) -> None:
        """Give back a claimed row unsent: due again now, not when its lease ends. Only while
        the lease is still this claim's: a claim that waited past its lease may have been
        taken again by another worker, now sending it, and freeing that row would send it
        twice."""
        with self._own(), transaction(self.sessions) as s:
            s.execute(
                update(_OUT)
                .where(
                    _OUT.c.id == claimed.row_id,
                    _OUT.c.status == "pending",
                    _OUT.c.next_attempt_at == claimed.lease,
                )
                .values(next_attempt_at=self.clock.now())
            )
        self._due_at(self.clock.now())

    def _send_claimed(self, row_id: int, raw: bytes, to: str, row: tuple[str, int]) -> str:
        error: PbmError | None = None
        try:
            ready = _ready(raw, self.box, self._hash_of)
            # The envelope is the row's one recipient, whatever the headers say.
            mail_from = self.envelope_from(row_id) if self.envelope_from else None
            self.sender.send_bytes(ready, Envelope(mail_from or _sender_of(ready), (to,)))
        except PbmError as exc:
            error = exc
        except OSError as exc:  # an adapter that let a socket error through: the link's fault
            error = SmtpError(f"{type(exc).__name__}: {exc}", transient=True, relay=True)
        if error is None:
            crash_point("after-send")
        relay = isinstance(error, SmtpError) and error.relay
        if isinstance(error, SmtpError) and error.relay:
            self._relay_failed(error)
        elif error is None or isinstance(error, SmtpError):
            # The relay answered (about this message, at least): it works.
            self._relay.reset()
            self._relay_retry_at = None
            if self.incidents is not None:
                self.incidents.recovered("smtp")
        try:
            if error is None:
                return self._record_sent(row_id, *row)
            return self._record(row_id, error, relay=relay)
        except (DatabaseUnavailable, OperationalError) as exc:
            # The database is lost, or (SQLite) another transaction held the write lock past
            # the busy timeout: the send happened (or failed for good), so it is recorded
            # later, never sent again.
            if not relay and (isinstance(exc, DatabaseUnavailable) or is_busy(exc)):
                self._unrecorded[row_id] = error
            raise

    def _relay_failed(self, error: SmtpError) -> None:
        delay = self._relay.failed()
        self._relay_retry_at = self.clock.now() + timedelta(seconds=delay)
        log.warning("outbox.relay_down", retry_in=round(delay, 2), error=str(error))
        if self.incidents is not None:
            self.incidents.failed("smtp", error)

    def _record_sent(self, row_id: int, kind: str, attempts: int) -> str:
        """:meth:`_record` of a send that went, in one statement (the row is this worker's:
        claimed, its lease running)."""
        with self._own(), transaction(self.sessions) as s:
            done = s.execute(
                update(_OUT)
                .where(_OUT.c.id == row_id)
                .values(
                    attempts=_OUT.c.attempts + 1,
                    status="sent",
                    sent_at=self.clock.now(),
                    last_error=None,
                )
            )
            assert done.rowcount == 1  # type: ignore[attr-defined]
        log.info("outbox.sent", id=row_id, kind=kind, attempts=attempts + 1)
        return "sent"

    def _record(self, row_id: int, error: PbmError | None, *, relay: bool = False) -> str:
        with self._own(), transaction(self.sessions) as s:
            row = s.get(OutboxMessage, row_id)
            assert row is not None
            if relay and error is not None:
                # The relay's fault, not the message's: its attempts stay unspent, and it is
                # due again when the relay is tried again.
                row.last_error = str(error)[:2000]
                row.next_attempt_at = self._relay_retry_at or self.clock.now()
                self._due_at(row.next_attempt_at)
                return "relay-down"
            row.attempts += 1
            if error is None:
                row.status = "sent"
                row.sent_at = self.clock.now()
                row.last_error = None
                log.info("outbox.sent", id=row_id, kind=row.kind, attempts=row.attempts)
                return "sent"
            row.last_error = str(error)[:2000]
            if error.transient and row.attempts < self.config.max_attempts:
                row.next_attempt_at = self.clock.now() + backoff(self.config, row.attempts)
                self._due_at(row.next_attempt_at)
                log.warning("outbox.retry", id=row_id, attempts=row.attempts, error=str(error))
                return "retry"
            row.status = "failed"
            log.error("outbox.failed", id=row_id, attempts=row.attempts, error=str(error))
            return "failed"
