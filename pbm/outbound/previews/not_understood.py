"""A mail that names no competition."""

from __future__ import annotations

from typing import Any

from pbm.outbound.previews._data import COMP


def context() -> dict[str, Any]:
    """The made-up context."""
    return {"unknown_code": "DEMOO", "competitions": [COMP], "notes": []}
