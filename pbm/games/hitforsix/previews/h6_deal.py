"""The made-up context of h6-deal."""

from __future__ import annotations

from typing import Any

from pbm.games.hitforsix.previews._data import H6_EXAMPLES
from pbm.games.hitforsix.solo import deal_game


def context() -> dict[str, Any]:
    """The made-up context, with a real deal's hand (eleven cards and their pictures)."""
    return {
        "deck": "t20i",
        "seed": 1,
        "rule": "Maximums",
        "window": 1,
        "cap": 3,
        "hint": "window 1: drop up to 3",
        "hand": deal_game(20261204, "t20i").ctx["hand"],
        "came_in": [],
        "ghost": None,
        "game": "H6GAME t20i 1 maximums -",
        "note": "",
        "errors": ["line 1: no"],
        "examples": H6_EXAMPLES,
        "notes": ["Your answer was read as window 1's answer"],
        "daily": None,
    }
