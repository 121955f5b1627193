"""The fuzz harness's CI slice: seeded random mail through store and process on SQLite."""

from __future__ import annotations

import os
import random
from datetime import date
from pathlib import Path

import pytest

from tests.fuzz.harness import make_case, run

#: The CI slice: about 25 s on a 2-core machine; ``bench/fuzz.py`` runs more by hand.
CASES = 1500
#: Each day's run fuzzes a new slice (so CI runs add up to many distinct cases); a failure
#: prints its seed, and ``PBM_FUZZ_SEED=N`` replays it.
SEED = int(os.environ.get("PBM_FUZZ_SEED") or date.today().strftime("%Y%m%d"))


@pytest.mark.slow
def test_fuzzed_mail_is_always_handled(
    tmp_path: Path, record_property: pytest.RecordProperty
) -> None:
    """Every generated or mutated mail is stored and ends handled (applied, rejected or
    ignored) or dead-lettered with its GM alert; nothing is left pending, the daemon's passes
    run through, and every queued reply is sent. The count is reported."""
    report = run(tmp_path, seed=SEED, cases=CASES)
    record_property("fuzz_cases", report.cases)
    print(f"\nfuzz: {report.cases} cases (seed {SEED}), {dict(report.outcomes)}")
    assert report.breaches == [], f"replay with PBM_FUZZ_SEED={SEED}"
    assert report.cases == CASES
    assert report.outcomes["rejected"] and report.outcomes["ignored"]  # both paths exercised
    assert report.outcomes.get("shunted", 0) == 0, report.outcomes  # no crash, even caught


def test_cases_are_reproducible_from_their_seed() -> None:
    """The same seed gives the same mails (a failing case can be replayed from its seed)."""
    a, b = random.Random(7), random.Random(7)
    assert [make_case(a) for _ in range(50)] == [make_case(b) for _ in range(50)]
