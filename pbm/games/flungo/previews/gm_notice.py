"""A note to the GM about a team."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competition": d.COMP,
        "headline": "bob@players.test resigned from Snodge Stars (team 2)",
        "lines": ["The standby list is empty: the team plays on its standing orders."],
        "notes": [],
    }
