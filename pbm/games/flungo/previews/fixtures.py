# ruff: noqa: E501 (made-up mail text, kept as the mail shows it)
"""The draw, mailed to each team when joining closes."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competition": d.COMP,
        "team_name": d.team().name,
        "fixtures": [
            "Round 1: Gunge Giants v Dundee Cakes at Backward Point Plateau (pitch Nice pitch for batting; weather Normal)",
            "Round 1: Snodge Stars v Chipping Sodbury CC at The Gunge Bowl (pitch Average; weather Sunny)",
            "Round 2: Gunge Giants v Chipping Sodbury CC at Silly Mid-On Meadow (pitch Green top; weather Overcast)",
            "Round 2: Dundee Cakes v Snodge Stars at Reverse Sweep Ridge (pitch Dusty; weather Hot)",
        ],
        "byes": [],
        "fixture": "Round 1: Gunge Giants v Dundee Cakes at Backward Point Plateau (pitch Nice pitch for batting; weather Normal), turns 1-4",
        "stage": "Round 1: selection and toss",
        "deadline": d.DEADLINE,
        "will_play": d.will_play(),
        "notes": [],
    }
