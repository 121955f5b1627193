"""What pbm keeps, and for how long (issue 23): the promise the guides make, kept by code.

:func:`purge` (the daemon's daily job, and ``pbm db purge``) does, in one transaction:

* **Raw mail, handled**: an inbound mail handled more than ``[retention] raw_days`` days ago
  (default 30) loses its raw bytes, sealed copy, subject and envelope recipients; a sent
  mail older than that loses its bytes. The row stays (its Message-ID still makes a
  redelivery a no-op, and what it did stays in the audit).
* **Addresses of people who are not players** (an Averages poster, a stranger asking for
  HELP, a mailer daemon): once the mail from them is handled and every answer to it has been
  sent (and a day, :data:`SETTLE`, has let its delivery or bounce be known), their address
  is removed from the inbound row and the outbox row, with the mail's bytes and the answer's
  subject (which carries an Averages name and grade): at the first daily purge a day after
  the answer, not after ``raw_days``. Their bounce records go, and their address in the
  audit log. A player
  is an address in ``players`` (it joined a competition), ``h6_seats`` (it plays a Test by
  Post), ``standbys`` (it asked for a team), or the GM's or pbm's own.
* **Rate counters** of hours that have ended (they hold senders' addresses, and count
  nothing any more).

Never touched: mail not yet handled, and **dead letters** (shunted mail, failed outbound
mail) until they are handled: ``pbm mail retry`` needs their bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from pbm.core.config import Config
from pbm.db.models import (
    Bounce,
    Event,
    InboundMail,
    MailStatus,
    OutboxMessage,
    OutboxStatus,
    Player,
    RateCounter,
    Standby,
    table_of,
)
from pbm.games import GAMES
from pbm.inbound.ratelimit import window_start

__all__ = ["REMOVED", "STEPS", "PurgeReport", "known_addresses", "purge"]

#: What stands where an address or a subject was (the outbox's columns cannot be empty).
REMOVED = "[removed]"
_HANDLED = (MailStatus.APPLIED, MailStatus.REJECTED, MailStatus.IGNORED)
#: How long after its answer is sent a non-player's address is kept: the answer has been
#: handed to the relay, and a day lets a bounce of it come back and the GM see the day's mail.
SETTLE = timedelta(days=1)
#: The audit events that name an address.
_ADDRESS_EVENTS = ("bounce", "deliverable", "resigned", "join", "standby", "seat-handed")


@dataclass(slots=True)
class PurgeReport:
    """How many rows each rule changed (or would change, for a dry run)."""

    raw_inbound: int = 0
    raw_outbox: int = 0
    stranger_inbound: int = 0
    stranger_outbox: int = 0
    stranger_bounces: int = 0
    stranger_events: int = 0
    rate_windows: int = 0

    def rows(self, days: int) -> list[tuple[str, int]]:
        """(what, how many) for the summary table; ``days`` is ``raw_days``."""
        labels = {
            "raw_inbound": f"handled mail in: raw bytes removed (older than {days} days)",
            "raw_outbox": f"mail sent: raw bytes removed (older than {days} days)",
            "stranger_inbound": "mail from non-players: address and bytes removed",
            "stranger_outbox": "answers to non-players: address, subject and bytes removed",
            "stranger_bounces": "bounce records of non-players deleted",
            "stranger_events": "audit entries of non-players: address removed",
            "rate_windows": "rate counters of past hours deleted",
        }
        return [(labels[f.name], getattr(self, f.name)) for f in fields(self)]

    @property
    def total(self) -> int:
        """Every row changed."""
        return sum(getattr(self, f.name) for f in fields(self))


def known_addresses(s: Session, config: Config) -> set[str]:
    """Every address pbm keeps: players', standbys', the GM's, its own, and those each game
    keeps in its own tables (Test by Post seats')."""
    found = {config.gm.address.lower(), config.server.address.lower()}
    for column in (Player.address, Standby.address):
        found.update(a.lower() for a in s.scalars(select(column).distinct()) if a)
    for game in GAMES:
        found.update(a.lower() for a in game.known_addresses(s))
    return found


#: The steps :func:`purge` reports to its ``on_step`` (a progress bar's total).
STEPS = 4


def purge(
    s: Session,
    config: Config,
    now: datetime,
    *,
    dry_run: bool = False,
    on_step: Callable[[str], None] = lambda _label: None,
) -> PurgeReport:
    """Apply the retention rules (module doc) at ``now``; with ``dry_run``, only count.
    ``on_step`` is told as each of :data:`STEPS` steps ends. The caller commits (or, for a
    dry run, need not)."""
    report = PurgeReport()
    cutoff = now - timedelta(days=config.retention.raw_days)
    known = known_addresses(s, config)
    inbound = table_of(InboundMail)
    outbox = table_of(OutboxMessage)

    # -- non-players: at once, once answered ------------------------------------------------
    settled = now - SETTLE  # a day for the answer's delivery (or its bounce) to be known
    answered_rows = s.execute(
        select(inbound.c.id, inbound.c.from_addr, inbound.c.envelope_from).where(
            inbound.c.status.in_(_HANDLED),
            inbound.c.processed_at < settled,
            or_(inbound.c.from_addr.is_not(None), inbound.c.envelope_from.is_not(None)),
        )
    ).all()
    waiting = set(
        s.scalars(
            select(outbox.c.inbound_id).where(
                outbox.c.inbound_id.is_not(None), outbox.c.status != OutboxStatus.SENT
            )
        )
    )
    strangers = [
        row.id
        for row in answered_rows
        if row.id not in waiting and not _is_known(row.from_addr or row.envelope_from, known)
    ]
    report.stranger_inbound = len(strangers)
    on_step("mail from non-players")
    sent_to = s.execute(
        select(outbox.c.id, outbox.c.to_addr).where(
            outbox.c.status == OutboxStatus.SENT,
            outbox.c.to_addr != REMOVED,
            outbox.c.sent_at < settled,
        )
    ).all()
    stranger_out = [row.id for row in sent_to if not _is_known(row.to_addr, known)]
    report.stranger_outbox = len(stranger_out)
    bounces = [
        b.id
        for b in s.execute(select(table_of(Bounce).c.id, table_of(Bounce).c.address))
        if not _is_known(b.address, known)
    ]
    report.stranger_bounces = len(bounces)
    events = [
        (e.id, e.data)
        for e in s.execute(
            select(table_of(Event).c.id, table_of(Event).c.data).where(
                table_of(Event).c.kind.in_(_ADDRESS_EVENTS)
            )
        )
        if isinstance(e.data, dict)
        and isinstance(e.data.get("address"), str)
        and e.data["address"] != REMOVED
        and not _is_known(e.data["address"], known)
    ]
    report.stranger_events = len(events)
    on_step("answers, bounces and audit entries of non-players")

    # -- raw mail after raw_days -------------------------------------------------------------
    old_in = (
        inbound.c.status.in_(_HANDLED),
        inbound.c.processed_at < cutoff,
        or_(inbound.c.raw != b"", inbound.c.sealed.is_not(None), inbound.c.subject.is_not(None)),
    )
    report.raw_inbound = _count(s, inbound, old_in)
    old_out = (outbox.c.status == OutboxStatus.SENT, outbox.c.sent_at < cutoff, outbox.c.raw != b"")
    report.raw_outbox = _count(s, outbox, old_out)
    past = (table_of(RateCounter).c.window_start < window_start(now),)
    report.rate_windows = _count(s, table_of(RateCounter), past)
    on_step("raw mail and past rate counters")
    if dry_run:
        on_step("nothing changed (dry run)")
        return report

    bare = {"raw": b"", "sealed": None, "subject": None, "envelope_to": None}
    for chunk in _chunks(strangers):
        s.execute(
            update(inbound)
            .where(inbound.c.id.in_(chunk))
            .values(from_addr=None, envelope_from=None, **bare)
        )
    for chunk in _chunks(stranger_out):
        s.execute(
            update(outbox)
            .where(outbox.c.id.in_(chunk))
            .values(to_addr=REMOVED, subject=REMOVED, raw=b"", last_error=None)
        )
    for chunk in _chunks(bounces):
        s.execute(delete(table_of(Bounce)).where(table_of(Bounce).c.id.in_(chunk)))
    for event_id, data in events:
        s.execute(
            update(table_of(Event))
            .where(table_of(Event).c.id == event_id)
            .values(data={**data, "address": REMOVED})
        )
    s.execute(update(inbound).where(*old_in).values(**bare))
    s.execute(update(outbox).where(*old_out).values(raw=b""))
    s.execute(delete(table_of(RateCounter)).where(*past))
    on_step("removed")
    return report


def _is_known(address: str | None, known: set[str]) -> bool:
    return address is None or address.lower() in known


def _count(s: Session, table: Any, where: tuple[Any, ...]) -> int:
    return int(s.scalar(select(func.count()).select_from(table).where(*where)) or 0)


def _chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    """Within every database's limit on parameters."""
    return [ids[i : i + size] for i in range(0, len(ids), size)]
