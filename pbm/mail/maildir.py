"""The embedded default's outbound door: ``MaildirSender`` files mail into a local Maildir.

A newcomer without an SMTP relay still sees every reply: each message becomes one file in
``<path>/new`` that any mail client (``mutt -f <path>``) or ``cat`` can read.
"""

from __future__ import annotations

import copy
import logging
import mailbox
from email.message import EmailMessage
from pathlib import Path

from pbm.core.errors import SmtpError
from pbm.mail.ports import Envelope
from pbm.mail.wire import header, outgoing

__all__ = ["MaildirSender"]

log = logging.getLogger(__name__)


class MaildirSender:
    """A :class:`pbm.mail.ports.Sender` that writes each message into a Maildir at ``path``.

    The Maildir (``cur``/``new``/``tmp``) is created on first use. Maildir delivery writes to
    ``tmp`` and renames into ``new``, so a reader never sees half a message. A failure to write
    (disk full, permissions) is a transient ``SmtpError``, like an SMTP server being away.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"MaildirSender({str(self.path)!r})"

    def send(self, message: EmailMessage, envelope: Envelope | None = None) -> None:
        """Store ``message`` as a new file in the Maildir's ``new`` folder (the envelope has
        nowhere to go in a Maildir; the file is the message as it would be delivered)."""
        # Bcc is an envelope matter; a delivered copy must not reveal it.
        raw = message.as_bytes() if "Bcc" not in message else _without_bcc(message)
        self._store(raw)

    def send_bytes(self, raw: bytes, envelope: Envelope) -> None:
        """Store the message ``raw`` as it goes out (:func:`pbm.mail.wire.outgoing`: LF line
        ends, no Bcc field) as a new file, like :meth:`send`."""
        self._store(outgoing(raw))

    def _store(self, raw: bytes) -> None:
        try:
            key = mailbox.Maildir(self.path, create=True).add(raw)
        except (OSError, mailbox.Error) as exc:
            raise SmtpError(f"Maildir {self.path}: cannot store: {exc}", transient=True) from exc
        log.info("maildir: stored %s as %s in %s", header(raw, "Message-ID"), key, self.path)

    def messages(self) -> list[bytes]:
        """The raw bytes of every message stored so far (for tests and the CLI), oldest first."""
        if not (self.path / "new").is_dir():
            return []
        files = sorted(
            (self.path / sub / name for sub in ("new", "cur") for name in _names(self.path / sub)),
            key=lambda p: (p.stat().st_mtime_ns, p.name),
        )
        return [p.read_bytes() for p in files]

    def close(self) -> None:
        """Nothing to release; present so every sender can be closed alike."""


def _names(d: Path) -> list[str]:
    return [p.name for p in d.iterdir() if not p.name.startswith(".")] if d.is_dir() else []


def _without_bcc(message: EmailMessage) -> bytes:
    stripped = copy.deepcopy(message)
    del stripped["Bcc"]
    return stripped.as_bytes()
