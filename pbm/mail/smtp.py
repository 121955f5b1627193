"""The outbound door: ``SmtpSender`` implements :class:`pbm.mail.ports.Sender` over smtplib.

Errors are sorted the way the outbox needs them: a 4xx reply or a network failure is
``SmtpError(transient=True)`` (retry with backoff), a 5xx reply (a refused sender, every
recipient refused, a rejected message, failed AUTH) is permanent (record it, never retry).
No smtplib, socket or ssl exception leaves this module.

Independently of that, ``SmtpError.relay`` marks a failure of the relay rather than of the
message: anything that went wrong while connecting (refused, greeting 4xx/5xx, EHLO,
STARTTLS, AUTH), a timeout, a hang-up, or 421 (service closing). The outbox then keeps the
message pending, unspent, and waits for the relay (see :mod:`pbm.outbound.outbox`).
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from collections.abc import Callable
from email.message import EmailMessage

from pbm.core.errors import OAuth2Error, SmtpError
from pbm.mail._tls import SECURITY_MODES, BadCaFile, Security, make_ssl_context, tls_is_permanent
from pbm.mail.oauth2 import Mechanism, TokenSource, sasl_string
from pbm.mail.ports import Envelope
from pbm.mail.wire import crlf, header, outgoing

__all__ = ["SmtpSender", "translate_smtp_error"]

log = logging.getLogger(__name__)

_DEFAULT_PORTS = {"plain": 25, "starttls": 587, "tls": 465}


def translate_smtp_error(exc: BaseException) -> SmtpError | None:
    """The ``SmtpError`` for a foreign exception raised while sending, else None."""
    if isinstance(exc, SmtpError):
        return exc
    if isinstance(exc, OAuth2Error):  # no token, no login: the relay's door is shut
        return SmtpError(f"SMTP login: {exc}", transient=exc.transient, relay=True)
    if isinstance(exc, BadCaFile):
        return SmtpError(f"SMTP: {exc}", transient=False)
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _msg in exc.recipients.values()]
        detail = "; ".join(
            f"{rcpt}: {code} {_decode(msg)}" for rcpt, (code, msg) in exc.recipients.items()
        )
        # Only when every refusal is a 4xx is a retry worth anything.
        transient = bool(codes) and all(400 <= c < 500 for c in codes)
        return SmtpError(f"SMTP: all recipients refused: {detail}", transient=transient)
    if isinstance(exc, smtplib.SMTPResponseException):
        code = exc.smtp_code
        return SmtpError(
            f"SMTP: server replied {code} {_decode(exc.smtp_error)}",
            transient=400 <= code < 500 or code == -1,
            relay=code in (421, -1),
        )
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return SmtpError(f"SMTP: server lacks a needed extension: {exc}", transient=False)
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return SmtpError(f"SMTP: server disconnected: {exc}", transient=True, relay=True)
    if isinstance(exc, smtplib.SMTPException):
        return SmtpError(f"SMTP: {exc}", transient=False)
    if isinstance(exc, ssl.SSLError):
        return SmtpError(f"SMTP: TLS failed: {exc}", transient=not tls_is_permanent(exc))
    if isinstance(exc, TimeoutError):  # socket.timeout is an alias
        return SmtpError("SMTP: timed out", transient=True, relay=True)
    if isinstance(exc, OSError):
        return SmtpError(f"SMTP: network error: {exc}", transient=True, relay=True)
    if isinstance(exc, ValueError):  # includes UnicodeError: the message itself can't go out
        return SmtpError(f"SMTP: message cannot be sent: {exc}", transient=False)
    return None


def _send_data(conn: smtplib.SMTP, data: bytes, envelope: Envelope) -> dict[str, tuple[int, bytes]]:
    """``sendmail`` of ready bytes, as ``send_message`` calls it: with SMTPUTF8 (refused when
    the server lacks it) only when an envelope address is beyond ASCII."""
    options: tuple[str, ...] = ()
    if not "".join((envelope.mail_from, *envelope.rcpt_to)).isascii():
        conn.ehlo_or_helo_if_needed()
        if not conn.has_extn("smtputf8"):
            raise smtplib.SMTPNotSupportedError(
                "One or more source or delivery addresses require internationalized email"
                " support, but the server does not advertise the required SMTPUTF8 capability"
            )
        options = ("SMTPUTF8", "BODY=8BITMIME")
    refused: dict[str, tuple[int, bytes]] = conn.sendmail(
        envelope.mail_from, list(envelope.rcpt_to), data, options
    )
    return refused


def _decode(msg: bytes | str) -> str:
    return msg.decode("utf-8", "replace") if isinstance(msg, bytes) else msg


class SmtpSender:
    """Send mail through one SMTP server, keeping the connection open between messages.

    ``security``: ``"starttls"`` (port 587, the default), ``"tls"`` (implicit TLS, port 465)
    or ``"plain"`` (port 25; loopback only). AUTH happens when ``username`` is given.
    ``envelope_from`` overrides the MAIL FROM address (default: the message's Sender/From),
    e.g. to route bounces to a dedicated address. With ``oauth2`` (a
    :class:`~pbm.mail.oauth2.TokenSource`) AUTH is SASL ``mechanism`` (``xoauth2`` or
    ``oauthbearer``) for ``username`` with an access token. Not thread-safe: one sender per
    thread.
    """

    def __init__(
        self,
        host: str,
        port: int | None = None,
        *,
        security: Security = "starttls",
        username: str | None = None,
        password: str | None = None,
        oauth2: TokenSource | None = None,
        mechanism: Mechanism = "xoauth2",
        ca_file: str | None = None,
        verify: bool = True,
        timeout: float = 30.0,
        envelope_from: str | None = None,
        local_hostname: str | None = None,
    ) -> None:
        if security not in SECURITY_MODES:
            raise ValueError(f"security must be one of {SECURITY_MODES}, not {security!r}")
        self.host = host
        self.port = port if port is not None else _DEFAULT_PORTS[security]
        self.security: Security = security
        self.username = username
        self._password = password
        self._oauth2 = oauth2
        self.mechanism: Mechanism = mechanism
        self._ca_file = ca_file
        self._verify = verify
        self.timeout = timeout
        self.envelope_from = envelope_from
        self.local_hostname = local_hostname
        self._conn: smtplib.SMTP | None = None

    def __repr__(self) -> str:
        return f"SmtpSender({self.host!r}, {self.port}, security={self.security!r})"

    def __enter__(self) -> SmtpSender:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def send(self, message: EmailMessage, envelope: Envelope | None = None) -> None:
        """Deliver ``message`` to ``envelope``'s recipients from its reverse-path; without an
        envelope, to its To/Cc/Bcc recipients (Bcc is not transmitted) from ``envelope_from``.

        Raises ``SmtpError``: transient for 4xx and network failures, permanent for 5xx.
        If some recipients are refused but others accepted, the message counts as sent and
        the refusals are logged (retrying would duplicate it for the accepted ones).
        """
        refused = self._deliver(lambda conn: self._send_message(conn, message, envelope))
        if refused:
            log.warning(
                "smtp: %s: some recipients refused: %s",
                message.get("Message-ID", "?"),
                {r: (c, _decode(m)) for r, (c, m) in refused.items()},
            )
        log.info(
            "smtp: sent %s to %s via %s:%s",
            message.get("Message-ID", "?"),
            message.get("To", "?"),
            self.host,
            self.port,
        )

    def send_bytes(self, raw: bytes, envelope: Envelope) -> None:
        """Deliver the stored message ``raw`` as it goes out (:func:`pbm.mail.wire.outgoing`:
        no Bcc field; CRLF line ends) to ``envelope``'s recipients from its reverse-path:
        what :meth:`send` puts on the wire for the message those bytes read as, without
        reading them. Raises ``SmtpError`` as :meth:`send` does."""
        data = crlf(outgoing(raw))
        refused = self._deliver(lambda conn: _send_data(conn, data, envelope))
        if refused or log.isEnabledFor(logging.INFO):
            mid = header(data, "Message-ID") or "?"
            if refused:
                decoded = {r: (c, _decode(m)) for r, (c, m) in refused.items()}
                log.warning("smtp: %s: some recipients refused: %s", mid, decoded)
            log.info("smtp: sent %s to %s via %s:%s", mid, envelope.rcpt_to, self.host, self.port)

    def _deliver(
        self, send: Callable[[smtplib.SMTP], dict[str, tuple[int, bytes]]]
    ) -> dict[str, tuple[int, bytes]]:
        """``send`` on the open connection (once more on a new one if the server had closed
        an idle one), its foreign errors translated; the refused recipients."""
        reused = self._conn is not None
        try:
            try:
                return send(self._conn if self._conn is not None else self._connect())
            except (smtplib.SMTPServerDisconnected, smtplib.SMTPResponseException) as exc:
                closing = getattr(exc, "smtp_code", None) == 421
                if isinstance(exc, smtplib.SMTPResponseException) and not closing:
                    raise
                self._drop()
                if not reused:
                    raise
                # The server closed our idle connection (or said 421, closing: Exchange and
                # Dovecot do, as a session ends or its token expires): nothing was accepted.
                log.info("smtp: idle connection was closed by the server; reconnecting")
                return send(self._connect())
        except SmtpError:  # already ours (from _connect)
            self._drop()
            raise
        except Exception as exc:
            self._drop()
            err = translate_smtp_error(exc)
            if err is None:
                raise
            raise err from exc

    def connect(self) -> None:
        """Connect and log in now (otherwise the first send does); raises ``SmtpError``."""
        if self._conn is None:
            self._connect()

    def close(self) -> None:
        """QUIT and drop the connection; never raises."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.quit()
        except Exception:  # a dead connection has nothing left to say
            conn.close()

    def _send_message(
        self, conn: smtplib.SMTP, message: EmailMessage, envelope: Envelope | None
    ) -> dict[str, tuple[int, bytes]]:
        if envelope is None:
            refused: dict[str, tuple[int, bytes]] = conn.send_message(
                message, from_addr=self.envelope_from
            )
        else:
            refused = conn.send_message(
                message, from_addr=envelope.mail_from, to_addrs=list(envelope.rcpt_to)
            )
        return refused

    def _connect(self) -> smtplib.SMTP:
        try:
            return self._open()
        except Exception as exc:
            # Nothing of the message was said yet: whatever failed is the relay's.
            err = translate_smtp_error(exc)
            if err is None:
                raise
            err.relay = True
            raise err from exc

    def _open(self) -> smtplib.SMTP:
        ctx = (
            None
            if self.security == "plain"
            else make_ssl_context(ca_file=self._ca_file, verify=self._verify)
        )
        conn: smtplib.SMTP
        if self.security == "tls":
            conn = smtplib.SMTP_SSL(
                self.host,
                self.port,
                local_hostname=self.local_hostname,
                timeout=self.timeout,
                context=ctx,
            )
        else:
            conn = smtplib.SMTP(
                self.host, self.port, local_hostname=self.local_hostname, timeout=self.timeout
            )
        try:
            conn.ehlo_or_helo_if_needed()
            if self.security == "starttls":
                conn.starttls(context=ctx)
                conn.ehlo()
            if self._oauth2 is not None:
                self._oauth_login(conn)
            elif self.username is not None:
                conn.login(self.username, self._password or "")
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn

    def _oauth_login(self, conn: smtplib.SMTP) -> None:
        assert self._oauth2 is not None
        user = self.username or ""
        for attempt in (1, 2):
            token = self._oauth2.token()
            initial = sasl_string(self.mechanism, user, token)

            def respond(challenge: bytes | None = None, initial: str = initial) -> str:
                # A challenge after the initial response is the server's JSON error
                # (RFC 7628 §3.2.2): answer it empty, and it replies 535.
                return initial if challenge is None else ""

            try:
                conn.auth(self.mechanism.upper(), respond)
                return
            except smtplib.SMTPAuthenticationError:
                if attempt == 2:
                    raise
                log.info("smtp: the server refused the access token; refreshing it")
                self._oauth2.invalidate(token)

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
