"""A mail pbm would not read."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {"reason": "your mail has 9999 lines of text; pbm reads at most 400", "notes": []}
