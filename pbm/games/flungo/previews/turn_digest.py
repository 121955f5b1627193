"""The GM's digest of a stage."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        **d.stage_ctx(),
        "held": None,
        "status": "running",
        "teams": d.TEAM_ROWS,
        "flags": [{"id": 4, "line": 6, "text": "if Warne gets hammered take him off"}],
        "bounces": [{"address": "bob@players.test", "reason": "550 5.1.1 mailbox unknown"}],
        "dead_letters": [{"id": 17, "from": "bob@players.test"}],
        "next_deadline": d.DEADLINE,
        "deadline_note": None,
        "editorial": "",
    }
