"""The made-up context of h6-refused."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "notes": [],
        "reason": "no",
    }
