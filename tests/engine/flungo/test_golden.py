"""Golden transcripts: the exact scorecard and ball log of fixed matches.

Stored games are replayed from their seeds, so any change to what the engine rolls or decides
must be deliberate. Regenerate after an intended change with
``PBM_UPDATE_GOLDEN=1 pytest tests/engine/flungo/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.flungo import Format, ball_log_text, scorecard_text
from pbm.cli.sim import run_sim

GOLDEN = Path(__file__).parent / "golden"
CASES = [(Format.T20, 1), (Format.HUNDRED, 2), (Format.FIFTY, 3)]


@pytest.mark.parametrize(("fmt", "seed"), CASES)
def test_golden_transcript(fmt: Format, seed: int) -> None:
    """``pbm sim``'s match for this format and seed is exactly the stored transcript."""
    state = run_sim(fmt, seed)
    text = scorecard_text(state) + "\n" + ball_log_text(state)
    path = GOLDEN / f"{fmt.value}_seed{seed}.txt"
    if os.environ.get("PBM_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
