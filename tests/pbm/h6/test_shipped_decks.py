"""The shipped decks are exactly what the full Cricsheet data builds (when the data is present)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbm.games.hitforsix.decks.build import build_decks
from pbm.games.hitforsix.decks.load import DECK_NAMES, deck_file

ROOT = Path(__file__).resolve().parents[3]
# The data is external: ../shared/cricsheet beside the checkout, or wherever PBM_CRICSHEET says
# (a git worktree sits one level deeper than the main checkout).
_BESIDE = [d / "shared" / "cricsheet" for d in (ROOT.parent, ROOT.parent.parent)]
CRICSHEET = Path(
    os.environ.get("PBM_CRICSHEET")
    or next((d for d in _BESIDE if (d / "t20s_json.zip").is_file()), _BESIDE[0])
)


@pytest.mark.slow
@pytest.mark.skipif(
    not (CRICSHEET / "t20s_json.zip").is_file(),
    reason=f"Cricsheet data not present at {CRICSHEET} (external data; set PBM_CRICSHEET)",
)
def test_rebuilding_from_cricsheet_gives_the_shipped_decks() -> None:
    """A full rebuild from ../shared/cricsheet gives each shipped deck, card for card."""
    report = build_decks(CRICSHEET)
    assert set(report.decks) == set(DECK_NAMES)
    for name, built in report.decks.items():
        shipped, build = deck_file(name)
        assert built.build == build, name
        assert built.file == shipped, name
