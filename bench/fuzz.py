"""Run the fuzz harness longer than CI does: ``python bench/fuzz.py --cases 100000``.

Runs in slices of ``--slice`` cases (a fresh SQLite database each, seeds counting up from
``--seed``) and prints the running count, the outcomes and any breach of the invariants
(see ``tests/fuzz/harness.py``). Exit status 1 if an invariant broke.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.harness import run


def main() -> int:
    """Run the slices and print the count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--slice", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import logging

    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))
    logging.disable(logging.CRITICAL)
    total, outcomes, breaches = 0, Counter[str](), []
    start = time.perf_counter()
    seed = args.seed
    while total < args.cases:
        n = min(args.slice, args.cases - total)
        with tempfile.TemporaryDirectory() as tmp:
            report = run(Path(tmp), seed, n)
        total += report.cases
        outcomes.update(report.outcomes)
        breaches += report.breaches
        rate = total / (time.perf_counter() - start)
        print(f"{total} cases (seed {seed}), {rate:.0f}/s, {dict(outcomes)}", flush=True)
        seed += 1
    for b in breaches[:50]:
        print("BREACH", b)
    print(f"fuzz: {total} cases run, {len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    raise SystemExit(main())
