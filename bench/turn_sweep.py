"""How fast one deadline resolves when many matches fall due at once.

    python bench/turn_sweep.py [MATCHES ...]                              (default: 1000 2000)
    python bench/turn_sweep.py --db postgresql --workers 1,2,4 [MATCHES ...]

SQLite (the default): for each MATCHES, MATCHES/2 mini-tournaments of four teams (2*MATCHES
teams) are created with their squads (no mail), drawn, and their selection stages played
(setup, not timed). Then every competition's Turn 1 is given the same deadline and ONE
scheduler pass is timed: every match is frozen and resolved to drinks, its report stored, and
every team's turn report and each GM digest queued in the outbox. Peak memory is the process's
peak RSS; the CPU time is printed too, since a shared machine's wall time says more about its
load.

PostgreSQL (``--db postgresql``, a throwaway cluster): large competitions, the ones a stage is
split by match for. MATCHES are spread over knockouts of at most 500 first-round matches each
(1,000 matches: two knockouts of 1,012 teams, 12 byes each), drawn and past selection in a
template database (not timed). For each worker count a copy of the template is made, Turn 1
falls due, and that many worker *processes* (not threads: the engine is CPU-bound Python, and
threads would share one GIL) run scheduler passes until every knockout's Turn 1 is done:
frozen and split into one row per match (``[turns] split_matches``), the matches claimed in
batches and resolved, each stage assembled once, its reports and mails queued. The time is
from the workers' start (they have imported pbm and connected) to the last stage done; the
speed-up is over one worker, in the same run. The matches each worker resolved are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import resource
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, func, select, text, update  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from pbm.app import App  # noqa: E402
from pbm.core.clock import FixedClock  # noqa: E402
from pbm.core.config import Config, parse_config  # noqa: E402
from pbm.db.models import (  # noqa: E402
    Competition,
    OutboxMessage,
    Turn,
    TurnMatch,
    TurnStatus,
)
from pbm.db.session import transaction  # noqa: E402
from pbm.games.flungo import reports, turn_mail, turns  # noqa: E402
from pbm.games.flungo.competitions import create_competition  # noqa: E402
from pbm.games.flungo.fixtures import seat_named_sides, start_drawn_mini  # noqa: E402
from pbm.games.flungo.turns import split as turn_split  # noqa: E402
from pbm.games.flungo.turns import sweep as turn_sweep  # noqa: E402
from pbm.ops.logs import configure_logging  # noqa: E402

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _seat_teams(s: Session, clock: FixedClock, comp: Competition, teams: int, prefix: str) -> None:
    """Seat ``teams`` named sides in ``comp`` (players ``<prefix>-<n>@example.test``)."""
    addresses = [f"{prefix}-{n}@example.test" for n in range(1, teams + 1)]
    seat_named_sides(s, clock, comp, addresses, lambda n: f"Side {prefix[1:]}-{n}")


def build(app: App, clock: FixedClock, competitions: int) -> None:
    """``competitions`` minis with four named seats each, drawn and past selection."""
    with transaction(app.sessions) as s:
        for c in range(competitions):
            comp, first = start_drawn_mini(
                s,
                app.config,
                clock,
                f"B{c:05d}",
                settings={"reminders": [], "early": 0},
                seed=f"bench-{c}",
                addresses=[f"p{c}-{n}@example.test" for n in range(1, 5)],
                side_name=lambda n, c=c: f"Side {c}-{n}",
            )
            reports.queue_fixtures(s, app.config, clock, comp, first)
    clock.advance(timedelta(hours=1, seconds=1))
    turns.tick(app.sessions, app.config, clock)  # every selection stage


def sweep(matches: int) -> tuple[float, int, int]:
    """Seconds for the one timed pass, reports stored and mails queued by it."""
    tmp = Path(tempfile.mkdtemp(prefix="pbm-sweep-"))
    config = _config(f"sqlite:///{tmp}/sweep.sqlite3", tmp)
    configure_logging("console", "warning", ())
    clock = FixedClock(START)
    app = App.from_config(config, clock, upgrade=True)
    try:
        t0 = time.perf_counter()
        build(app, clock, matches // 2)
        setup = time.perf_counter() - t0
        deadline = clock.now() + timedelta(minutes=30)
        with transaction(app.sessions) as s:
            s.execute(update(Turn).where(Turn.status == TurnStatus.OPEN).values(deadline=deadline))
            queued_before = s.scalar(select(func.count()).select_from(OutboxMessage)) or 0
            done_before = (
                s.scalar(
                    select(func.count()).where(
                        Turn.status == TurnStatus.DONE, Turn.report.is_not(None)
                    )
                )
                or 0
            )
        clock.set(deadline)
        t1, c1 = time.perf_counter(), time.process_time()
        turns.tick(app.sessions, app.config, clock)
        seconds = time.perf_counter() - t1
        cpu = time.process_time() - c1
        with transaction(app.sessions) as s:
            queued = (
                s.scalar(select(func.count()).select_from(OutboxMessage)) or 0
            ) - queued_before
            done = (
                s.scalar(
                    select(func.count()).where(
                        Turn.status == TurnStatus.DONE, Turn.report.is_not(None)
                    )
                )
                or 0
            ) - done_before
        print(f"  setup (not timed): {setup:.1f} s; the timed pass used {cpu:.1f} s of CPU")
        return seconds, done, queued
    finally:
        app.close()


def _config(url: str, tmp: Path) -> Config:
    return parse_config(
        {
            "server": {"address": "pbm@example.test"},
            "database": {"url": url},
            "gm": {"address": "gm@example.test", "secret": "gm-secret-horse-battery"},
            "security": {"secret_key": "bench-key-0123456789abcdef"},
            "smtp_listener": {"host": "127.0.0.1", "port": 0},
            "maildir": {"path": str(tmp / "out")},
        },
        env={},
    )


#: A knockout's first round has at most this many matches here (pbm takes 1,024 teams).
PER_KNOCKOUT = 500


def knockout_sizes(matches: int) -> list[tuple[int, int]]:
    """(teams, first-round matches) of each knockout that together play ``matches``: a
    knockout of ``p`` matches has ``p`` plus half its bracket teams (the rest have byes)."""
    count = -(-matches // PER_KNOCKOUT)
    out = []
    for i in range(count):
        p = matches // count + (1 if i < matches % count else 0)
        half = 1
        while half < p:
            half *= 2
        out.append((p + half, p))
    return out


def build_knockouts(app: App, clock: FixedClock, matches: int) -> list[int]:
    """Knockouts playing ``matches`` first-round matches in all, drawn and past selection
    (resolved in one piece: the setup is not what is timed). Returns their team counts."""
    sizes = knockout_sizes(matches)
    with transaction(app.sessions) as s:
        for c, (teams, _) in enumerate(sizes):
            comp = create_competition(
                s,
                clock,
                code=f"K{c:04d}",
                name=f"Knockout {c}",
                fmt="t20",
                teams=teams,
                naming_deadline=START + timedelta(days=1),
                seed=f"knockout-{c}",
                kind="knockout",
                schedule="every 1h",
                settings={"hold_share": 1.0, "reminders": [], "early": 0},
            )
            _seat_teams(s, clock, comp, teams, prefix=f"k{c}")
            s.flush()
            s.refresh(comp)
            turns.start_competition(s, app.config, clock, comp)
    clock.advance(timedelta(hours=1, seconds=1))
    whole = replace(app.config, turns=replace(app.config.turns, split_matches=0))
    turns.tick(app.sessions, whole, clock)  # every selection stage
    return [t for t, _ in sizes]


class _CpuIn:
    """Wraps a function to add up the CPU seconds spent in it (this process's)."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.seconds = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        c0 = time.process_time()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.seconds += time.process_time() - c0


def _pg_worker(
    url: str, tmp: str, index: int, at: str, go: object
) -> tuple[int, float, float, float, float, float]:
    """One worker process: scheduler passes until every competition's Turn 1 is done.
    Returns (matches it resolved, its CPU seconds, of them in the engine's matches, in the
    matches' whole share (claims, jobs read, results written: what workers share), in
    assembling stages (the part no other worker can share), and in queueing split stages'
    report mails (shared again: rows of ``mail_batch`` mails)."""
    configure_logging("console", "warning", ())
    # The bench's own meters: CPU in the parallel part (each match) and the serial part.
    # (patched where they are looked up: the split-stage workers' module, and the tick's)
    engine_cpu = _CpuIn(turn_split.resolve_match)
    serial_cpu = _CpuIn(turn_split._resolve_step)
    claim_cpu = _CpuIn(turn_split.claim_matches)
    store_cpu = _CpuIn(turn_split.store_results)
    complete_cpu = _CpuIn(turn_split._complete)
    mail_cpu = _CpuIn(turn_mail.work_mails)
    turn_mail.work_mails = mail_cpu  # type: ignore[assignment]
    turn_split._complete = complete_cpu  # type: ignore[assignment]
    turn_split.resolve_match = engine_cpu  # type: ignore[assignment]
    turn_split._resolve_step = serial_cpu  # type: ignore[assignment]
    turn_sweep._resolve_step = serial_cpu  # type: ignore[assignment]
    turn_split.claim_matches = claim_cpu  # type: ignore[assignment]
    turn_split.store_results = store_cpu  # type: ignore[assignment]
    config = _config(url, Path(tmp))
    clock = FixedClock(datetime.fromisoformat(at))
    app = App.from_config(config, clock)
    worker = f"bench-{index}"
    try:
        with transaction(app.sessions) as s:
            s.execute(select(1))  # connected before the start
        go.wait()  # type: ignore[attr-defined]
        c0 = time.process_time()
        while True:
            ran = turns.tick(app.sessions, config, clock, worker)
            if ran:
                continue
            with transaction(app.sessions) as s:
                left = (
                    s.scalar(
                        select(func.count()).where(
                            Turn.stage_key == "T1", Turn.status != TurnStatus.DONE
                        )
                    )
                    or 0
                ) + turn_mail.mails_pending(s)  # an assembled stage's mails, too
            if not left:
                break
            time.sleep(0.02)  # another worker holds what is left (a freeze, an assembly)
        cpu = time.process_time() - c0
        with transaction(app.sessions) as s:
            mine = s.scalar(select(func.count()).where(TurnMatch.resolved_by == worker)) or 0
        # store_results ends by assembling any stage it finished (_complete): not shared.
        shared = claim_cpu.seconds + store_cpu.seconds - complete_cpu.seconds
        return int(mine), cpu, engine_cpu.seconds, shared, serial_cpu.seconds, mail_cpu.seconds
    finally:
        app.close()


def pg_sweep(sizes: list[int], workers: list[int]) -> None:
    """The PostgreSQL runs: see the module docstring."""
    from concurrent.futures import ProcessPoolExecutor

    from tests.services import start_postgres

    root = Path(tempfile.mkdtemp(prefix="pbm-sweep-pg-"))
    (root / "pg").mkdir()
    pg = start_postgres(root / "pg", root)
    pg_url = next(pg)
    configure_logging("console", "warning", ())
    admin = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    print(f"PostgreSQL, {multiprocessing.cpu_count()} cores; worker processes {workers}")
    try:
        for matches in sizes:
            template = f"tpl{matches}"
            with admin.connect() as c:
                c.execute(text(f"CREATE DATABASE {template}"))
            url = pg_url.rsplit("/", 1)[0] + f"/{template}"
            clock = FixedClock(START)
            app = App.from_config(_config(url, root), clock, upgrade=True)
            t0 = time.perf_counter()
            teams = build_knockouts(app, clock, matches)
            deadline = clock.now() + timedelta(minutes=30)
            with transaction(app.sessions) as s:
                s.execute(
                    update(Turn).where(Turn.status == TurnStatus.OPEN).values(deadline=deadline)
                )
                queued_before = s.scalar(
                    select(func.count()).where(OutboxMessage.kind == "turn-report")
                )
            app.close()
            setup = time.perf_counter() - t0
            print(
                f"{matches} matches: {len(teams)} knockout(s) of {', '.join(map(str, teams))} "
                f"teams; setup (not timed) {setup:.0f} s"
            )
            one: float | None = None
            for n in workers:
                name = f"run{matches}w{n}"
                with admin.connect() as c:
                    c.execute(text(f"CREATE DATABASE {name} TEMPLATE {template}"))
                run_url = pg_url.rsplit("/", 1)[0] + f"/{name}"
                ctx = multiprocessing.get_context("spawn")
                go = ctx.Manager().Event()
                with ProcessPoolExecutor(n, mp_context=ctx) as pool:
                    futures = [
                        pool.submit(_pg_worker, run_url, str(root), i, deadline.isoformat(), go)
                        for i in range(n)
                    ]
                    time.sleep(4.0)  # the workers import pbm and connect before the clock starts
                    t = time.perf_counter()
                    go.set()
                    results = [f.result() for f in futures]
                    seconds = time.perf_counter() - t
                check = create_engine(run_url)
                with check.connect() as c:
                    done = c.execute(
                        text(
                            "SELECT count(*) FROM turns WHERE stage_key = 'T1' AND status = 'done'"
                        )
                    ).scalar_one()
                    resolved = c.execute(
                        text("SELECT count(*) FROM turn_matches WHERE status = 'done'")
                    ).scalar_one()
                    queued = c.execute(
                        text("SELECT count(*) FROM outbox WHERE kind = 'turn-report'")
                    ).scalar_one()
                check.dispose()
                assert done == len(teams) and resolved == matches, (done, resolved)
                one = one or seconds
                cpu = sum(r[1] for r in results)
                engine = sum(r[2] for r in results)
                par = sum(r[3] for r in results)
                ser = sum(r[4] for r in results)
                mail = sum(r[5] for r in results)
                print(
                    f"  {n} worker{'s' if n > 1 else ' '}: {seconds:6.1f} s "
                    f"({1000 * seconds / matches:.1f} ms a match), speed-up {one / seconds:.2f}x; "
                    f"matches per worker {[r[0] for r in results]}; CPU {cpu:.1f} s in all: "
                    f"{par:.1f} s in the matches' rows (of it {engine:.1f} s in the engine), "
                    f"{ser:.1f} s assembling, {mail:.1f} s queueing "
                    f"{queued - queued_before} turn-report mails, the rest freezing and splitting; "
                    f"CPU per worker {[round(r[1], 1) for r in results]} s",
                    flush=True,
                )
    finally:
        admin.dispose()
        with contextlib.suppress(StopIteration):
            next(pg)
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("matches", nargs="*", type=int, help="matches due at once (1000 2000)")
    ap.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--workers", default="1,2,4", help="PostgreSQL: worker processes, 1,2,4")
    args = ap.parse_args(argv)
    sizes = args.matches or [1000, 2000]
    if args.db == "postgresql":
        pg_sweep(sizes, [int(w) for w in args.workers.split(",")])
        return
    results = {}
    for matches in sizes:
        print(f"{matches} matches ({2 * matches} teams, {matches // 2} competitions):")
        seconds, stored, queued = sweep(matches)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        results[matches] = seconds
        print(
            f"  one deadline: {seconds:.1f} s ({1000 * seconds / matches:.1f} ms a match); "
            f"{stored} turn reports stored, {queued} mails queued; peak RSS {peak:.0f} MiB"
        )
    if len(results) >= 2:
        a, b = sorted(results)[:2]
        print(f"ratio {b} / {a}: {results[b] / results[a]:.2f}x (linear is {b / a:.1f}x)")


if __name__ == "__main__":
    main(sys.argv[1:])
