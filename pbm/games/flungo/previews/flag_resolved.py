"""The GM's reading of a sentence pbm could not read."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    n = d.names()
    return {
        "competition": d.COMP,
        "team_name": d.team().name,
        "line": 7,
        "text": f"if it rains let {n[0]} have a bowl",
        "resolution": f"if the weather is Rain: {n[0]} bowls",
        "version": 4,
        "note": "Read as a conditional order; it fires only on a rainy day.",
        "notes": [],
    }
