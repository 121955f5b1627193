"""Per-sender rate limit: a counter per bucket per clock hour, in the database.

Mail that proves who sent it (a seat's secret, or the GM's) is counted under the address:
a proven seat's mail keeps its own bucket. Everything else is *unproven* and counted twice
(:func:`rate_buckets`): under its base address (``?victim@third.test`` for every
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

from sqlalchemy import bindparam, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from pbm.core.config import GmConfig
from pbm.db.models import Player, RateCounter, Seat, table_of
from pbm.secrets.seats import SecretBox, normalise_secret

__all__ = [
    "DOTLESS_DOMAINS",
    "Bucket",
    "base_address",
    "count_mail",
    "rate_buckets",
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


def rate_buckets(
    session: Session, box: SecretBox, gm: GmConfig, sender: str, secret: str | None
) -> list[Bucket]:
    """The counters a mail is counted under: the sender's own if ``secret`` proves the mail
    theirs, else its base address's and its domain's unproven ones."""
    key = rate_key(session, box, gm, sender, secret)
    if not key.startswith(_UNPROVEN):
        return [Bucket(key)]
    base = base_address(sender)
    domain = base.rpartition("@")[2]
    return [Bucket((_UNPROVEN + base)[:320]), Bucket((_UNPROVEN + "@" + domain)[:320], True)]


def rate_key(
    session: Session, box: SecretBox, gm: GmConfig, sender: str, secret: str | None
) -> str:
    """The counter a mail is counted under: ``sender`` if ``secret`` proves it is theirs
    (the GM's, or one of the sender's seats'), else ``?sender``."""
    if secret:
        if sender == gm.address.lower() and hmac.compare_digest(
            normalise_secret(secret).encode(), normalise_secret(gm.secret).encode()
        ):
            return sender
        hashes = session.scalars(_HASHES, {"sender": sender})
        if any(box.verify(h, secret) for h in hashes):
            return sender
    return (_UNPROVEN + sender)[:320]


#: Built once (building it cost about what running it does).
_HASHES = (
    select(table_of(Seat).c.secret_hash)
    .join(table_of(Player), table_of(Seat).c.player_id == table_of(Player).c.id)
    .where(table_of(Player).c.address == bindparam("sender"))
)


def window_start(now: datetime) -> datetime:
    """The start of the hour ``now`` falls in."""
    return now.replace(minute=0, second=0, microsecond=0)


def count_mail(session: Session, sender: str, now: datetime) -> int:
    """Count one more mail from ``sender`` this hour; returns the count including it.

    One atomic upsert: two workers counting the same sender's first mail of the hour at once
    must not both insert (the second would fail on the key and shunt a good mail), nor both
    read the same count and write it back plus one (a lost count)."""
    dialect = session.get_bind().dialect.name
    upsert = _UPSERTS[dialect if dialect == "postgresql" else "sqlite"]
    row = {"sender": sender, "window_start": window_start(now), "count": 1}
    return int(session.execute(upsert, row).scalar_one())


def _upsert(insert: Any) -> Any:
    table = table_of(RateCounter)
    return (
        insert(table)
        .on_conflict_do_update(
            index_elements=[table.c.sender, table.c.window_start],
            set_={"count": table.c.count + 1},
        )
        .returning(table.c.count)
    )


#: Built once per dialect, on the table: building the statement and the ORM's DML plugin
#: cost more than the upsert.
_UPSERTS = {"postgresql": _upsert(pg_insert), "sqlite": _upsert(sqlite_insert)}
