"""A sender over the day's limit."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {"limit": 30, "notes": []}
