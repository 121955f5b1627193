"""Wiring: from a :class:`~pbm.core.config.Config` to the services, the doors and the daemon.

This is the only module that knows which adapter serves which port. Embedding pbm (tests,
benches) goes through :class:`App`; see ``docs/ops/embedding.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import Clock, SystemClock
from pbm.core.config import Config
from pbm.db import migrate
from pbm.db.kept import Kept
from pbm.db.session import make_db_engine, make_session_factory
from pbm.games import GAMES, Game
from pbm.inbound import Inbound
from pbm.inbound.spool import DoorStore, Spool
from pbm.mail.oauth2 import TokenSource
from pbm.mail.ports import Mailbox, Sender
from pbm.ops.incidents import Incidents
from pbm.outbound.bounces import verp_address
from pbm.outbound.outbox import Outbox
from pbm.secrets.seats import SecretBox

__all__ = [
    "App",
    "Listener",
    "make_listeners",
    "make_mailboxes",
    "make_sender",
]


class Listener(Protocol):
    """A door that runs beside the loop (the SMTP listener): started and stopped with it."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


@dataclass
class App:
    """The database and the services for one configuration, and the games it runs (every
    game's check of the configuration passes before anything starts)."""

    config: Config
    db_engine: Engine
    clock: Clock = field(default_factory=SystemClock)
    games: Sequence[Game] = GAMES

    def __post_init__(self) -> None:
        for game in self.games:
            game.check_config(self.config)
        self.sessions: sessionmaker[Session] = make_session_factory(self.db_engine)
        # What the games derive from stored rows (a season's fixture lines, its outlooks) is
        # kept by the App's sessions: the App's lifetime, its database alone.
        self.kept: Kept = self.sessions.kw["info"]["kept"]
        self.box = SecretBox(self.config.security)
        self.inbound = Inbound(self.sessions, self.config, self.clock, self.box)
        # The doors that answer at once store through this: the database if its write lock
        # is free soon, else the spool, which every pass imports first (SQLite).
        db = self.config.database
        self.spool = Spool(db.spool_dir, self.inbound.sealer) if db.spool_dir else None
        self.doors = DoorStore(self.inbound, self.spool, db.door_wait_ms)

    @classmethod
    def from_config(
        cls, config: Config, clock: Clock | None = None, *, upgrade: bool = False
    ) -> App:
        """Open the configured database (and apply migrations if ``upgrade``)."""
        db_engine = make_db_engine(config.database.url)
        if upgrade:
            migrate.upgrade(db_engine)
        return cls(config, db_engine, clock or SystemClock())

    def outbox(self, sender: Sender, incidents: Incidents | None = None) -> Outbox:
        """The outbox worker delivering through ``sender`` (reporting relay outages to
        ``incidents``)."""
        own, key = self.config.server.address, self.config.security.secret_key
        return Outbox(
            self.sessions,
            sender,
            self.config.outbox,
            self.clock,
            self.box,
            envelope_from=lambda row_id: verp_address(own, key, row_id),
            incidents=incidents,
        )

    def incidents(self) -> Incidents:
        """A record of this process's door outages (see :mod:`pbm.ops.incidents`)."""
        return Incidents(self.sessions, self.clock, self.config.secrets())

    def close(self) -> None:
        """Release database connections."""
        self.db_engine.dispose()


def make_sender(config: Config) -> Sender:
    """The configured outbound transport: SMTP relay or local Maildir."""
    if config.maildir is not None:
        from pbm.mail.maildir import MaildirSender

        return MaildirSender(config.maildir.path)
    assert config.smtp is not None  # the config guarantees one of the two
    from pbm.mail.smtp import SmtpSender

    smtp = config.smtp
    sender: Sender = SmtpSender(
        smtp.host,
        smtp.port,
        security=smtp.tls,
        username=smtp.username or None,
        password=smtp.password or None,
        oauth2=_token_source(config) if smtp.auth != "password" else None,
        mechanism="oauthbearer" if smtp.auth == "oauthbearer" else "xoauth2",
        ca_file=smtp.ca_file,
        verify=smtp.verify,
        timeout=smtp.timeout,
        envelope_from=config.server.address,
    )
    if smtp.dkim_key is not None:
        from pbm.mail.dkim import DkimSigner, SigningSender

        domain = smtp.dkim_domain or config.server.address.rpartition("@")[2]
        sender = SigningSender(sender, DkimSigner.load(smtp.dkim_key, smtp.dkim_selector, domain))
    return sender


def _token_source(config: Config) -> TokenSource:
    from pbm.mail.oauth2 import token_source

    assert config.oauth2 is not None  # the config requires it for an OAuth2 door
    return token_source(config.oauth2)


def make_listeners(
    config: Config, store: Callable[[bytes, str, list[str]], None]
) -> list[Listener]:
    """The configured SMTP listener (none, or one), storing each message with ``store``."""
    if config.listener is None:
        return []
    from pbm.mail.listener import SmtpListener

    accept = list(config.listener.accept) or [config.server.address]
    return [
        SmtpListener(
            config.listener.host,
            config.listener.port,
            store,
            accept=accept,
            max_size=config.listener.max_size,
        )
    ]


def make_mailboxes(config: Config) -> list[Mailbox]:
    """The configured IMAP mailboxes (none, or one)."""
    if config.imap is None:
        return []
    from pbm.mail.imap import ImapMailbox

    im = config.imap
    return [
        ImapMailbox(
            im.host,
            im.port,
            username=im.username,
            password=im.password,
            oauth2=_token_source(config) if im.auth != "password" else None,
            mechanism="oauthbearer" if im.auth == "oauthbearer" else "xoauth2",
            security=im.tls,
            folder=im.folder,
            processed_folder=im.processed_folder,
            ca_file=im.ca_file,
            verify=im.verify,
            timeout=im.timeout,
            use_idle=im.idle,
            poll_interval=im.poll_seconds,
            hot_poll_interval=im.hot_poll_seconds,
            hot_seconds=im.hot_seconds,
            max_size=config.max_mail_bytes,
            stand_in_key=config.security.secret_key,
        )
    ]
