"""Run real ``pbm`` processes against a config file (for the SIGKILL and signal tests)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.services import free_port, wait_port

GM_SECRET = "gm-secret-horse-battery"
SECRET_KEY = "test-secret-key-0123456789abcdef"
ROOT = Path(__file__).resolve().parents[2]


def write_config(tmp: Path, db_url: str, sink_port: int, listen_port: int | None = None) -> Path:
    """A config: the given database, SMTP listener on a free port, SMTP out to the sink."""
    port = listen_port or free_port()
    path = tmp / "pbm.toml"
    path.write_text(
        f"""
[server]
address = "pbm@example.test"
[database]
url = "{db_url}"
[gm]
address = "gm@example.test"
secret_env = "PBM_GM_SECRET"
[security]
secret_key_env = "PBM_SECRET_KEY"
argon2_time_cost = 1
argon2_memory_kib = 1024
[smtp_listener]
host = "127.0.0.1"
port = {port}
[smtp]
host = "127.0.0.1"
port = {sink_port}
tls = "plain"
[scheduler]
daily_digest = false
tick_seconds = 0.5
[logging]
format = "json"
"""
    )
    return path


def listen_port(config: Path) -> int:
    """The listener port written in a config."""
    for line in config.read_text().splitlines():
        if line.startswith("port = ") and "[smtp]" not in line:
            return int(line.split("=")[1])
    raise AssertionError("no port")


def env(crash_at: str | None = None) -> dict[str, str]:
    """The environment for a pbm process (secrets, optional crash point)."""
    e = dict(os.environ, PBM_GM_SECRET=GM_SECRET, PBM_SECRET_KEY=SECRET_KEY, PYTHONPATH=str(ROOT))
    e.pop("PBM_TEST_CRASH_AT", None)
    if crash_at:
        e["PBM_TEST_CRASH_AT"] = crash_at
    return e


def pbm(
    *args: str, crash_at: str | None = None, **kw: object
) -> subprocess.CompletedProcess[bytes]:
    """Run ``pbm ARGS`` to completion."""
    return subprocess.run(
        [sys.executable, "-m", "pbm", *args],
        env=env(crash_at),
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        **kw,  # type: ignore[call-overload]
    )


class Serve:
    """A running ``pbm serve``."""

    def __init__(self, config: Path, crash_at: str | None = None) -> None:
        self.port = listen_port(config)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pbm", "serve", "--config", str(config)],
            env=env(crash_at),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        try:
            wait_port(self.port, 30)
        except TimeoutError:
            self.proc.kill()
            raise AssertionError(self.proc.communicate()[1].decode()) from None

    def wait_dead(self, timeout: float = 20) -> int:
        """Wait for the process to end (e.g. its own SIGKILL); returns the return code."""
        return self.proc.wait(timeout)

    def stop(self) -> tuple[int, str]:
        """SIGTERM (warm stop) and wait; returns (code, stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return self.proc.returncode, err.decode()


def wait_until(pred: object, timeout: float = 20) -> bool:
    """Poll ``pred()`` until true or the timeout."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False
