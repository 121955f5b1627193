"""PostgreSQL's fixed costs a mail pays outside its own statements: CPU of this process and of
its backend (from /proc) for a transaction of one statement as the pool hands it out (the
old ``pool_pre_ping`` against ``make_db_engine``'s ping of an idle connection only), and for
one statement as psycopg 3 sends it (``prepare_threshold``: None never prepares, 5 is
psycopg's default, 0 prepares at once). Alternated in rounds, so the machine's load falls on
each alike.

    .venv/bin/python bench/pg_edges.py [--rounds 3] [--n 3000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as "python bench/x.py" from anywhere
    sys.path.insert(0, str(ROOT))

from intake import cpu_seconds  # type: ignore[import-not-found]  # noqa: E402
from sqlalchemy import Engine, create_engine, text  # noqa: E402

from pbm.db.session import make_db_engine  # noqa: E402
from tests.services import start_postgres  # noqa: E402

#: A statement that has a plan worth keeping (three relations), on the catalogue.
JOINED = text(
    "SELECT c.relname, n.nspname, c.reltuples FROM pg_class c"
    " JOIN pg_namespace n ON n.oid = c.relnamespace"
    " LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = 1 WHERE c.oid = :x"
)


def timed(db_engine: Engine, n: int, run: Callable[[Engine, int], None]) -> tuple[float, float]:
    """µs of CPU a unit, (this process, the backend), after a warm-up of 200."""
    with db_engine.connect() as c:
        pid = int(c.execute(text("SELECT pg_backend_pid()")).scalar_one())
    run(db_engine, 200)
    w, b = time.process_time(), cpu_seconds(pid)
    run(db_engine, n)
    return (time.process_time() - w) / n * 1e6, (cpu_seconds(pid) - b) / n * 1e6


def transactions(db_engine: Engine, n: int) -> None:
    for _ in range(n):
        with db_engine.begin() as c:
            c.execute(text("SELECT 1"))


def statements(db_engine: Engine, n: int) -> None:
    with db_engine.begin() as c:
        for _ in range(n):
            c.execute(JOINED, {"x": 1259})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--n", type=int, default=3000)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="pbm-pg-"))
    (root / "pg").mkdir()
    pg = start_postgres(root / "pg", root)
    url = next(pg)
    try:
        psycopg_url = url.replace("postgresql://", "postgresql+psycopg://")
        cases: list[tuple[str, Engine, Callable[[Engine, int], None]]] = [
            (
                "transaction, pool_pre_ping",
                create_engine(psycopg_url, pool_pre_ping=True),
                transactions,
            ),
            ("transaction, idle ping", make_db_engine(url), transactions),
        ]
        for t in (None, 5, 0):
            e = make_db_engine(url, connect_args={"prepare_threshold": t})
            cases.append((f"statement, prepare_threshold={t}", e, statements))
        for r in range(args.rounds):
            for name, e, run in cases:
                w, b = timed(e, args.n, run)
                load = os.getloadavg()[0]
                print(
                    f"round {r} {name:<34} worker {w:6.1f} µs  backend {b:6.1f} µs  load {load:.1f}"
                )
    finally:
        next(pg, None)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
