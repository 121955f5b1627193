"""Intake throughput: how fast stored mail is handled, by 1 worker on SQLite and 1, 2 and 4
workers on PostgreSQL, each as a ratio to a bare imapclient FETCH loop over the same mailbox
in the same run, for JOIN mail, naming orders and match orders alike; and where one message's
time goes.

For each setup (a fresh Dovecot and a fresh database each):

1. JOIN: the INBOX is filled (MULTIAPPEND) with N JOIN mails from N players, spread over
   N/64 competitions of 64 teams (``--one-competition``: one of N teams, the burst before a
   deadline, where JOINs are handled one at a time whatever the workers: seat numbers).
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
6. Match orders: naming is closed and the daemon's passes make the draw and open each
   competition's first stage (untimed, its mail sent to the sink); then every seat's orders
   for that match (SECRET, XI, captain, batting order, an eight-line bowling plan, the toss
   and a conditional order: ``_services.MATCH_ORDERS``) go through 1-4 the same way. The
   order language's parse (``engine/``) is part of the handler's time.

Printed per setup and mail kind: msgs/s, the ratio to the bare FETCH loop, the speed-up over
one PostgreSQL worker, and the CPU per message of the workers and of their PostgreSQL
backends (from /proc); then the exclusive ms per message of each pipeline stage
(``bench/_stages.py``) of the one-worker runs, and their "floor": the stages no database
design removes (reading the mail and its orders, playing the practice a match-orders answer
shows, rendering and composing the answer), with the rate that alone allows one process.

Caveat: the machine's other load (printed, load average) makes wall figures indicative; the
ratios within one run and the CPU per message are the figures to compare.

    .venv/bin/python bench/intake.py [--messages 300] [--workers 1,2,4 | 0] [--strong-hash]
        [--one-competition] [--cpu-stages]
"""

from __future__ import annotations

import argparse
import contextlib
import json
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
    mails_by_kind,
)
from _stages import (  # type: ignore[import-not-found]
    DRAIN_STAGES,
    DRAIN_TARGETS,
    FLOOR,
    STAGES,
    StageTimer,
    instrument,
)
from imapclient import IMAPClient
from sqlalchemy import create_engine, text

from pbm.mail.imap import ImapMailbox
from tests.services import start_postgres

KINDS = ("JOIN", "naming orders", "match orders")


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


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) a process on this machine used so far; 0 if none."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _worker(
    config: Any, ready: Any, start: Any, cpu_stages: bool = False
) -> tuple[int, float, float, dict[str, float]]:
    """One worker process: drain stored mail once released; (handled, CPU s, its PostgreSQL
    backend's CPU s, stage s)."""
    from sqlalchemy import text

    from pbm.app import App
    from pbm.daemon import _warm_up
    from pbm.ops.logs import configure_logging

    configure_logging(level="warning")
    _warm_up()
    app = App.from_config(config)
    backend = 0
    if app.db_engine.dialect.name == "postgresql":
        # The pool keeps this one connection: every transaction below runs on it.
        with app.db_engine.connect() as c:
            backend = int(c.execute(text("SELECT pg_backend_pid()")).scalar_one())
    timer = StageTimer(time.process_time if cpu_stages else time.perf_counter)
    done = 0
    said: dict[str, int] = {}
    if tally := os.environ.get("PBM_BENCH_STATEMENTS"):
        # Each statement the worker sends, by its text: what a mail asks of the database.
        from sqlalchemy import event

        @event.listens_for(app.db_engine, "before_cursor_execute")
        def _said(_c: Any, _cur: Any, statement: str, *_a: Any) -> None:
            said[statement] = said.get(statement, 0) + 1

    ready.release()
    start.wait()
    cpu, pg = time.process_time(), cpu_seconds(backend)
    try:
        with instrument(timer):
            after = 0
            # As the daemon's pass drains them: in batches of one commit (SQLite).
            while got := app.inbound.process_pending(after):
                after = got[-1][0]
                done += len(got)
        cpu, pg = time.process_time() - cpu, cpu_seconds(backend) - pg
        if tally:
            out = Path(tally) / f"{os.getpid()}-{time.time_ns()}.json"
            out.write_text(json.dumps({"mails": done, "statements": said}))
    finally:
        app.close()
    return done, cpu, pg, dict(timer.seconds)


class Result:
    def __init__(
        self, rate: float, loop: float, door: float, cpu: float, pg_cpu: float, wal: float
    ) -> None:
        self.rate, self.loop, self.door, self.cpu, self.pg_cpu = rate, loop, door, cpu, pg_cpu
        self.wal = wal


def _wal_lsn(bench: Bench) -> str | None:
    """PostgreSQL's WAL insert position now (None on SQLite)."""
    if bench.app.db_engine.dialect.name != "postgresql":
        return None
    with bench.app.db_engine.connect() as c:
        return str(c.execute(text("SELECT pg_current_wal_insert_lsn()")).scalar_one())


def _wal_bytes_since(bench: Bench, lsn: str | None) -> float:
    """WAL bytes written since ``lsn`` (0 on SQLite)."""
    if lsn is None:
        return 0.0
    with bench.app.db_engine.connect() as c:
        query = text("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), CAST(:l AS pg_lsn))")
        return float(c.execute(query, {"l": lsn}).scalar_one())


def _door(bench: Bench, n: int, timer: StageTimer | None) -> float:
    """The door on its own: one IMAP fetch of the INBOX and ``store_many``; its seconds."""
    dv = bench.dovecot
    mailbox = ImapMailbox(dv.host, dv.imap, username="pbm", password="secret", security="plain")
    mailbox.connect()
    t = time.perf_counter()
    fetched = mailbox.fetch_new()
    with instrument(timer) if timer is not None else contextlib.nullcontext():
        bench.app.inbound.store_many([fm.raw for fm in fetched], "imap")
    door_s = time.perf_counter() - t
    for fm in fetched:
        mailbox.mark_processed(fm.uid)
    mailbox.close()
    assert len(fetched) == n, (len(fetched), n)
    return door_s


def burst(
    bench: Bench,
    mails: list[bytes],
    workers: int,
    timer: StageTimer | None,
    cpu_stages: bool = False,
) -> Result:
    """Fill, time the bare loop and the door, then release the workers: see the docstring."""
    from concurrent.futures import ProcessPoolExecutor

    n = len(mails)
    fill(bench, mails)
    loop_rate, counted = bare_fetch_loop(bench)
    assert counted == n
    ctx = multiprocessing.get_context("spawn")
    manager = ctx.Manager()
    ready, start = manager.Semaphore(0), manager.Event()
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        futures = [
            pool.submit(_worker, bench.config, ready, start, cpu_stages) for _ in range(workers)
        ]
        try:
            door_s = _door(bench, n, timer)
            for _ in range(workers):
                ready.acquire()  # every worker imported, warmed up and connected
            lsn = _wal_lsn(bench)
            t = time.perf_counter()
        finally:
            start.set()  # also on a failure: the pool's exit waits for every worker
        results = [f.result() for f in futures]
        elapsed = time.perf_counter() - t
        wal = _wal_bytes_since(bench, lsn)
    manager.shutdown()
    handled = sum(r[0] for r in results)
    assert handled == n, (handled, n)
    if timer is not None:
        for *_, seconds in results:
            for name, s in seconds.items():
                timer.seconds[name] += s
    cpu, pg_cpu = sum(r[1] for r in results), sum(r[2] for r in results)
    return Result(n / elapsed, loop_rate, n / door_s, cpu / n, pg_cpu / n, wal / n)


def drain(bench: Bench, timer: StageTimer | None) -> tuple[float, int]:
    """The outbox's drain in this process, through an ``SmtpSender`` to the bench's sink
    (another process): CPU seconds a mail sent, and how many were sent."""
    from pbm.mail.smtp import SmtpSender

    sender = SmtpSender("127.0.0.1", bench.sink.port, security="plain", timeout=30)
    sender.connect()
    outbox = bench.app.outbox(sender)
    before = len(bench.sink.arrivals)
    with instrument(timer, DRAIN_TARGETS) if timer else contextlib.nullcontext():
        t = time.process_time()
        sent, failed = outbox.flush()
        cpu = time.process_time() - t
    sender.close()
    assert failed == 0, (sent, failed)
    assert bench.sink.wait_for(before + sent, 60)
    return cpu / max(sent, 1), sent


@contextlib.contextmanager
def postgres() -> Iterator[Callable[[str], str]]:
    """A throwaway cluster; yields a function that makes a fresh database by name."""
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

    try:
        yield database
    finally:
        with contextlib.suppress(StopIteration):
            next(pg)
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=300, help="mails per kind (default 300)")
    ap.add_argument(
        "--workers", default="1,2,4", help="PostgreSQL worker counts (1,2,4; 0: SQLite alone)"
    )
    ap.add_argument("--strong-hash", action="store_true", help=HASH_HELP)
    ap.add_argument(
        "--cpu-stages",
        action="store_true",
        help="time the stages in the workers' CPU seconds, not wall (a shared machine)",
    )
    ap.add_argument(
        "--one-competition",
        action="store_true",
        help="all mail to one competition of N teams (a deadline's burst; JOIN is serial there)",
    )
    ap.add_argument(
        "--drain",
        action="store_true",
        help="then send the replies of the SQLite bursts (the outbox to the sink), CPU timed",
    )
    args = ap.parse_args()
    n = args.messages
    comps, teams = (1, max(n, 2)) if args.one_competition else (-(-n // 64), 64)
    pg_workers = [int(w) for w in args.workers.split(",") if w.strip() and int(w) > 0]
    setups = [("sqlite", 1)] + [("postgresql", w) for w in pg_workers]
    print(
        f"intake burst: {n} mails per kind; argon2id {hash_name(args.strong_hash)}; "
        f"{multiprocessing.cpu_count()} cores; load average before "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(
        f"  {comps} competition(s) of {teams} teams; "
        "PostgreSQL: throwaway cluster, fsync=off, synchronous_commit=off"
    )
    head = f"  {'setup':<19} {'msg/s':>7} {'bare loop':>9} {'ratio':>6} {'vs 1 pg':>7}"
    head += f" {'door msg/s':>10} {'worker ms':>9} {'pg ms':>6} {'WAL kB':>6}"
    stages: dict[str, StageTimer] = {}
    one_pg: dict[str, float] = {}
    rows: dict[str, list[str]] = {}
    drains: dict[str, tuple[float, int, StageTimer]] = {}
    print(head)
    with postgres() if pg_workers else contextlib.nullcontext(None) as database:
        for k, (engine, workers) in enumerate(setups):
            url = database(f"bench{k}") if database and engine == "postgresql" else None
            bench = Bench(competitions=comps, teams=teams, strong_hash=args.strong_hash, db_url=url)
            label = f"{engine}, {workers} worker{'s' if workers > 1 else ''}"
            try:
                opened = lambda k: print(f"  ({k} first stages open for the match orders)")  # noqa: E731
                for kind, mails in mails_by_kind(bench, n, opened):
                    timer = None
                    if workers == 1:
                        clock = time.process_time if args.cpu_stages else time.perf_counter
                        timer = stages.setdefault(f"{kind}, {engine}", StageTimer(clock))
                    if args.drain and engine == "sqlite":
                        drain(bench, None)  # what was queued before: not the burst's
                    r = burst(bench, mails, workers, timer, args.cpu_stages)
                    if engine == "postgresql" and workers == 1:
                        one_pg[kind] = r.rate
                    up = "-"
                    if engine == "postgresql" and kind in one_pg:
                        up = f"{r.rate / one_pg[kind]:.2f}x"
                    rows.setdefault(kind, []).append(
                        f"  {label:<19} {r.rate:7.1f} {r.loop:9.0f} {r.rate / r.loop:6.3f} "
                        f"{up:>7} {r.door:10.0f} {r.cpu * 1000:9.2f} "
                        f"{r.pg_cpu * 1000 if engine == 'postgresql' else 0:6.2f} "
                        f"{r.wal / 1000:6.1f}"
                    )
                    print(f"{rows[kind][-1]}  [{kind}]", flush=True)
                    if args.drain and engine == "sqlite":
                        dt = StageTimer(time.process_time)
                        drains[kind] = (*drain(bench, dt), dt)
            finally:
                bench.close()
    for kind in KINDS:
        print(f"\n{kind}:\n{head}")
        print("\n".join(rows[kind]))
    print(
        "\n  ratio = msg/s / bare FETCH loop msg/s (same mailbox, same run); vs 1 pg = speed-up"
        " over one PostgreSQL worker;\n  door = IMAP fetch + store raw (not in the workers'"
        " clock); worker ms / pg ms = CPU per message of\n  the worker processes / of their"
        " PostgreSQL backends; WAL kB = PostgreSQL WAL written per message"
    )
    unit = "CPU" if args.cpu_stages else "wall"
    print(f"\nwhere one message's time goes (exclusive {unit} ms per message, one worker):")
    names = list(stages)
    print(f"  {'stage':<36}" + "".join(f" {name:>24}" for name in names))
    for stage in (*STAGES, "sum"):
        cells = []
        for name in names:
            t = stages[name]
            total = t.total() if stage == "sum" else t.seconds.get(stage, 0.0)
            cells.append(f" {total / n * 1000:21.3f} ms")
        print(f"  {stage:<36}" + "".join(cells))
    # The floor: what a message costs with a free database and a free handler.
    floors = [sum(stages[name].seconds.get(st, 0.0) for st in FLOOR) / n for name in names]
    print(
        f"  {'floor (MIME, parse, practice, reply)':<36}"
        + "".join(f" {f * 1000:21.3f} ms" for f in floors)
    )
    print(f"  {'  so at most':<36}" + "".join(f" {1 / f if f else 0:19.0f} msg/s" for f in floors))
    if drains:
        print(
            "\nthe outbox's drain of those replies (CPU ms a mail, SQLite, SmtpSender to a sink):"
        )
        print(f"  {'stage':<36}" + "".join(f" {kind:>16}" for kind in drains))
        for stage in DRAIN_STAGES:
            cells = [
                f" {t.seconds.get(stage, 0.0) / k * 1000:13.3f} ms" for _, k, t in drains.values()
            ]
            print(f"  {stage:<36}" + "".join(cells))
        print(
            f"  {'whole drain':<36}"
            + "".join(f" {c * 1000:13.3f} ms" for c, _, _ in drains.values())
        )
        print(f"  {'mails sent':<36}" + "".join(f" {k:16d}" for _, k, _ in drains.values()))
    print(f"\nload average after {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
