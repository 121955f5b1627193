"""The made-up context of h6-test-reminder."""

from __future__ import annotations

from typing import Any

from pbm.games.hitforsix.previews._data import H6_EXAMPLES, H6CARD


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "notes": [],
        "wire": "K7PQ2M",
        "over": 1,
        "seat": 1,
        "deadline": "soon",
        "rule": "Wickets",
        "came_in": [],
        "hand": [H6CARD],
        "window": 2,
        "cap": 2,
        "examples": H6_EXAMPLES,
    }
