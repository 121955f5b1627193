"""Made-up contexts for every mail kind of Hit for Six: one module a kind (named as
the kind, ``-`` as ``_``), each with ``context()``, for ``pbm mail preview`` and the tests that
read every mail as a player sees it."""

from __future__ import annotations

from typing import Any

from pbm.outbound.previews import contexts_in

__all__ = ["contexts"]


def contexts() -> dict[str, dict[str, Any]]:
    """Every kind's made-up context, by kind (sent, as the game's mail is, from
    :data:`pbm.games.hitforsix.mail.SENDER`: ``pbm mail preview`` names it)."""
    return contexts_in(__name__, __path__)
