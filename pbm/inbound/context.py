"""What a mail command's handler is given (:class:`MailContext`) and returns (:class:`Handled`).

A handler runs inside the message's one transaction: it reads and writes through
``ctx.session`` and queues its answer with :meth:`MailContext.reply`, so the answer exists if
and only if the change does. It never commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Row, Select, bindparam, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.core.errors import AuthError
from pbm.core.events import record
from pbm.db.models import (
    Competition,
    MailStatus,
    Player,
    Seat,
    table_of,
)
from pbm.inbound.intake import Incoming
from pbm.mail.compose import Attachment
from pbm.outbound.replies import ReplyTo, queue_mail
from pbm.secrets.seats import SecretBox

__all__ = ["Handled", "MailContext", "Status", "StoredMail"]


#: What became of a message (stored as ``inbound_mail.status``).
Status = MailStatus


@dataclass(frozen=True, slots=True)
class Handled:
    """The outcome of one message: its status, a short note, and what to redact from its
    stored raw bytes (secrets it carried)."""

    status: Status
    note: str
    secrets: tuple[str, ...] = ()


@dataclass(slots=True)
class StoredMail:
    """The claimed ``inbound_mail`` row a message is handled from, read by one Core query
    (the ORM's load of the row and its flush of the status cost more than handling a JOIN).
    ``from_addr`` and ``subject`` are what handling learns; the pipeline writes them back."""

    id: int
    status: str
    raw: bytes
    sealed: bytes | None
    envelope_from: str | None
    envelope_to: str | None
    from_addr: str | None = None
    subject: str | None = None


@dataclass
class MailContext:
    """One parsed message in one session, with the services a handler needs."""

    session: Session
    config: Config
    clock: Clock
    box: SecretBox
    mail: StoredMail
    msg: Incoming
    competition: Competition | None = None
    notes: list[str] = field(default_factory=list)
    #: The seat's player, once :meth:`authenticate_seat` found it: held here because the
    #: session's identity map holds objects weakly, and ``session.get`` finds it while held.
    player: Player | None = None

    @property
    def reply_to(self) -> ReplyTo:
        """The message answered, for threading."""
        return ReplyTo(self.msg.message_id, self.msg.references, self.msg.subject)

    @property
    def secrets(self) -> tuple[str, ...]:
        """The secret the message carried (to redact), if any."""
        return (self.msg.secret,) if self.msg.secret else ()

    def handled(self, status: Status, note: str) -> Handled:
        """A :class:`Handled` that also redacts the message's secret."""
        return Handled(status, note, self.secrets)

    def reply(
        self,
        kind: str,
        *,
        images: Sequence[Attachment] = (),
        from_name: str | None = None,
        **ctx: Any,
    ) -> None:
        """Queue a reply to the sender, noting ignored attachments and unreadable parts
        (``images`` and ``from_name``: see :func:`queue_mail`)."""
        notes = [*self.msg.notes, *self.notes]
        notes += [f"Part of your mail could not be read as sent: {p}" for p in self.msg.problems]
        if self.msg.attachments:
            notes.append(
                f"Your message had {len(self.msg.attachments)} attachment(s); pbm reads only "
                "the text of a mail and ignored them."
            )
        queue_mail(
            self.session,
            self.config,
            self.clock,
            kind=kind,
            to=self.msg.from_addr,
            ctx={"notes": notes, **ctx},
            reply_to=self.reply_to,
            inbound_id=self.mail.id,
            images=images,
            from_name=from_name,
        )

    def record(self, kind: str, **data: Any) -> None:
        """Append to the audit log, for this message's competition."""
        record(self.session, self.clock, kind, self.competition, inbound=self.mail.id, **data)

    def refuse(self, reason: str, note: str) -> Handled:
        """Answer that the message was refused for lack of the right secret."""
        self.reply("auth-refused", reason=reason)
        return self.handled(Status.REJECTED, note)

    def open_competitions(self) -> list[dict[str, Any]]:
        """Competitions taking teams, as template rows."""
        from pbm.games import GAMES

        return [row for game in GAMES for row in game.open_competitions(self.session)]

    def not_understood(self, note: str, unknown_code: str | None = None) -> Handled:
        """Answer that pbm could not tell what the mail asks for."""
        self.reply(
            "not-understood", unknown_code=unknown_code, competitions=self.open_competitions()
        )
        self.record("not-understood", note=note)
        return self.handled(Status.REJECTED, f"not understood: {note}")

    def authenticate_seat(self, comp: Competition) -> Seat:
        """The sender's seat in ``comp`` if the mail carries that seat's secret; raises
        :class:`~pbm.core.errors.AuthError` (with the player's reason) otherwise."""
        seat: Seat = self.authenticate_row(comp, _SEAT_OF)[0]
        return seat

    def authenticate_row(
        self, comp: Competition, query: Select[*tuple[Any, ...]]
    ) -> Row[*tuple[Any, ...]]:
        """:meth:`authenticate_seat` reading the seat with ``query``, and its whole row: the
        seat and its player first (bound by ``b_comp`` and ``b_addr``, as ``_SEAT_OF``),
        then what the handler reads with them in the same statement."""
        # The seat's row is locked (FOR NO KEY UPDATE; nothing on SQLite, one writer): a
        # seat's mail may hold the competition's lock only shared, and its orders and naming
        # versions are numbered per seat.
        row = self.session.execute(query, {"b_comp": comp.id, "b_addr": self.msg.from_addr}).first()
        if row is None:
            raise AuthError(
                f"{self.msg.from_addr} has no team in {comp.code}; send JOIN to take one.",
                note="no seat",
            )
        seat, self.player = row[0], row[1]
        if not self.msg.secret:
            raise AuthError(
                "Orders must carry your secret on a line of its own: SECRET <your secret>. "
                "The sender's address alone proves nothing.",
                note="no secret",
            )
        if not self.box.verify(seat.secret_hash, self.msg.secret):
            self.record("auth-failed", seat=seat.number)
            raise AuthError("The secret does not match your team's secret.", note="wrong secret")
        if self.box.needs_rehash(seat.secret_hash):  # the configured cost changed since
            # One Core UPDATE on the connection, and the seat given the value as written: a
            # dirty seat would make every later autoflush of the mail a flush of it.
            new_hash = self.box.hash(self.msg.secret)
            self.session.connection().execute(_SEAT_REHASH, {"b_id": seat.id, "h": new_hash})
            set_committed_value(seat, "secret_hash", new_hash)
        return row


#: Built once (every orders and naming mail runs it): building a statement costs about what
#: running it does. The player comes with the seat (the row is joined anyway): the reply's
#: deadline is written in the player's time zone, and ``session.get`` then finds it loaded.
_SEAT_OF = (
    select(Seat, Player)
    .join(Player, Seat.player_id == Player.id)
    .where(Seat.competition_id == bindparam("b_comp"), Player.address == bindparam("b_addr"))
    .with_for_update(key_share=True, of=Seat)
)
_SEATS = table_of(Seat)
_SEAT_REHASH = (
    update(_SEATS).where(_SEATS.c.id == bindparam("b_id")).values(secret_hash=bindparam("h"))
)
