"""The fault-injection harness by hand: N trials of SIGKILL at a random moment on several real
``pbm serve`` processes sharing a throwaway PostgreSQL, the invariants checked after each.

    nice .venv/bin/python bench/faults.py --trials 500 --workers 3 [--seed N] [--window 1.5]

Prints the counts: trials, kills by what the victim was doing, mails, stages resolved,
duplicates within the send lease, invariant breaches (should be 0). The seed replays the same
choices (victims, delays, mail); timings differ run to run. See tests/faults/harness.py and
docs/ops/operations.md ("The fault harness").
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as "python bench/faults.py" from anywhere
    sys.path.insert(0, str(ROOT))

from tests.faults.harness import run  # noqa: E402
from tests.services import start_postgres  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None, help="default: a fresh one, printed")
    ap.add_argument("--window", type=float, default=1.5, help="the kill comes U(0, window) s in")
    ap.add_argument("--keep-going", action="store_true", help="do not stop at the first breach")
    ap.add_argument(
        "--minutes", type=float, default=None, help="start no trial after this long (a budget)"
    )
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {seed} (replay: --seed {seed}); {args.workers} workers, {args.trials} trials")
    root = Path(tempfile.mkdtemp(prefix="pbm-faults-"))
    (root / "pg").mkdir()
    pg = start_postgres(root / "pg", root)
    url = next(pg)
    try:
        report = run(
            url,
            root,
            trials=args.trials,
            workers=args.workers,
            seed=seed,
            window=args.window,
            say=lambda line: print(line, flush=True),
            stop_on_breach=not args.keep_going,
            budget_seconds=args.minutes * 60 if args.minutes else None,
        )
    finally:
        next(pg, None)
    print("\n".join(report.lines()))
    if report.breaches:
        print(f"logs kept in {root}")
        return 1
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
