"""The made-up context of h6-test-reveal."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "notes": [],
        "wire": "K7PQ2M",
        "over": 1,
        "rule": "Wickets",
        "winner": 1,
        "runs": 4,
        "target": 10,
        "seats": [
            {
                "seat": 1,
                "decisions": "0",
                "how": "window",
                "nonce": "0" * 32,
                "receipt": "ab" * 32,
                "verified": True,
                "grade": "75.0",
                "played": ["window 1: dropped V Kohli (0)"],
                "xi": "V Kohli (0)",
                "came_in": "X (11)",
                "receipt_text": "h6-receipt:K7PQ2M:12:1:0,1,2/11,12/13:" + "0" * 32,
            }
        ],
        "standings": [{"seat": 1, "wickets": 1, "runs": 4, "overs_won": 1}],
        "champion": None,
        "replay_code": "Ag" + "A" * 30,
        "judged_by": "Maximums",
        "you": 1,
    }
