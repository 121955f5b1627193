"""The systemd unit (docs/ops/pbm.service) and the daemon's side of ``Type=notify``: the unit
verifies and scores 2.0 or better in ``systemd-analyze security``; a real ``pbm serve`` says
READY=1, feeds the watchdog from its loop and says STOPPING=1 at a warm stop."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbm.db import migrate
from pbm.db.session import make_db_engine
from pbm.ops.sdnotify import Notifier

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "docs/ops/pbm.service"


def _analyze() -> str:
    found = shutil.which("systemd-analyze")
    # scripts/test installs systemd where it is missing: its absence is a broken machine
    assert found, "systemd-analyze is missing: install the systemd package (scripts/test does)"
    return found


def _unit_here(tmp_path: Path) -> Path:
    """The unit with its ExecStart pointing at this machine's pbm (verify checks that the
    program exists); nothing else changed."""
    pbm = Path(sys.executable).parent / "pbm"
    unit = tmp_path / "pbm.service"
    unit.write_text(UNIT.read_text().replace("/opt/pbm/venv/bin/pbm", str(pbm)))
    return unit


def test_the_unit_verifies(tmp_path: Path) -> None:
    """`systemd-analyze verify` finds nothing wrong with the unit."""
    done = subprocess.run(
        [_analyze(), "verify", str(_unit_here(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def test_the_unit_scores_2_or_better_and_is_notify(tmp_path: Path) -> None:
    """`systemd-analyze security --offline=yes` rates the unit's exposure 2.0 or lower (it
    was 8.5, EXPOSED), and the unit is Type=notify with a watchdog and the hardening asked."""
    done = subprocess.run(
        [_analyze(), "security", "--offline=yes", "--threshold=20", str(_unit_here(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert m is not None, done.stdout + done.stderr
    assert float(m.group(1)) <= 2.0 and done.returncode == 0, done.stdout[-3000:]
    text = UNIT.read_text()
    for line in (
        "Type=notify",
        "WatchdogSec=",
        "ProtectSystem=strict",
        "StateDirectory=pbm",
        "UMask=0077",
        "NoNewPrivileges=yes",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        "SystemCallFilter=@system-service",
        "PrivateDevices=yes",
        "CapabilityBoundingSet=\n",
        "MemoryDenyWriteExecute=yes",
    ):
        assert line in text, line


@pytest.fixture
def notify_socket() -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket standing in for systemd's notify socket (a short path: AF_UNIX
    paths are limited to 108 bytes)."""
    folder = tempfile.mkdtemp(prefix="pbm-n-", dir="/tmp")
    path = str(Path(folder) / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(0.2)
    yield sock, path
    sock.close()
    shutil.rmtree(folder, ignore_errors=True)


def _messages(sock: socket.socket, until: str, timeout: float) -> list[str]:
    """Datagrams received until one holds ``until`` (or the timeout)."""
    got: list[str] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            continue
        if until in got[-1]:
            break
    return got


@pytest.mark.slow
def test_a_real_daemon_notifies_ready_watchdog_and_stopping(
    notify_socket: tuple[socket.socket, str], tmp_path: Path
) -> None:
    """`pbm serve` under NOTIFY_SOCKET and WATCHDOG_USEC (as systemd starts it) sends
    READY=1 once serving, then WATCHDOG=1 again and again from its loop while idle (its
    waits are cut to a third of the period), and STOPPING=1 after SIGTERM."""
    from tests.integration.pbm_proc import env, write_config
    from tests.services import free_port

    sock, path = notify_socket
    url = f"sqlite:///{tmp_path}/pbm.sqlite3"
    db_engine = make_db_engine(url)
    migrate.upgrade(db_engine)
    db_engine.dispose()
    config = write_config(tmp_path, url, free_port())
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbm", "serve", "--config", str(config)],
        env={**env(), "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1500000"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        first = _messages(sock, "READY=1", 60)
        assert first and "READY=1" in first[-1], (first, proc.poll())
        assert f"MAINPID={proc.pid}" in first[-1]
        pings = [m for m in _messages(sock, "never", 5.0) if m == "WATCHDOG=1"]
        assert len(pings) >= 3, pings  # every half period at least, while the loop waits
        proc.send_signal(signal.SIGTERM)
        last = _messages(sock, "STOPPING=1", 30)
        assert any("STOPPING=1" in m for m in last), last
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_the_notifier_without_systemd_does_nothing_and_reaches_abstract_sockets() -> None:
    """With no NOTIFY_SOCKET every call is a no-op; an "@name" is the abstract socket of
    that name; a watchdog meant for another pid is not ours to feed."""
    quiet = Notifier({})
    assert not quiet.enabled and not quiet.send("READY=1")
    name = f"pbm-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        n = Notifier({"NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "10000000"})
        assert n.watchdog == 10.0
        n.ready()
        assert sock.recv(4096).decode().startswith("READY=1\n")
        n.ping()
        n.ping()  # within half the period: not sent again
        n.stopping()
        assert sock.recv(4096) == b"WATCHDOG=1"
        assert sock.recv(4096).startswith(b"STOPPING=1")
    other = Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "5", "WATCHDOG_PID": "1"})
    assert other.watchdog is None
