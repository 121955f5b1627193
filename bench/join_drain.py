"""A JOIN burst handled in this process, CPU-timed: the CPU ms a JOIN costs the pipeline and
the statements it runs, with no IMAP door and no worker process between (for A/B runs of two
trees, alternated: run it from each tree with ``PYTHONPATH`` set to it).

    .venv/bin/python bench/join_drain.py [--messages 256] [--warm 40]
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from _services import Bench, join_mails  # type: ignore[import-not-found]
from sqlalchemy import event


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=256, help="JOINs (default 256)")
    ap.add_argument("--warm", type=int, default=40, help="handled before the clock (default 40)")
    ap.add_argument(
        "--batch",
        type=int,
        default=None,
        help="mails a commit, as the daemon's pass batches them (default: one, process_next)",
    )
    args = ap.parse_args()
    bench = Bench(competitions=-(-args.messages // 64), teams=64)
    try:
        inbound = bench.app.inbound
        inbound.store_many([raw for _, raw in join_mails(bench, args.messages)], "imap")
        after = 0
        for _ in range(args.warm):
            got = inbound.process_next(after)
            assert got is not None
            after = got[0]
        statements = [0]

        def count(*_: Any) -> None:
            statements[0] += 1

        event.listen(bench.app.db_engine, "before_cursor_execute", count)
        handled = 0
        t = time.process_time()
        if args.batch is None:
            while (got := inbound.process_next(after)) is not None:
                after, handled = got[0], handled + 1
        else:
            while done := inbound.process_pending(after, mails=args.batch):
                after, handled = done[-1][0], handled + len(done)
        cpu = (time.process_time() - t) / handled * 1000
        print(
            f"{cpu:.3f} CPU ms a JOIN over {handled}, {statements[0] / handled:.1f} statements "
            f"a JOIN (BEGIN included); load {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
        )
    finally:
        bench.close()


if __name__ == "__main__":
    main()
