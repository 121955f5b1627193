"""Made-up contexts for every Cosmic Celebrity Cricket mail kind: one module a kind (named as
the kind, ``-`` as ``_``), each with ``context()``, for ``pbm mail preview`` and the tests that
read every mail as a player sees it. The matches are really played (the demo season), so a
scorecard or table looks as a real one does."""

from __future__ import annotations

from typing import Any

from pbm.outbound.previews import contexts_in

__all__ = ["contexts"]


def contexts() -> dict[str, dict[str, Any]]:
    """Every kind's made-up context, by kind."""
    return contexts_in(__name__, __path__)
