"""The answer to a GM command by mail."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "command": "HOLD",
        "line": "HOLD DEMO the pitch is flooded",
        "ok": True,
        "text": "Demo League [DEMO] is held: no stage is played until RELEASE.",
        "notes": [],
    }
