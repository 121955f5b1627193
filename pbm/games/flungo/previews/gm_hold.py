"""The GM's alert that a stage is held."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competition": d.COMP,
        "stage": "Round 2, turn 1",
        "reason": "3 of 4 teams sent nothing for two stages in a row",
        "teams": d.TEAM_ROWS,
        "dead_letters": [{"id": 17, "from": "bob@players.test"}],
        "notes": [],
    }
