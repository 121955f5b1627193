"""The GM's note that a competition was made."""

from __future__ import annotations

from typing import Any

from pbm.games.flungo.previews import _data as d


def context() -> dict[str, Any]:
    """The made-up context."""
    return {"problem": None, "competition": d.COMP, "address": "pbm+DEMO@pbm.test", "notes": []}
