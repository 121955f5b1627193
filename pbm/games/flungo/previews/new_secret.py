"""A new secret, when the GM reissues one."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competition": d.COMP,
        "team_name": d.team().name,
        "secret": "W7KD-MMQ2-HZ9P-4TXA",
        "notes": [],
    }
