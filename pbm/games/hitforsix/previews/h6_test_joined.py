"""The made-up context of h6-test-joined."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "notes": [],
        "wire": "K7PQ2M",
        "seat": 1,
        "seats": 3,
        "target": 20,
        "deck": "t20i",
        "ticket": "AAAA-BBBB-CCCC-DDDD",
        "over_hours": 48,
    }
