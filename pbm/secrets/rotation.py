"""Rotating ``[security] secret_key`` (issue 23) without breaking anything that waits.

The steps (``docs/ops/operations.md``, Rotating the secret key):

1. Put the new key in ``secret_key`` and the old one in ``old_secret_keys``; restart. From
   then on pbm seals, signs and derives with the new key and still *reads* with the old one:
   sealed mail opens (``MultiFernet``), a bounce of mail sent before comes home (its VERP
   address is checked under every key), and a JOIN reply still in the outbox shows the
   secret that was made for it (the derivation that matches the stored hash).
2. ``pbm secrets rotate`` (:func:`rotate`): every sealed raw mail (mail not yet handled,
   and dead letters) is re-sealed under the new key, and a door's stand-in among them
   (a mail over the cap) signed again under it (:func:`pbm.mail.limits.resign`): once the old
   key is dropped, one signed under it would be read as an ordinary mail.
3. When it reports no mail under an old key and no secret waiting in the outbox, and a week
   or two has let late bounces come back, drop the old key from ``old_secret_keys``. A
   spool file that was a dead letter because no key opened it (truncated, corrupt, or its
   key dropped before) is named, not counted against this: the GM was told of it then.

Players' secrets need nothing: what pbm stores of them is an argon2 hash of the secret
itself, not keyed, so a secret a player holds verifies under any ``secret_key``. The key only
*makes* new secrets (each seat's, from its id and version), and that is where the new key
is used from step 1 on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from pbm.core.config import Config
from pbm.core.errors import PbmError
from pbm.db.models import InboundMail, OutboxMessage, OutboxStatus, table_of
from pbm.mail.limits import resign
from pbm.secrets.at_rest import Sealer

__all__ = ["RotationReport", "rotate", "sealed_count"]


@dataclass(slots=True)
class RotationReport:
    """What a rotation did: mails re-sealed, already under the new key, that no configured
    key opens (their ids), those of them that are dead letters the GM was told of for that
    very reason (``dead``: their bytes may be corrupt, and no key may ever open them), and
    outbox mails still waiting to show a secret."""

    resealed: int = 0
    current: int = 0
    unreadable: list[int] = field(default_factory=list)
    dead: list[int] = field(default_factory=list)
    waiting_secrets: int = 0


def sealed_count(s: Session) -> int:
    """How many mails hold a sealed copy (a progress bar's total)."""
    return int(s.scalar(select(func.count()).where(InboundMail.sealed.is_not(None))) or 0)


def rotate(
    s: Session,
    config: Config,
    on_row: Callable[[], None] = lambda: None,
    told: Callable[[str | None, str], bool] = lambda door, key: False,
) -> RotationReport:
    """Re-seal every sealed raw mail under the current key (see the module doc); ``on_row``
    is told after each. ``told(door, key)`` says whether a row stands for bytes that were a
    dead letter because nothing could open them (a spool file's): one no key opens goes in
    ``dead``, not ``unreadable``. The caller commits."""
    sealer = Sealer(config.security.secret_key, config.security.old_secret_keys)
    report = RotationReport()
    inbound = table_of(InboundMail)
    rows = s.execute(
        select(inbound.c.id, inbound.c.sealed, inbound.c.door, inbound.c.key)
        .where(inbound.c.sealed.is_not(None))
        .order_by(inbound.c.id)
    ).all()
    for row_id, sealed, door, key in rows:
        token = bytes(sealed)
        try:
            # opened even when sealed under the new key: a stand-in spooled before the
            # restart was sealed again as it was stored, but is still signed under the old key
            raw = sealer.unseal(token)
        except PbmError:
            (report.dead if told(door, key) else report.unreadable).append(row_id)
        else:
            signed = resign(raw, config.security.keys)
            if signed is raw and sealer.is_current(token):
                report.current += 1
            else:
                fresh = sealer.seal(signed)
                s.execute(update(inbound).where(inbound.c.id == row_id).values(sealed=fresh))
                report.resealed += 1
        on_row()
    outbox = table_of(OutboxMessage)
    report.waiting_secrets = int(
        s.scalar(
            select(func.count())
            .select_from(outbox)
            .where(
                outbox.c.status.in_((OutboxStatus.PENDING, OutboxStatus.FAILED)),
                outbox.c.raw.contains(b"[[pbm-secret:"),
            )
        )
        or 0
    )
    return report
