"""pbm's errors. Foreign errors (imaplib, smtplib, socket, OSError, SQLAlchemy) are translated
into these at the edge, so the daemon reasons about one tree.

Exception tree::

    PbmError
     ├── ConfigError            a config key is missing or wrong (names the key path)
     ├── MailError              a mail door or the sender failed
     │    ├── ImapError
     │    ├── SmtpError
     │    ├── OAuth2Error        no access token: the provider refused the refresh token, or
     │    │                      could not be reached
     │    └── MessageParseError a message's bytes could not be understood at all
     ├── DatabaseUnavailable    the database connection dropped or the server is down
     ├── DatabaseNotReady       the database is missing, empty or not at this pbm's migration
     ├── AuthError              a command lacked the right secret (``note`` says which way)
     ├── RateLimited            a sender exceeded its allowance
     ├── GameError              a request the game's rules refuse (bad settings, a taken code,
     │                          a turn that cannot run now)
     └── NotFound               no such game, player, mail or dead letter

Every ``PbmError`` says whether it is ``transient`` (retry on the next pass) or permanent
(answer, shunt or record it; never retry blindly).
"""

from __future__ import annotations

__all__ = [
    "AuthError",
    "ConfigError",
    "DatabaseNotReady",
    "DatabaseUnavailable",
    "GameError",
    "ImapError",
    "MailError",
    "MessageParseError",
    "NotFound",
    "OAuth2Error",
    "PbmError",
    "RateLimited",
    "SmtpError",
]


class PbmError(Exception):
    """Base of every error pbm raises on purpose."""

    transient: bool = False

    def __init__(self, message: str, *, transient: bool | None = None) -> None:
        super().__init__(message)
        self.message = message
        if transient is not None:
            self.transient = transient


class ConfigError(PbmError):
    """A configuration problem; ``key`` is the dotted key path, e.g. ``smtp.port``."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key


class MailError(PbmError):
    """A mail door or the outbound sender failed."""


class ImapError(MailError):
    """The IMAP server refused or the connection failed."""


class SmtpError(MailError):
    """Sending failed; ``transient`` tells a 4xx/network failure from a 5xx refusal.

    ``relay`` says the relay itself failed (unreachable, refusing service at its greeting or
    login, stalled, hung up), whatever the message: every message would fail the same way,
    so the outbox waits for the relay instead of spending the message's attempts."""

    def __init__(self, message: str, *, transient: bool | None = None, relay: bool = False):
        super().__init__(message, transient=transient)
        self.relay = relay


class OAuth2Error(MailError):
    """No access token for a mailbox: the provider refused the refresh token (permanent: the
    operator must get a new one) or could not be reached (transient)."""


class MessageParseError(MailError):
    """The message's bytes could not be understood at all."""


class DatabaseUnavailable(PbmError):
    """The database connection dropped (mid-transaction, or the server restarted) or the
    server does not answer: the unit of work rolled back and is retried, never dead-lettered."""

    transient = True


class DatabaseNotReady(PbmError):
    """The database is not there, not migrated, or not at this pbm's head: ``state`` says
    which (a :class:`pbm.db.readiness.Readiness` value), the message names the fix."""

    def __init__(self, state: str, message: str) -> None:
        super().__init__(message)
        self.state = state


class AuthError(PbmError):
    """A command lacked the right secret: ``message`` is for the sender, ``note`` (a word or
    two) for the record."""

    def __init__(self, message: str, *, note: str = "not authenticated") -> None:
        super().__init__(message)
        self.note = note


class RateLimited(PbmError):
    """A sender exceeded its allowance: ``count`` mails this hour against ``limit``."""

    def __init__(self, sender: str, count: int, limit: int) -> None:
        super().__init__(f"{sender} sent {count} mails this hour (limit {limit})")
        self.sender = sender
        self.count = count
        self.limit = limit


class GameError(PbmError):
    """A request the game's rules refuse: bad competition settings, a taken code, a turn that
    cannot be run, rolled back or rerun now. The message says why, for the GM or the player."""


class NotFound(PbmError):
    """No such game, player, message or dead letter."""
