"""A split stage's report mails, queued by every worker rather than by the one that assembled it.

Rendering and composing a team's turn report is the largest part of a large stage after its
matches, and it is per team, so it is split like the matches (:mod:`pbm.games.flungo.turns`): in
the assembly's transaction the mails' contexts are written ``[turns] mail_batch`` to a
:class:`~pbm.db.models.TurnMail` row (:func:`split_mails`), and every worker's pass claims
rows (``FOR UPDATE SKIP LOCKED``, then a lease of ``match_lease_seconds``) and queues each
row's mails in the one transaction that marks it done (:func:`work_mails`).

Each mail is queued once: the row is locked and read again in that transaction, and a row
already done queues nothing, so a worker whose lease lapsed while another retook its rows
stores nothing when it comes back. A worker that dies mid-claim has its rows retaken after
the lease; one that dies mid-transaction leaves nothing (its transaction rolls back).
"""

from __future__ import annotations

import json
from datetime import timedelta

import structlog
from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.core.errors import DatabaseUnavailable
from pbm.db.models import TurnMail, TurnMatchStatus
from pbm.db.session import transaction
from pbm.games.flungo.reports import Pending
from pbm.outbound.replies import queue_mail

__all__ = ["claim_mails", "mails_pending", "queue_claimed", "split_mails", "work_mails"]

log = structlog.get_logger("pbm.turns")

# The rows share the match rows' states: waiting, claimed under a lease, queued.
PENDING, CLAIMED, DONE = TurnMatchStatus.PENDING, TurnMatchStatus.CLAIMED, TurnMatchStatus.DONE


def split_mails(session: Session, config: Config, turn_id: int, mails: list[Pending]) -> int:
    """In the assembly's transaction: the stage's mails, ``mail_batch`` to a row, for any
    worker to queue. Returns how many rows."""
    size = config.turns.mail_batch
    rows = [
        {
            "turn_id": turn_id,
            "seq": seq,
            "status": PENDING,
            "attempts": 0,
            "count": len(chunk),
            "mails": json.dumps(
                [{"kind": m.kind, "to": m.to, "ctx": m.ctx} for m in chunk],
                separators=(",", ":"),
            ),
        }
        for seq, chunk in enumerate(mails[i : i + size] for i in range(0, len(mails), size))
    ]
    if rows:  # one executemany: the unit of work's bookkeeping is not wanted here
        session.execute(insert(TurnMail), rows)
    return len(rows)


def claim_mails(
    sessions: sessionmaker[Session], config: Config, clock: Clock, worker: str, limit: int = 1
) -> list[int]:
    """Claim up to ``limit`` rows of mails (pending, or claimed under a lapsed lease) for
    ``worker`` in one short transaction; returns their ids."""
    now = clock.now()
    lease = timedelta(seconds=config.turns.match_lease_seconds)
    with transaction(sessions) as s:
        ids = list(
            s.scalars(
                select(TurnMail.id)
                .where(
                    or_(
                        TurnMail.status == PENDING,
                        and_(TurnMail.status == CLAIMED, TurnMail.lease_until < now),
                    )
                )
                .order_by(TurnMail.id)
                .limit(limit)
                .with_for_update(skip_locked=True)  # another worker's claim in hand: skipped
            )
        )
        if ids:
            s.execute(
                update(TurnMail)
                .where(TurnMail.id.in_(ids))
                .values(
                    status=CLAIMED,
                    claimed_by=worker,
                    lease_until=now + lease,
                    attempts=TurnMail.attempts + 1,
                )
            )
        return ids


def queue_claimed(
    sessions: sessionmaker[Session], config: Config, clock: Clock, worker: str, ids: list[int]
) -> int:
    """Queue each claimed row's mails and mark it done, a row per transaction; a row another
    worker has queued meanwhile (this claim's lease lapsed) queues nothing. Returns how many
    mails this worker queued."""
    queued = 0
    for row_id in ids:
        try:
            with transaction(sessions) as s:
                # Locked and read again: whoever locks it second waits, then sees it done.
                text = s.scalar(
                    select(TurnMail.mails)
                    .where(TurnMail.id == row_id, TurnMail.status != DONE)
                    .with_for_update()
                )
                if text is None:
                    continue
                mails = json.loads(text)
                for m in mails:
                    queue_mail(s, config, clock, kind=m["kind"], to=m["to"], ctx=m["ctx"])
                s.execute(
                    update(TurnMail)
                    .where(TurnMail.id == row_id)
                    .values(
                        status=DONE,
                        mails="",  # the outbox holds them now
                        queued_by=worker,
                        queued_at=clock.now(),
                        lease_until=None,
                    )
                )
                queued += len(mails)
        except DatabaseUnavailable:
            raise  # not this row's fault: the daemon waits for the database
        except Exception:
            # As a match that fails: the row stays claimed, is retried after the lease, and
            # the rest of the batch goes on; the rollback left nothing of it queued.
            log.exception("turns.mails_failed", row=row_id)
    return queued


def work_mails(sessions: sessionmaker[Session], config: Config, clock: Clock, worker: str) -> int:
    """Claim a row of split stages' mails and queue them. Returns how many rows were claimed
    (0: none was free)."""
    ids = claim_mails(sessions, config, clock, worker)
    if ids:
        queue_claimed(sessions, config, clock, worker, ids)
    return len(ids)


def mails_pending(session: Session) -> int:
    """Rows of mails not yet queued (pending or claimed)."""
    return int(session.scalar(select(func.count()).where(TurnMail.status != DONE)) or 0)
