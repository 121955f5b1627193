"""The welcome: a team, its secret and its squad."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competition": d.COMP,
        "seat": 1,
        "team_name": "Team 1",
        "secret": "QN4E-YSUU-PNSY-R3AT",
        "squad": d.squad(),
        "notes": [],
    }
