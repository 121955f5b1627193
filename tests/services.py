"""Throwaway real services for tests: Dovecot (IMAP/LMTP), an aiosmtpd sink, PostgreSQL.

Each starts on free loopback ports under pytest's tmp dir and touches nothing in /etc. When a
binary is missing, tests fail loudly in CI (``CI`` set) and skip with the install hint elsewhere.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import smtplib
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "DovecotInstance",
    "OAuth2Setup",
    "PgCluster",
    "SmtpSink",
    "free_port",
    "init_postgres",
    "post_office_config",
    "start_dovecot",
    "start_postgres",
    "wait_port",
]


#: The GM of every test post office.
TEST_GM = ("gm@example.test", "gm-secret-horse-battery")


def post_office_config(
    db_url: str,
    smtp_port: int,
    dovecot: DovecotInstance | None = None,
    gm: tuple[str, str] = TEST_GM,
    **sections: dict[str, Any],
) -> dict[str, Any]:
    """The raw config of a test daemon: ``db_url``, the SMTP sink on ``smtp_port``, Dovecot's
    INBOX when ``dovecot`` is given, fast argon2; each of ``sections`` updates its table."""
    raw: dict[str, Any] = {
        "server": {"address": "pbm@example.test"},
        "database": {"url": db_url},
        "gm": {"address": gm[0], "secret": gm[1]},
        "security": {
            "secret_key": "test-key-0123456789abcdef",
            "argon2_time_cost": 1,
            "argon2_memory_kib": 1024,
        },
        "smtp": {"host": "127.0.0.1", "port": smtp_port, "tls": "plain"},
        # No daily digest: these daemons run on the real clock, where any digest hour has
        # passed for some part of the day (23 made the suite fail from 23:00 UTC).
        "scheduler": {"daily_digest": False},
    }
    if dovecot is not None:
        raw["imap"] = {
            "host": dovecot.host,
            "port": dovecot.imap,
            "tls": "plain",
            "username": "pbm",
            "password": "secret",
        }
    for name, table in sections.items():
        raw[name] = {**raw.get(name, {}), **table}
    return raw


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_port(port: int, timeout: float = 10.0) -> None:
    """Wait until something listens on 127.0.0.1:port."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"port {port} not listening")


def missing(what: str, hint: str) -> None:
    """Fail in CI, skip elsewhere, when a real service's binary is not installed."""
    msg = f"{what} not installed ({hint}); scripts/test installs it"
    if os.environ.get("CI"):
        pytest.fail(msg)
    pytest.skip(msg)


def _open_path(root: Path, base: Path) -> None:
    # pytest's tmp dirs are 0700; the mail/postgres uids must traverse them when we are root.
    root.chmod(0o755)
    for p in root.parents:
        if str(p).startswith(str(base)):
            p.chmod(0o755)


DOVECOT_CONF = """\
protocols = imap lmtp
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
instance_name = pbm-test-{imap}
log_path = {root}/dovecot.log
default_internal_user = {iuser}
default_internal_group = {igroup}
default_login_user = {luser}
first_valid_uid = 1
first_valid_gid = 1
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
ssl = yes
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={muser} gid={mgroup} home={root}/mail/%u
}}
mail_location = maildir:~/Maildir
mail_fsync = never
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Processed {{
    auto = create
  }}
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps}
    ssl = yes
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp}
  }}
}}
service anvil {{
  chroot =
}}
protocol lmtp {{
  postmaster_address = postmaster@example.test
  auth_username_format = %Ln
}}
imap_idle_notify_interval = 2 mins
"""


@dataclass
class DovecotInstance:
    """A running throwaway Dovecot: ports, users (name -> password) and its root dir."""

    root: Path
    imap: int
    imaps: int
    lmtp: int
    users: dict[str, str]
    host: str = "127.0.0.1"
    submission: int = 0  # the submission service's port (an OAuth2 Dovecot only)

    def deliver(
        self, raw: bytes, mail_from: str = "p1@example.test", to: str = "pbm@example.test"
    ) -> None:
        """Deliver ``raw`` into ``to``'s INBOX by LMTP, the way the MTA hands mail over."""
        with smtplib.LMTP(self.host, self.lmtp) as lmtp:
            lmtp.sendmail(mail_from, [to], raw)

    def count(self, folder: str, user: str = "pbm") -> int:
        """How many messages ``user``'s ``folder`` holds, asked over IMAP."""
        from imapclient import IMAPClient

        c = IMAPClient(self.host, port=self.imap, ssl=False, timeout=10)
        c.login(user, self.users[user])
        n = int(c.folder_status(folder, ["MESSAGES"])[b"MESSAGES"])
        c.logout()
        return n

    def _master_pid(self) -> int | None:
        # Dovecot writes its pid file just after it starts listening: wait for it briefly.
        pidfile = self.root / "run" / "master.pid"
        end = time.monotonic() + 2
        while not pidfile.exists() and time.monotonic() < end:
            time.sleep(0.01)
        try:
            return int(pidfile.read_text())
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        """SIGTERM the master's process group and wait for the port (not the pid) to close."""
        pid = self._master_pid()
        if pid is None:
            return
        try:
            os.killpg(pid, 15)
        except OSError:
            return
        end = time.monotonic() + 5
        while time.monotonic() < end:
            try:
                socket.create_connection((self.host, self.imap), 0.2).close()
                time.sleep(0.02)
            except OSError:
                break

    def start(self) -> None:
        """Start it again after :meth:`stop`: same config, ports and mail."""
        pidfile = self.root / "run" / "master.pid"
        # The old master lingers 2-6 s after its ports close, and a new one refuses to start
        # while it lives ("Dovecot is already running").
        end = time.monotonic() + 15
        while time.monotonic() < end:
            try:
                os.kill(int(pidfile.read_text()), 0)
            except (OSError, ValueError):
                break
            time.sleep(0.05)
        # Dovecot daemonises: its output must not be a pipe we would wait on forever.
        subprocess.run(
            ["dovecot", "-c", str(self.root / "dovecot.conf")],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.imap)
        _wait_login(self)


#: What an OAuth2 Dovecot adds: XOAUTH2 and OAUTHBEARER checked by introspection (RFC 7662)
#: against a token endpoint, beside the password users; and the submission service (SMTP with
#: the same SASL), which relays what it accepts to a sink.
OAUTH2_CONF = """\
protocols = imap lmtp submission
auth_mechanisms = plain login xoauth2 oauthbearer
hostname = localhost
submission_relay_host = 127.0.0.1
submission_relay_port = {relay}
submission_relay_trusted = yes
passdb {{
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = {root}/oauth2.conf.ext
}}
service submission-login {{
  chroot =
  inet_listener submission {{
    address = 127.0.0.1
    port = {submission}
  }}
}}
"""
ANVIL_NO_PENALTY = (
    "service anvil {\n  chroot =\n  unix_listener anvil-auth-penalty {\n    mode = 0\n  }\n"
)
OAUTH2_EXT = """\
introspection_mode = post
introspection_url = {url}
username_attribute = username
active_attribute = active
active_value = true
"""


@dataclass(frozen=True)
class OAuth2Setup:
    """Dovecot's OAuth2 side: the introspection URL and the port its submission relays to."""

    introspection_url: str
    relay_port: int


def start_dovecot(
    root: Path,
    base: Path,
    users: dict[str, str] | None = None,
    oauth2: OAuth2Setup | None = None,
) -> DovecotInstance:
    """Start Dovecot under ``root`` (``base`` is pytest's basetemp, for permissions); with
    ``oauth2``, with OAuth2 logins and a submission service (its port: ``submission``)."""
    if not shutil.which("dovecot"):
        missing("dovecot", "apt-get install dovecot-imapd dovecot-lmtpd")
    users = users or {"pbm": "secret", "gm": "secret", "player1": "secret"}
    (root / "mail").mkdir(parents=True, exist_ok=True)
    me = pwd.getpwuid(os.getuid()).pw_name
    if os.getuid() == 0:
        ids = {
            "iuser": "dovecot",
            "igroup": "dovecot",
            "luser": "dovenull",
            "muser": "mail",
            "mgroup": "mail",
        }
        shutil.chown(root / "mail", "mail", "mail")
        _open_path(root, base)
    else:
        ids = {"iuser": me, "igroup": me, "luser": me, "muser": me, "mgroup": me}
    ports = {"imap": free_port(), "imaps": free_port(), "lmtp": free_port()}
    if oauth2 is not None and not Path("/usr/lib/dovecot/submission").exists():
        missing("dovecot's submission service", "apt-get install dovecot-submissiond")
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(root / "key.pem"),
            "-out",
            str(root / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )
    (root / "users").write_text("".join(f"{u}:{{PLAIN}}{p}::::\n" for u, p in users.items()))
    conf = root / "dovecot.conf"
    text = DOVECOT_CONF.format(root=root, **ids, **ports)
    submission = 0
    if oauth2 is not None:
        submission = free_port()
        (root / "oauth2.conf.ext").write_text(OAUTH2_EXT.format(url=oauth2.introspection_url))
        text = (
            text.replace("protocols = imap lmtp\n", "")
            .replace("auth_mechanisms = plain login\n", "")
            .replace(
                "driver = passwd-file\n", "driver = passwd-file\n  mechanisms = plain login none\n"
            )
            # No auth penalty: it delays each further failed login from one IP by seconds.
            .replace("service anvil {\n  chroot =\n", ANVIL_NO_PENALTY)
        )
        text += OAUTH2_CONF.format(root=root, relay=oauth2.relay_port, submission=submission)
    conf.write_text(text)
    subprocess.run(["dovecot", "-c", str(conf)], check=True)
    wait_port(ports["imap"])
    if submission:
        wait_port(submission)
    inst = DovecotInstance(root=root, users=users, submission=submission, **ports)
    _wait_login(inst)
    return inst


def _wait_login(inst: DovecotInstance, timeout: float = 20.0) -> None:
    """Wait until a login succeeds: the port opens before the auth process answers, and a
    loaded machine's first logins get "[UNAVAILABLE] Temporary authentication failure"."""
    import imaplib

    user, password = next(iter(inst.users.items()))
    end = time.monotonic() + timeout
    while True:
        try:
            client = imaplib.IMAP4(inst.host, inst.imap, timeout=5)
            try:
                client.login(user, password)
                return
            finally:
                with contextlib.suppress(Exception):
                    client.logout()
        except (imaplib.IMAP4.error, OSError):
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


@contextlib.contextmanager
def own_dovecot(
    name: str, users: dict[str, str] | None = None, oauth2: OAuth2Setup | None = None
) -> Iterator[DovecotInstance]:
    """A Dovecot under its own temp dir, outside pytest's tree (which a concurrent pytest run as
    root resets to 0700, locking the server's unprivileged users out); removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix=f"pbm-{name}-"))
    inst = start_dovecot(root / "dovecot", root, users, oauth2)
    try:
        yield inst
    finally:
        inst.stop()
        shutil.rmtree(root, ignore_errors=True)


@dataclass
class SmtpSink:
    """An in-process aiosmtpd server that keeps every envelope it receives."""

    port: int
    messages: list[Any] = field(default_factory=list)
    controller: Any = None

    def reply(self, n: int, timeout: float = 60.0) -> EmailMessage:
        """The ``n``-th message received (1 is the first), waited for up to ``timeout``
        seconds, parsed as a reader's mail program would."""
        assert len(self.wait_for(n, timeout)) >= n, f"no reply #{n}"
        msg = message_from_bytes(self.messages[n - 1].original_content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        return msg

    def wait_for(self, n: int, timeout: float = 10.0) -> list[Any]:
        """Wait until at least ``n`` messages have arrived; return them."""
        end = time.monotonic() + timeout
        while len(self.messages) < n and time.monotonic() < end:
            time.sleep(0.02)
        return list(self.messages)


class _SinkHandler:
    def __init__(self, sink: SmtpSink) -> None:
        self.sink = sink

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.sink.messages.append(envelope)
        return "250 OK"


def start_smtp_sink(port: int | None = None) -> SmtpSink:
    """Start an aiosmtpd sink on ``port`` (default: a free one)."""
    from aiosmtpd.controller import Controller

    sink = SmtpSink(port=port or free_port())
    ctl = Controller(_SinkHandler(sink), hostname="127.0.0.1", port=sink.port)
    ctl.start()
    sink.controller = ctl
    return sink


@dataclass
class PgCluster:
    """A throwaway PostgreSQL cluster under ``root``, with database ``pbm``; it can be stopped
    and started again (a server restart) on the same port."""

    root: Path
    bin: Path
    port: int
    pre: list[str]

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of its ``pbm`` database."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/pbm"

    def _run(self, *a: str, check: bool = True) -> None:
        subprocess.run([*self.pre, *a], check=check, capture_output=True)

    def start(self) -> None:
        """Start the server (waits until it accepts connections)."""
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            f"{self.root}/data",
            "-l",
            f"{self.root}/log",
            "-w",
            "start",
            "-o",
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=100",
        )

    def stop(self, mode: str = "fast", check: bool = True) -> None:
        """Stop the server: ``fast`` ends every session (as a restart does), ``immediate``
        is a crash."""
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            f"{self.root}/data",
            "-m",
            mode,
            "-w",
            "-t",
            "20",  # bounded: a teardown must not hang on a stuck cluster
            "stop",
            check=check,
        )


def init_postgres(d: Path, base: Path) -> PgCluster:
    """Create and start a throwaway cluster under ``d`` with an empty ``pbm`` database."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not bins:
        missing("postgresql", "apt-get install postgresql")
    b = bins[-1].parent
    pre = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    if os.getuid() == 0:
        shutil.chown(d, "postgres", "postgres")
        _open_path(d, base)
    cluster = PgCluster(root=d, bin=b, port=free_port(), pre=pre)
    cluster._run(
        str(b / "initdb"),
        "-D",
        f"{d}/data",
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
        "--no-sync",
    )
    cluster.start()
    cluster._run(
        str(b / "createdb"), "-h", str(d), "-p", str(cluster.port), "-U", "postgres", "pbm"
    )
    return cluster


def start_postgres(d: Path, base: Path) -> Iterator[str]:
    """Run a throwaway PostgreSQL cluster under ``d``; yields its SQLAlchemy URL."""
    cluster = init_postgres(d, base)
    try:
        yield cluster.url
    finally:
        # A failed stop must not turn a passing session red; the cluster is throwaway.
        cluster.stop("immediate", check=False)
