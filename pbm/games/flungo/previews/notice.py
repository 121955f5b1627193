"""A notice to every team."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "competition": d.COMP,
        "title": "A team needs a manager: Snodge Stars",
        "lines": ["To take the team, mail JOIN with [DEMO] in the subject."],
        "notes": [],
    }
