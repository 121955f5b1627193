"""A mail understood once: the raw bytes parsed ONE time into one value that says what it is.

:func:`understand` is the only reader of an inbound mail's bytes. It returns an
:class:`Understood`: the parsed message, who sent it and to which addresses, and its
:class:`Kind` with the reason:

* ``bounce``: a delivery report (one flufl.bounce reads, or an automatic mail sent to one of
  pbm's VERP addresses, or a ``multipart/report``), for :mod:`pbm.outbound.bounces` to record;
* ``automatic``: never answered (that is how mail loops start; :func:`pbm.mail.auto.is_automatic`);
* ``refused``: a person's mail over a bound (:func:`pbm.mail.limits.screen`), or sent with a
  null reverse-path, or a door's stand-in for a mail over the byte cap (automatic or not:
  :func:`pbm.mail.limits.oversize`, signed by the door under one of ``keys``: a sender's
  copy of its first line is not one); ``refusal`` says whether it is answered and how;
* ``player``: everything else, for the game that owns it.

Everything after it (the bounce bookkeeping, the screen, the routing, the decision) reads this
value; none of them parses the bytes again. Pure: no database, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from pbm.mail.limits import Screened, oversize, screen, too_big
from pbm.mail.parse import InboundEmail, parse_message
from pbm.mail.verp import read_verp

__all__ = ["Kind", "Understood", "understand"]


class Kind(StrEnum):
    """What a mail is, as far as pbm's machinery cares."""

    PLAYER = "player"
    AUTOMATIC = "automatic"
    BOUNCE = "bounce"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Understood:
    """One inbound mail, understood. ``email`` is the parse (its ``tree`` the MIME tree);
    ``recipients`` are where it was sent (the envelope first, then the headers MTAs and
    mailboxes add, then To and Cc); ``reason`` says why it is not a player's mail ("" if it
    is); ``refusal`` is set for ``refused`` mail."""

    kind: Kind
    reason: str
    email: InboundEmail
    envelope_from: str | None
    recipients: tuple[str, ...]
    refusal: Screened | None = None

    @property
    def sender(self) -> str:
        """The From address, lower-cased ("" when there is none that pbm could read)."""
        return (self.email.from_addr or "").lower()

    @property
    def text(self) -> str:
        """The text the commands are read from: quotes and signature removed."""
        return self.email.body


def understand(
    raw: bytes,
    *,
    own_address: str,
    envelope_from: str | None = None,
    envelope_to: Sequence[str] = (),
    keys: str | Sequence[str] = (),
) -> Understood:
    """Parse ``raw`` once and say what it is. ``own_address`` is pbm's (its mail is
    automatic, and VERP addresses are read against it); ``envelope_from`` and
    ``envelope_to`` are the door's record of the SMTP envelope; ``keys`` are
    ``[security]``'s keys (the current one first, then any before a rotation), under which
    VERP addresses and the doors' stand-ins are signed. Never raises."""
    email = parse_message(raw, own_addresses=(own_address,))
    if envelope_to:
        email = replace(email, delivered_to=(*envelope_to, *email.delivered_to))
    recipients = email.recipients
    auto = email.auto_reason or ("no sender address" if not email.from_addr else None)

    def of(kind: Kind, reason: str, refusal: Screened | None = None) -> Understood:
        return Understood(kind, reason, email, envelope_from, recipients, refusal)

    if email.bounce is not None:
        return of(Kind.BOUNCE, "delivery report for " + ", ".join(email.bounce.addresses))
    if auto is not None:
        if _is_report(email, recipients, own_address, keys):
            return of(Kind.BOUNCE, f"delivery report ({auto})")
        if (over := oversize(raw, keys)) is not None:  # never answered, but the GM sees it
            silent = too_big(over, auto)
            return of(Kind.REFUSED, silent.note, silent)
        return of(Kind.AUTOMATIC, auto)
    if (refused := screen(raw, email.body, envelope_from, keys)) is not None:
        return of(Kind.REFUSED, refused.note, refused)
    return of(Kind.PLAYER, "")


def _is_report(
    email: InboundEmail,
    recipients: Sequence[str],
    own_address: str,
    keys: str | Sequence[str],
) -> bool:
    """Whether an automatic mail is a delivery report: sent to a VERP address of ours, or a
    ``multipart/report`` (RFC 6522)."""
    if keys and any(read_verp(r, own_address, keys) is not None for r in recipients):
        return True
    return email.tree is not None and email.tree.get_content_type() == "multipart/report"
