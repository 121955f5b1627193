"""How fast one deadline resolves when many matches fall due at once.

    python bench/turn_sweep.py [MATCHES ...]      (default: 1000 2000)

For each MATCHES, MATCHES/2 mini-tournaments of four teams (2*MATCHES teams) are created on
SQLite with their squads (no mail), drawn, and their selection stages played (setup, not
timed). Then every competition's Turn 1 is given the same deadline and ONE scheduler pass is
timed: every match is frozen and resolved to drinks, its report stored, and every team's turn
report and each GM digest queued in the outbox. Peak memory is the process's peak RSS; the
CPU time is printed too, since a shared machine's wall time says more about its load.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select, update  # noqa: E402

from pbm.app import App  # noqa: E402
from pbm.clock import FixedClock  # noqa: E402
from pbm.config import parse_config  # noqa: E402
from pbm.db.models import OutboxMessage, Player, Seat, Turn, TurnStatus  # noqa: E402
from pbm.db.session import transaction  # noqa: E402
from pbm.flungo import reports, turns  # noqa: E402
from pbm.flungo.competitions import base_squad, create_competition  # noqa: E402
from pbm.logs import configure_logging  # noqa: E402

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def build(app: App, clock: FixedClock, competitions: int) -> None:
    """``competitions`` minis with four named seats each, drawn and past selection."""
    with transaction(app.sessions) as s:
        for c in range(competitions):
            comp = create_competition(
                s,
                clock,
                code=f"B{c:05d}",
                name=f"Bench {c}",
                fmt="t20",
                teams=4,
                naming_deadline=START + timedelta(days=1),
                seed=f"bench-{c}",
                kind="mini",
                schedule="every 1h",
                settings={"hold_share": 1.0, "reminders": [], "early": 0},
            )
            for n in range(1, 5):
                player = Player(address=f"p{c}-{n}@example.test", created_at=clock.now())
                s.add(player)
                s.flush()
                team = base_squad(comp, n)
                from dataclasses import replace

                team = replace(team, name=f"Side {c}-{n}")
                s.add(
                    Seat(
                        competition_id=comp.id,
                        player_id=player.id,
                        number=n,
                        secret_hash="",
                        secret_version=1,
                        team=team.to_json(),
                        named=True,
                        naming_version=1,
                        joined_at=clock.now(),
                    )
                )
            s.flush()
            s.refresh(comp)
            first = turns.start_competition(s, app.config, clock, comp)
            reports.queue_fixtures(s, app.config, clock, comp, first)
    clock.advance(timedelta(hours=1, seconds=1))
    turns.tick(app.sessions, app.config, clock)  # every selection stage


def sweep(matches: int) -> tuple[float, int, int]:
    """Seconds for the one timed pass, reports stored and mails queued by it."""
    tmp = Path(tempfile.mkdtemp(prefix="pbm-sweep-"))
    config = parse_config(
        {
            "server": {"address": "pbm@example.test"},
            "database": {"url": f"sqlite:///{tmp}/sweep.sqlite3"},
            "gm": {"address": "gm@example.test", "secret": "gm-secret-horse-battery"},
            "security": {"secret_key": "bench-key-0123456789abcdef"},
            "smtp_listener": {"host": "127.0.0.1", "port": 0},
            "maildir": {"path": str(tmp / "out")},
        },
        env={},
    )
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


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [1000, 2000]
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
