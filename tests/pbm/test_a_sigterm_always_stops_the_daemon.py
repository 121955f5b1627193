"""SIGTERM stops the daemon whatever its main thread is doing: the first asks for a warm
stop even when it lands inside one of the daemon's Events (whose lock ``Event.set()`` in the
handler would wait on for ever), and a second one stops it at once, even mid-send."""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.pbm_proc import ROOT, env, pbm, write_config
from tests.services import free_port

#: The child: a real Daemon whose main thread spins, while the test sends SIGTERM, in
#: ``Daemon._wait`` (the loop's wait: the wake Event's ``wait`` and ``clear``, inside that
#: Event's lock most of the time) or in writing log lines (inside the log's lock); each
#: round a new Daemon, its handler installed, says "ready N" on stderr (its log goes to a
#: file).
_SPINNER = """
import signal, sys
from pathlib import Path
from pbm.app import App
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.testing import RecordingSender
from tests.pbm.conftest import config_data

import structlog
from pbm.ops.logs import configure_logging

tmp, rounds, spin = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
configure_logging("json", "info", (), str(tmp / "pbm.log"))
log = structlog.get_logger("spinner")
app = App.from_config(
    parse_config(config_data(f"sqlite:///{tmp}/pbm.sqlite3", tmp), env={}), upgrade=True
)
for k in range(rounds):
    d = Daemon(app, RecordingSender())
    signal.signal(signal.SIGTERM, d._on_signal)
    print(f"ready {k}", file=sys.stderr, flush=True)
    while not d.stopping:
        if spin == "wait":
            d._wait(0)
        else:
            log.info("spinning", round=k)
print("done", file=sys.stderr, flush=True)
"""

ROUNDS = 300


def _line(proc: subprocess.Popen[bytes], timeout: float) -> str | None:
    """The child's next line on stderr, or None if none comes within ``timeout``."""
    assert proc.stderr is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stderr, selectors.EVENT_READ)
        if not sel.select(timeout):
            return None
    return proc.stderr.readline().decode().strip()


@pytest.mark.parametrize("spin", ["wait", "log"])
def test_a_sigterm_inside_a_lock_of_the_main_thread_still_stops_the_daemon(
    tmp_path: Path, spin: str
) -> None:
    """300 times, SIGTERM reaches a daemon whose main thread is inside a lock: its wake
    Event's (in the loop's ``wait``/``clear``), or the log's (writing a line); each time the
    warm stop is seen within 10 s. The handler used to call ``Event.set()`` and write its log
    line itself, on the main thread, and waited for ever on the lock that thread already held
    (this test hung in its first round then)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _SPINNER, str(tmp_path), str(ROUNDS), spin],
        env=env(),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert _line(proc, 120) == "ready 0"
        for k in range(ROUNDS):
            time.sleep((k % 7) / 1000)  # land at a different point of the spin each time
            proc.send_signal(signal.SIGTERM)
            after = _line(proc, 10)
            assert after is not None, f"round {k}: the daemon never saw its SIGTERM"
            assert after == (f"ready {k + 1}" if k + 1 < ROUNDS else "done"), after
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_a_second_sigterm_stops_the_daemon_at_once_even_mid_send(tmp_path: Path) -> None:
    """``pbm serve`` sending a reply to a relay that accepted the connection and never
    answers: a first SIGTERM asks for a warm stop, which waits for the send in hand (the
    process is still there a second later); a second one ends it within seconds, with exit
    status 143 (128 + SIGTERM)."""
    relay = socket.create_server(("127.0.0.1", 0))  # accepts, never speaks
    relay.settimeout(90)
    url = f"sqlite:///{tmp_path}/pbm.sqlite3"
    config = write_config(tmp_path, url, relay.getsockname()[1], free_port())
    assert pbm("db", "upgrade", "--config", str(config)).returncode == 0
    raw = b"From: p@example.test\nTo: pbm@example.test\nSubject: help\n\nHELP\n"
    assert pbm("ingest", "--config", str(config), input=raw).returncode == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbm", "serve", "--config", str(config)],
        env=env(),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        conn, _ = relay.accept()  # the reply's send has begun, and hangs
        proc.send_signal(signal.SIGTERM)
        time.sleep(1.0)
        assert proc.poll() is None, "a warm stop waits for the send in hand"
        proc.send_signal(signal.SIGTERM)
        started = time.monotonic()
        assert proc.wait(10) == 128 + signal.SIGTERM
        assert time.monotonic() - started < 5.0
        conn.close()
    finally:
        relay.close()
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
