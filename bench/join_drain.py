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
    ap.add_argument(
        "--ab",
        default="",
        help="batch sizes to alternate chunk by chunk in this one process (e.g. 1,16): the "
        "machine's load falls on each alike",
    )
    ap.add_argument("--chunk", type=int, default=32, help="mails a chunk of --ab (default 32)")
    ap.add_argument(
        "--no-kept",
        action="store_true",
        help="a batch keeps no competition (each mail reads its row): what the keeping pays",
    )
    args = ap.parse_args()
    if args.no_kept:
        from pbm.inbound import pipeline

        pipeline._KeptCompetitions.get = lambda _self, _code: None  # type: ignore[method-assign]
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
        if args.ab:
            _interleaved(inbound, after, [int(b) for b in args.ab.split(",")], args.chunk)
            return
        handled = 0
        t = time.process_time()
        if args.batch is None:
            while (got := inbound.process_next(after)) is not None:
                after, handled = got[0], handled + 1
        else:
            inbound.batch_seconds = 60.0  # bounded by the mails alone: the bench's own figure
            while done := inbound.process_pending(after, mails=args.batch):
                after, handled = done[-1][0], handled + len(done)
        cpu = (time.process_time() - t) / handled * 1000
        print(
            f"{cpu:.3f} CPU ms a JOIN over {handled}, {statements[0] / handled:.1f} statements "
            f"a JOIN (BEGIN included); load {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
        )
    finally:
        bench.close()


def _interleaved(inbound: Any, after: int, sizes: list[int], chunk: int) -> None:
    """Chunks of ``chunk`` mails handled at each batch size in turn until the mail runs out;
    the CPU ms a JOIN of each size over all its chunks."""
    inbound.batch_seconds = 60.0
    cpu = dict.fromkeys(sizes, 0.0)
    mails = dict.fromkeys(sizes, 0)
    while True:
        for size in sizes:
            handled = 0
            t = time.process_time()
            while handled < chunk and (
                done := inbound.process_pending(after, mails=min(size, chunk - handled))
            ):
                after, handled = done[-1][0], handled + len(done)
            cpu[size] += time.process_time() - t
            mails[size] += handled
            if handled < chunk:
                load = " ".join(f"{x:.1f}" for x in os.getloadavg())
                for s in sizes:
                    print(
                        f"batch {s:3d}: {cpu[s] / max(mails[s], 1) * 1000:.3f} CPU ms a JOIN "
                        f"over {mails[s]}; load {load}"
                    )
                return


if __name__ == "__main__":
    main()
