"""SmtpSender against real aiosmtpd servers: plain, STARTTLS, implicit TLS, AUTH, refusals."""

from __future__ import annotations

import socket
import ssl
import subprocess
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from pbm.core.errors import SmtpError
from pbm.mail.ports import Sender
from pbm.mail.smtp import SmtpSender
from tests.services import SmtpSink, free_port

pytestmark = pytest.mark.services


def make_msg(subject: str = "Your team", to: str = "player1@example.test") -> EmailMessage:
    m = EmailMessage()
    m["From"] = "pbm@example.test"
    m["To"] = to
    m["Subject"] = subject
    m["Message-ID"] = "<reply-1@example.test>"
    m.set_content("Welcome to Cosmic Celebrity Cricket.\n")
    return m


class Recorder:
    """A sink handler that keeps envelopes and can refuse at RCPT or DATA."""

    def __init__(self, rcpt_reply: str | None = None, data_reply: str | None = None) -> None:
        self.envelopes: list[Any] = []
        self.rcpt_reply = rcpt_reply
        self.data_reply = data_reply

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if self.rcpt_reply is not None and not address.startswith("ok"):
            return self.rcpt_reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.data_reply is not None:
            return self.data_reply
        self.envelopes.append(envelope)
        return "250 OK"


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for CN=localhost."""
    d = tmp_path_factory.mktemp("tls")
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def _server_ctx(tls_files: tuple[Path, Path]) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(str(tls_files[0]), str(tls_files[1]))
    return ctx


def _auth(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"pbm", b"secret")
    return AuthResult(success=ok, handled=False)


Start = Callable[..., tuple[Recorder, int]]


@pytest.fixture
def start_server() -> Iterator[Start]:
    """Start aiosmtpd servers with a Recorder handler on free ports; stop them afterwards."""
    controllers: list[Controller] = []

    def start(handler: Recorder | None = None, **kw: Any) -> tuple[Recorder, int]:
        handler = handler or Recorder()
        port = free_port()
        ctl = Controller(handler, hostname="127.0.0.1", port=port, **kw)
        ctl.start()
        controllers.append(ctl)
        return handler, port

    yield start
    for ctl in controllers:
        ctl.stop()


def test_is_a_sender() -> None:
    """SmtpSender satisfies the Sender port."""
    s: Sender = SmtpSender("127.0.0.1")
    assert s.send is not None


def test_sends_to_the_sink(smtp_sink: SmtpSink) -> None:
    """A message reaches the sink with the right envelope; Bcc recipients get it unseen."""
    msg = make_msg()
    msg["Bcc"] = "gm@example.test"
    with SmtpSender("127.0.0.1", smtp_sink.port, security="plain") as sender:
        sender.send(msg)
        sender.send(make_msg("second"))  # same connection, kept open
    first, second = smtp_sink.wait_for(2)
    assert first.mail_from == "pbm@example.test"
    assert first.rcpt_tos == ["player1@example.test", "gm@example.test"]
    assert b"Bcc" not in first.original_content
    assert b"Subject: second" in second.original_content


def test_envelope_from_override(smtp_sink: SmtpSink) -> None:
    """envelope_from sets MAIL FROM without touching the From header."""
    with SmtpSender(
        "127.0.0.1", smtp_sink.port, security="plain", envelope_from="bounces@example.test"
    ) as sender:
        sender.send(make_msg())
    (env,) = smtp_sink.wait_for(1)
    assert env.mail_from == "bounces@example.test"
    assert b"From: pbm@example.test" in env.original_content


def test_reconnects_when_the_server_dropped_the_idle_connection(start_server: Start) -> None:
    """If the server closed the kept-open connection, the next send reconnects and delivers."""
    handler = Recorder()
    _, port = start_server(handler)
    sender = SmtpSender("127.0.0.1", port, security="plain")
    sender.send(make_msg("one"))
    assert sender._conn is not None
    sender._conn.sock.close()  # type: ignore[union-attr]  # the server hung up meanwhile
    sender.send(make_msg("two"))
    sender.close()
    assert [b"Subject: two" in e.original_content for e in handler.envelopes] == [False, True]


class ClosesOnce(Recorder):
    """Says 421 (closing) to the second MAIL FROM only, as a server ending a kept session."""

    def __init__(self) -> None:
        super().__init__()
        self.mails = 0

    async def handle_MAIL(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        self.mails += 1
        if self.mails == 2:
            return "421 4.3.2 Shutting down"
        envelope.mail_from = address
        return "250 OK"


def test_a_421_on_the_kept_connection_reconnects_once(start_server: Start) -> None:
    """A 421 at MAIL FROM on a kept-open connection (Exchange's and Dovecot's way to end a
    session) means nothing was accepted: the send reconnects once and delivers. On a fresh
    connection a 421 is the relay's trouble, raised for the outbox."""
    handler = ClosesOnce()
    _, port = start_server(handler)
    sender = SmtpSender("127.0.0.1", port, security="plain")
    sender.send(make_msg("one"))
    sender.send(make_msg("two"))
    sender.close()
    assert [b"Subject: two" in e.original_content for e in handler.envelopes] == [False, True]
    assert handler.mails == 3
    handler.mails = 1  # the next MAIL FROM is the second: 421, on a new connection
    with pytest.raises(SmtpError) as info:
        SmtpSender("127.0.0.1", port, security="plain").send(make_msg("three"))
    assert info.value.relay and "421" in str(info.value)


def test_recipient_refused_5xx_is_permanent(start_server: Start) -> None:
    """A 550 for the only recipient raises a permanent SmtpError."""
    _, port = start_server(Recorder(rcpt_reply="550 5.1.1 no such user"))
    with pytest.raises(SmtpError) as info:
        SmtpSender("127.0.0.1", port, security="plain").send(make_msg())
    assert info.value.transient is False
    assert "550" in str(info.value)


def test_recipient_refused_4xx_is_transient(start_server: Start) -> None:
    """A 450 greylisting refusal raises a transient SmtpError."""
    _, port = start_server(Recorder(rcpt_reply="450 4.2.0 greylisted, come back later"))
    with pytest.raises(SmtpError) as info:
        SmtpSender("127.0.0.1", port, security="plain").send(make_msg())
    assert info.value.transient is True


def test_partial_refusal_counts_as_sent(start_server: Start) -> None:
    """If one recipient is accepted, the message is sent (no retry that would duplicate it)."""
    handler, port = start_server(Recorder(rcpt_reply="550 5.1.1 no such user"))
    msg = make_msg(to="ok@example.test, bad@example.test")
    SmtpSender("127.0.0.1", port, security="plain").send(msg)
    assert [e.rcpt_tos for e in handler.envelopes] == [["ok@example.test"]]


@pytest.mark.parametrize(("reply", "transient"), [("554 5.7.1 spam", False), ("451 later", True)])
def test_data_refusal(start_server: Start, reply: str, transient: bool) -> None:
    """A refusal after DATA is permanent for 5xx and transient for 4xx."""
    _, port = start_server(Recorder(data_reply=reply))
    with pytest.raises(SmtpError) as info:
        SmtpSender("127.0.0.1", port, security="plain").send(make_msg())
    assert info.value.transient is transient


def test_dead_port_is_transient() -> None:
    """Nothing listening is a transient SmtpError (retry later)."""
    with pytest.raises(SmtpError) as info:
        SmtpSender("127.0.0.1", free_port(), security="plain", timeout=2).send(make_msg())
    assert info.value.transient is True


def test_starttls_and_auth(start_server: Start, tls_files: tuple[Path, Path]) -> None:
    """STARTTLS then AUTH with the right password delivers the message."""
    handler, port = start_server(
        tls_context=_server_ctx(tls_files),
        require_starttls=True,
        authenticator=_auth,
        auth_require_tls=True,
    )
    with SmtpSender(
        "localhost",
        port,
        security="starttls",
        username="pbm",
        password="secret",
        ca_file=str(tls_files[0]),
    ) as sender:
        sender.send(make_msg())
    assert len(handler.envelopes) == 1


def test_wrong_password_is_permanent(start_server: Start, tls_files: tuple[Path, Path]) -> None:
    """A refused AUTH (535) is a permanent SmtpError."""
    _, port = start_server(
        tls_context=_server_ctx(tls_files), authenticator=_auth, auth_require_tls=True
    )
    sender = SmtpSender(
        "127.0.0.1", port, security="starttls", username="pbm", password="nope", verify=False
    )
    with pytest.raises(SmtpError) as info:
        sender.send(make_msg())
    assert info.value.transient is False


def test_implicit_tls(start_server: Start, tls_files: tuple[Path, Path]) -> None:
    """Implicit TLS (SMTPS) delivers with an unverified self-signed certificate."""
    handler, port = start_server(ssl_context=_server_ctx(tls_files))
    SmtpSender("127.0.0.1", port, security="tls", verify=False).send(make_msg())
    assert len(handler.envelopes) == 1


@pytest.mark.parametrize(
    ("security", "verify", "transient"),
    [("tls", False, False), ("starttls", False, False)],
    ids=["TLS to a plain port", "STARTTLS not offered"],
)
def test_tls_mismatch_is_permanent(
    smtp_sink: SmtpSink, security: Any, verify: bool, transient: bool
) -> None:
    """Speaking TLS to a plain server, or STARTTLS to one without it, fails permanently."""
    sender = SmtpSender("127.0.0.1", smtp_sink.port, security=security, verify=verify, timeout=3)
    with pytest.raises(SmtpError) as info:
        sender.send(make_msg())
    assert info.value.transient is transient


def test_unverifiable_certificate_is_permanent(
    start_server: Start, tls_files: tuple[Path, Path]
) -> None:
    """A certificate that fails verification is a permanent SmtpError, not a retry."""
    _, port = start_server(ssl_context=_server_ctx(tls_files))
    with pytest.raises(SmtpError) as info:
        SmtpSender("127.0.0.1", port, security="tls").send(make_msg())
    assert info.value.transient is False


def test_message_without_recipients_is_permanent(smtp_sink: SmtpSink) -> None:
    """A message with no recipient at all cannot ever be sent: permanent."""
    msg = make_msg()
    del msg["To"]
    with pytest.raises(SmtpError) as info:
        SmtpSender("127.0.0.1", smtp_sink.port, security="plain").send(msg)
    assert info.value.transient is False


def test_silent_server_times_out_transiently() -> None:
    """A server that accepts the connection but never greets gives a transient SmtpError."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)  # connections complete in the backlog; nobody ever answers
        port = listener.getsockname()[1]
        sender = SmtpSender("127.0.0.1", port, security="plain", timeout=0.3)
        with pytest.raises(SmtpError) as info:
            sender.send(make_msg())
    assert info.value.transient is True
