"""The hostile-mail suite's harness: pbm's real doors and real outbound path, in-process.

Mail comes in through the real SMTP listener (``SmtpListener`` on a free port, fed with
smtplib) or the real ``pbm ingest`` command (click's runner, stdin); replies go out through the
real ``SmtpSender`` to an aiosmtpd sink that keeps each envelope and the bytes on the wire.
The daemon's pass (``run_once``) is run by the test, on SQLite, with a fixed clock.
"""

from __future__ import annotations

import itertools
import smtplib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select

from pbm.app import App, make_sender
from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.db.models import InboundMail
from pbm.db.session import transaction
from pbm.mail.listener import SmtpListener
from pbm.testing import body_of, run_pass
from tests.pbm.conftest import GM, GM_SECRET, SECRET_KEY, config_data
from tests.services import free_port

_ids = itertools.count(1)


@dataclass
class Wire:
    """What the sink received: one SMTP transaction."""

    mail_from: str
    rcpt_tos: list[str]
    data: bytes

    @property
    def msg(self) -> EmailMessage:
        """The bytes read back by a standard parser."""
        m = message_from_bytes(self.data, policy=policy.default)
        assert isinstance(m, EmailMessage)
        return m

    @property
    def text(self) -> str:
        """The plain-text body, its lines as written (:func:`pbm.testing.body_of`)."""
        return body_of(self.msg)


class _Sink:
    def __init__(self) -> None:
        self.wire: list[Wire] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.wire.append(Wire(envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 OK"


@dataclass
class Doors:
    """A running pbm: its listener, its config file, the sink, and helpers to talk to it."""

    app: App
    daemon: Daemon
    listener: SmtpListener
    config_file: Path
    sink: _Sink
    seen: int = 0
    log: list[str] = field(default_factory=list)

    def smtp(
        self, raw: bytes, mail_from: str = "player1@example.test", rcpt: str = "pbm@example.test"
    ) -> tuple[int, bytes]:
        """Deliver by SMTP to pbm's listener; returns the reply to DATA."""
        with smtplib.SMTP("127.0.0.1", self.listener.port, timeout=30) as s:
            s.ehlo()
            code, _ = s.mail(mail_from)
            assert code == 250
            code, _ = s.rcpt(rcpt)
            assert code == 250, code
            return s.data(raw)

    def ingest(self, raw: bytes, *args: str, status: int = 0) -> Result:
        """Deliver through ``pbm ingest`` (stdin), as an MTA pipe would; it exits ``status``."""
        result = CliRunner().invoke(
            main, ["ingest", "--config", str(self.config_file), *args], input=raw
        )
        assert result.exit_code == status, result.output
        return result

    def cli(self, *args: str) -> Result:
        """Run a ``pbm`` command against this pbm's config."""
        return CliRunner().invoke(main, [*args, "--config", str(self.config_file)])

    def run(self) -> list[Wire]:
        """One daemon pass (and more while mail is due); returns what reached the sink."""
        run_pass(self.daemon)
        new = self.sink.wire[self.seen :]
        self.seen = len(self.sink.wire)
        return new

    def inbound(self) -> list[InboundMail]:
        """Every stored inbound mail, oldest first (detached)."""
        with transaction(self.app.sessions) as s:
            rows = list(s.scalars(select(InboundMail).order_by(InboundMail.id)))
            s.expunge_all()
            return rows


def eml(
    body: str | bytes = "JOIN\n",
    *,
    frm: str = "player1@example.test",
    subject: str = "[DEMO] join",
    message_id: str | None = None,
    headers: list[tuple[str, str]] = (),  # type: ignore[assignment]
    content_type: str = "text/plain; charset=utf-8",
    cte: str | None = None,
) -> bytes:
    """A raw message written byte by byte (no library tidies a hostile header)."""
    lines = [
        f"From: {frm}",
        "To: pbm@example.test",
        f"Subject: {subject}",
        f"Message-ID: {message_id or f'<h{next(_ids)}@example.test>'}",
        "Date: Thu, 01 Jan 2026 09:00:00 +0000",
        "MIME-Version: 1.0",
        f"Content-Type: {content_type}",
    ]
    if cte:
        lines.append(f"Content-Transfer-Encoding: {cte}")
    lines += [f"{k}: {v}" for k, v in headers]
    data = body.encode() if isinstance(body, str) else body
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data.replace(b"\r\n", b"\n").replace(
        b"\n", b"\r\n"
    )


@pytest.fixture
def doors(tmp_path: Path) -> Iterator[Doors]:
    """pbm on SQLite with the SMTP listener on, sending by [smtp] to an SMTPUTF8 sink."""
    from aiosmtpd.controller import Controller

    sink = _Sink()
    sink_port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=sink_port, enable_SMTPUTF8=True)
    controller.start()
    db = f"sqlite:///{tmp_path}/pbm.sqlite3"
    data = config_data(db, tmp_path, smtp={"host": "127.0.0.1", "port": sink_port, "tls": "plain"})
    del data["maildir"]
    config = parse_config(data, env={})
    config_file = tmp_path / "pbm.toml"
    config_file.write_text(
        f'[server]\naddress = "pbm@example.test"\n[database]\nurl = "{db}"\n'
        f'[gm]\naddress = "{GM}"\nsecret = "{GM_SECRET}"\n'
        f'[security]\nsecret_key = "{SECRET_KEY}"\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {sink_port}\ntls = "plain"\n'
        '[smtp_listener]\nhost = "127.0.0.1"\nport = 0\n'
        '[rate_limit]\nper_hour = 20\n[logging]\nformat = "json"\n'
    )
    app = App.from_config(config, FixedClock(datetime(2026, 1, 1, 9, 0, tzinfo=UTC)), upgrade=True)
    sender = make_sender(config)
    daemon = Daemon(app, sender)
    listener = SmtpListener("127.0.0.1", 0, daemon.store, accept=[config.server.address])
    listener.start()
    try:
        yield Doors(app, daemon, listener, config_file, sink)
    finally:
        listener.stop()
        getattr(sender, "close", lambda: None)()
        app.close()
        controller.stop()


@pytest.fixture
def demo(doors: Doors) -> str:
    """A 4-team t20 competition DEMO; returns its code."""
    from pbm.games.flungo.competitions import create_competition

    with transaction(doors.app.sessions) as s:
        create_competition(
            s,
            doors.app.clock,
            code="DEMO",
            name="Demo Cup",
            fmt="t20",
            teams=4,
            naming_deadline=datetime(2026, 1, 15, tzinfo=UTC),
            seed="demo-seed",
        )
    return "DEMO"
