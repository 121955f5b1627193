"""systemd's notify protocol (``Type=notify``): a datagram to ``$NOTIFY_SOCKET``.

The daemon says ``READY=1`` once it serves, ``WATCHDOG=1`` after each pass of its loop (so a
loop that hangs stops feeding the watchdog and systemd restarts it), ``STOPPING=1`` at a warm
stop. Without ``$NOTIFY_SOCKET`` (not under systemd) every call does nothing. The protocol is
one line per field over an AF_UNIX datagram socket; an ``@`` names an abstract socket. A
failed send is dropped: systemd's absence must never stop the game.
"""

from __future__ import annotations

import os
import socket
import time

__all__ = ["Notifier"]


class Notifier:
    """Sends notify messages to ``$NOTIFY_SOCKET``; the watchdog at most twice per period."""

    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        #: The watchdog's period in seconds (None: no watchdog asked for).
        self.watchdog: float | None = int(usec) / 1e6 if usec.isdigit() and mine else None
        self._last_ping = 0.0

    @property
    def enabled(self) -> bool:
        """Whether systemd listens."""
        return bool(self.address)

    def send(self, *fields: str) -> bool:
        """Send ``fields`` (``"READY=1"``...) in one datagram; whether it went."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto("\n".join(fields).encode(), self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "serving") -> None:
        """The daemon serves."""
        self.send("READY=1", f"STATUS={status}", f"MAINPID={os.getpid()}")

    def ping(self) -> None:
        """Feed the watchdog (the loop calls this each pass; sent at most every half
        period, and not at all when no watchdog was asked for, save the first time)."""
        now = time.monotonic()
        period = self.watchdog
        if self._last_ping and (period is None or now - self._last_ping < period / 2):
            return
        self._last_ping = now
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        """A warm stop began."""
        self.send("STOPPING=1", "STATUS=stopping")
