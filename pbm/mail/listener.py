"""The built-in SMTP door: ``SmtpListener`` accepts mail on a port with aiosmtpd.

It answers 250 only after the ``store`` callback has returned, i.e. after the daemon has
stored the raw message durably; if storing fails the client gets 451 and retries later, so
no mail is acknowledged and then lost. Recipients are checked at RCPT time against the
configured addresses and domains (550 otherwise), and the size limit is enforced by aiosmtpd
(SIZE in EHLO, 552 at MAIL FROM or DATA).

aiosmtpd runs its own event loop in a thread; ``store`` is synchronous (SQLAlchemy) and runs
in that loop's thread pool, so a slow commit does not stall other sessions. The daemon's
``store`` does not wait for a long pass either: on SQLite it waits for the write lock a short
while, then writes the mail to the spool (:mod:`pbm.inbound.spool`), durably, and returns.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

from aiosmtpd.controller import Controller

from pbm.core.errors import MailError
from pbm.mail.limits import MAX_MAIL_BYTES, NULL_SENDER

__all__ = ["AcceptPolicy", "SmtpListener", "StoreCallback", "accepts"]

log = logging.getLogger(__name__)

#: ``store(raw, mail_from, rcpt_tos)``: persist the message durably, or raise.
StoreCallback = Callable[[bytes, str, list[str]], None]
#: Addresses (``pbm@example.org``, plus-addresses included) and domains (``example.org`` or
#: ``@example.org``) to accept, or a predicate over the recipient address.
AcceptPolicy = Iterable[str] | Callable[[str], bool]

#: The cap every door shares (the config's ``[smtp_listener] max_size`` gives the one in use).
DEFAULT_MAX_SIZE = MAX_MAIL_BYTES


def accepts(policy: AcceptPolicy, address: str) -> bool:
    """Whether ``address`` is ours under ``policy``; ``pbm+CODE@host`` matches ``pbm@host``."""
    if callable(policy):
        return policy(address)
    local, at, domain = address.strip().strip("<>").rpartition("@")
    if not at or not local:
        return False
    local, domain = local.lower(), domain.lower()
    base = local.split("+", 1)[0]
    for entry in policy:
        e = entry.strip().lower()
        if "@" in e and not e.startswith("@"):
            e_local, _, e_domain = e.rpartition("@")
            if e_domain == domain and base == e_local.split("+", 1)[0]:
                return True
        elif e.lstrip("@") == domain:
            return True
    return False


class _Handler:
    def __init__(self, store: StoreCallback, accept: AcceptPolicy) -> None:
        self.store = store
        self.accept = accept if callable(accept) else tuple(accept)

    async def handle_EHLO(
        self, server: Any, session: Any, envelope: Any, hostname: str, responses: list[str]
    ) -> list[str]:
        session.host_name = hostname  # with this hook aiosmtpd leaves that to us
        log.info("listener: session from %s (EHLO %s)", _peer(session), hostname)
        return responses

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        if not accepts(self.accept, address):
            log.info("listener: %s: refused recipient %s", _peer(session), address)
            return f"550 5.1.1 <{address}>: no such recipient here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw: bytes = envelope.original_content
        # The null reverse-path (a bounce) is recorded as "<>", so it is never answered.
        mail_from: str = envelope.mail_from or NULL_SENDER
        rcpts = list(envelope.rcpt_tos)
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, self.store, raw, mail_from, rcpts)
        except Exception:
            log.exception(
                "listener: %s: storing mail from <%s> to %s failed; answered 451",
                _peer(session),
                mail_from,
                rcpts,
            )
            return "451 4.3.0 Could not store the message; please try again later"
        log.info(
            "listener: %s: stored %d bytes from <%s> to %s in %.3f s",
            _peer(session),
            len(raw),
            mail_from,
            rcpts,
            time.monotonic() - started,
        )
        return "250 2.0.0 OK: stored"


def _peer(session: Any) -> str:
    peer = getattr(session, "peer", None)
    return f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else str(peer)


class SmtpListener:
    """An SMTP server for pbm's own addresses, started and stopped from the daemon.

    ``SmtpListener(host, port, store, accept=[...], max_size=...)``; ``start()`` binds (port 0
    picks a free port, readable from ``.port`` afterwards) and ``stop()`` closes it. Also a
    context manager.
    """

    def __init__(
        self,
        host: str,
        port: int,
        store: StoreCallback,
        *,
        accept: AcceptPolicy,
        max_size: int = DEFAULT_MAX_SIZE,
        server_hostname: str | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.max_size = max_size
        self.server_hostname = server_hostname or socket.gethostname()
        self._handler = _Handler(store, accept)
        self._controller: Controller | None = None

    def __repr__(self) -> str:
        return f"SmtpListener({self.host!r}, {self.port}, max_size={self.max_size})"

    def __enter__(self) -> SmtpListener:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        """Whether the listener is accepting connections."""
        return self._controller is not None

    def start(self) -> None:
        """Bind and start serving in a background thread; raises ``MailError`` if it can't."""
        if self._controller is not None:
            return
        if self.port == 0:
            self.port = _free_port(self.host)
        else:
            # aiosmtpd reports a failed bind only after its 5 s ready timeout; fail fast instead
            try:
                _probe_bind(self.host, self.port)
            except OSError as exc:
                raise MailError(
                    f"SMTP listener cannot listen on {self.host}:{self.port}: {exc}",
                    transient=False,
                ) from exc
        controller = Controller(
            self._handler,
            hostname=self.host,
            port=self.port,
            server_hostname=self.server_hostname,
            data_size_limit=self.max_size,
            ident="pbm",
        )
        try:
            controller.start()
        except Exception as exc:  # bind errors arrive as whatever the loop thread raised
            raise MailError(
                f"SMTP listener cannot listen on {self.host}:{self.port}: {exc}", transient=False
            ) from exc
        self._controller = controller
        log.info("listener: SMTP on %s:%s (max %d bytes)", self.host, self.port, self.max_size)

    def stop(self) -> None:
        """Stop accepting and close open sessions; a session not yet answered 250 is retried
        by its client, and the store's idempotency makes that harmless."""
        controller, self._controller = self._controller, None
        if controller is not None:
            controller.stop()
            log.info("listener: stopped on %s:%s", self.host, self.port)


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def _probe_bind(host: str, port: int) -> None:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio's server does
        s.bind((host, port))
