"""The ports between the daemon and the mail world. Adapters implement them; fakes in
``pbm.testing`` implement them for unit tests. The core never knows which door a mail used.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from typing import Protocol

__all__ = ["Envelope", "FetchedMessage", "Mailbox", "Sender"]


@dataclass(frozen=True, slots=True)
class Envelope:
    """The SMTP envelope of a mail pbm sends: the reverse-path and the recipients. Given, it
    is the whole truth: no header of the message adds a recipient."""

    mail_from: str
    rcpt_to: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FetchedMessage:
    """A raw message and the mailbox's id for it (IMAP: ``"<uidvalidity>:<uid>"``)."""

    uid: str
    raw: bytes


class Mailbox(Protocol):
    """Somewhere messages arrive (IMAP). Messages are marked processed only after commit."""

    def fetch_new(self) -> list[FetchedMessage]:
        """Messages not yet marked processed, oldest first."""
        ...

    def mark_processed(self, uid: str) -> None:
        """Move or flag the message so it is not fetched again (after its effects commit)."""
        ...

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds for news (IMAP: IDLE, NOOPs while mail flows, or a
        sleep when polling).

        Returns True if new mail may have arrived; at once if mail came since the last
        ``fetch_new`` (the daemon relies on it after a pass that handled mail).
        """
        ...

    def close(self) -> None:
        """Log out and release the connection."""
        ...


class Sender(Protocol):
    """Somewhere outbound mail goes (SMTP, or a local Maildir). Raises ``SmtpError``."""

    def send(self, message: EmailMessage, envelope: Envelope | None = None) -> None:
        """Deliver one message: to ``envelope``'s recipients, else those in its headers."""
        ...

    def send_bytes(self, raw: bytes, envelope: Envelope) -> None:
        """Deliver a message's bytes as stored (the outbox's), to ``envelope``'s recipients
        from its reverse-path: as :func:`pbm.mail.wire.outgoing` makes them (line ends, no
        Bcc field), never parsed and written again."""
        ...
