"""The GM turned a name down."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competition": d.COMP,
        "team_name": d.team().name,
        "old": "My Neighbour Dave",
        "reason": "never on TV or radio, as far as the GM can find",
        "naming_deadline": d.DEADLINE,
        "notes": [],
    }
