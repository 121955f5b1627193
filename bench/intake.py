"""Intake throughput: how fast the daemon drains a pre-filled IMAP mailbox, as a ratio to a
bare imapclient FETCH loop over the same mailbox in the same run.

1. A throwaway Dovecot's INBOX is filled (MULTIAPPEND) with N JOIN mails from N players.
   Then every joined player's squad-naming orders (secret, team name, 18 names in the order
   language) go through the same measurement: argon2 *verify* instead of hash.
2. Baseline: a bare imapclient loop, one ``UID FETCH n BODY.PEEK[]`` per message, the way a
   door that takes messages one by one must read them. (One bulk FETCH of everything is
   printed too, for scale.)
3. The daemon: ``Daemon.run_once()`` passes (IMAP fetch, store the fetched batch raw in one
   commit, then per message: parse, route, apply the JOIN with its argon2 hash and squad,
   queue the reply in the outbox, commit, MOVE to Processed) until the INBOX is empty.
   Sending is left out (``_flush`` is a no-op here): the figure stops at "reply queued". The
   outbox is then flushed to an aiosmtpd sink and timed on its own.

Ratio = daemon msgs/s / bare FETCH msgs/s; target >= 0.5. A per-stage breakdown says where
the daemon's time goes.

With ``--burst``: several workers. For each setup (one worker on SQLite; 1, 2 and 4 on a
throwaway PostgreSQL) the INBOX is filled with N JOIN mails, the bare FETCH loop is timed,
then the burst: one IMAP fetch stores the batch (the door), and W worker *processes* (each
its own App, as separate ``pbm serve`` would be) drain the stored mail, claiming it with
``FOR UPDATE SKIP LOCKED``. Printed: msgs/s to "reply queued" and the ratio to the bare
FETCH loop of the same run, and the speed-up over one PostgreSQL worker.

    /work/venv/bin/python bench/intake.py [--messages 400] [--strong-hash] [--burst]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from _services import (  # type: ignore[import-not-found]
    HASH_HELP,
    Bench,
    hash_name,
    join_mails,
    naming_mails,
)
from imapclient import IMAPClient
from sqlalchemy import func, select

from pbm.daemon import Daemon, Stats
from pbm.db.models import InboundMail
from pbm.db.session import transaction
from pbm.mail.imap import ImapMailbox
from pbm.mail.smtp import SmtpSender

STAGES = (
    "IMAP fetch + MOVE",
    "  of which MOVE (batched)",
    "store raw (commit)",
    "parse+apply+queue (commit)",
    "  of which argon2",
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
        "--strong-hash",
        action="store_true",
        help=HASH_HELP,
    )
    ap.add_argument("--burst", action="store_true", help="1/2/4 workers on PostgreSQL")
    args = ap.parse_args()
    if args.burst:
        burst(args.messages, args.strong_hash)
        return
    teams = 64
    bench = Bench(
        competitions=-(-args.messages // teams), teams=teams, strong_hash=args.strong_hash
    )
    print(
        "intake from a pre-filled Dovecot INBOX; SQLite (WAL); "
        f"argon2id {hash_name(args.strong_hash)}"
    )
    try:
        sender = SmtpSender("127.0.0.1", bench.sink.port, security="plain")
        measure(bench, sender, "JOIN", [raw for _, raw in join_mails(bench, args.messages)])
        measure(bench, sender, "squad naming orders", [raw for _, raw in naming_mails(bench)])
        sender.close()
    finally:
        bench.close()


def fill(bench: Bench, mails: list[bytes]) -> None:
    dv = bench.dovecot
    filler = IMAPClient(dv.host, port=dv.imap, ssl=False, timeout=60)
    filler.login("pbm", "secret")
    for k in range(0, len(mails), 100):
        filler.multiappend("INBOX", mails[k : k + 100])
    filler.logout()


def measure(bench: Bench, sender: SmtpSender, label: str, mails: list[bytes]) -> None:
    """Fill the INBOX, time the bare FETCH loop, then the daemon draining it; print."""
    dv = bench.dovecot
    n = len(mails)
    fill(bench, mails)
    loop_rate, bulk_rate, counted = bare_fetch_loop(bench)
    assert counted == n

    timer = Timer()
    mailbox = ImapMailbox(dv.host, dv.imap, username="pbm", password="secret", security="plain")
    mailbox.connect()
    mailbox.fetch_new = timer.wrap("IMAP fetch + MOVE", mailbox.fetch_new)  # type: ignore[method-assign]
    # mark_processed queues; the next fetch_new (or the flush below) MOVEs the batch
    mailbox.flush = timer.wrap("  of which MOVE (batched)", mailbox.flush)  # type: ignore[method-assign]
    inbound = bench.app.inbound
    real = {name: getattr(inbound, name) for name in ("store_many", "process")}
    real_box = {name: getattr(inbound.box, name) for name in ("hash", "verify")}
    inbound.store_many = timer.wrap("store raw (commit)", real["store_many"])  # type: ignore[method-assign]
    inbound.process = timer.wrap("parse+apply+queue (commit)", real["process"])  # type: ignore[method-assign]
    for name, fn in real_box.items():
        setattr(inbound.box, name, timer.wrap("  of which argon2", fn))
    daemon = IntakeOnlyDaemon(bench.app, sender, [mailbox])

    processed = 0
    t = time.perf_counter()
    while processed < n:
        stats = daemon.run_once()
        if not stats.fetched:
            break
        processed += stats.processed
    last_moves = time.perf_counter()
    mailbox.flush()
    timer.total["IMAP fetch + MOVE"] += time.perf_counter() - last_moves
    intake_s = time.perf_counter() - t
    intake_rate = processed / intake_s
    mailbox.close()
    for name, fn in real.items():
        setattr(inbound, name, fn)
    for name, fn in real_box.items():
        setattr(inbound.box, name, fn)

    # the outbox, on its own: every queued reply out to the sink
    before = len(bench.sink.arrivals)
    t = time.perf_counter()
    sent, failed = daemon.outbox.flush(lambda: False)
    send_s = time.perf_counter() - t
    arrived = bench.sink.wait_for(before + sent, timeout=30)

    ratio = intake_rate / loop_rate
    per = max(processed, 1)
    door = (timer.total["IMAP fetch + MOVE"] + timer.total["store raw (commit)"]) / per
    with transaction(bench.app.sessions) as s:
        statuses = dict(
            s.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status)).all()
        )
    print(f"\n{label}: {n} mails (all stored mail so far by status: {statuses})")
    print(f"  bare imapclient FETCH loop (1 UID/command): {loop_rate:8.0f} msg/s")
    print(f"  (one bulk FETCH of all, for scale:          {bulk_rate:8.0f} msg/s)")
    print(
        f"  daemon run_once to 'reply queued':          {intake_rate:8.1f} msg/s "
        f"({processed} processed in {intake_s:.2f} s)"
    )
    print(
        f"  ratio daemon / bare FETCH loop: {ratio:.3f}  (target >= 0.5: "
        f"{'met' if ratio >= 0.5 else 'MISSED'})"
    )
    print(
        f"  (the door alone, IMAP fetch+MOVE+store raw: {1 / door:6.0f} msg/s, "
        f"ratio {1 / door / loop_rate:.2f})"
    )
    print("  where the daemon's time goes (ms per message):")
    for name in STAGES:
        print(f"    {name:<30} {timer.total[name] / per * 1000:7.2f}")
    top = sum(v for k, v in timer.total.items() if not k.startswith(" "))
    print(f"    {'daemon loop, other':<30} {(intake_s - top) / per * 1000:7.2f}")
    print(
        f"  outbox afterwards: {sent} sent, {failed} failed in {send_s:.2f} s "
        f"({sent / send_s:.0f} msg/s to the aiosmtpd sink"
        f"{'' if arrived else ', NOT all arrived'})"
    )


def _drain(config: Any, start: Any) -> int:
    """One worker process: handle stored mail until none is left; returns how many."""
    from pbm.app import App
    from pbm.logs import configure_logging

    configure_logging(level="warning")
    app = App.from_config(config)
    done = 0
    start.wait()
    try:
        while ids := app.inbound.pending_ids():
            done += sum(app.inbound.process(i) is not None for i in ids)
    finally:
        app.close()
    return done


def burst(n: int, strong_hash: bool) -> None:
    """1 worker on SQLite, then 1, 2 and 4 on PostgreSQL: see the module docstring."""
    import contextlib
    import multiprocessing
    import shutil
    import tempfile
    from concurrent.futures import ProcessPoolExecutor
    from pathlib import Path

    from sqlalchemy import create_engine, text

    from tests.services import start_postgres

    root = Path(tempfile.mkdtemp(prefix="pbm-pg-"))
    (root / "pg").mkdir()
    pg = start_postgres(root / "pg", root)
    pg_url = next(pg)
    cores = multiprocessing.cpu_count()
    print(f"burst of {n} JOIN mails; argon2id {hash_name(strong_hash)}; {cores} cores")
    print(f"  {'setup':<22} {'msg/s':>8} {'ratio to FETCH loop':>20} {'speed-up':>9}")
    one_pg: float | None = None
    try:
        for k, (engine, workers) in enumerate(
            [("sqlite", 1), ("postgresql", 1), ("postgresql", 2), ("postgresql", 4)]
        ):
            url = None
            if engine == "postgresql":
                admin = create_engine(pg_url, isolation_level="AUTOCOMMIT")
                with admin.connect() as c:
                    c.execute(text(f"CREATE DATABASE bench{k}"))
                admin.dispose()
                url = pg_url.rsplit("/", 1)[0] + f"/bench{k}"
            bench = Bench(competitions=-(-n // 64), teams=64, strong_hash=strong_hash, db_url=url)
            try:
                mails = [raw for _, raw in join_mails(bench, n)]
                fill(bench, mails)
                loop_rate, _bulk, counted = bare_fetch_loop(bench)
                assert counted == n
                dv = bench.dovecot
                mailbox = ImapMailbox(
                    dv.host, dv.imap, username="pbm", password="secret", security="plain"
                )
                mailbox.connect()
                ctx = multiprocessing.get_context("spawn")
                start = ctx.Manager().Event()
                with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
                    futures = [pool.submit(_drain, bench.config, start) for _ in range(workers)]
                    time.sleep(3.0)  # the workers import pbm and connect before the clock starts
                    t = time.perf_counter()
                    fetched = mailbox.fetch_new()
                    bench.app.inbound.store_many([fm.raw for fm in fetched], "imap")
                    start.set()
                    handled = sum(f.result() for f in futures)
                    elapsed = time.perf_counter() - t
                mailbox.close()
                assert handled == n, (handled, n)
                rate = n / elapsed
                if engine == "postgresql" and workers == 1:
                    one_pg = rate
                up = f"{rate / one_pg:8.2f}x" if engine == "postgresql" and one_pg else "       -"
                label = f"{engine}, {workers} worker{'s' if workers > 1 else ''}"
                print(f"  {label:<22} {rate:8.1f} {rate / loop_rate:20.3f} {up:>9}", flush=True)
            finally:
                bench.close()
    finally:
        with contextlib.suppress(StopIteration):
            next(pg)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
