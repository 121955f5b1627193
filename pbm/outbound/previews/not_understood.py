"""A mail that names no competition."""

from __future__ import annotations

from typing import Any

COMP = {
    "code": "DEMO",
    "name": "Demo League",
    "format": "Twenty20",
    "teams": 4,
    "naming_deadline": "2027-01-15 18:00 UTC",
}


def context() -> dict[str, Any]:
    """The made-up context."""
    return {"unknown_code": "DEMOO", "competitions": [COMP], "notes": []}
