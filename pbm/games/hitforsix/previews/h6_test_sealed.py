"""The made-up context of h6-test-sealed."""

from __future__ import annotations

from typing import Any

from pbm.games.hitforsix.previews._data import H6CARD


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "wire": "K7PQ2M",
        "over": 1,
        "seat": 1,
        "receipt": "ab" * 32,
        "decisions": "0,1",
        "notes": ["window 2: X is not held"],
        "played": ["window 1: dropped V Kohli (0)"],
        "xi": [H6CARD],
        "came_in": ["V Kohli (11)"],
        "deadline_named": False,
        "receipt_text": "h6-receipt:K7PQ2M:1:1:0,1:<nonce>",
    }
