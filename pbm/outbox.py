"""Mail out: deliver pending outbox rows through a :class:`~pbm.mail.ports.Sender`.

Rows are sent only after the transaction that wrote them committed (they are read from the
database). A transient failure (network, 4xx) schedules a retry with exponential backoff; a
permanent one (5xx, or too many attempts, or a recipient known to bounce) marks the row
``failed`` with the error. A row is marked ``sent`` right after the sender accepted it; a
crash between those two steps is the one window where a message can go twice (at least once
beats at most once for replies people wait for): the row is claimed for ``[outbox]
send_lease_seconds`` (5 minutes by default) before the send, so the second copy goes once that
lease has run out, and a row claimed by a sender that died is never lost, only that late.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.parser import BytesParser

import structlog
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from pbm.auth import SecretBox, has_placeholder
from pbm.clock import Clock, utc
from pbm.config import OutboxConfig
from pbm.db.models import OutboxMessage, Player
from pbm.db.session import SKIP_LOCKED, transaction
from pbm.errors import PbmError
from pbm.mail.compose import SAFE_POLICY
from pbm.mail.ports import Envelope, Sender
from pbm.testhooks import crash_point

__all__ = ["Outbox", "backoff"]

log = structlog.get_logger("pbm.outbox")


def backoff(config: OutboxConfig, attempts: int) -> timedelta:
    """The wait before attempt ``attempts + 1``: doubling from the base, capped."""
    seconds = config.backoff_seconds * (2 ** max(attempts - 1, 0))
    return timedelta(seconds=min(seconds, config.backoff_max_seconds))


def _fill(raw: bytes, box: SecretBox) -> EmailMessage:
    # SAFE_POLICY writes the headers back exactly as composed: never re-decoded, refolded.
    msg = BytesParser(policy=SAFE_POLICY).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    for part in msg.walk():
        if part.get_content_maintype() != "text" or part.is_multipart():
            continue
        text = part.get_content()
        if has_placeholder(text):
            part.set_content(
                box.fill_secrets(text), subtype=part.get_content_subtype(), charset="utf-8"
            )
    return msg


class Outbox:
    """The sender worker's logic; :meth:`flush` is one pass."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        sender: Sender,
        config: OutboxConfig,
        clock: Clock,
        box: SecretBox,
        envelope_from: Callable[[int], str] | None = None,
    ) -> None:
        self.sessions = sessions
        self.sender = sender
        self.config = config
        self.clock = clock
        self.box = box
        #: The reverse-path for a row (pbm's VERP address, see ``pbm.bounces``).
        self.envelope_from = envelope_from

    def due_ids(self) -> list[int]:
        """Pending rows whose time has come, oldest first."""
        with transaction(self.sessions) as s:
            return list(
                s.scalars(
                    select(OutboxMessage.id)
                    .where(
                        OutboxMessage.status == "pending",
                        OutboxMessage.next_attempt_at <= self.clock.now(),
                    )
                    .order_by(OutboxMessage.id)
                )
            )

    def next_due(self) -> datetime | None:
        """When the earliest pending row is due (for the loop's sleep)."""
        with transaction(self.sessions) as s:
            when = s.scalar(
                select(func.min(OutboxMessage.next_attempt_at)).where(
                    OutboxMessage.status == "pending"
                )
            )
        return utc(when) if when is not None else None

    def flush(self, should_stop: object = None) -> tuple[int, int]:
        """Send every due row; returns (sent, failed permanently)."""
        sent = failed = 0
        stop = should_stop if callable(should_stop) else (lambda: False)
        for row_id in self.due_ids():
            if stop():
                break
            outcome = self.send_one(row_id)
            sent += outcome == "sent"
            failed += outcome == "failed"
        return sent, failed

    def send_one(self, row_id: int) -> str:
        """Try one row; returns sent, retry, failed or skipped."""
        with transaction(self.sessions) as s:
            row = s.get(OutboxMessage, row_id, with_for_update=SKIP_LOCKED)
            now = self.clock.now()
            if row is None or row.status != "pending" or utc(row.next_attempt_at) > now:
                return "skipped"
            # Claim the row for a while: another worker skips it, and if this process dies
            # mid-send the row falls due again after the lease (at least once, never lost).
            row.next_attempt_at = now + timedelta(seconds=self.config.send_lease_seconds)
            raw, to = row.raw, row.to_addr
            bounced = s.scalars(
                select(Player).where(Player.address == to, Player.undeliverable_at.is_not(None))
            ).first()
            if bounced is not None:
                row.status = "failed"
                row.last_error = (
                    f"{to} is undeliverable: {bounced.undeliverable_reason or 'bounced'}"
                )
                log.warning("outbox.undeliverable", id=row_id, to=to)
                return "failed"
        error: PbmError | None = None
        try:
            msg = _fill(raw, self.box)
            # The envelope is the row's one recipient, whatever the headers say.
            mail_from = self.envelope_from(row_id) if self.envelope_from else None
            self.sender.send(
                msg, Envelope(mail_from or str(msg["From"].addresses[0].addr_spec), (to,))
            )
        except PbmError as exc:
            error = exc
        except OSError as exc:  # an adapter that let a socket error through: retry it
            error = PbmError(f"{type(exc).__name__}: {exc}", transient=True)
        if error is None:
            crash_point("after-send")
        with transaction(self.sessions) as s:
            row = s.get(OutboxMessage, row_id)
            assert row is not None
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
                log.warning("outbox.retry", id=row_id, attempts=row.attempts, error=str(error))
                return "retry"
            row.status = "failed"
            log.error("outbox.failed", id=row_id, attempts=row.attempts, error=str(error))
            return "failed"
