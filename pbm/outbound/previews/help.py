"""The answer to HELP."""

from __future__ import annotations

from typing import Any

from pbm.outbound.previews._data import COMP


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competitions": [COMP],
        "commands": [
            {
                "word": "JOIN",
                "usage": "JOIN",
                "help": "take a team in the competition",
                "gm": False,
            },
            {
                "word": "STATUS",
                "usage": "STATUS",
                "help": "where things stand and your orders",
                "gm": False,
            },
            {"word": "TABLE", "usage": "TABLE", "help": "the standings", "gm": False},
            {"word": "SQUAD", "usage": "SQUAD", "help": "your squad and its fitness", "gm": False},
            {
                "word": "ZONE",
                "usage": "ZONE <Area/City>",
                "help": "show deadlines in your time zone too",
                "gm": False,
            },
        ],
        "notes": [],
    }
