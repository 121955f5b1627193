"""The fault-injection harness: several real ``pbm serve`` processes on one PostgreSQL
database, a stream of mail, and a SIGKILL of a random worker at a random moment per trial.

The processes share everything a deployment's workers share: the database, the SMTP door
(each its own listener port; the feeder, standing for the MTA, delivers each mail to a random
live one and retries elsewhere until it gets a 250) and the relay (an aiosmtpd sink that keeps
every message it is handed). Their config is the production one but for three short timings
(``[outbox] send_lease_seconds``, ``[smtp] timeout`` and ``[scheduler] tick_seconds``), and
each competition's turn settings (``early = 0``: a stage runs as soon as every team's orders
are in), so a trial takes seconds on the real clock. Every stage (two matches) is split by
match (``[turns] split_matches = 2``, a match and two mails to a claim, the send lease's
lease), so the kills land in the split's claims of matches and of mails too.

One trial: deliver a batch of mail (JOINs, squad namings, every team's orders for the stage,
the GM's PROCESS when a stage is stuck, and hostile mail), wait a uniformly random delay,
stop a random worker (SIGSTOP, so what it was doing can be read: its sockets and the tables
its open transactions hold locks on), SIGKILL it, start it again, wait until the system has
settled, and check the invariants (:class:`Checker`). The processes are reused between trials.

Run by hand: ``nice .venv/bin/python bench/faults.py --trials 500 --workers 3``; a bounded
slice runs in CI (``tests/faults/test_faults.py``). See docs/dev/testing.md, "The fault
harness".
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import re
import signal
import smtplib
import subprocess
import sys
import threading
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import SystemClock, utc
from pbm.core.config import Config, parse_config
from pbm.db.models import (
    Competition,
    CompetitionStatus,
    Event,
    InboundMail,
    JobRun,
    OrdersVersion,
    OutboxMessage,
    Turn,
    TurnMail,
    TurnStatus,
)
from pbm.games.flungo.competitions import create_competition
from pbm.inbound.intake import message_key
from pbm.testing import body_of
from tests.services import free_port

ROOT = Path(__file__).resolve().parents[2]
GM = "gm@example.test"
GM_SECRET = "gm-secret-horse-battery"
SECRET_KEY = "test-secret-key-0123456789abcdef"
SERVER = "pbm@example.test"
#: The harness's send lease: a row claimed by a worker killed mid-send goes again after it.
SEND_LEASE = 3.0
SMTP_TIMEOUT = 2.0
SECRET_RE = re.compile(r"YOUR SECRET: (\S+)")
TEAMS = 4
#: The competitions' turn settings: a stage runs once every team's orders are in.
SETTINGS: dict[str, Any] = {
    "naming_after_full": 0,
    "early": 0,
    "reminders": [],
    "hold_share": 1.0,
}

CONFIG = """
[server]
address = "{server}"
[database]
url = "{url}"
[gm]
address = "{gm}"
secret_env = "PBM_GM_SECRET"
[security]
secret_key_env = "PBM_SECRET_KEY"
argon2_time_cost = 1
argon2_memory_kib = 1024
[rate_limit]
per_hour = 100000
[smtp_listener]
host = "127.0.0.1"
port = {port}
[smtp]
host = "127.0.0.1"
port = {sink}
tls = "plain"
timeout = {smtp_timeout}
[outbox]
backoff_seconds = 0.5
backoff_max_seconds = 2.0
send_lease_seconds = {lease}
[scheduler]
daily_digest = false
tick_seconds = 0.5
[turns]
split_matches = 2
match_batch = 1
mail_batch = 2
match_lease_seconds = {lease}
[zine]
pdf = false
[logging]
format = "json"
"""


def _env() -> dict[str, str]:
    e = dict(os.environ, PBM_GM_SECRET=GM_SECRET, PBM_SECRET_KEY=SECRET_KEY, PYTHONPATH=str(ROOT))
    e.pop("PBM_TEST_CRASH_AT", None)  # random moments only, no named crash point
    return e


def with_app_name(url: str, name: str) -> str:
    """``url`` with a libpq application_name, so the harness can tell the workers'
    backends apart in ``pg_stat_activity``."""
    return f"{url}{'&' if '?' in url else '?'}application_name={name}"


# -- the relay: an SMTP sink --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sent:
    """One message handed to the relay."""

    message_id: str
    in_reply_to: str
    to: str
    subject: str
    raw: bytes

    def parsed(self) -> EmailMessage:
        """The message, parsed."""
        msg = message_from_bytes(self.raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        return msg


class Sink:
    """An aiosmtpd relay that keeps every message, in order of arrival (thread-safe)."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.port = free_port()
        self.messages: list[Sent] = []
        self._lock = threading.Lock()
        sink = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                raw = bytes(envelope.original_content)
                head = message_from_bytes(raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n")
                with sink._lock:
                    sink.messages.append(
                        Sent(
                            str(head.get("Message-ID", "")).strip(),
                            str(head.get("In-Reply-To", "")).strip(),
                            ",".join(envelope.rcpt_tos),
                            str(head.get("Subject", "")),
                            raw,
                        )
                    )
                return "250 OK"

        self._ctl = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self._ctl.start()

    def snapshot(self) -> list[Sent]:
        """Every message so far."""
        with self._lock:
            return list(self.messages)

    def stop(self) -> None:
        """Stop the server."""
        self._ctl.stop()


# -- the workers --------------------------------------------------------------------------------


class Zygote:
    """Forks ``pbm serve`` processes from a parent that imported pbm once (see
    :mod:`tests.faults.zygote`): a restart costs a fork, not seconds of imports."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.faults.zygote"],
            env=_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            text=True,
        )
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("the zygote did not start")
        self._lock = threading.Lock()

    def spawn(self, config: Path, log: Path) -> int:
        """A new ``pbm serve --config CONFIG`` logging to LOG; its pid."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with self._lock:
            self.proc.stdin.write(f"{config}\t{log}\n")
            self.proc.stdin.flush()
            return int(self.proc.stdout.readline())

    def close(self) -> None:
        """End the parent (its children are stopped first, by the harness)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def listener_port() -> int:
    """A free port below Linux's ephemeral range (32768 up): a killed worker's port must not
    be taken by some outgoing connection's source port before it restarts (EADDRINUSE)."""
    import socket

    rng = random.SystemRandom()
    while True:
        port = rng.randrange(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


class Worker:
    """One ``pbm serve`` process (restarted after each kill, same config and port)."""

    def __init__(self, name: str, tmp: Path, url: str, sink_port: int, zygote: Zygote) -> None:
        self.name = name
        self.zygote = zygote
        self._pid = 0
        self.port = listener_port()
        self.config = tmp / f"{name}.toml"
        self.config.write_text(
            CONFIG.format(
                server=SERVER,
                url=with_app_name(url, name),
                gm=GM,
                port=self.port,
                sink=sink_port,
                smtp_timeout=SMTP_TIMEOUT,
                lease=SEND_LEASE,
            )
        )
        self.log = tmp / f"{name}.log"
        self.starts = 0

    def start(self) -> None:
        """Start the process (without waiting for it to listen)."""
        self.starts += 1
        self._pid = self.zygote.spawn(self.config, self.log)

    @property
    def pid(self) -> int:
        """The process id."""
        return self._pid

    def alive(self) -> bool:
        """Whether the process runs (a zombie does not)."""
        try:
            with open(f"/proc/{self._pid}/stat") as f:  # noqa: PTH123 - a /proc file
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False

    def ready(self) -> bool:
        """Whether its listener takes connections."""
        import socket

        try:
            socket.create_connection(("127.0.0.1", self.port), 0.2).close()
        except OSError:
            return False
        return True

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Wait until the listener takes connections; raise if the process died."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.alive():
                raise RuntimeError(f"{self.name} exited: {self.tail()}")
            if self.ready():
                return
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not listen within {timeout} s: {self.tail()}")

    def _wait_gone(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.alive():
                return True
            time.sleep(0.02)
        return False

    def kill(self) -> None:
        """SIGKILL, and wait until it is gone."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self._pid, signal.SIGKILL)
        if not self._wait_gone(30):
            raise RuntimeError(f"{self.name} survived SIGKILL")

    def stop(self) -> None:
        """A warm stop (SIGTERM), SIGKILL if it takes too long."""
        if not self.alive():
            return
        os.kill(self._pid, signal.SIGTERM)
        if not self._wait_gone(30):
            self.kill()

    def tail(self, n: int = 15) -> str:
        """The last lines of its log."""
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def _socket_inodes(pid: int) -> set[str]:
    out = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                link = str(fd.readlink())
                if link.startswith("socket:["):
                    out.add(link[8:-1])
    return out


def _tcp_connections(pid: int) -> list[tuple[int, int]]:
    """(local port, remote port) of the process's established TCP connections."""
    inodes = _socket_inodes(pid)
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:  # noqa: PTH123 - a /proc table
            next(f)
            for line in f:
                cols = line.split()
                if cols[3] == "01" and cols[9] in inodes:  # 01: ESTABLISHED
                    local = int(cols[1].rsplit(":", 1)[1], 16)
                    remote = int(cols[2].rsplit(":", 1)[1], 16)
                    found.append((local, remote))
    return found


def phases_of(worker: Worker, sink_port: int, db_engine: Engine) -> set[str]:
    """What a stopped worker was doing: ``intake`` (an SMTP session on its listener, or a
    transaction on inbound mail), ``turn`` (a transaction on turns or scheduler jobs),
    ``sending`` (a connection to the relay, or a transaction on the outbox alone); empty when
    it was idle."""
    phases = set()
    for local, remote in _tcp_connections(worker.pid):
        if remote == sink_port:
            phases.add("sending")
        elif local == worker.port:
            phases.add("intake")
    with db_engine.connect() as c:
        rows = c.execute(
            text(
                "SELECT a.pid, l.relation::regclass::text FROM pg_stat_activity a "
                "JOIN pg_locks l ON l.pid = a.pid WHERE a.application_name = :n "
                "AND l.locktype = 'relation' AND a.state <> 'idle'"
            ),
            {"n": worker.name},
        ).all()
    per_backend: dict[int, set[str]] = {}
    for pid, rel in rows:
        per_backend.setdefault(pid, set()).add(str(rel).split(".")[-1])
    for rels in per_backend.values():
        if "inbound_mail" in rels:
            phases.add("intake")
        elif rels & {"turns", "job_runs", "turn_matches", "turn_mails"}:
            phases.add("turn")
        elif "outbox" in rels:
            phases.add("sending")
    return phases


# -- the mail -----------------------------------------------------------------------------------


@dataclass
class Mail:
    """A mail the feeder delivers; ``accepted`` once a worker answered 250 to it."""

    raw: bytes
    message_id: str
    kind: str  # join, naming, orders, gm, help, bad, auto
    sender: str
    accepted: bool = False
    refused: str = ""  # a permanent (5xx) refusal: the MTA would bounce it
    tries: int = 0

    @property
    def key(self) -> str:
        """pbm's idempotency key for it."""
        return message_key(self.raw)


class Feeder:
    """The MTA: delivers each mail of a batch to a random live worker, retrying elsewhere
    (a refused connection, a dropped session or a 4xx) until one answers 250."""

    def __init__(self, workers: list[Worker], rng: random.Random) -> None:
        self.workers = workers
        self.rng = rng
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def deliver(self, batch: list[Mail], gap: float) -> None:
        """Start delivering ``batch`` in the background, ``gap`` seconds at most apart."""
        gaps = [self.rng.uniform(0, gap) for _ in batch]
        order = [self.rng.randrange(len(self.workers)) for _ in range(len(batch) * 50)]

        def run() -> None:
            try:
                picks = iter(order)
                for mail, pause in zip(batch, gaps, strict=True):
                    time.sleep(pause)
                    self._one(mail, picks)
            except BaseException as exc:  # reported by wait()
                self.error = exc

        self.thread = threading.Thread(target=run, name="feeder", daemon=True)
        self.thread.start()

    def _one(self, mail: Mail, picks: Iterator[int]) -> None:
        end = time.monotonic() + 120
        last: BaseException | None = None
        while time.monotonic() < end:
            worker = self.workers[next(picks, 0)]
            mail.tries += 1
            try:
                with smtplib.SMTP("127.0.0.1", worker.port, timeout=20) as s:
                    s.sendmail(mail.sender, [SERVER], mail.raw)
                mail.accepted = True
                return
            except smtplib.SMTPResponseException as exc:
                if exc.smtp_code >= 500:
                    mail.refused = f"{exc.smtp_code} {exc.smtp_error!r}"
                    return
                last = exc
            except smtplib.SMTPRecipientsRefused as exc:
                mail.refused = repr(exc.recipients)
                return
            except (OSError, smtplib.SMTPException) as exc:
                last = exc
            time.sleep(0.05)  # that worker is dead or dying, or said 4xx: another one
        raise RuntimeError(f"no worker accepted {mail.message_id} in 120 s: {last!r}")

    def wait(self, timeout: float = 180.0) -> None:
        """Wait until the batch is delivered."""
        assert self.thread is not None
        self.thread.join(timeout)
        if self.thread.is_alive():
            raise RuntimeError("the feeder is stuck")
        if self.error is not None:
            raise self.error


# -- the game: what mail to send next -----------------------------------------------------------


@dataclass
class Player:
    """A player of the harness's current competition."""

    address: str
    prefix: str
    join_id: str | None = None
    secret: str | None = None
    named: bool = False


@dataclass
class Game:
    """Plays competitions one after another: four JOINs (namings before the last), every
    team's orders each stage, a GM PROCESS when a stage is stuck, hostile mail throughout."""

    sessions: sessionmaker[Session]
    rng: random.Random
    tag: str
    serial: int = 0
    comp_no: int = 0
    code: str = ""
    players: list[Player] = field(default_factory=list)
    last_stage: tuple[int, str] | None = None
    stuck: int = 0
    toss: int = 0

    def _mail(self, kind: str, sender: str, body: str, subject: str, **headers: str) -> Mail:
        self.serial += 1
        msgid = f"<f-{self.tag}-{self.serial}@harness.example.test>"
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = SERVER
        msg["Subject"] = subject
        msg["Message-ID"] = msgid
        msg["Date"] = "Tue, 01 Dec 2026 12:00:00 +0000"
        for k, v in headers.items():
            msg[k] = v
        msg.set_content(body)
        return Mail(msg.as_bytes(), msgid, kind, sender)

    def new_competition(self) -> None:
        """Create the next competition (as the GM's ``pbm gm new`` would)."""
        self.comp_no += 1
        self.code = f"F{self.tag[:6].upper()}{self.comp_no}"[:12]
        with self.sessions.begin() as s:
            create_competition(
                s,
                SystemClock(),
                code=self.code,
                name=f"Fault Cup {self.comp_no}",
                fmt="t20",
                teams=TEAMS,
                naming_deadline=datetime.now(UTC) + timedelta(days=30),
                seed=f"faults-{self.tag}-{self.comp_no}",
                kind="mini",
                schedule="every 1d",
                settings=dict(SETTINGS),
            )
        self.players = [
            Player(f"p{self.comp_no}x{i}@players.example.test", f"C{self.comp_no}P{i}")
            for i in range(1, TEAMS + 1)
        ]
        self.last_stage, self.stuck = None, 0

    def learn(self, sent: list[Sent]) -> None:
        """Read the players' secrets from the JOIN replies in the relay."""
        for p in self.players:
            if p.secret is None and p.join_id is not None:
                for m in sent:
                    if m.in_reply_to == p.join_id:
                        found = SECRET_RE.search(body_of(m.parsed()))
                        if found:
                            p.secret = found.group(1)
                            break

    def _status(self) -> tuple[str, tuple[int, str] | None]:
        with self.sessions.begin() as s:
            comp = s.scalars(select(Competition).where(Competition.code == self.code)).one()
            turn = s.scalars(
                select(Turn)
                .where(Turn.competition_id == comp.id, Turn.status == TurnStatus.OPEN)
                .order_by(Turn.position.desc())
            ).first()
            return str(comp.status), (turn.position, turn.stage_key) if turn else None

    def batch(self, sent: list[Sent]) -> list[Mail]:
        """The next trial's mail."""
        if not self.code:
            self.new_competition()
        self.learn(sent)
        status, stage = self._status()
        if status not in (CompetitionStatus.OPEN, CompetitionStatus.FULL, "running"):
            self.new_competition()  # finished (or closed, held: the checker says why)
            status, stage = "open", None
        out: list[Mail] = []
        joined = [p for p in self.players if p.join_id is not None]
        if status in (CompetitionStatus.OPEN, CompetitionStatus.FULL):
            if len(joined) < TEAMS - 1:
                for p in self.players[: TEAMS - 1]:
                    out.append(self._join(p))
            else:
                for p in joined:
                    if p.secret and not p.named:
                        names = [f"TEAM NAME {p.prefix} Stars"]
                        names += [f"NAME {i} {p.prefix} {i}" for i in range(1, 19)]
                        out.append(self._orders(p, "\n".join(names), "naming"))
                        p.named = True
                for p in self.players:
                    if p.join_id is None:
                        out.append(self._join(p))
        else:
            if stage == self.last_stage:
                self.stuck += 1
            self.last_stage, self.stuck = stage, self.stuck if stage == self.last_stage else 0
            self.toss += 1
            for p in self.players:
                if p.secret:
                    order = f"toss: {'bat' if (self.toss + len(p.prefix)) % 2 else 'bowl'}"
                    out.append(self._orders(p, order, "orders"))
            if self.stuck >= 2:  # orders refused for this stage: the GM runs it
                body = f"SECRET {GM_SECRET}\nPROCESS {self.code}\n"
                out.append(self._mail("gm", GM, body, "gm"))
                self.stuck = 0
        out += self.hostile()
        self.rng.shuffle(out)
        return out

    def _join(self, p: Player) -> Mail:
        m = self._mail("join", p.address, "JOIN\n", f"[{self.code}] join")
        p.join_id = m.message_id
        return m

    def _orders(self, p: Player, body: str, kind: str) -> Mail:
        return self._mail(kind, p.address, f"SECRET {p.secret}\n{body}\n", f"[{self.code}] orders")

    def hostile(self) -> list[Mail]:
        """One or two of: a wrong secret, gibberish, header injection in the subject, an
        unknown competition, HELP, an automatic reply (ignored: no answer)."""
        n = self.serial
        choices: list[Callable[[], Mail]] = [
            lambda: self._mail(
                "bad",
                f"x{n}@evil.example.test",
                "SECRET not-the-secret\ntoss: bat\n",
                f"[{self.code}] orders",
            ),
            lambda: self._mail(
                "bad", f"y{n}@evil.example.test", "\x00\x01 }{ ][ DROP TABLE;\n" * 40, "???"
            ),
            lambda: self._mail(
                "bad",
                f"z{n}@evil.example.test",
                "HELP\n",
                "=?utf-8?q?hi=0D=0ABcc:_victim@example.test?=",
            ),
            lambda: self._mail("bad", f"u{n}@evil.example.test", "JOIN\n", "[NOSUCH] join"),
            lambda: self._mail("help", f"h{n}@players.example.test", "HELP\n", "help"),
            lambda: self._mail(
                "auto",
                f"a{n}@players.example.test",
                "I am on holiday.\n",
                "Out of office",
                **{"Auto-Submitted": "auto-replied"},
            ),
        ]
        return [self.rng.choice(choices)() for _ in range(self.rng.randint(1, 2))]


# -- the invariants -----------------------------------------------------------------------------


@dataclass
class Checked:
    """What one check found."""

    breaches: list[str]
    duplicates: int  # messages the relay got more than once (at least once, within the lease)
    turns_done: int
    mails: int


class Checker:
    """The invariants, read in one REPEATABLE READ snapshot of the database and the relay:

    * every accepted mail is stored and handled (not pending, not a dead letter), and has
      exactly one reply (one outbox row with its id, one Message-ID in the relay answering
      it), but automatic mail, which is ignored and has none;
    * no outbox row pending or failed; every row sent reached the relay, and nothing reached
      it that is not a row; a row that reached it twice is a duplicate (counted: allowed only
      within the send lease, at most one per kill);
    * each competition's stages: at most one live row per position, the done ones in order
      (not contiguous: the engine skips the turns of a decided round), each with its freeze
      and resolve job keys; each done stage's frozen inputs are the season
      after the stage before it and each team's latest orders when it froze, and resolving
      them again with the pure engine gives the stored report and season byte for byte;
    * each done stage queued one report per team, one GM digest and one zine issue per team
      (and the draw its teams issue, issue 0, to every team);
      each started competition one fixtures mail per team;
    * seats: numbers 1..n, one per player, no more than the competition's teams;
    * no dead letters (the hostile mail the harness sends must never shunt).
    """

    def __init__(self, db_engine: Engine) -> None:
        self.db_engine = db_engine
        self.verified: set[int] = set()  # done turns already re-resolved

    def check(self, mails: list[Mail], relay: Callable[[], list[Sent]]) -> Checked:
        """Check everything; breaches say what is wrong."""
        with (
            self.db_engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn,
            Session(bind=conn) as s,
        ):
            s.execute(text("SELECT 1"))  # the snapshot is taken here...
            sent = relay()  # ...and the relay read after: it has every row marked sent in it
            return self._check(s, mails, sent)

    def _check(self, s: Session, mails: list[Mail], sent: list[Sent]) -> Checked:
        bad: list[str] = []
        copies = Counter(m.message_id for m in sent)
        answers: dict[str, set[str]] = {}
        for m in sent:
            answers.setdefault(m.in_reply_to, set()).add(m.message_id)
        inbound = {
            key: (id_, status)
            for key, id_, status in s.execute(
                select(InboundMail.key, InboundMail.id, InboundMail.status)
            )
        }
        rows = s.execute(
            select(OutboxMessage.inbound_id, OutboxMessage.message_id, OutboxMessage.status)
        ).all()
        per_inbound: dict[int, list[str]] = {}
        for inbound_id, mid, _st in rows:
            if inbound_id is not None:
                per_inbound.setdefault(inbound_id, []).append(mid)
        for mail in mails:
            if mail.refused:
                continue
            if not mail.accepted:
                bad.append(f"{mail.message_id} ({mail.kind}) was never accepted")
                continue
            if mail.key not in inbound:
                bad.append(f"{mail.message_id} ({mail.kind}) accepted but not stored")
                continue
            id_, status = inbound[mail.key]
            if status in ("received", "shunted"):
                bad.append(f"{mail.message_id} ({mail.kind}) is {status}")
            want = 0 if status == "ignored" else 1
            if (mail.kind == "auto") != (status == "ignored"):
                bad.append(f"{mail.message_id} ({mail.kind}) is {status}")
            queued = per_inbound.get(id_, [])
            if len(queued) != want:
                bad.append(f"{mail.message_id} ({mail.kind}, {status}): {len(queued)} replies")
            got = answers.get(mail.message_id, set())
            if len(got) != want or (want and set(queued) != got):
                bad.append(f"{mail.message_id} ({mail.kind}): {len(got)} replies in the relay")
        statuses = Counter(st for _, _, st in rows)
        if statuses["pending"] or statuses["failed"]:
            left = s.execute(
                select(
                    OutboxMessage.id,
                    OutboxMessage.kind,
                    OutboxMessage.status,
                    OutboxMessage.created_at,
                    OutboxMessage.next_attempt_at,
                    OutboxMessage.attempts,
                ).where(OutboxMessage.status != "sent")
            ).all()
            bad.append(
                f"outbox not drained at {datetime.now(UTC):%H:%M:%S.%f}: {dict(statuses)}: "
                + "; ".join(
                    f"#{i} {k} {st} created {c:%H:%M:%S.%f} due {d:%H:%M:%S.%f} tries {a}"
                    for i, k, st, c, d, a in left
                )
            )
        ours = {mid for _, mid, _ in rows}
        for _, mid, st in rows:
            if st == "sent" and mid not in copies:
                bad.append(f"outbox row {mid} marked sent, never reached the relay")
        strays = [mid for mid in copies if mid not in ours]
        if strays:
            bad.append(
                f"{len(strays)} message(s) in the relay that are no outbox row: {strays[:3]}"
            )
        shunted = s.scalar(
            select(func.count()).select_from(InboundMail).where(InboundMail.status == "shunted")
        )
        if shunted:
            bad.append(f"{shunted} dead letter(s)")
        done = self._turns(s, bad)
        self._seats(s, bad)
        duplicates = sum(1 for n in copies.values() if n > 1)
        return Checked(bad, duplicates, done, len(mails))

    def _turns(self, s: Session, bad: list[str]) -> int:
        from engine.flungo.turn import TurnReport
        from pbm.games.flungo.turns import resolve_inputs

        keys = set(s.scalars(select(JobRun.key).where(JobRun.key.like("turn:%"))))
        outbox_kinds = Counter(s.scalars(select(OutboxMessage.kind)))
        reports = digests = zines = fixtures = 0
        total_done = 0
        for comp in s.scalars(select(Competition).order_by(Competition.id)):
            turns = list(
                s.scalars(
                    select(Turn)
                    .where(Turn.competition_id == comp.id)
                    .order_by(Turn.position, Turn.generation)
                )
            )
            if turns:
                fixtures += len(comp.seats)
            live = Counter(t.position for t in turns if t.status != TurnStatus.ROLLED_BACK)
            for pos, n in live.items():
                if n > 1:
                    bad.append(f"{comp.code} position {pos}: {n} live stage rows")
            done = [t for t in turns if t.status == TurnStatus.DONE]
            total_done += len(done)
            # Not contiguous: once every match of a round is decided the engine skips the
            # round's remaining turns (its position moves on past them). The chain of seasons
            # below is what shows no stage was lost.
            positions = [t.position for t in done]
            if positions != sorted(set(positions)):
                bad.append(f"{comp.code}: done stages {positions}")
            open_ = [t for t in turns if t.status in (TurnStatus.OPEN, TurnStatus.FROZEN)]
            if len(open_) > 1:
                bad.append(f"{comp.code}: {len(open_)} stages open or frozen")
            managed = len([seat for seat in comp.seats if not seat.retired])
            reports += managed * len(done)
            digests += len(done)
            # each done stage's issue, and the teams issue (issue 0) the draw mailed
            zines += managed * len(done) + (len(comp.seats) if turns else 0)
            previous: Turn | None = None
            for t in done:
                base = f"turn:{comp.code}:{t.position}:{t.generation}"
                for step in ("freeze", "resolve"):
                    if f"{base}:{step}" not in keys:
                        bad.append(f"{base}: no {step} job key")
                if previous is not None and t.state_before != previous.state_after:
                    bad.append(f"{base}: frozen season is not the season after the stage before")
                previous = t
                if t.id in self.verified:
                    continue
                self._frozen_orders(s, comp, t, bad)
                state, report = resolve_inputs(t)
                stored = TurnReport.from_text(t.report or "")
                again = replace(
                    report,
                    next_deadline=stored.next_deadline,
                    editorial=stored.editorial,
                    rulings=stored.rulings,
                    played_at=stored.played_at,
                ).to_text()
                if again != t.report or state.to_text() != t.state_after:
                    bad.append(f"{base}: resolving the frozen inputs again differs")
                else:
                    self.verified.add(t.id)
        for kind, want in (
            ("turn-report", reports),
            ("turn-digest", digests),
            ("zine", zines),
            ("fixtures", fixtures),
        ):
            if outbox_kinds[kind] != want:
                bad.append(f"{outbox_kinds[kind]} {kind} mails queued, expected {want}")
        return total_done

    @staticmethod
    def _frozen_orders(s: Session, comp: Competition, t: Turn, bad: list[str]) -> None:
        """The frozen orders are each team's latest orders when the stage froze."""
        from engine.flungo.squad import Team

        at = s.scalar(
            select(func.max(Event.at)).where(
                Event.competition_id == comp.id,
                Event.kind == "turn-frozen",
                Event.data["stage"].as_string() == t.stage_key,
            )
        )
        if at is None or t.orders is None:
            bad.append(f"{comp.code} {t.stage_key}: done without a freeze")
            return
        for seat in comp.seats:
            latest = s.scalars(
                select(OrdersVersion.text)
                .where(OrdersVersion.seat_id == seat.id, OrdersVersion.created_at <= at)
                .order_by(OrdersVersion.version.desc())
                .limit(1)
            ).first()
            want = None if seat.retired or not (latest or "").strip() else latest
            name = Team.from_json(seat.team).name
            if t.orders["teams"].get(name, "missing") != want:
                bad.append(f"{comp.code} {t.stage_key}: {name}'s frozen orders are not its latest")

    @staticmethod
    def _seats(s: Session, bad: list[str]) -> None:
        for comp in s.scalars(select(Competition)):
            numbers = sorted(seat.number for seat in comp.seats)
            players = [seat.player_id for seat in comp.seats]
            if numbers != list(range(1, len(numbers) + 1)) or len(numbers) > comp.teams:
                bad.append(f"{comp.code}: seat numbers {numbers}")
            if len(set(players)) != len(players):
                bad.append(f"{comp.code}: a player holds two seats")


def unsettled(sessions: sessionmaker[Session], config: Config) -> str | None:
    """What is left to do (None: nothing): mail pending, an outbox row pending, a stage
    frozen or due, a split stage's mails not yet queued, a naming deadline passed on an open
    competition, a zine issue due."""
    from pbm.games.flungo.turns import active_seats, current_turn, is_due, orders_sent, settings_for
    from pbm.games.flungo.zine.deliver import due_issues

    now = datetime.now(UTC)
    # One snapshot for every query: read committed would let a commit land between the
    # outbox count and the competitions, and see a draw done with its mail not yet queued.
    with (
        sessions.kw["bind"].connect().execution_options(isolation_level="REPEATABLE READ") as c,
        Session(bind=c) as s,
    ):
        if n := s.scalar(
            select(func.count()).select_from(InboundMail).where(InboundMail.status == "received")
        ):
            return f"{n} mail(s) pending"
        if n := s.scalar(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status == "pending")
        ):
            return f"{n} outbox row(s) pending"
        for comp in s.scalars(select(Competition)):
            if comp.status in (CompetitionStatus.OPEN, CompetitionStatus.FULL):
                if utc(comp.naming_deadline) <= now:
                    return f"{comp.code}: the draw is due"
                continue
            if comp.status != CompetitionStatus.RUNNING:
                continue
            turn = current_turn(s, comp)
            if turn is None:
                continue
            if turn.status == TurnStatus.FROZEN:
                return f"{comp.code} {turn.stage_key} frozen"
            seats = active_seats(comp)
            sent = orders_sent(s, comp, turn)
            got = [sent[seat.id] for seat in seats if seat.id in sent]
            all_in = max(got) if seats and len(got) == len(seats) else None
            if is_due(utc(turn.deadline), settings_for(comp, config.turns), now, all_in):
                return f"{comp.code} {turn.stage_key} due"
        if n := s.scalar(
            select(func.count()).select_from(TurnMail).where(TurnMail.status != "done")
        ):
            return f"{n} row(s) of a split stage's mails not yet queued"
        done = set(s.scalars(select(JobRun.key)))
        if due := due_issues(s, done):
            return f"zine issues due: {due}"
    return None


# -- the trials ---------------------------------------------------------------------------------


@dataclass
class Report:
    """The counts of a run."""

    seed: int
    trials: int = 0
    kills: Counter[str] = field(default_factory=Counter)
    breaches: list[str] = field(default_factory=list)
    duplicates: int = 0
    duplicates_not_sending: int = 0
    turns_done: int = 0
    mails: int = 0
    redeliveries: int = 0
    settle_seconds: list[float] = field(default_factory=list)
    refused: int = 0
    seconds: float = 0.0

    def lines(self) -> list[str]:
        """The report, for humans."""
        settle = sorted(self.settle_seconds) or [0.0]
        return [
            f"seed {self.seed}: {self.trials} trials in {self.seconds:.0f} s",
            "kills by phase: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.kills.items(), key=lambda kv: -kv[1])),
            f"mails accepted {self.mails} ({self.redeliveries} redelivered after a failed "
            f"session), stages resolved {self.turns_done}",
            f"duplicates within the send lease: {self.duplicates} "
            f"({self.duplicates_not_sending} with the victim not seen sending)",
            f"{self.refused} mails refused at the door (5xx, bounced by the MTA)",
            f"settle: median {_median(settle):.1f} s, max {settle[-1]:.1f} s",
            f"invariant breaches: {len(self.breaches)}",
            *(f"  {b}" for b in self.breaches[:40]),
        ]


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2] if xs else 0.0


def run(
    url: str,
    tmp: Path,
    *,
    trials: int,
    workers: int = 3,
    seed: int,
    window: float = 1.5,
    settle_timeout: float = 60.0,
    say: Callable[[str], None] = print,
    stop_on_breach: bool = True,
    budget_seconds: float | None = None,
    min_trials: int = 0,
) -> Report:
    """Run ``trials`` trials on a migrated-or-empty PostgreSQL database at ``url``; with
    ``budget_seconds``, start no new trial once that much time has gone since the first one
    began, ``min_trials`` done (CI's slice)."""
    from pbm.games.flungo.grammar import warm_order_parser

    warm_order_parser()  # the checker reads frozen orders with the order parser
    rng = random.Random(seed)
    report = Report(seed=seed)
    started = time.monotonic()
    tag = f"{seed:x}"[:6]
    upgrade = subprocess.run(
        [sys.executable, "-m", "pbm", "db", "upgrade", "--config", str(_bootstrap(tmp, url))],
        env=_env(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    if upgrade.returncode != 0:
        raise RuntimeError(upgrade.stderr.decode())
    db_engine = create_engine(with_app_name(url, "harness"), pool_size=2)
    sessions = sessionmaker(db_engine, expire_on_commit=False)
    sink = Sink()
    zygote = Zygote()
    pool = [Worker(f"w{i}", tmp, url, sink.port, zygote) for i in range(workers)]
    config = parse_config(
        tomllib.loads(pool[0].config.read_text()),
        env={"PBM_GM_SECRET": GM_SECRET, "PBM_SECRET_KEY": SECRET_KEY},
    )
    checker = Checker(db_engine)
    game = Game(sessions, rng, tag)
    mails: list[Mail] = []
    dup_before = 0
    try:
        for w in pool:
            w.start()
        for w in pool:
            w.wait_ready()
        first = time.monotonic()
        for n in range(1, trials + 1):
            spent = time.monotonic() - first
            if budget_seconds is not None and spent > budget_seconds and n > min_trials:
                say(f"time budget spent after {n - 1} trials")
                break
            batch = game.batch(sink.snapshot())
            mails += batch
            marks = [time.monotonic()]
            # The victim of the last trial may still be starting (the others took the mail
            # meanwhile): kills go to the workers that listen, so they land in work.
            up = [w for w in pool if w.ready()] or [pool[0]]
            victim = rng.choice(up)
            victim.wait_ready()
            marks.append(time.monotonic())
            feeder = Feeder(pool, rng)
            feeder.deliver(batch, gap=window / max(len(batch), 1))
            time.sleep(rng.uniform(0, window))
            os.kill(victim.pid, signal.SIGSTOP)
            try:
                phases = phases_of(victim, sink.port, db_engine)
            finally:
                victim.kill()
            victim.start()
            report.kills["+".join(sorted(phases)) or "idle"] += 1
            marks.append(time.monotonic())
            feeder.wait()
            marks.append(time.monotonic())
            t0 = time.monotonic()
            while (left := unsettled(sessions, config)) is not None:
                if time.monotonic() - t0 > settle_timeout:
                    report.breaches.append(
                        f"trial {n}: not settled in {settle_timeout:.0f} s: {left}"
                    )
                    break
                time.sleep(0.2)
            quiet_at = datetime.now(UTC)
            time.sleep(0.3)  # a last send in flight reaches the relay
            report.settle_seconds.append(time.monotonic() - t0)
            for w in pool:
                if not w.alive():
                    report.breaches.append(f"trial {n}: {w.name} died: {w.tail(5)}")
                    w.start()
                    w.wait_ready()
            marks.append(time.monotonic())
            found = checker.check(mails, sink.snapshot)
            marks.append(time.monotonic())
            if os.environ.get("PBM_FAULTS_TIMING"):
                say(" ".join(f"{b - a:.1f}" for a, b in itertools.pairwise(marks)))
            report.trials = n
            report.turns_done = found.turns_done
            report.mails = sum(1 for m in mails if m.accepted)
            report.redeliveries = sum(m.tries - 1 for m in mails)
            report.refused = sum(1 for m in mails if m.refused)
            new_dups = found.duplicates - dup_before
            dup_before = found.duplicates
            report.duplicates = found.duplicates
            if new_dups and "sending" not in phases:
                report.duplicates_not_sending += new_dups
            if new_dups > 1:
                found.breaches.append(f"{new_dups} duplicates from one kill")
            for b in found.breaches:
                report.breaches.append(
                    f"trial {n} (killed {victim.name}: {phases}; settled at "
                    f"{quiet_at:%H:%M:%S.%f}): {b}"
                )
                say(f"BREACH {report.breaches[-1]}")
            if n % 25 == 0 or found.breaches:
                say(
                    f"trial {n}/{trials}: {report.mails} mails, {report.turns_done} stages, "
                    f"{len(report.breaches)} breaches, {report.duplicates} duplicates"
                )
            if found.breaches and stop_on_breach:
                break
    finally:
        for w in pool:
            w.stop()
        zygote.close()
        sink.stop()
        db_engine.dispose()
        report.seconds = time.monotonic() - started
    return report


def _bootstrap(tmp: Path, url: str) -> Path:
    path = tmp / "bootstrap.toml"
    path.write_text(
        CONFIG.format(
            server=SERVER,
            url=url,
            gm=GM,
            port=free_port(),
            sink=free_port(),
            smtp_timeout=SMTP_TIMEOUT,
            lease=SEND_LEASE,
        )
    )
    return path
