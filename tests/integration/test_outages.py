"""Outages against real components: Dovecot stopped mid-IDLE and restarted, the SMTP relay
refusing, down and stalling, PostgreSQL's connection killed mid-transaction and its server
restarted. Each time the daemon resumes by itself, handles every mail once, sends every reply
once, records the outage as an incident, and the GM's digest says what happened.

Every wait is on a condition with a generous upper bound; the services are this module's own
(the restarts must not disturb other tests' servers)."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, event, select, text

from pbm.app import App
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, Incident, OutboxMessage
from pbm.db.session import transaction
from pbm.mail.imap import ImapMailbox
from pbm.mail.smtp import SmtpSender
from pbm.ops.digest import digest_context
from pbm.ops.status import status
from pbm.outbound.render.email import render_email
from pbm.testing import make_eml
from tests.integration.pbm_proc import wait_until
from tests.services import (
    DovecotInstance,
    PgCluster,
    SmtpSink,
    free_port,
    init_postgres,
    own_dovecot,
    post_office_config,
    start_smtp_sink,
)

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: An upper bound only: every wait ends as soon as its condition holds.
PATIENCE = 60.0


def make_app(db_url: str, smtp_port: int, imap: DovecotInstance | None = None) -> App:
    """An app on ``db_url`` whose outbox retries fast (the relay's backoff starts at 0.2 s)."""
    raw = post_office_config(
        db_url,
        smtp_port,
        imap,
        smtp={"timeout": 0.5},
        outbox={"backoff_seconds": 0.2, "backoff_max_seconds": 1.0},
    )
    if imap is None:  # configured, not started: the tests store mail as the listener would
        raw["smtp_listener"] = {"host": "127.0.0.1", "port": free_port()}
    return App.from_config(parse_config(raw, env={}), upgrade=True)


def help_mail(n: int) -> bytes:
    """A HELP from player ``n``: answered with one reply."""
    return make_eml(
        "HELP\n",
        sender=f"p{n}@example.test",
        subject="help",
        message_id=f"<outage-{n}-{uuid.uuid4().hex[:8]}@example.test>",
    )


def replied_to(sink: SmtpSink) -> list[str]:
    """The In-Reply-To of every message the sink received, in order."""
    out = []
    for env in list(sink.messages):
        msg = message_from_bytes(env.original_content, policy=policy.default)
        out.append(str(msg["In-Reply-To"]))
    return out


def mid(raw: bytes) -> str:
    return str(message_from_bytes(raw, policy=policy.default)["Message-ID"])


def incidents(app: App, door: str) -> list[Incident]:
    with transaction(app.sessions) as s:
        return list(s.scalars(select(Incident).where(Incident.door == door)))


def inbound_statuses(app: App) -> list[str]:
    with transaction(app.sessions) as s:
        return [str(x) for x in s.scalars(select(InboundMail.status).order_by(InboundMail.id))]


def outbox_rows(app: App) -> list[tuple[str, int]]:
    with transaction(app.sessions) as s:
        rows = s.execute(
            select(OutboxMessage.status, OutboxMessage.attempts).order_by(OutboxMessage.id)
        )
        return [(str(st), int(n)) for st, n in rows]


def digest_text(app: App) -> str:
    with transaction(app.sessions) as s:
        ctx = digest_context(s, app.clock)
    return render_email("digest", {"server": app.config.server, **ctx}).text


class Running:
    """A daemon in a thread; stopped (warm) and checked for a clean exit at the end."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.thread = threading.Thread(target=daemon.run, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.daemon.request_stop()
        self.thread.join(PATIENCE)
        assert not self.thread.is_alive(), "the daemon did not stop"


# -- (a) Dovecot stopped while the IMAP door is in IDLE ---------------------------------------


class WatchedMailbox(ImapMailbox):
    """The real IMAP door, telling the test when it is inside IDLE."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.idling = threading.Event()

    def _idle_until(self, deadline: float) -> bool:
        self.idling.set()
        try:
            return super()._idle_until(deadline)
        finally:
            self.idling.clear()


def drop_in_maildir(server: DovecotInstance, raw: bytes) -> None:
    """Deliver as a local MDA would while Dovecot is down: a file in the Maildir's new/."""
    new = server.root / "mail" / "pbm" / "Maildir" / "new"
    path = new / f"{time.time_ns()}.outage.example"
    path.write_bytes(raw)
    if os.getuid() == 0:
        shutil.chown(path, "mail", "mail")


def test_dovecot_stopped_mid_idle_then_restarted(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    """Dovecot stops while the door is in IDLE; one mail lands in the Maildir while it is
    down, one by LMTP after it returns: the door reconnects with backoff, every mail is
    handled and answered once, the outage is one resolved incident, the digest tells it."""
    with own_dovecot("outage-imap") as server:
        app = make_app(f"sqlite:///{tmp_path}/pbm.sqlite3", smtp_sink.port, server)
        mailbox = WatchedMailbox(
            server.host,
            server.imap,
            username="pbm",
            password="secret",
            security="plain",
            timeout=5,
        )
        sender = SmtpSender("127.0.0.1", smtp_sink.port, security="plain", timeout=5)
        daemon = Daemon(app, sender, [mailbox], max_wait=30, retry_first=0.2, retry_max=1.0)
        run = Running(daemon)
        try:
            first = help_mail(1)
            server.deliver(first)
            assert wait_until(lambda: len(smtp_sink.messages) == 1, PATIENCE)
            assert wait_until(mailbox.idling.is_set, PATIENCE), "never went into IDLE"

            down_at = time.monotonic()
            server.stop()
            assert wait_until(lambda: daemon.incidents.is_down("imap"), PATIENCE)
            while_down = help_mail(2)
            drop_in_maildir(server, while_down)
            server.start()
            up_at = time.monotonic()
            after = help_mail(3)
            server.deliver(after)

            assert wait_until(lambda: len(smtp_sink.messages) >= 3, PATIENCE), replied_to(smtp_sink)
            assert wait_until(lambda: not daemon.incidents.is_down("imap"), PATIENCE)
            assert wait_until(lambda: server.count("Processed") == 3, PATIENCE)
        finally:
            run.stop()
            mailbox.close()
            sender.close()
        assert server.count("INBOX") == 0
    assert sorted(replied_to(smtp_sink)) == sorted(mid(m) for m in (first, while_down, after))
    assert inbound_statuses(app) == ["applied"] * 3
    [inc] = incidents(app, "imap")
    assert inc.resolved_at is not None and inc.resolved_at >= inc.first_seen
    # Tried again with backoff from 0.2 s doubling to 1 s: a handful of tries, not a storm.
    assert 1 <= inc.count <= (up_at - down_at) / 0.2 + 3
    text = digest_text(app)
    assert "Since the last digest" in text and "1 outage(s)" in text
    assert "imap " in text and "Nothing was lost" in text
    app.close()


# -- (b) the SMTP relay refusing, down and stalling -------------------------------------------


class BadRelay:
    """A TCP server on ``port`` that misbehaves as an SMTP relay: ``greet`` sends that line
    and hangs up; ``stall`` accepts and never says a word."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.mode = "stall"
        self.greeting = b""
        self.connections = 0
        self._held: list[socket.socket] = []
        self._sock = socket.create_server(("127.0.0.1", port), reuse_port=False)
        self._sock.settimeout(0.05)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            if self.mode == "greet":
                conn.sendall(self.greeting)
                conn.close()
            else:
                self._held.append(conn)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sock.close()
        for conn in self._held:
            conn.close()


def test_relay_refusing_down_and_stalling(tmp_path: Path) -> None:
    """With the relay down, refusing (554, 421) and stalling, mail is still handled at once,
    the replies wait pending with their attempts unspent, and when a real relay returns each
    goes out exactly once; the server's words reach the incident and digest neutralised."""
    port = free_port()
    app = make_app(f"sqlite:///{tmp_path}/pbm.sqlite3", port)
    sender = SmtpSender("127.0.0.1", port, security="plain", timeout=0.5)
    daemon = Daemon(app, sender, max_wait=0.5, retry_first=0.2, retry_max=1.0)
    run = Running(daemon)
    relay: BadRelay | None = None
    sink: SmtpSink | None = None
    mails = [help_mail(n) for n in (1, 2, 3)]
    try:
        # Nothing listens: connection refused. The mail is handled all the same.
        daemon.store(mails[0], "p1@example.test", ["pbm@example.test"])
        daemon.store(mails[1], "p2@example.test", ["pbm@example.test"])
        assert wait_until(lambda: inbound_statuses(app) == ["applied"] * 2, PATIENCE)
        assert wait_until(lambda: daemon.incidents.is_down("smtp"), PATIENCE)
        assert outbox_rows(app) == [("pending", 0)] * 2

        relay = BadRelay(port)
        relay.mode, relay.greeting = "greet", b"554 5.3.2 closed \x1b[2J\xe2\x80\xae evil\r\n"
        assert wait_until(lambda: "554" in (incidents(app, "smtp")[0].last_error or ""), PATIENCE)
        shown = incidents(app, "smtp")[0].last_error or ""
        assert "\x1b" not in shown and "\u202e" not in shown and "<U+001B>" in shown
        relay.greeting = b"421 4.3.2 busy, try later\r\n"
        assert wait_until(lambda: "421" in (incidents(app, "smtp")[0].last_error or ""), PATIENCE)

        # A relay that accepts and stalls: every probe ends at the sender's 0.5 s timeout,
        # and a new mail is handled while the relay hangs.
        relay.mode, before = "stall", relay.connections
        assert wait_until(lambda: relay is not None and relay.connections > before, PATIENCE)
        daemon.store(mails[2], "p3@example.test", ["pbm@example.test"])
        assert wait_until(lambda: inbound_statuses(app) == ["applied"] * 3, PATIENCE)
        assert wait_until(
            lambda: "timed out" in (incidents(app, "smtp")[0].last_error or ""), PATIENCE
        )
        assert outbox_rows(app) == [("pending", 0)] * 3
        with transaction(app.sessions) as s:
            assert [i["door"] for i in status(s, app.clock.now())["incidents"]] == ["smtp"]

        relay.close()
        relay = None
        sink = start_smtp_sink(port)  # the real relay returns on that port
        assert wait_until(lambda: outbox_rows(app) == [("sent", 1)] * 3, PATIENCE)
        assert wait_until(lambda: not daemon.incidents.is_down("smtp"), PATIENCE)
    finally:
        run.stop()
        sender.close()
        if relay is not None:
            relay.close()
        if sink is not None:
            sink.controller.stop()
    assert sink is not None
    assert sorted(replied_to(sink)) == sorted(mid(m) for m in mails)  # each once
    [inc] = incidents(app, "smtp")
    assert inc.kind == "refused" and inc.resolved_at is not None and inc.count >= 3
    with transaction(app.sessions) as s:
        assert status(s, app.clock.now())["incidents"] == []
    text = digest_text(app)
    assert "smtp refused" in text and "Nothing was lost" in text
    assert "\x1b" not in text
    app.close()


# -- (c) PostgreSQL: a connection killed mid-transaction, the server restarted -----------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[PgCluster]:
    """This module's own PostgreSQL, so restarting it disturbs no other test."""
    root = Path(tempfile.mkdtemp(prefix="pbm-pg-outage-"))
    (root / "pg").mkdir()
    pg = init_postgres(root / "pg", root)
    yield pg
    pg.stop("immediate", check=False)
    shutil.rmtree(root, ignore_errors=True)


def fresh_db(pg: PgCluster) -> str:
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(pg.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return pg.url.rsplit("/", 1)[0] + "/" + name


def on_statement(app: App, prefix: str, action: Callable[[Any], None]) -> list[int]:
    """Run ``action(connection)`` once, before the daemon's first statement that starts with
    ``prefix``: the middle of that unit of work's transaction. Returns the backend pid."""
    hit: list[int] = []

    @event.listens_for(app.db_engine, "before_cursor_execute")
    def _hook(conn: Any, _cursor: Any, statement: str, *_a: Any) -> None:
        if hit or not statement.lstrip().upper().startswith(prefix):
            return
        hit.append(int(conn.connection.dbapi_connection.info.backend_pid))
        action(conn)

    return hit


def on_handling_commit(app: App, action: Callable[[Any], None]) -> list[int]:
    """``action`` when the daemon writes a handled mail's status, mid-transaction."""
    return on_statement(app, "UPDATE INBOUND_MAIL", action)


def test_connection_terminated_mid_transaction(cluster: PgCluster, smtp_sink: SmtpSink) -> None:
    """pg_terminate_backend kills the daemon's connection while it handles a mail: the daemon
    survives, the mail is handled again (applied, not a dead letter, no GM alert), its reply
    goes once. Then it kills the connection that records a reply as sent: the outcome held
    in memory is recorded at once, not sent again after the lease. Each short outage is a
    resolved database incident."""
    app = make_app(fresh_db(cluster), smtp_sink.port)
    admin = create_engine(cluster.url, isolation_level="AUTOCOMMIT")

    def terminate(conn: Any) -> None:
        pid = int(conn.connection.dbapi_connection.info.backend_pid)
        with admin.connect() as c:  # waits (up to 5 s) until the backend is gone
            assert c.execute(text("SELECT pg_terminate_backend(:p, 5000)"), {"p": pid}).scalar()

    hit = on_handling_commit(app, terminate)
    sender = SmtpSender("127.0.0.1", smtp_sink.port, security="plain")
    daemon = Daemon(app, sender, max_wait=0.5, retry_first=0.2, retry_max=1.0)
    run = Running(daemon)
    try:
        mail = help_mail(1)
        daemon.store(mail, "p1@example.test", ["pbm@example.test"])
        assert wait_until(lambda: outbox_rows(app) == [("sent", 1)], PATIENCE)
        assert wait_until(lambda: len(incidents(app, "database")) == 1, PATIENCE)

        recorded = on_statement(app, "UPDATE OUTBOX SET STATUS", terminate)
        second = help_mail(2)
        daemon.store(second, "p2@example.test", ["pbm@example.test"])
        assert wait_until(lambda: outbox_rows(app) == [("sent", 1)] * 2, PATIENCE)
        assert wait_until(lambda: len(incidents(app, "database")) == 2, PATIENCE)
    finally:
        run.stop()
        sender.close()
        admin.dispose()
    assert len(hit) == 1 and len(recorded) == 1
    assert replied_to(smtp_sink) == [mid(mail), mid(second)]
    assert inbound_statuses(app) == ["applied", "applied"]
    with transaction(app.sessions) as s:
        kinds = list(s.scalars(select(OutboxMessage.kind)))
    assert len(kinds) == 2 and "gm-alert" not in kinds  # one reply each, no dead-letter alert
    found = incidents(app, "database")
    assert [i.kind for i in found] == ["connection lost"] * 2
    assert all(i.resolved_at is not None for i in found)
    assert "database connection lost" in digest_text(app)
    app.close()


def test_connection_terminated_as_the_courier_looks_ahead(
    cluster: PgCluster, smtp_sink: SmtpSink
) -> None:
    """pg_terminate_backend kills the courier's connection as it reads when the outbox is
    next due: the courier pauses and goes on (its thread is not lost), a mail that comes
    after is answered once, by it, and the outage is one resolved database incident, not
    one opened and closed on every pass."""
    app = make_app(fresh_db(cluster), smtp_sink.port)
    admin = create_engine(cluster.url, isolation_level="AUTOCOMMIT")
    hit: list[int] = []

    @event.listens_for(app.db_engine, "before_cursor_execute")
    def _hook(conn: Any, _cursor: Any, statement: str, *_a: Any) -> None:
        if hit or threading.current_thread().name != "pbm-courier":
            return
        if "MIN(OUTBOX.NEXT_ATTEMPT_AT)" not in statement.upper():
            return
        pid = int(conn.connection.dbapi_connection.info.backend_pid)
        hit.append(pid)
        with admin.connect() as c:
            assert c.execute(text("SELECT pg_terminate_backend(:p, 5000)"), {"p": pid}).scalar()

    sender = SmtpSender("127.0.0.1", smtp_sink.port, security="plain")
    daemon = Daemon(app, sender, max_wait=0.5, retry_first=0.2, retry_max=1.0)
    run = Running(daemon)
    try:
        assert wait_until(lambda: bool(hit), PATIENCE)
        assert wait_until(lambda: len(incidents(app, "database")) == 1, PATIENCE)
        mail = help_mail(1)
        daemon.store(mail, "p1@example.test", ["pbm@example.test"])
        assert wait_until(lambda: outbox_rows(app) == [("sent", 1)], PATIENCE)
        assert daemon.courier.running and daemon.courier.failure is None
    finally:
        run.stop()
        sender.close()
        admin.dispose()
    assert replied_to(smtp_sink) == [mid(mail)]
    [inc] = incidents(app, "database")
    assert inc.kind == "connection lost" and inc.resolved_at is not None
    app.close()


def test_server_restarted_while_a_mail_is_in_hand(cluster: PgCluster, smtp_sink: SmtpSink) -> None:
    """PostgreSQL stops (fast shutdown: every session ended) in the middle of a mail's
    transaction and comes back a second later: the daemon keeps trying with backoff, then
    handles that mail once and the next one too; the outage (held in memory while the
    database was down) is written when it returns, and the digest tells it."""
    app = make_app(fresh_db(cluster), smtp_sink.port)
    restarted = threading.Event()

    def restart_later() -> None:
        time.sleep(1.0)  # the outage's length, not a wait for anything
        cluster.start()
        restarted.set()

    def stop_server(_conn: Any) -> None:
        cluster.stop("fast")
        threading.Thread(target=restart_later, daemon=True).start()

    on_handling_commit(app, stop_server)
    sender = SmtpSender("127.0.0.1", smtp_sink.port, security="plain")
    daemon = Daemon(app, sender, max_wait=0.5, retry_first=0.2, retry_max=1.0)
    run = Running(daemon)
    try:
        first, second = help_mail(1), help_mail(2)
        daemon.store(first, "p1@example.test", ["pbm@example.test"])
        assert wait_until(lambda: daemon.incidents.is_down("database"), PATIENCE)
        assert wait_until(restarted.is_set, PATIENCE)
        assert wait_until(lambda: len(smtp_sink.messages) >= 1, PATIENCE)
        daemon.store(second, "p2@example.test", ["pbm@example.test"])
        assert wait_until(lambda: len(smtp_sink.messages) >= 2, PATIENCE)
        assert wait_until(lambda: len(incidents(app, "database")) == 1, PATIENCE)
        assert run.thread.is_alive()
    finally:
        run.stop()
        sender.close()
    assert replied_to(smtp_sink) == [mid(first), mid(second)]
    assert inbound_statuses(app) == ["applied", "applied"]
    [inc] = incidents(app, "database")
    assert inc.resolved_at is not None and inc.count >= 1
    assert (inc.resolved_at - inc.first_seen).total_seconds() >= 0.5
    text = digest_text(app)
    assert "database " in text and "Nothing was lost" in text
    app.close()
