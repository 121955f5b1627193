"""A team's report of the stage in which its match was decided."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        **d.stage_ctx(),
        "editorial": "The gunge is warm and the pitches are rolled. -- The GM",
        "team_name": d.team().name,
        "match": d.match_ctx(),
        "bye": False,
        "fixture": d.FIXTURE,
        "deadline": d.DEADLINE,
        "will_play": d.will_play(),
    }
