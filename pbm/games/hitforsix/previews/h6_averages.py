"""The made-up context of h6-averages."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "notes": [],
        "name": "Ann",
        "number": "012345678901",
        "deck": "t20i",
        "day": "2026-12-01",
        "grade": "80.0",
        "rank": 1,
        "of": 3,
        "season": "2026-12",
        "season_best": "80.0",
        "season_rank": 2,
    }
