"""JOIN when the competition is full."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {"competition": d.COMP, "outcome": "full", "team_name": "", "notes": []}
