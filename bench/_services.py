"""Throwaway services and an in-process daemon for the benches.

Reuses the test suite's Dovecot starter (``tests.services``) so the benches measure the same
server the tests prove against. Everything lives under one temp dir that ``Bench.close``
removes; nothing in /etc is touched.
"""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as "python bench/x.py" from anywhere
    sys.path.insert(0, str(ROOT))

from _match_orders import MATCH_ORDERS  # type: ignore[import-not-found]  # noqa: E402
from sqlalchemy import select  # noqa: E402

from pbm.app import App  # noqa: E402
from pbm.core.config import parse_config  # noqa: E402
from pbm.db.models import Competition, Player, Seat  # noqa: E402
from pbm.db.session import transaction  # noqa: E402
from pbm.games.flungo.competitions import create_competition  # noqa: E402
from pbm.ops.logs import configure_logging  # noqa: E402
from tests.services import DovecotInstance, free_port, start_dovecot  # noqa: E402

STRONG_HASH = {"argon2_time_cost": 2, "argon2_memory_kib": 19456}
HASH_HELP = "argon2id t=2, 19 MiB (OWASP's password setting) instead of pbm's t=1, 64 KiB"


def hash_name(strong: bool) -> str:
    """The argon2 setting a bench runs with, for its header line."""
    return "t=2, 19 MiB (--strong-hash)" if strong else "t=1, 64 KiB (default)"


__all__ = [
    "HASH_HELP",
    "STRONG_HASH",
    "Bench",
    "TimedSink",
    "hash_name",
    "join_mails",
    "mails_by_kind",
    "match_orders_mails",
    "naming_mails",
    "open_first_stage",
    "percentile",
    "seats",
    "summary",
]


_SINK_CODE = """
import sys, time
from aiosmtpd.controller import Controller
class H:
    async def handle_DATA(self, server, session, envelope):
        now = time.monotonic()
        irt = "-"
        head = envelope.original_content.split(b"\\r\\n\\r\\n", 1)[0]
        for line in head.split(b"\\r\\n"):
            if line.lower().startswith(b"in-reply-to:"):
                irt = line.split(b":", 1)[1].strip().decode()
        sys.stdout.write(f"{now!r} {irt}\\n")
        sys.stdout.flush()
        return "250 OK"
c = Controller(H(), hostname="127.0.0.1", port=int(sys.argv[1]))
c.start()
sys.stdout.write("ready\\n")
sys.stdout.flush()
sys.stdin.read()
c.stop()
"""


class TimedSink:
    """An aiosmtpd sink in a child process (so it does not compete with the daemon for the
    GIL) that reports when each message arrived (CLOCK_MONOTONIC, shared by all processes on
    Linux) and what it replied to (In-Reply-To)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.arrivals: list[tuple[float, str]] = []
        self._cond = threading.Condition()
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _SINK_CODE, str(self.port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._proc.stdout is not None
        if self._proc.stdout.readline().strip() != "ready":
            raise RuntimeError("SMTP sink did not start")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            when, irt = line.split(" ", 1)
            with self._cond:
                self.arrivals.append((float(when), irt.strip()))
                self._cond.notify_all()

    def wait_for(self, n: int, timeout: float) -> bool:
        """Wait until ``n`` messages arrived; False on timeout."""
        end = time.monotonic() + timeout
        with self._cond:
            while len(self.arrivals) < n:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def stop(self) -> None:
        """Stop the child process."""
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()


class Bench:
    """A temp dir with a Dovecot, a timed SMTP sink and a migrated SQLite pbm database."""

    def __init__(
        self,
        competitions: int = 4,
        teams: int = 64,
        *,
        strong_hash: bool = False,
        db_url: str | None = None,
        kind: str = "league",
        sections: dict[str, dict[str, object]] | None = None,
    ) -> None:
        configure_logging(level="warning")  # the figures, not three log lines per mail
        self.dir = Path(tempfile.mkdtemp(prefix="pbm-bench-"))
        self.dir.chmod(0o755)  # Dovecot's mail and auth users must traverse it
        self.dovecot: DovecotInstance = start_dovecot(self.dir / "dovecot", self.dir)
        self.sink = TimedSink()
        self.config = parse_config(
            {
                "server": {"address": "pbm@example.test"},
                "database": {"url": db_url or f"sqlite:///{self.dir}/pbm.sqlite3"},
                "gm": {"address": "gm@example.test", "secret": "gm-secret-horse-battery"},
                "security": {
                    "secret_key": "bench-key-0123456789abcdef",
                    # default: pbm's default argon2id (t=1, 64 KiB); strong: OWASP's password
                    # setting (t=2, 19 MiB), the default before secrets had 80 bits
                    **(STRONG_HASH if strong_hash else {}),
                },
                "imap": {
                    "host": self.dovecot.host,
                    "port": self.dovecot.imap,
                    "tls": "plain",
                    "username": "pbm",
                    "password": "secret",
                },
                "smtp": {"host": "127.0.0.1", "port": self.sink.port, "tls": "plain"},
                "scheduler": {"daily_digest": False},
                **(sections or {}),
            },
            env={},
        )
        self.app = App.from_config(self.config, upgrade=True)
        self.codes = [f"BENCH{i}" for i in range(1, competitions + 1)]
        with transaction(self.app.sessions) as s:
            for code in self.codes:
                create_competition(
                    s,
                    self.app.clock,
                    code=code,
                    name=f"Bench Cup {code}",
                    fmt="t20",
                    teams=teams,
                    naming_deadline=datetime(2099, 1, 1, tzinfo=UTC),
                    seed=code,
                    kind=kind,
                )

    def close(self) -> None:
        self.app.close()
        self.sink.stop()
        self.dovecot.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def _mail(frm: str, subject: str, body: str, mid: str) -> bytes:
    m = EmailMessage()
    m["From"] = frm
    m["To"] = "pbm@example.test"
    m["Subject"] = subject
    m["Message-ID"] = mid
    m.set_content(body)
    return m.as_bytes().replace(b"\n", b"\r\n")


def player_domain(i: int) -> str:
    """Player ``i``'s mail domain: one of 97, so no domain sends more than its share."""
    return f"club{i % 97}.test"


def join_mails(bench: Bench, n: int) -> list[tuple[str, bytes]]:
    """(Message-ID, bytes) of N JOINs from N players, spread over the competitions."""
    out = []
    for i in range(n):
        mid = f"<join-{i}@players.test>"
        code = bench.codes[i % len(bench.codes)]
        # players come from many domains, as a real sign-up does: one domain's unproven mail is
        # rate-limited as a whole (rate_limit.per_domain), and a burst from one would time that
        addr = f"p{i}@{player_domain(i)}"
        out.append((mid, _mail(f"Player {i} <{addr}>", f"[{code}] join", "JOIN\n", mid)))
    return out


def seats(bench: Bench) -> list[tuple[int, str, str, str]]:
    """(seat id, its secret, the player's address, the competition's code) of every seat."""
    with transaction(bench.app.sessions) as s:
        rows = s.execute(
            select(Seat.id, Seat.secret_version, Player.address, Competition.code)
            .join(Player, Seat.player_id == Player.id)
            .join(Competition, Seat.competition_id == Competition.id)
            .order_by(Seat.id)
        ).all()
    return [(seat, bench.app.box.derive(seat, version), a, code) for seat, version, a, code in rows]


def naming_mails(bench: Bench) -> list[tuple[str, bytes]]:
    """(Message-ID, bytes) of every joined player's squad naming: secret, team, 18 names."""
    out = []
    for seat_id, secret, address, code in seats(bench):
        lines = [f"SECRET {secret}", f"TEAM NAME Team {seat_id}"]
        lines += [f"NAME {k} Celebrity {seat_id}-{k}" for k in range(1, 19)]
        mid = f"<names-{seat_id}@players.test>"
        out.append((mid, _mail(address, f"Re: [{code}] names", "\n".join(lines) + "\n", mid)))
    return out


def open_first_stage(bench: Bench) -> int:
    """Close naming now and run the daemon's passes that make the draw and open each
    competition's first stage (its mail goes to the sink); returns how many stages are open."""
    from sqlalchemy import func, update

    from pbm.daemon import Daemon
    from pbm.db.models import Turn, TurnStatus
    from pbm.mail.smtp import SmtpSender

    with transaction(bench.app.sessions) as s:
        s.execute(update(Competition).values(naming_deadline=datetime.now(UTC)))
    daemon = Daemon(bench.app, SmtpSender("127.0.0.1", bench.sink.port, security="plain"))
    for _ in range(3):
        daemon.run_once()
    with transaction(bench.app.sessions) as s:
        return int(s.scalar(select(func.count()).where(Turn.status == TurnStatus.OPEN)) or 0)


def match_orders_mails(bench: Bench) -> list[tuple[str, bytes]]:
    """(Message-ID, bytes) of every seat's orders for its open stage (see MATCH_ORDERS)."""
    out = []
    for seat_id, secret, address, code in seats(bench):
        orders = re.sub(r"\{(\d+)\}", rf"Celebrity {seat_id}-\1", MATCH_ORDERS)
        body = f"SECRET {secret}\n{orders}"
        mid = f"<orders-{seat_id}@players.test>"
        out.append((mid, _mail(address, f"Re: [{code}] orders", body, mid)))
    return out


def mails_by_kind(
    bench: Bench, n: int, opened: Callable[[int], object] = lambda _: None
) -> Iterator[tuple[str, list[bytes]]]:
    """Each kind of mail the intake benches send, in order, made when the one before was
    handled: N JOINs, every seat's squad naming, then (naming closed and the first stages
    opened, untimed; ``opened`` is told how many) every seat's match orders."""
    yield "JOIN", [raw for _, raw in join_mails(bench, n)]
    yield "naming orders", [raw for _, raw in naming_mails(bench)]
    opened(open_first_stage(bench))
    yield "match orders", [raw for _, raw in match_orders_mails(bench)]


def percentile(data: list[float], p: float) -> float:
    """The p-th percentile (0-100), linear between closest ranks."""
    xs = sorted(data)
    if len(xs) == 1:
        return xs[0]
    k = (len(xs) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def summary(data: list[float]) -> str:
    """p50/p90/p99/max/mean of latencies in seconds, as one line."""
    return (
        f"p50 {percentile(data, 50):.3f} s  p90 {percentile(data, 90):.3f} s  "
        f"p99 {percentile(data, 99):.3f} s  max {max(data):.3f} s  "
        f"mean {statistics.fmean(data):.3f} s"
    )
