"""Fakes for the ports, shipped with pbm (like ``structlog.testing``) for fast tests.

``FakeMailbox`` and ``RecordingSender`` implement :mod:`pbm.mail.ports`; ``FixedClock`` is
re-exported from :mod:`pbm.core.clock`; :func:`make_eml` builds a message's bytes;
:func:`seat_named_sides` and :func:`start_drawn_mini` make a full or drawn competition
without the mail, for what comes after joining; :func:`run_pass` is a daemon's pass with the
mail it leaves due for the next.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import TYPE_CHECKING, Any

from pbm.core.clock import Clock, FixedClock
from pbm.core.errors import SmtpError
from pbm.mail.flowed import as_fixed
from pbm.mail.ports import Envelope, FetchedMessage

__all__ = [
    "Conversation",
    "FakeMailbox",
    "FixedClock",
    "RecordingSender",
    "body_of",
    "make_eml",
    "run_pass",
    "seat_named_sides",
    "start_drawn_mini",
]

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from pbm.core.config import Config
    from pbm.daemon import Daemon
    from pbm.db.models import Competition, Turn

_counter = itertools.count(1)


def run_pass(daemon: Daemon, max_passes: int = 50) -> None:
    """One pass of ``daemon``, then more while mail is due for sending, as the daemon's loop
    does (it waits only after a pass that did nothing): a pass sends bulk mail for half a
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


def seat_named_sides(
    s: Session,
    clock: Clock,
    comp: Competition,
    addresses: list[str],
    side_name: Callable[[int], str] = lambda n: f"Side {n}",
) -> None:
    """Seat a named side in ``comp`` for each of ``addresses`` (seat 1 for the first), with
    the competition's own squad and no secret: a full competition without the mail, for the
    tests and benches of what comes after joining."""
    from dataclasses import replace

    from pbm.db.models import Player, Seat
    from pbm.games.flungo.competitions import base_squad

    players = [Player(address=a, created_at=clock.now()) for a in addresses]
    s.add_all(players)
    s.flush()
    for n, player in enumerate(players, start=1):
        team = replace(base_squad(comp, n), name=side_name(n))
        s.add(
            Seat(
                competition_id=comp.id,
                player_id=player.id,
                number=n,
                secret_hash="",
                secret_version=1,
                team=team.to_json(),
                named=True,
                naming_version=1,
                joined_at=clock.now(),
            )
        )


def start_drawn_mini(
    s: Session,
    config: Config,
    clock: Clock,
    code: str,
    *,
    settings: Mapping[str, Any] | None = None,
    seed: str | None = None,
    addresses: list[str] | None = None,
    side_name: Callable[[int], str] = lambda n: f"Side {n}",
) -> tuple[Competition, Turn]:
    """A four-team T20 mini tournament played every hour, with named sides
    (:func:`seat_named_sides`; ``<code>1@example.test`` ... by default), drawn: returns it and
    its first stage (selection), open. ``settings`` override the competition's (the pre-run
    check off by default: ``hold_share`` 1.0)."""
    from pbm.games.flungo import turns
    from pbm.games.flungo.competitions import create_competition

    comp = create_competition(
        s,
        clock,
        code=code,
        name=f"Cup {code}",
        fmt="t20",
        teams=4,
        naming_deadline=clock.now() + timedelta(days=1),
        seed=seed or f"{code}-seed",
        kind="mini",
        schedule="every 1h",
        settings={"hold_share": 1.0, **(settings or {})},
    )
    if addresses is None:
        addresses = [f"{code.lower()}{n}@example.test" for n in range(1, 5)]
    seat_named_sides(s, clock, comp, addresses, side_name)
    s.flush()
    s.refresh(comp)
    return comp, turns.start_competition(s, config, clock, comp)
