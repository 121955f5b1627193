"""Run ``pbm`` in a real pseudo-terminal of a given size (stdlib ``pty``), as a player would."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence

__all__ = ["Terminal", "plain"]

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def plain(text: str) -> str:
    """The text as a screen shows it: no colour codes, no carriage returns."""
    return _ANSI.sub("", text).replace("\r", "")


class Terminal:
    """``python -m pbm ARGS`` on a pty ``columns`` wide; ``expect`` reads, ``send`` types."""

    def __init__(self, args: Sequence[str], columns: int = 80, rows: int = 50) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
        env["TERM"] = "xterm-256color"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pbm", *args], stdin=slave, stdout=slave, stderr=slave,
            env=env, close_fds=True,
        )  # fmt: skip
        os.close(slave)
        self.fd = master
        self.seen = ""

    def expect(self, text: str, timeout: float = 60.0) -> str:
        """Read until ``text`` shows (in the plain screen text); returns all read so far."""
        end = time.monotonic() + timeout
        while text not in plain(self.seen):
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} never showed; the screen:\n{plain(self.seen)}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"{text!r} never showed; it ended:\n{plain(self.seen)}")
                self.seen += chunk.decode("utf-8", "replace")
        return plain(self.seen)

    def send(self, line: str) -> None:
        """Type ``line`` and Enter."""
        os.write(self.fd, (line + "\r").encode())

    def close(self) -> str:
        """Wait for the program to end; everything it showed."""
        try:
            while True:
                ready, _, _ = select.select([self.fd], [], [], 30)
                if not ready:
                    break
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    break
                self.seen += chunk.decode("utf-8", "replace")
        except OSError:
            pass
        self.proc.wait(timeout=30)
        os.close(self.fd)
        return plain(self.seen)
