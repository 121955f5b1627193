"""The answer to HELP from an address that plays only Hit for Six."""

from __future__ import annotations

from typing import Any

from pbm.inbound.builtin import command_rows


def context() -> dict[str, Any]:
    """The made-up context: Hit for Six's commands and HELP, as HELP lists them (the very
    rows, so the preview cannot drift from the commands)."""
    return {"commands": command_rows(False, "hitforsix"), "competitions": [], "notes": []}
