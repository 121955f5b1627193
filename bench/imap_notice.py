"""How soon does a session of Dovecot see a message another session APPENDs, and what does a
NOOP cost the server?

Four watchers on one throwaway Dovecot, each its own IMAP session on INBOX: IDLE (held
open), NOOP every ``--noop`` seconds, IDLE re-entered every ``--reidle`` seconds (``DONE``
then ``IDLE``), and STATUS of the selected folder every ``--noop`` seconds. A fifth session
APPENDs ``--mails`` messages at random gaps; each watcher's lag is from the start of the
APPEND to the first response that counts the message. Then ``--noops`` NOOPs on a quiet
mailbox, with the CPU the server's imap process spent on them (from /proc).

    .venv/bin/python bench/imap_notice.py [--mails 30] [--noops 5000]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from imapclient import IMAPClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.services import DovecotInstance, start_dovecot

RAW = (
    b"From: a@example.test\r\nTo: pbm@example.test\r\nSubject: x\r\n"
    b"Message-ID: <%d@x>\r\n\r\nhi\r\n"
)


def session(dv: DovecotInstance) -> Any:
    c = IMAPClient(dv.host, port=dv.imap, ssl=False, timeout=30)
    c.login("pbm", "secret")
    c.select_folder("INBOX")
    return c


def exists(responses: list[Any]) -> list[int]:
    return [int(r[0]) for r in responses if len(r) >= 2 and r[1] == b"EXISTS"]


def watch(dv: DovecotInstance, args: argparse.Namespace) -> None:
    seen: dict[str, list[tuple[float, int]]] = {"IDLE": [], "NOOP": [], "re-IDLE": [], "STATUS": []}
    stop = threading.Event()
    idle, noop, reidle, status, writer = (session(dv) for _ in range(5))

    def by_idle() -> None:
        idle.idle()
        while not stop.is_set():
            seen["IDLE"] += [(time.monotonic(), n) for n in exists(idle.idle_check(timeout=0.05))]
        idle.idle_done()

    def by_noop() -> None:
        while not stop.is_set():
            seen["NOOP"] += [(time.monotonic(), n) for n in exists(noop.noop()[1])]
            time.sleep(args.noop)

    def by_reidle() -> None:
        while not stop.is_set():
            reidle.idle()
            got = reidle.idle_check(timeout=args.reidle)
            got += reidle.idle_done()[1]
            seen["re-IDLE"] += [(time.monotonic(), n) for n in exists(got)]

    def by_status() -> None:
        while not stop.is_set():
            n = int(status.folder_status("INBOX", ["MESSAGES"])[b"MESSAGES"])
            seen["STATUS"].append((time.monotonic(), n))
            time.sleep(args.noop)

    threads = [threading.Thread(target=f) for f in (by_idle, by_noop, by_reidle, by_status)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    rng = random.Random(1)
    appended = []
    for i in range(args.mails):
        time.sleep(rng.uniform(0.3, 1.2))
        began = time.monotonic()
        writer.append("INBOX", RAW % i)
        appended.append((began, i + 1))
    time.sleep(1.5)
    stop.set()
    for t in threads:
        t.join()
    print(f"an APPEND seen by another session ({args.mails} mails, load {os.getloadavg()[0]:.2f}):")
    for name, hits in seen.items():
        lags = []
        for began, n in appended:
            after = [t for t, m in hits if m >= n and t >= began]
            if after:
                lags.append(min(after) - began)
        if not lags:
            print(f"  {name:8s} never")
            continue
        print(
            f"  {name:8s} {len(lags)}/{args.mails}: min {min(lags) * 1000:.0f} ms, median "
            f"{statistics.median(lags) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms"
        )
    for c in (idle, noop, reidle, status, writer):
        c.logout()


def noop_cost(dv: DovecotInstance, n: int) -> None:
    c = session(dv)
    c.noop()
    pids = {p.name for p in Path("/proc").iterdir() if p.name.isdigit() and _is_imap(p.name, dv)}
    before = sum(_cpu(p) for p in pids)
    began = time.monotonic()
    for _ in range(n):
        c.noop()
    wall = time.monotonic() - began
    spent = sum(_cpu(p) for p in pids) - before
    print(
        f"{n} NOOPs on a quiet mailbox: {wall / n * 1e6:.0f} us a round trip, the server's "
        f"imap processes {spent / n * 1e6:.0f} us CPU a NOOP"
    )
    c.logout()


def _is_imap(pid: str, dv: DovecotInstance) -> bool:
    try:
        name = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    mine = f"pbm-test-{dv.imap}/imap".encode()  # the instance's name holds its IMAP port
    return mine in name and b"login" not in name


def _cpu(pid: str) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mails", type=int, default=30)
    ap.add_argument("--noop", type=float, default=0.02, help="seconds between NOOPs")
    ap.add_argument("--reidle", type=float, default=0.1, help="seconds in each IDLE")
    ap.add_argument("--noops", type=int, default=5000)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="pbm-notice-"))
    root.chmod(0o755)
    dv = start_dovecot(root / "dovecot", root)
    try:
        watch(dv, args)
        noop_cost(dv, args.noops)
    finally:
        dv.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
