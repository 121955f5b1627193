"""Fakes for the ports, shipped with pbm (like ``structlog.testing``) for fast tests.

``FakeMailbox`` and ``RecordingSender`` implement :mod:`pbm.mail.ports`; ``FixedClock`` is
re-exported from :mod:`pbm.core.clock`; :func:`make_eml` builds a message's bytes;
:func:`run_pass` is a daemon's pass with the mail it leaves due for the next. (A game's own
fixtures ship with the game: Flungo's in :mod:`pbm.games.flungo.fixtures`.)
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import TYPE_CHECKING

from pbm.core.clock import FixedClock
from pbm.core.errors import SmtpError
from pbm.mail.compose import SAFE_POLICY
from pbm.mail.flowed import as_fixed
from pbm.mail.ports import Envelope, FetchedMessage
from pbm.mail.wire import outgoing

__all__ = [
    "Conversation",
    "FakeMailbox",
    "FixedClock",
    "RecordingSender",
    "body_of",
    "make_eml",
    "run_pass",
]

if TYPE_CHECKING:
    from pbm.daemon import Daemon

_counter = itertools.count(1)


def run_pass(daemon: Daemon, max_passes: int = 50) -> None:
    """One pass of ``daemon``, then more while mail is due for sending, as the daemon's loop
    does (it goes again at once while something is due): a pass sends bulk mail for half a
    second, so a stage's reports may need several on a slow relay. Stops at ``max_passes``
    (a relay that is down keeps its mail due)."""
    daemon.run_once()
    for _ in range(max_passes - 1):
        if daemon.outbox.relay_down or not daemon.outbox.due_ids(limit=1):
            return
        daemon.run_once()


def make_eml(
    body: str = "JOIN\n",
    *,
    sender: str = "player1@example.test",
    to: str = "pbm@example.test",
    subject: str = "[DEMO] hello",
    message_id: str | None = None,
    headers: dict[str, str] | None = None,
    in_reply_to: str | None = None,
) -> bytes:
    """A plain-text message's bytes, with a unique Message-ID unless one is given."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or f"<test-{next(_counter)}-{id(msg)}@example.test>"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return msg.as_bytes()


def body_of(msg: EmailMessage) -> str:
    """The plain-text body of a message, its lines as written: a ``format=flowed`` body
    without the spaces that mark its soft breaks and stuff its lines (what a reader that does
    not flow shows, less those spaces)."""
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        return ""
    text = part.get_content()
    return as_fixed(text) if part.get_param("format") == "flowed" else text


class FakeMailbox:
    """An in-memory mailbox: ``deliver()`` puts mail in; processed mail moves out."""

    def __init__(self) -> None:
        self.inbox: dict[str, bytes] = {}
        self.processed: dict[str, bytes] = {}
        self._uids = itertools.count(1)
        self._news = threading.Event()
        self.closed = False

    def deliver(self, raw: bytes) -> str:
        """Add a message; returns its uid."""
        uid = f"1:{next(self._uids)}"
        self.inbox[uid] = raw
        self._news.set()
        return uid

    def fetch_new(self) -> list[FetchedMessage]:
        """Messages not yet processed, oldest first."""
        self._news.clear()
        return [FetchedMessage(uid, raw) for uid, raw in self.inbox.items()]

    def mark_processed(self, uid: str) -> None:
        """Move the message to the processed folder."""
        self.processed[uid] = self.inbox.pop(uid)

    def wait(self, timeout: float) -> bool:
        """Block until a delivery or the timeout."""
        return self._news.wait(timeout)

    def interrupt(self) -> None:
        """Wake a ``wait`` early (the daemon's stop or another door's news)."""
        self._news.set()

    def close(self) -> None:
        """Nothing to release."""
        self.closed = True


class RecordingSender:
    """A sender that keeps what it is given; ``fail_with`` makes the next sends raise."""

    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []
        self.envelopes: list[Envelope | None] = []
        self.failures: list[SmtpError] = []
        self.on_send: Callable[[EmailMessage], None] | None = None

    def fail_next(self, error: SmtpError, times: int = 1) -> None:
        """Make the next ``times`` sends raise ``error``."""
        self.failures.extend([error] * times)

    def send(self, message: EmailMessage, envelope: Envelope | None = None) -> None:
        """Record the message (a re-parsed copy, as a real transport would see it)."""
        self.envelopes.append(envelope)
        if self.failures:
            raise self.failures.pop(0)
        copy = BytesParser(policy=policy.default).parsebytes(message.as_bytes())
        assert isinstance(copy, EmailMessage)
        self.sent.append(copy)
        if self.on_send is not None:
            self.on_send(copy)

    def send_bytes(self, raw: bytes, envelope: Envelope) -> None:
        """Record the message the bytes go out as (:func:`pbm.mail.wire.outgoing`), read as
        a transport's reader would, through :meth:`send` (which a fake may extend)."""
        msg = BytesParser(policy=SAFE_POLICY).parsebytes(outgoing(raw))
        assert isinstance(msg, EmailMessage)
        self.send(msg, envelope)

    def to(self, address: str) -> list[EmailMessage]:
        """Messages sent to ``address``."""
        return [m for m in self.sent if address.lower() in str(m["To"]).lower()]


class Conversation:
    """Talk to a daemon by mail, like salmon's ``RouterConversation``::

    talk = Conversation(daemon, sender, "player1@example.test")
    reply = talk.say("JOIN", subject="[DEMO] join", expect="YOUR SECRET")
    """

    def __init__(self, daemon: Daemon, sender: RecordingSender, address: str) -> None:
        self.daemon = daemon
        self.sender = sender
        self.address = address

    def say(
        self, body: str, *, subject: str = "", expect: str | None = None, **kw: object
    ) -> list[EmailMessage]:
        """Store one mail from this address, run a pass, return the replies to it.

        With ``expect``, exactly one reply is required and its body must contain the text.
        """
        before = len(self.sender.sent)
        raw = make_eml(body, sender=self.address, subject=subject, **kw)  # type: ignore[arg-type]
        self.daemon.app.inbound.store(raw, "smtp")
        self.daemon.run_once()
        replies = [
            m for m in self.sender.sent[before:] if self.address.lower() in str(m["To"]).lower()
        ]
        if expect is not None:
            assert len(replies) == 1, f"expected one reply, got {len(replies)}"
            assert expect in body_of(replies[0]), body_of(replies[0])
        return replies
