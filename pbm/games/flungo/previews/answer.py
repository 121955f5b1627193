"""The answer to TABLE: the standings."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.mail_tables import STANDINGS_HEADERS
from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    text, rows = d.table()
    return {
        "competition": d.COMP,
        "title": "The table",
        "sections": [
            {
                "heading": "Standings",
                "text": text,
                "table": {
                    "headers": STANDINGS_HEADERS,
                    "rows": rows,
                    "numeric": [0, 2, 3, 4, 5, 6, 7],
                },
            }
        ],
        "will_play": None,
        "deadline": "",
        "notes": [],
    }
