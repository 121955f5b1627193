"""The made-up context of h6-result."""

from __future__ import annotations

from typing import Any

from pbm.games.hitforsix.previews._data import H6CARD


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "deck": "t20i",
        "rule": "The Toss",
        "judged_by": "Wickets",
        "revealed": True,
        "xi": [H6CARD],
        "score": "1.00",
        "grade": "50.0",
        "beats": 1,
        "ties": 0,
        "resemblance": {"name": "V Kohli", "country": "India"},
        "best": ["V Kohli"],
        "code": "A" * 32,
        "ghost": {"grade": "40.0", "verdict": "You beat the ghost."},
        "line": None,
        "daily": "2026-12-01",
        "notes": [],
        "how": "window",
    }
