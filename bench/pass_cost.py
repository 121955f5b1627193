"""What a pass costs beside its mail: the daemon's CPU a mail when mail comes one at a time
(the polling IMAP door: a pass and a wait's reckoning for every mail) against one pass for
the whole batch (IDLE's half second gathers several), on SQLite, through the daemon's own
``run_once`` and ``_until_due`` with an in-memory mailbox (no IMAP) and a recording sender.

    .venv/bin/python bench/pass_cost.py [--mails 200] [--kind join|naming]

The difference of the two, a mail, is the fixed cost of a pass (the scheduler's pass, the
bulk flush, the next wake and the outbox's next due) that a polled door pays once a mail.
"""

from __future__ import annotations

import argparse
import os
import time

from _services import Bench, join_mails, naming_mails  # type: ignore[import-not-found]

from pbm.daemon import Daemon, _warm_up
from pbm.testing import FakeMailbox, RecordingSender


def _cpu_a_mail(bench: Bench, mails: list[bytes], one_at_a_time: bool) -> tuple[float, float]:
    """CPU seconds a mail of the passes, and of the wait's reckoning after them."""
    mb = FakeMailbox()
    daemon = Daemon(bench.app, RecordingSender(), [mb], max_wait=30)
    passes = until = 0.0
    for batch in [[raw] for raw in mails] if one_at_a_time else [mails]:
        for raw in batch:
            mb.deliver(raw)
        t = time.process_time()
        daemon.run_once()
        passes += time.process_time() - t
        t = time.process_time()
        daemon._until_due()
        until += time.process_time() - t
    assert not mb.inbox
    return passes / len(mails), until / len(mails)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mails", type=int, default=200)
    ap.add_argument("--kind", choices=["join", "naming"], default="join")
    args = ap.parse_args()
    _warm_up()
    load = os.getloadavg()[0]
    rows = []
    for one in (True, False, True, False):
        bench = Bench(competitions=-(-2 * args.mails // 64), teams=64)
        try:
            joins = join_mails(bench, 2 * args.mails)
            if args.kind == "join":
                mails = [raw for _, raw in joins]
                warm, timed = mails[: args.mails], mails[args.mails :]
                _cpu_a_mail(bench, warm, one_at_a_time=False)
            else:
                _cpu_a_mail(bench, [raw for _, raw in joins], one_at_a_time=False)
                timed = [raw for _, raw in naming_mails(bench)][: args.mails]
            rows.append((one, _cpu_a_mail(bench, timed, one_at_a_time=one)))
        finally:
            bench.close()
    print(f"{args.kind}, {args.mails} mails, load {load:.1f} -> {os.getloadavg()[0]:.1f}")
    print(f"  {'':<34} {'passes':>8} {'wait':>8}  (ms CPU a mail)")
    for one, (cpu, until) in rows:
        label = "a pass a mail (polled)" if one else "one pass for all (IDLE's batch)"
        print(f"  {label:<34} {cpu * 1000:8.2f} {until * 1000:8.2f}")


if __name__ == "__main__":
    main()
