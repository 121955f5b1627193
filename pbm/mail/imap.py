"""The IMAP door: ``ImapMailbox`` implements :class:`pbm.mail.ports.Mailbox` over imapclient.

Every message in the watched folder is unprocessed; ``mark_processed`` moves a message out to
the processed folder, which the daemon calls only after the message's effects are committed.
A crash in between leaves the message in place, and the daemon's store (keyed by Message-ID)
turns the redelivery into a no-op.

UIDs are only meaningful together with the folder's UIDVALIDITY, so the ids handed out are
``"<uidvalidity>:<uid>"``. When UIDVALIDITY changes (the folder was recreated or the server
rebuilt its index) every message is fetched again, and ``mark_processed`` ignores stale ids:
the refetched copy gets a fresh id, and marking that one moves the message.

imapclient and imaplib raise a zoo of exceptions (``imaplib.IMAP4.error`` and ``.abort``,
imapclient's subclasses, ``socket.timeout``, ``ssl.SSLError``, ``OSError``). All of them are
translated to :class:`pbm.core.errors.ImapError` here, so nothing foreign reaches the daemon.

While mail flows, ``wait`` polls with NOOP instead of IDLE: Dovecot holds a mailbox's change
notifications back for half a second before IDLE reports them, while a NOOP makes it look at
once. After ``hot_seconds`` without new mail the door is back on IDLE, which costs the server
nothing (docs/ops/mail-doors.md).

One ``ImapMailbox`` belongs to one thread; only :meth:`ImapMailbox.interrupt` may be called
from another thread (or a signal handler) to cut a :meth:`ImapMailbox.wait` short.
"""

from __future__ import annotations

import imaplib
import logging
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import LoginError

from pbm.core.errors import ImapError, OAuth2Error
from pbm.mail._tls import SECURITY_MODES, BadCaFile, Security, make_ssl_context, tls_is_permanent
from pbm.mail.limits import HEAD_BYTES, MAX_MAIL_BYTES, Oversize, stand_in
from pbm.mail.oauth2 import Mechanism, TokenSource
from pbm.mail.ports import FetchedMessage

__all__ = ["ImapMailbox", "WaitCounts", "translate_imap_error"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: RFC 2177 asks clients to re-issue IDLE at least every 29 minutes.
IDLE_MAX_SECONDS = 25 * 60
#: How long one ``idle_check`` blocks; bounds how quickly ``interrupt()`` is noticed.
_IDLE_SLICE = 0.5
#: How long a wait that lost its connection pauses before it returns (so that the next fetch
#: reports the trouble and the daemon's own backoff takes over, instead of the trouble going
#: unseen for the whole wait; the pause keeps a server that fails only here from a spin).
_TROUBLE_PAUSE = 1.0
#: Bytes of whole messages one ``fetch_new`` hands out (at least one message): a batch of
#: mail just under the cap is held in memory at once, the spool import's bound.
BATCH_BYTES = 16 * 1024 * 1024
_DEFAULT_PORTS = {"plain": 143, "starttls": 143, "tls": 993}
# NO responses with these codes (RFC 5530) say "try again later", not "you are wrong".
_TRANSIENT_CODES = ("[UNAVAILABLE]", "[INUSE]", "[LIMIT]", "[SERVERBUG]", "[EXPUNGEISSUED]")


def translate_imap_error(exc: BaseException, doing: str) -> ImapError | None:
    """The ``ImapError`` for a foreign exception raised while ``doing`` something, else None."""
    if isinstance(exc, ImapError):
        return exc
    if isinstance(exc, OAuth2Error):
        return ImapError(f"IMAP {doing}: {exc}", transient=exc.transient)
    if isinstance(exc, BadCaFile):
        return ImapError(f"IMAP {doing}: {exc}", transient=False)
    if isinstance(exc, LoginError):
        return ImapError(f"IMAP {doing}: login refused: {_text(exc)}", transient=False)
    if isinstance(exc, imaplib.IMAP4.readonly):  # a subclass of abort, but not a lost link
        return ImapError(f"IMAP {doing}: folder is read-only: {_text(exc)}", transient=False)
    if isinstance(exc, imaplib.IMAP4.abort):
        return ImapError(f"IMAP {doing}: connection lost: {_text(exc)}", transient=True)
    if isinstance(exc, imaplib.IMAP4.error):
        text = _text(exc)
        transient = any(code in text for code in _TRANSIENT_CODES)
        return ImapError(f"IMAP {doing}: server said: {text}", transient=transient)
    if isinstance(exc, ssl.SSLError):
        return ImapError(f"IMAP {doing}: TLS failed: {exc}", transient=not tls_is_permanent(exc))
    if isinstance(exc, TimeoutError):  # socket.timeout is an alias
        return ImapError(f"IMAP {doing}: timed out", transient=True)
    if isinstance(exc, OSError):
        return ImapError(f"IMAP {doing}: network error: {exc}", transient=True)
    if isinstance(exc, EOFError):
        return ImapError(f"IMAP {doing}: connection closed", transient=True)
    return None


def _text(exc: BaseException) -> str:
    arg = exc.args[0] if exc.args else exc
    return arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)


@dataclass
class WaitCounts:
    """What the door's waits have asked of the server since it was made (its cost there)."""

    idles: int = 0  # IDLE commands issued
    hot_polls: int = 0  # NOOPs issued to look for mail while mail was flowing


class _ConnectionLost(Exception):
    """IDLE noticed the server hung up (imapclient swallows the EOF there)."""


class ImapMailbox:
    """Watch one IMAP folder; hand out its messages; move them away once processed.

    ``security`` is ``"tls"`` (IMAPS, port 993), ``"starttls"`` or ``"plain"`` (port 143).
    ``ca_file`` adds a trust anchor; ``verify=False`` accepts any certificate (self-signed
    test servers only). ``use_idle``/``use_move`` can turn off IDLE (sleep-poll every
    ``poll_interval`` seconds instead) and MOVE (COPY + \\Deleted + EXPUNGE instead) for servers
    whose implementation misbehaves. ``fetch_new`` returns at most ``batch_size`` messages.
    ``defer_moves=False`` makes ``mark_processed`` move at once instead of batching.
    For ``hot_seconds`` after a fetch that found mail, ``wait`` issues a NOOP every
    ``hot_poll_interval`` seconds instead of IDLE (or instead of the ``poll_interval`` sleep);
    either at 0 turns that off. ``wait_counts`` tells how often it idled and polled.
    A message over ``max_size`` bytes (``RFC822.SIZE``) is not fetched: its header block is,
    and ``fetch_new`` hands out a stand-in (:func:`pbm.mail.limits.stand_in`) that the daemon
    stores, refuses and marks processed like any message; it is signed under
    ``stand_in_key`` (``[security] secret_key``: pbm honours no stand-in another key signed,
    so a sender cannot forge one). One fetch hands out whole messages
    of at most ``batch_bytes`` together (at least one); the rest come at the next.
    With ``oauth2`` (a :class:`~pbm.mail.oauth2.TokenSource`) it logs in by SASL ``mechanism``
    (``xoauth2`` or ``oauthbearer``) with an access token instead of the password.
    """

    def __init__(
        self,
        host: str,
        port: int | None = None,
        *,
        username: str,
        password: str = "",
        oauth2: TokenSource | None = None,
        mechanism: Mechanism = "xoauth2",
        security: Security = "tls",
        folder: str = "INBOX",
        processed_folder: str = "Processed",
        ca_file: str | None = None,
        verify: bool = True,
        timeout: float = 30.0,
        use_idle: bool = True,
        use_move: bool = True,
        defer_moves: bool = True,
        poll_interval: float = 30.0,
        batch_size: int = 500,
        hot_poll_interval: float = 0.05,
        hot_seconds: float = 10.0,
        max_size: int = MAX_MAIL_BYTES,
        batch_bytes: int = BATCH_BYTES,
        stand_in_key: str = "",
    ) -> None:
        if security not in SECURITY_MODES:
            raise ValueError(f"security must be one of {SECURITY_MODES}, not {security!r}")
        self.host = host
        self.port = port if port is not None else _DEFAULT_PORTS[security]
        self.username = username
        self._password = password
        self._oauth2 = oauth2
        self.mechanism: Mechanism = mechanism
        self.security: Security = security
        self.folder = folder
        self.processed_folder = processed_folder
        self._ca_file = ca_file
        self._verify = verify
        self.timeout = timeout
        self.use_idle = use_idle
        self.use_move = use_move
        self.defer_moves = defer_moves
        self.poll_interval = poll_interval
        self.batch_size = batch_size
        self.hot_poll_interval = hot_poll_interval
        self.hot_seconds = hot_seconds
        self.max_size = max_size
        self.batch_bytes = batch_bytes
        self._stand_in_key = stand_in_key
        self.wait_counts = WaitCounts()
        self._hot_until = 0.0  # monotonic: wait polls instead of idling until then
        self._connects = 0  # connections made, so a poll notices one made under it
        self._client: Any = None  # IMAPClient is untyped; kept behind this class
        self._caps: frozenset[bytes] = frozenset()
        self._uidvalidity: int | None = None
        self._handed_out_max = 0  # highest UID fetch_new returned under _uidvalidity
        self._interrupt = threading.Event()
        self._pending: list[tuple[int, int]] = []  # (uidvalidity, uid) queued by mark_processed

    def __repr__(self) -> str:
        return (
            f"ImapMailbox({self.host!r}, {self.port}, username={self.username!r}, "
            f"security={self.security!r}, folder={self.folder!r})"
        )

    def __enter__(self) -> ImapMailbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- public API -------------------------------------------------------------------------

    @property
    def uidvalidity(self) -> int | None:
        """The folder's UIDVALIDITY as last seen (None before the first connection)."""
        return self._uidvalidity

    @property
    def connected(self) -> bool:
        """Whether a logged-in connection is currently open."""
        return self._client is not None

    @property
    def capabilities(self) -> frozenset[bytes]:
        """The server's capabilities after login (empty before the first connection)."""
        return self._caps

    def connect(self) -> None:
        """Connect, log in and select the folder now (otherwise the first call does it)."""
        self._run("connect", lambda c: None)

    def fetch_new(self) -> list[FetchedMessage]:
        """Every message still in the folder, oldest (lowest UID) first, up to ``batch_size``
        (and ``batch_bytes``).

        Fetched with ``BODY.PEEK[]`` so the \\Seen flag stays as the player's client left it.
        Their sizes are asked first: a message over ``max_size`` is never fetched whole, only
        its header block (``BODY.PEEK[HEADER]``, at most :data:`~pbm.mail.limits.HEAD_BYTES`),
        and comes as a stand-in, so one sender's video costs no more memory than its headers.
        A message whose size the server does not give is read up to the cap and one byte.
        """

        self._flush_quietly()

        def op(c: Any) -> list[FetchedMessage]:
            c.noop()  # Dovecot's SEARCH sees only what the session has synced; NOOP syncs
            uids = sorted(int(u) for u in c.search(["NOT", "DELETED"]))[: self.batch_size]
            if not uids:
                return []
            if self.hot_poll_interval > 0:
                self._hot_until = time.monotonic() + self.hot_seconds
            sizes = {
                u: int(item[b"RFC822.SIZE"]) if b"RFC822.SIZE" in item else None
                for u, item in c.fetch(uids, [b"RFC822.SIZE"]).items()
            }
            uids, small, big = self._portion(uids, sizes)
            known = [u for u in small if sizes[u] is not None]
            data = c.fetch(known, [b"BODY.PEEK[]"]) if known else {}
            if len(known) < len(small):
                data.update(self._unsized(c, [u for u in small if sizes[u] is None], big))
            if big:
                data.update(self._stand_ins(c, big, sizes))
            out = []
            for uid in uids:
                item = data.get(uid)
                if item is None or b"BODY[]" not in item:
                    continue  # expunged between SEARCH and FETCH by someone else
                out.append(FetchedMessage(uid=f"{self._uidvalidity}:{uid}", raw=item[b"BODY[]"]))
            if out:
                self._handed_out_max = max(self._handed_out_max, uids[-1])
            return out

        return self._run("fetch", op)

    def _portion(
        self, uids: list[int], sizes: dict[int, int | None]
    ) -> tuple[list[int], list[int], list[int]]:
        """Of ``uids`` (with their sizes, None where the server gave none): those handed out
        now, those of them fetched (whole, or up to the cap for an unknown size: at most
        ``batch_bytes`` together, at least one; the rest wait for the next fetch, which
        ``wait`` sees at once as new mail), and those over ``max_size``."""
        small: list[int] = []
        big: list[int] = []
        held = 0
        for n, u in enumerate(uids):
            if u not in sizes:
                continue  # expunged meanwhile
            size = sizes[u]
            if size is not None and size > self.max_size:
                big.append(u)
                continue
            held += self.max_size + 1 if size is None else size
            if small and held > self.batch_bytes:
                return uids[:n], small, big
            small.append(u)
        return uids, small, big

    def _unsized(self, c: Any, uids: list[int], big: list[int]) -> dict[int, dict[bytes, bytes]]:
        """The messages whose size the server did not give, by UID, read up to one byte past
        the cap (``BODY.PEEK[]<0.cap+1>``), never further: those that fit are whole; those
        that do not are added to ``big``, for a stand-in, and read no further."""
        part = b"BODY.PEEK[]<0.%d>" % (self.max_size + 1)
        out = {}
        for uid, item in c.fetch(uids, [part]).items():
            # "BODY[]<0>" (RFC 3501); a server that names it otherwise still answered it
            body = next((v for k, v in item.items() if k.startswith(b"BODY[]")), None)
            if body is None:
                continue  # expunged meanwhile
            if len(body) > self.max_size:
                big.append(uid)
            else:
                out[uid] = {b"BODY[]": body}
        return out

    def _stand_ins(
        self, c: Any, uids: list[int], sizes: dict[int, int | None]
    ) -> dict[int, dict[bytes, bytes]]:
        """The stand-ins of messages over the cap, by UID, from their header blocks alone
        (each message stays on the server, and moves to the processed folder when marked)."""
        part = b"BODY.PEEK[HEADER]<0.%d>" % HEAD_BYTES
        heads = c.fetch(uids, [part])
        out = {}
        kept = f"on the IMAP server, in the folder {self.processed_folder}"
        for uid in uids:
            if uid not in heads:
                continue  # expunged meanwhile
            # "BODY[HEADER]<0>" (RFC 3501); a server that names it otherwise still has it
            # moved on, as a stand-in with no headers (never answered), not fetched forever
            found = (v for k, v in heads[uid].items() if k.startswith(b"BODY[HEADER]"))
            head = next(found, None) or b""
            # a size the server did not give: the cap and one byte, all that was read of it
            size = sizes.get(uid) or self.max_size + 1
            log.warning(
                "imap: message %s is %d bytes, over the limit of %d: only its headers were read",
                uid,
                size,
                self.max_size,
            )
            over = Oversize(size, self.max_size, kept)
            raw = stand_in(head, over, self._stand_in_key)
            out[uid] = {b"BODY[]": raw}
        return out

    def mark_processed(self, uid: str) -> None:
        """Move the message to the processed folder (creating the folder if missing).

        With ``defer_moves`` (the default) the move is queued and carried out, together with
        the others queued, by the next ``fetch_new``, ``wait``, ``flush`` or ``close``: one
        MOVE per pass instead of one per message (each MOVE is a round trip the server answers
        only after it has written the folder). Either way the
        message leaves the folder only after this call, i.e. after the daemon's commit; a
        crash before the move only means the message is fetched again, a no-op for the store.

        A stale id (from before a UIDVALIDITY change) is ignored with a warning: the message
        is refetched under its new id. Moving a message that is already gone is a no-op.
        """
        validity, n = _parse_uid(uid)
        if not self.defer_moves:
            self._run("mark processed", lambda c: self._move(c, validity, [n]))
            return
        self._pending.append((validity, n))
        if len(self._pending) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        """Carry out the queued moves now; raises ``ImapError`` (they stay queued if transient)."""
        if not self._pending:
            return
        pending = list(self._pending)

        def op(c: Any) -> None:
            for validity in sorted({v for v, _ in pending}):
                self._move(c, validity, sorted({n for v, n in pending if v == validity}))

        try:
            self._run("mark processed", op)
        except ImapError as exc:
            if not exc.transient:
                del self._pending[: len(pending)]  # they will be refetched and marked again
            raise
        del self._pending[: len(pending)]

    def _flush_quietly(self) -> None:
        try:
            self.flush()
        except ImapError as exc:
            log.warning("imap: moving processed messages failed (%s); they will come again", exc)

    def _move(self, c: Any, validity: int, uids: list[int]) -> None:
        if validity != self._uidvalidity:
            log.warning(
                "imap: not moving %d message(s) of UIDVALIDITY %s: it is now %s; "
                "they will be refetched",
                len(uids),
                validity,
                self._uidvalidity,
            )
            return
        if self.use_move and b"MOVE" in self._caps:
            c.move(uids, self.processed_folder)
            return
        c.copy(uids, self.processed_folder)
        c.add_flags(uids, [b"\\Deleted"], silent=True)
        if b"UIDPLUS" in self._caps:
            c.uid_expunge(uids)
        else:
            c.expunge()

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` s until new mail may have arrived; True if it may have.

        Within ``hot_seconds`` of the last fetch that found mail it NOOPs every
        ``hot_poll_interval`` s (True at the first EXISTS); after that, or when it was quiet,
        it uses IDLE where the server offers it (woken by an EXISTS; Dovecot's "Still here"
        keepalives are ignored), else sleeps and polls every ``poll_interval`` s. Mail that
        arrived since the last ``fetch_new`` returns True at once. ``interrupt()`` ends the
        wait early with False. Connection trouble is not raised here: the wait pauses a
        second and returns True, so the next ``fetch_new`` reconnects, or reports the error
        if it persists and the caller backs off (a wait that slept out its time, in poll
        mode, left an outage unseen for that long).
        """
        deadline = time.monotonic() + min(timeout, IDLE_MAX_SECONDS)
        try:
            if self._interrupt.is_set():
                return False
            self._flush_quietly()
            try:
                if self._run("check for new mail", self._has_unseen_uids):
                    return True
                if time.monotonic() < self._hot_until:
                    if self._hot_poll_until(min(deadline, self._hot_until)):
                        return True
                    if self._interrupt.is_set() or time.monotonic() >= deadline:
                        return False
                if self.use_idle and b"IDLE" in self._caps:
                    return self._idle_until(deadline)
                return self._poll_until(deadline, self.poll_interval, self._has_unseen_uids)
            except ImapError as exc:
                log.warning("imap: wait: %s", exc)
                self._interrupt.wait(min(_TROUBLE_PAUSE, max(0.0, deadline - time.monotonic())))
                return not self._interrupt.is_set()
        finally:
            self._interrupt.clear()

    def interrupt(self) -> None:
        """Make a running (or the next) ``wait`` return False promptly; thread-safe."""
        self._interrupt.set()

    def close(self) -> None:
        """Carry out queued moves, log out and drop the connection; never raises."""
        self._flush_quietly()
        client, self._client = self._client, None
        if client is None:
            return
        try:
            client.logout()
        except Exception:  # logging out of a dead connection: nothing to save
            _shutdown(client)

    # -- connection handling ----------------------------------------------------------------

    def _run(self, doing: str, op: Callable[[Any], T]) -> T:
        """Run ``op`` on a live connection; reconnect once if a reused connection dropped."""
        for attempt in (1, 2):
            fresh = self._client is None
            try:
                client = self._client if self._client is not None else self._connect()
                return op(client)
            except Exception as exc:
                err = translate_imap_error(exc, doing)
                if err is None:
                    raise
                self._drop()
                if err.transient and not fresh and attempt == 1:
                    log.info("imap: %s; reconnecting", err)
                    continue
                raise err from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def _connect(self) -> Any:
        ctx = (
            None
            if self.security == "plain"
            else make_ssl_context(ca_file=self._ca_file, verify=self._verify)
        )
        client = IMAPClient(
            self.host,
            port=self.port,
            ssl=self.security == "tls",
            ssl_context=ctx,
            timeout=self.timeout,
        )
        try:
            if self.security == "starttls":
                client.starttls(ctx)
            self._login(client)
            self._caps = frozenset(client.capabilities())
            if not client.folder_exists(self.processed_folder):
                try:
                    client.create_folder(self.processed_folder)
                except imaplib.IMAP4.error:
                    # another client may have created it meanwhile; only that is fine
                    if not client.folder_exists(self.processed_folder):
                        raise
            info = client.select_folder(self.folder)
        except BaseException:
            _shutdown(client)
            raise
        validity = int(info[b"UIDVALIDITY"])
        if self._uidvalidity is not None and validity != self._uidvalidity:
            log.warning(
                "imap: UIDVALIDITY of %s changed from %s to %s; refetching everything",
                self.folder,
                self._uidvalidity,
                validity,
            )
            self._handed_out_max = 0
        self._uidvalidity = validity
        self._client = client
        self._connects += 1
        log.info(
            "imap: connected to %s:%s (%s) as %s, folder %s, UIDVALIDITY %s, IDLE %s, MOVE %s",
            self.host,
            self.port,
            self.security,
            self.username,
            self.folder,
            validity,
            b"IDLE" in self._caps,
            b"MOVE" in self._caps,
        )
        return client

    def _login(self, client: Any) -> None:
        if self._oauth2 is None:
            client.login(self.username, self._password)
            return
        for attempt in (1, 2):
            token = self._oauth2.token()
            try:
                if self.mechanism == "oauthbearer":
                    client.oauthbearer_login(self.username, token)
                else:
                    client.oauth2_login(self.username, token)
                return
            except LoginError:
                if attempt == 2:
                    raise
                # Refused before its expiry (revoked, or the clocks disagree): a fresh token
                # once, on the same connection (a failed AUTHENTICATE leaves it unauthenticated).
                log.info("imap: the server refused the access token; refreshing it")
                self._oauth2.invalidate(token)

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _shutdown(client)

    # -- waiting ----------------------------------------------------------------------------

    def _has_unseen_uids(self, c: Any) -> bool:
        """Whether the folder holds a message newer than anything fetch_new handed out."""
        start = self._handed_out_max + 1
        c.noop()  # sync the session's view first, as in fetch_new
        # "n:*" always matches the highest UID, even below n, hence the filter.
        found = c.search(["UID", f"{start}:*", "NOT", "DELETED"])
        return any(int(u) >= start for u in found)

    def _poll_until(self, until: float, interval: float, check: Callable[[Any], bool]) -> bool:
        """Every ``interval`` s until ``until``, True once ``check`` finds mail (False if
        interrupted or out of time)."""
        while True:
            remaining = until - time.monotonic()
            if remaining <= 0:
                return False
            if self._interrupt.wait(min(interval, remaining)):
                return False
            if self._run("poll", check):
                return True

    def _hot_poll_until(self, until: float) -> bool:
        """NOOP every ``hot_poll_interval`` s until ``until``; True once one reports an EXISTS.

        A NOOP has Dovecot sync the session at once, so it reports a new message within a
        poll interval; IDLE would wait for the mailbox watch's delay. A reconnect meanwhile
        also returns True: the new session's NOOPs report nothing that came before it.
        """
        connects = self._connects

        def saw_mail(c: Any) -> bool:
            self.wait_counts.hot_polls += 1
            _text, responses = c.noop()
            return _has_exists(responses) or self._connects != connects

        return self._poll_until(until, self.hot_poll_interval, saw_mail)

    def _idle_until(self, deadline: float) -> bool:
        c = self._client
        woke = False
        try:
            self.wait_counts.idles += 1
            c.idle()
            try:
                while not woke and not self._interrupt.is_set():
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    step = min(_IDLE_SLICE, remaining)
                    started = time.monotonic()
                    responses = c.idle_check(timeout=step)
                    woke = _has_exists(responses)
                    if not responses and time.monotonic() - started < step / 2:
                        raise _ConnectionLost  # poll said readable, but there was only EOF
            finally:
                _done_text, responses = c.idle_done()
                woke = woke or _has_exists(responses)
        except Exception as exc:
            err = translate_imap_error(exc, "idle")
            if err is None and not isinstance(exc, _ConnectionLost):
                raise
            log.info("imap: connection lost while idling (%s); will reconnect", err or "EOF")
            self._drop()
            return True
        return woke and not self._interrupt.is_set()


def _has_exists(responses: list[Any]) -> bool:
    return any(len(r) >= 2 and r[1] == b"EXISTS" for r in responses)


def _parse_uid(uid: str) -> tuple[int, int]:
    try:
        validity, n = uid.split(":")
        return int(validity), int(n)
    except ValueError:
        raise ImapError(f"not an IMAP message id: {uid!r}", transient=False) from None


def _shutdown(client: Any) -> None:
    try:
        client.shutdown()
    except Exception:  # closing a socket that is already broken
        log.debug("imap: shutdown of a broken connection failed", exc_info=True)
