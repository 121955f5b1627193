"""Admission of a person's mail: "mailed again" and the per-sender rate limit, one step
(:func:`admit`). The limit is a counter per bucket per clock hour, in the database.

Mail that proves who sent it (a seat's secret, or the GM's) is counted under the address:
a proven seat's mail keeps its own bucket. Everything else is *unproven* and counted twice
(:func:`admit`): under its base address (``?victim@third.test`` for every
``victim+k@third.test``, see :func:`base_address`) and under its domain (``?@third.test``).
So forged mail in a player's name, which cannot carry their secret, fills only the unproven
counts and cannot lock the player out of their own orders; and pbm cannot be used to flood
anyone's inbox by varying the +tag, the dots of a Gmail address, or the local part within one
domain (issue 23).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.core.config import Config, GmConfig
from pbm.core.errors import RateLimited
from pbm.db.models import Player, RateCounter, Seat, table_of
from pbm.outbound.bounces import mailed_again
from pbm.secrets.seats import SecretBox, normalise_secret

__all__ = [
    "DOTLESS_DOMAINS",
    "Bucket",
    "admit",
    "base_address",
    "count_mail",
    "count_mails",
    "rate_key",
    "window_start",
]

_UNPROVEN = "?"
#: Providers that deliver ``j.o.e@`` to ``joe@``: their dots are no part of the mailbox.
#: Elsewhere a dot is part of the name (``jo.e@`` and ``joe@`` are two people at most hosts).
DOTLESS_DOMAINS = frozenset({"gmail.com", "googlemail.com"})


@dataclass(frozen=True, slots=True)
class Bucket:
    """One counter a mail is counted under, and whether it is a domain's (its own limit)."""

    key: str
    domain: bool = False


def base_address(address: str) -> str:
    """The mailbox an address delivers to: the ``+tag`` dropped (every common provider, and
    the RFC 5233 convention, reads ``+`` as a sub-address), and for :data:`DOTLESS_DOMAINS`
    the dots of the local part too; lower case. ``-`` tags are kept: too many real names
    have a hyphen."""
    local, at, domain = address.lower().rpartition("@")
    if not at:
        return address.lower()
    local = local.split("+", 1)[0] or local
    if domain in DOTLESS_DOMAINS:
        local = local.replace(".", "") or local
    return f"{local}@{domain}"


def admit(
    session: Session, box: SecretBox, config: Config, clock: Clock, sender: str, secret: str | None
) -> RateLimited | None:
    """Admission, one step for a person's mail: the sender wrote, so an address marked
    undeliverable works again (:func:`pbm.outbound.bounces.mailed_again`), and the mail is
    counted in every bucket it falls in (its own if the secret proves it theirs, else its base
    address's and its domain's unproven ones); the first full bucket, if
    any, is returned. Every bucket is counted, also past the first that is full: a flood
    stays counted wherever it turns. One query reads what both need (the sender's seats'
    hashes and whether the address is marked)."""
    rows = session.connection().execute(_SENDER, {"sender": sender}).all()
    if any(marked for marked, _ in rows):
        mailed_again(session, clock, sender)
    hashes = [h for _, h in rows if h is not None]
    limits = config.rate_limit
    buckets = _buckets(box, config.gm, sender, secret, hashes)
    counts = count_mails(session, [b.key for b in buckets], clock.now())
    for bucket in buckets:
        limit = limits.per_domain if bucket.domain else limits.per_hour
        if counts[bucket.key] > limit:
            return RateLimited(bucket.key, counts[bucket.key], limit)
    return None


def _buckets(
    box: SecretBox, gm: GmConfig, sender: str, secret: str | None, hashes: list[str]
) -> list[Bucket]:
    key = rate_key(box, gm, sender, secret, hashes)
    if not key.startswith(_UNPROVEN):
        return [Bucket(key)]
    base = base_address(sender)
    domain = base.rpartition("@")[2]
    return [Bucket((_UNPROVEN + base)[:320]), Bucket((_UNPROVEN + "@" + domain)[:320], True)]


def rate_key(
    box: SecretBox, gm: GmConfig, sender: str, secret: str | None, hashes: list[str]
) -> str:
    """The counter a mail is counted under: ``sender`` if ``secret`` proves it is theirs
    (the GM's, or one of ``hashes``, the sender's seats'), else ``?sender``."""
    if secret:
        if sender == gm.address.lower() and hmac.compare_digest(
            normalise_secret(secret).encode(), normalise_secret(gm.secret).encode()
        ):
            return sender
        if any(box.verify(h, secret) for h in hashes):
            return sender
    return (_UNPROVEN + sender)[:320]


_PLAYERS, _SEATS = table_of(Player), table_of(Seat)
#: Built once (building it cost about what running it does): for the sender's address,
#: whether it is marked undeliverable (or has soft bounces), and each of its seats' hashes.
_SENDER = (
    select(
        or_(_PLAYERS.c.undeliverable_at.is_not(None), _PLAYERS.c.soft_bounces > 0),
        _SEATS.c.secret_hash,
    )
    .select_from(_PLAYERS.outerjoin(_SEATS, _SEATS.c.player_id == _PLAYERS.c.id))
    .where(_PLAYERS.c.address == bindparam("sender"))
)


def window_start(now: datetime) -> datetime:
    """The start of the hour ``now`` falls in."""
    return now.replace(minute=0, second=0, microsecond=0)


def count_mail(session: Session, sender: str, now: datetime) -> int:
    """Count one more mail from ``sender`` this hour; returns the count including it.

    One atomic upsert: two workers counting the same sender's first mail of the hour at once
    must not both insert (the second would fail on the key and shunt a good mail), nor both
    read the same count and write it back plus one (a lost count)."""
    return count_mails(session, [sender], now)[sender]


def count_mails(session: Session, senders: list[str], now: datetime) -> dict[str, int]:
    """:func:`count_mail` for each of ``senders`` (one or two, all different), in ONE
    statement: an unproven mail is counted under its address and its domain, and a second
    upsert cost a statement's whole round through the driver for every such mail. (Several
    rows of parameters are sent as one multi-row statement by SQLAlchemy's "insertmanyvalues",
    so the statement stays the one built below, compiled once and cached.)"""
    db = session.connection()  # Core on the connection: no ORM layer, no autoflush
    dialect = db.dialect.name
    upsert = _UPSERTS[dialect if dialect == "postgresql" else "sqlite"]
    start = window_start(now)
    rows = [{"sender": sender, "window_start": start, "count": 1} for sender in senders]
    # RETURNING's rows come in no promised order (SQLite): each says whose count it is.
    return {str(sender): int(count) for sender, count in db.execute(upsert, rows)}


def _upsert(insert: Any) -> Any:
    table = table_of(RateCounter)
    return (
        insert(table)
        .on_conflict_do_update(
            index_elements=[table.c.sender, table.c.window_start],
            set_={"count": table.c.count + 1},
        )
        .returning(table.c.sender, table.c.count)
    )


#: Built once per dialect, on the table: building the statement and the ORM's DML plugin
#: cost more than the upsert (and an upsert of a multi-row VALUES clause is compiled again
#: for every execution: SQLAlchemy has no cache key for it).
_UPSERTS = {"postgresql": _upsert(pg_insert), "sqlite": _upsert(sqlite_insert)}
