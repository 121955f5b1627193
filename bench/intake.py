"""Intake throughput: how fast stored mail is handled, by 1 worker on SQLite and 1, 2 and 4
workers on PostgreSQL, each as a ratio to a bare imapclient FETCH loop over the same mailbox
in the same run, for JOIN mail and for naming orders alike; and where one message's time goes.

For each setup (a fresh Dovecot and a fresh database each):

1. JOIN: the INBOX is filled (MULTIAPPEND) with N JOIN mails from N players, spread over
   N/64 competitions of 64 teams.
2. The bare loop: one ``UID FETCH n BODY.PEEK[]`` per message over that INBOX, the way a door
   that takes messages one by one reads them.
3. The door, timed on its own: one IMAP fetch of the INBOX and ``store_many`` (one commit for
   the batch). This is the load-generating side: it is done before the workers' clock starts.
4. The burst: W worker *processes* (each its own App and engine, as separate ``pbm serve``
   would be), already started and warmed up, are released together and drain the stored
   mail with ``Inbound.process_next`` (``FOR UPDATE SKIP LOCKED`` claims), each message in
   its own transaction, to "reply queued". The clock runs from the release to the last
   worker's end.
5. Naming orders: every seat's squad naming (SECRET, TEAM NAME, 18 NAME lines; argon2 verify)
   goes through 1-4 the same way.

Printed per setup and mail kind: msgs/s, the ratio to the bare FETCH loop, the speed-up over
one PostgreSQL worker, and the worker and PostgreSQL server CPU per message (from /proc);
then the exclusive ms per message of each pipeline stage (``bench/_stages.py``) of the
one-worker runs.

Caveat: the machine's other load (printed, load average) makes wall figures indicative; the
ratios within one run and the CPU per message are the figures to compare.

    .venv/bin/python bench/intake.py [--messages 300] [--workers 1,2,4] [--strong-hash]
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from _services import (  # type: ignore[import-not-found]
    HASH_HELP,
    Bench,
    hash_name,
    join_mails,
    naming_mails,
)
from _stages import STAGES, StageTimer, instrument  # type: ignore[import-not-found]
from imapclient import IMAPClient
from sqlalchemy import create_engine, text

from pbm.mail.imap import ImapMailbox
from tests.services import start_postgres

KINDS = ("JOIN", "naming orders")


def bare_fetch_loop(bench: Bench) -> tuple[float, int]:
    """msgs/s of one-UID-per-command FETCH over the INBOX, and the count."""
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
    assert total > 0
    c.logout()
    return len(uids) / loop_s, len(uids)


def fill(bench: Bench, mails: list[bytes]) -> None:
    dv = bench.dovecot
    filler = IMAPClient(dv.host, port=dv.imap, ssl=False, timeout=60)
    filler.login("pbm", "secret")
    for k in range(0, len(mails), 100):
        filler.multiappend("INBOX", mails[k : k + 100])
    filler.logout()


def postgres_cpu_seconds(postmaster: int) -> float:
    """CPU seconds used so far by this cluster: the postmaster and its processes, live or
    reaped (other clusters on the machine are not counted)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (proc / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(proc.name) == postmaster or int(fields[1]) == postmaster:
                # utime, stime, and cutime, cstime: the postmaster's reaped backends (a
                # worker's backend exits with it, before the second reading)
                total += sum(int(f) for f in fields[11:15])
    return total / tick


def _worker(config: Any, ready: Any, start: Any) -> tuple[int, float, dict[str, float]]:
    """One worker process: drain stored mail once released; (handled, CPU s, stage s)."""
    from pbm.app import App
    from pbm.daemon import _warm_up
    from pbm.logs import configure_logging

    configure_logging(level="warning")
    _warm_up()
    app = App.from_config(config)
    timer = StageTimer()
    done = 0
    ready.release()
    start.wait()
    cpu = time.process_time()
    try:
        with instrument(timer):
            after = 0
            while (got := app.inbound.process_next(after)) is not None:
                after = got[0]
                done += 1
    finally:
        app.close()
    return done, time.process_time() - cpu, dict(timer.seconds)


class Result:
    def __init__(self, rate: float, loop: float, door: float, cpu: float, pg_cpu: float) -> None:
        self.rate, self.loop, self.door, self.cpu, self.pg_cpu = rate, loop, door, cpu, pg_cpu


def burst(
    bench: Bench, mails: list[bytes], workers: int, timer: StageTimer | None, postmaster: int
) -> Result:
    """Fill, time the bare loop and the door, then release the workers: see the docstring."""
    from concurrent.futures import ProcessPoolExecutor

    n = len(mails)
    fill(bench, mails)
    loop_rate, counted = bare_fetch_loop(bench)
    assert counted == n
    dv = bench.dovecot
    ctx = multiprocessing.get_context("spawn")
    manager = ctx.Manager()
    ready, start = manager.Semaphore(0), manager.Event()
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        futures = [pool.submit(_worker, bench.config, ready, start) for _ in range(workers)]
        mailbox = ImapMailbox(dv.host, dv.imap, username="pbm", password="secret", security="plain")
        mailbox.connect()
        t = time.perf_counter()
        fetched = mailbox.fetch_new()
        bench.app.inbound.store_many([fm.raw for fm in fetched], "imap")
        door_s = time.perf_counter() - t
        for fm in fetched:
            mailbox.mark_processed(fm.uid)
        mailbox.close()
        assert len(fetched) == n, (len(fetched), n)
        for _ in range(workers):
            ready.acquire()  # every worker imported, warmed up and connected
        pg0 = postgres_cpu_seconds(postmaster)
        t = time.perf_counter()
        start.set()
        results = [f.result() for f in futures]
        elapsed = time.perf_counter() - t
        pg_cpu = postgres_cpu_seconds(postmaster) - pg0
    manager.shutdown()
    handled = sum(r[0] for r in results)
    assert handled == n, (handled, n)
    if timer is not None:
        for _, _, seconds in results:
            for name, s in seconds.items():
                timer.seconds[name] += s
    cpu = sum(r[1] for r in results)
    return Result(n / elapsed, loop_rate, n / door_s, cpu / n, pg_cpu / n)


@contextlib.contextmanager
def postgres() -> Iterator[tuple[Callable[[str], str], int]]:
    """A throwaway cluster; yields a function that makes a fresh database by name, and the
    postmaster's pid."""
    root = Path(tempfile.mkdtemp(prefix="pbm-pg-"))
    (root / "pg").mkdir()
    pg = start_postgres(root / "pg", root)
    url = next(pg)

    def database(name: str) -> str:
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(text(f"CREATE DATABASE {name}"))
        admin.dispose()
        return url.rsplit("/", 1)[0] + f"/{name}"

    postmaster = int((root / "pg" / "data" / "postmaster.pid").read_text().split()[0])
    try:
        yield database, postmaster
    finally:
        with contextlib.suppress(StopIteration):
            next(pg)
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=300, help="mails per kind (default 300)")
    ap.add_argument("--workers", default="1,2,4", help="PostgreSQL worker counts (1,2,4)")
    ap.add_argument("--strong-hash", action="store_true", help=HASH_HELP)
    args = ap.parse_args()
    n = args.messages
    setups = [("sqlite", 1)] + [("postgresql", int(w)) for w in args.workers.split(",")]
    print(
        f"intake burst: {n} mails per kind; argon2id {hash_name(args.strong_hash)}; "
        f"{multiprocessing.cpu_count()} cores; load average before "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print("  (PostgreSQL: throwaway cluster, fsync=off, synchronous_commit=off)")
    head = f"  {'setup':<19} {'msg/s':>7} {'bare loop':>9} {'ratio':>6} {'vs 1 pg':>7}"
    head += f" {'door msg/s':>10} {'worker ms':>9} {'pg ms':>6}"
    stages: dict[str, StageTimer] = {}
    one_pg: dict[str, float] = {}
    rows: dict[str, list[str]] = {}
    print(head)
    with postgres() as (database, postmaster):
        for k, (engine, workers) in enumerate(setups):
            url = database(f"bench{k}") if engine == "postgresql" else None
            bench = Bench(
                competitions=-(-n // 64), teams=64, strong_hash=args.strong_hash, db_url=url
            )
            label = f"{engine}, {workers} worker{'s' if workers > 1 else ''}"
            try:
                for kind in KINDS:
                    if kind == "JOIN":
                        mails = [raw for _, raw in join_mails(bench, n)]
                    else:
                        mails = [raw for _, raw in naming_mails(bench)]
                    timer = None
                    if workers == 1:
                        timer = stages.setdefault(f"{kind}, {engine}", StageTimer())
                    r = burst(bench, mails, workers, timer, postmaster)
                    if engine == "postgresql" and workers == 1:
                        one_pg[kind] = r.rate
                    up = "-"
                    if engine == "postgresql" and kind in one_pg:
                        up = f"{r.rate / one_pg[kind]:.2f}x"
                    rows.setdefault(kind, []).append(
                        f"  {label:<19} {r.rate:7.1f} {r.loop:9.0f} {r.rate / r.loop:6.3f} "
                        f"{up:>7} {r.door:10.0f} {r.cpu * 1000:9.2f} "
                        f"{r.pg_cpu * 1000 if engine == 'postgresql' else 0:6.2f}"
                    )
                    print(f"{rows[kind][-1]}  [{kind}]", flush=True)
            finally:
                bench.close()
    for kind in KINDS:
        print(f"\n{kind}:\n{head}")
        print("\n".join(rows[kind]))
    print(
        "\n  ratio = msg/s / bare FETCH loop msg/s (same mailbox, same run); vs 1 pg = speed-up"
        " over one PostgreSQL worker;\n  door = IMAP fetch + store raw (not in the workers'"
        " clock); worker ms / pg ms = CPU per message of\n  the worker processes / of the"
        " PostgreSQL server"
    )
    print("\nwhere one message's time goes (exclusive wall ms per message, one worker):")
    names = list(stages)
    print(f"  {'stage':<36}" + "".join(f" {name:>24}" for name in names))
    for stage in (*STAGES, "sum"):
        cells = []
        for name in names:
            t = stages[name]
            total = t.total() if stage == "sum" else t.seconds.get(stage, 0.0)
            cells.append(f" {total / n * 1000:21.3f} ms")
        print(f"  {stage:<36}" + "".join(cells))
    print(f"\nload average after {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
