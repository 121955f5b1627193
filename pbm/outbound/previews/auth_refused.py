"""Orders without the right secret."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {"reason": "the SECRET line does not match your team's secret", "notes": []}
