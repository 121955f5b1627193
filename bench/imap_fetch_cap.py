"""What the IMAP door's byte cap costs, and what it saves.

On a throwaway Dovecot: the round trip the door now adds to every fetch (``UID FETCH
(RFC822.SIZE)`` before ``BODY.PEEK[]``), timed against the body fetch itself for one message
and for ``--batch`` messages; then a ``--big`` MB mail fetched by the door (its stand-in)
against the same mail fetched whole, wall time, CPU and the peak of Python's allocations.

    .venv/bin/python bench/imap_fetch_cap.py [--rounds 300] [--batch 50] [--big 30]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from imapclient import IMAPClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pbm.mail.imap import ImapMailbox
from tests.services import start_dovecot

RAW = (
    b"From: a@example.test\r\nTo: pbm@example.test\r\nSubject: x\r\n"
    b"Message-ID: <%d@x>\r\n\r\n" + b"JOIN\r\n" * 40
)


def timed(rounds: int, op: Any) -> tuple[float, float]:
    """Median wall ms and mean CPU ms of ``op()`` over ``rounds``."""
    walls = []
    cpu0 = time.process_time()
    for _ in range(rounds):
        t = time.perf_counter()
        op()
        walls.append((time.perf_counter() - t) * 1000)
    return statistics.median(walls), (time.process_time() - cpu0) * 1000 / rounds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--big", type=int, default=30)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="pbm-bench-cap-"))
    dv = start_dovecot(root / "dovecot", root)
    try:
        c = IMAPClient(dv.host, port=dv.imap, ssl=False, timeout=60)
        c.login("pbm", "secret")
        for name, n in (("one", 1), ("batch", args.batch)):
            c.create_folder(name)
            for i in range(n):
                c.append(name, RAW % i)
            c.select_folder(name)
            uids = c.search(["NOT", "DELETED"])
            size = timed(args.rounds, lambda u=uids: c.fetch(u, [b"RFC822.SIZE"]))
            body = timed(args.rounds, lambda u=uids: c.fetch(u, [b"BODY.PEEK[]"]))
            print(
                f"{n:>3} message(s): RFC822.SIZE {size[0]:.2f} ms wall {size[1]:.2f} ms CPU; "
                f"BODY.PEEK[] {body[0]:.2f} ms wall {body[1]:.2f} ms CPU"
            )
        c.create_folder("big")
        big = RAW % 0 + b"v" * 76 * (args.big * 1_000_000 // 78) + b"\r\n"
        c.append("big", big)
        c.select_folder("big")
        uids = c.search(["NOT", "DELETED"])
        for label, fetch in (
            ("whole (no cap)", lambda: c.fetch(uids, [b"BODY.PEEK[]"])),
            ("the door's stand-in", None),
        ):
            mb = ImapMailbox(
                dv.host, dv.imap, username="pbm", password="secret", security="plain", folder="big"
            )
            mb.connect()
            op = fetch or mb.fetch_new
            tracemalloc.start()
            cpu, t = time.process_time(), time.perf_counter()
            op()
            wall, cpu = (time.perf_counter() - t) * 1000, (time.process_time() - cpu) * 1000
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            mb.close()
            print(
                f"{len(big) / 1e6:.1f} MB mail, {label}: {wall:.1f} ms wall, {cpu:.1f} ms CPU, "
                f"peak {peak / 1024:.0f} KiB allocated"
            )
        c.logout()
        print("load:", Path("/proc/loadavg").read_text().strip(), "cpus:", os.cpu_count())
    finally:
        dv.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
