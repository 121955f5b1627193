"""A team's report of the stage in which its match was decided."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    report, _ = d.finished_match()
    text, rows = d.table()
    return {
        "competition": d.COMP,
        "stage": report.stage.label,
        "issue": 1,
        "season": [
            "Gunge Giants beat Dundee Cakes by 9 wickets",
            "Chipping Sodbury CC beat Snodge Stars by 31 runs",
        ],
        "table": text,
        "table_rows": rows,
        "champion": None,
        "next": {"label": "Round 2, turn 1", "selection": True},
        "editorial": "The gunge is warm and the pitches are rolled. -- The GM",
        "team_name": d.team().name,
        "match": d.match_ctx(),
        "bye": False,
        "fixture": d.FIXTURE,
        "deadline": d.DEADLINE,
        "will_play": d.will_play(),
        "notes": [],
    }
