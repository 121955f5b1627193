"""Intake throughput: how fast the daemon drains a pre-filled IMAP mailbox, as a ratio to a
bare imapclient FETCH loop over the same mailbox in the same run.

1. A throwaway Dovecot's INBOX is filled (MULTIAPPEND) with N JOIN mails from N players.
2. Baseline: a bare imapclient loop, one ``UID FETCH n BODY.PEEK[]`` per message, the way a
   door that takes messages one by one must read them. (One bulk FETCH of everything is
   printed too, for scale.)
3. The daemon: ``Daemon.run_once()`` passes (IMAP fetch, store raw, parse, route, apply the
   JOIN with its argon2 hash and squad, queue the reply in the outbox, commit, MOVE to
   Processed) until the INBOX is empty. Sending is left out (``_flush`` is a no-op here): the
   figure stops at "reply queued". The outbox is then flushed to an aiosmtpd sink and timed
   on its own.

Ratio = daemon msgs/s / bare FETCH msgs/s; target >= 0.5. A per-stage breakdown says where
the daemon's time goes.

    /work/venv/bin/python bench/intake.py [--messages 400] [--fast-hash]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any

from _services import Bench  # type: ignore[import-not-found]
from imapclient import IMAPClient

from pbm.daemon import Daemon, Stats
from pbm.mail.imap import ImapMailbox
from pbm.mail.smtp import SmtpSender


def join_mail(i: int, code: str) -> bytes:
    m = EmailMessage()
    m["From"] = f"Player {i} <p{i}@players.test>"
    m["To"] = "pbm@example.test"
    m["Subject"] = f"[{code}] join"
    m["Message-ID"] = f"<intake-{i}@players.test>"
    m.set_content("JOIN\n")
    return m.as_bytes().replace(b"\n", b"\r\n")


STAGES = (
    "IMAP fetch + batched MOVE",
    "  of which MOVE",
    "store raw (commit)",
    "parse+apply+queue (commit)",
    "  of which argon2 hash",
)


class IntakeOnlyDaemon(Daemon):
    """The daemon with its outbox flush switched off, so a pass ends at "reply queued"."""

    def _flush(self, stats: Stats) -> None:
        return None


class Timer:
    """Accumulates wall time per stage by wrapping callables."""

    def __init__(self) -> None:
        self.total: dict[str, float] = defaultdict(float)

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.total[name] += time.perf_counter() - t

        return timed


def bare_fetch_loop(bench: Bench) -> tuple[float, float, int]:
    """msgs/s of one-UID-per-command FETCH, msgs/s of one bulk FETCH, and the count."""
    dv = bench.dovecot
    c = IMAPClient(dv.host, port=dv.imap, ssl=False, timeout=60)
    c.login("pbm", "secret")
    c.select_folder("INBOX", readonly=True)
    uids = c.search(["ALL"])
    t = time.perf_counter()
    total = 0
    for uid in uids:
        total += len(c.fetch([uid], [b"BODY.PEEK[]"])[uid][b"BODY[]"])
    loop_s = time.perf_counter() - t
    t = time.perf_counter()
    bulk = c.fetch(uids, [b"BODY.PEEK[]"])
    bulk_s = time.perf_counter() - t
    assert len(bulk) == len(uids) and total > 0
    c.logout()
    return len(uids) / loop_s, len(uids) / bulk_s, len(uids)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=400)
    ap.add_argument(
        "--fast-hash",
        action="store_true",
        help="argon2 t=1, 1 MiB instead of the production t=2, 19 MiB",
    )
    args = ap.parse_args()
    teams = 64
    bench = Bench(competitions=-(-args.messages // teams), teams=teams, fast_hash=args.fast_hash)
    try:
        run(bench, args)
    finally:
        bench.close()


def run(bench: Bench, args: argparse.Namespace) -> None:
    dv = bench.dovecot
    n = args.messages
    filler = IMAPClient(dv.host, port=dv.imap, ssl=False, timeout=60)
    filler.login("pbm", "secret")
    mails = [join_mail(i, bench.codes[i % len(bench.codes)]) for i in range(n)]
    for k in range(0, n, 100):
        filler.multiappend("INBOX", mails[k : k + 100])
    filler.logout()

    loop_rate, bulk_rate, counted = bare_fetch_loop(bench)
    assert counted == n

    timer = Timer()
    mailbox = ImapMailbox(dv.host, dv.imap, username="pbm", password="secret", security="plain")
    mailbox.connect()
    mailbox.fetch_new = timer.wrap("IMAP fetch + batched MOVE", mailbox.fetch_new)  # type: ignore[method-assign]
    # moves are queued by mark_processed and done in one batch by the next fetch_new
    mailbox.flush = timer.wrap("  of which MOVE", mailbox.flush)  # type: ignore[method-assign]
    inbound = bench.app.inbound
    inbound.store = timer.wrap("store raw (commit)", inbound.store)  # type: ignore[method-assign]
    inbound.process = timer.wrap("parse+apply+queue (commit)", inbound.process)  # type: ignore[method-assign]
    box = bench.app.inbound.box
    box.hash = timer.wrap("  of which argon2 hash", box.hash)  # type: ignore[method-assign]
    sender = SmtpSender("127.0.0.1", bench.sink.port, security="plain")
    daemon = IntakeOnlyDaemon(bench.app, sender, [mailbox])

    processed = 0
    t = time.perf_counter()
    while processed < n:
        stats = daemon.run_once()
        if not stats.fetched:
            break
        processed += stats.processed
    intake_s = time.perf_counter() - t
    intake_rate = processed / intake_s

    # the outbox, on its own: every queued reply out to the sink
    t = time.perf_counter()
    sent, failed = daemon.outbox.flush(lambda: False)
    send_s = time.perf_counter() - t
    arrived = bench.sink.wait_for(sent, timeout=30)
    mailbox.close()
    sender.close()

    ratio = intake_rate / loop_rate
    hash_name = "t=1, 1 MiB (--fast-hash)" if args.fast_hash else "t=2, 19 MiB (default)"
    print(f"intake: {n} JOIN mails pre-filled in a Dovecot INBOX; SQLite; argon2 {hash_name}")
    print(f"  bare imapclient FETCH loop (1 UID/command): {loop_rate:8.0f} msg/s")
    print(f"  (one bulk FETCH of all, for scale:          {bulk_rate:8.0f} msg/s)")
    print(
        f"  daemon run_once to 'reply queued':          {intake_rate:8.1f} msg/s "
        f"({processed} processed in {intake_s:.2f} s)"
    )
    door = (timer.total["IMAP fetch + batched MOVE"] + timer.total["store raw (commit)"]) / max(
        processed, 1
    )
    print(
        f"  (the door alone, IMAP fetch+MOVE+store raw: {1 / door:8.0f} msg/s, "
        f"ratio {1 / door / loop_rate:.2f})"
    )
    print(
        f"  ratio daemon / bare FETCH loop: {ratio:.3f}  (target >= 0.5: "
        f"{'met' if ratio >= 0.5 else 'MISSED'})"
    )
    print("  where the daemon's time goes (ms per message):")
    for name in STAGES:
        print(f"    {name:<30} {timer.total[name] / max(processed, 1) * 1000:7.2f}")
    other = intake_s - sum(v for k, v in timer.total.items() if not k.startswith(" "))
    print(f"    {'daemon loop, other':<30} {other / max(processed, 1) * 1000:7.2f}")
    print(
        f"  outbox afterwards: {sent} sent, {failed} failed in {send_s:.2f} s "
        f"({sent / send_s:.0f} msg/s to the aiosmtpd sink"
        f"{'' if arrived else ', NOT all arrived'})"
    )


if __name__ == "__main__":
    main()
