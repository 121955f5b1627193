"""The answer to HELP."""

from __future__ import annotations

from typing import Any

from pbm.inbound.builtin import command_rows
from pbm.outbound.previews._data import COMP


def context() -> dict[str, Any]:
    """The made-up context: a newcomer's HELP (every player's command of both games, the
    very rows HELP lists, and the competitions open to join)."""
    return {"competitions": [COMP], "commands": command_rows(False), "notes": []}
