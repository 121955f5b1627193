"""The made-up context of h6-test-over."""

from __future__ import annotations

from typing import Any

from pbm.games.hitforsix.previews._data import H6_EXAMPLES, H6CARD


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "wire": "K7PQ2M",
        "over": 1,
        "seat": 1,
        "rule": "Wickets",
        "window": 1,
        "cap": 3,
        "hand": [H6CARD],
        "came_in": ["V Kohli"],
        "deadline": "2026-12-03 09:00 UTC",
        "errors": [],
        "seats": 3,
        "examples": H6_EXAMPLES,
        "notes": [],
    }
