"""CI's slice of the fault harness: a few trials of SIGKILL at random moments on three real
``pbm serve`` processes sharing one PostgreSQL database, every invariant checked after each.

The seed differs per run and is printed; replay a failure with ``PBM_FAULTS_SEED=<seed>``
(here) or ``bench/faults.py --seed <seed>`` (the long run by hand, 500 trials).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests.faults.harness import run
from tests.pbm.conftest import fresh_pg_database

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: At most this many trials, none started after the budget (about a minute of CI) once
#: MIN_TRIALS are done (enough to play a competition into its first resolved stage).
TRIALS = 20
BUDGET_SECONDS = 45.0
MIN_TRIALS = 4


def test_random_sigkills_break_no_invariant(pg_url: str, tmp_path: Path) -> None:
    """Trials of kill-restart-settle-check: every accepted mail stored and answered once, every
    stage resolved once from its frozen inputs, no duplicate seat, the outbox drained, no dead
    letter; and each trial killed a worker."""
    seed = int(os.environ.get("PBM_FAULTS_SEED") or random.SystemRandom().randrange(2**32))
    print(f"fault harness seed {seed} (replay: PBM_FAULTS_SEED={seed})")
    report = run(
        fresh_pg_database(pg_url),
        tmp_path,
        trials=TRIALS,
        workers=3,
        seed=seed,
        budget_seconds=BUDGET_SECONDS,
        min_trials=MIN_TRIALS,
    )
    print("\n".join(report.lines()))
    assert report.breaches == [], f"seed {seed}: " + "\n".join(report.lines())
    assert report.trials >= MIN_TRIALS, f"seed {seed}: only {report.trials} trials"
    assert report.mails > 0 and report.turns_done > 0, report.lines()
    assert sum(report.kills.values()) == report.trials
