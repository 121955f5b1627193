"""The reminder a day before a deadline."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competition": d.COMP,
        "team_name": d.team().name,
        "stage": "Round 2, turn 1",
        "deadline": d.DEADLINE,
        "fixture": d.FIXTURE,
        "will_play": d.will_play(),
        "notes": [],
    }
