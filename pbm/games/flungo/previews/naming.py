# ruff: noqa: E501 (made-up mail text, kept as the mail shows it)
"""The acknowledgement of an orders mail."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    n = d.names()
    wp = d.will_play()
    return {
        "competition": d.COMP,
        "accepted": True,
        "errors": [],
        "echo": f"captain: {n[1]}\ntoss: bat\nif we are 50 for 3 after 10 overs: {n[0]} bats aggressive",
        "changes": [],
        "squad": d.squad(),
        "team_name": d.team().name,
        "named": True,
        "unnamed": [],
        "version": 2,
        "naming": False,
        "orders_version": 3,
        "standing": "\n".join(wp["lines"]),
        "flags": [
            {
                "line": 6,
                "text": "and tell the tea lady we want scones",
                "reason": "",
                "readings": [],
            }
        ],
        "still_stands": [],
        "kept": [],
        "will_play": wp,
        "deadline": d.DEADLINE,
        "fixture": d.FIXTURE,
        "notes": [],
    }
